#include "core/analysis/svg/svg.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>

#include "core/analysis/svg/svg_scale.hpp"
#include "core/results/printable.hpp"

namespace mpiarena::svg {

namespace {

void frame(std::ostringstream& o, const std::string& title, int w, int h) {
  o << "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w
    << "\" height=\"" << h << "\" viewBox=\"0 0 " << w << " " << h
    << "\" role=\"img\"><title>" << escape(title) << "</title>"
    << "<text class=\"ctitle\" x=\"" << kLeft << "\" y=\"20\">" << escape(title)
    << "</text>";
}

std::string figure(const std::string& svg, const std::string& caption) {
  return "<figure>" + svg +
         (caption.empty()
              ? ""
              : "<figcaption>" + escape(caption) + "</figcaption>") +
         "</figure>\n";
}

// A legend entry: its name (wrapped onto as many lines as it takes, never
// cut), its colour, and how its series is drawn.
struct Entry {
  std::string name;
  int colour = 0;
  bool dashed = false, line = true;
};

// The width of a character of DejaVu Sans, in em (its advance, rounded
// up to a few classes): a legend line's width is their sum.
double char_em(unsigned char c) {
  if (c >= 0x80) return (c & 0xC0) == 0x80 ? 0 : 1;  // a UTF-8 character
  if (std::strchr("ijl.,:;'|! ", c)) return 0.32;
  if (std::strchr("()[]{}-ftr/", c)) return 0.42;
  if (std::strchr("mwMW@%", c)) return 1.0;
  if (std::isupper(c) || std::strchr("=+<>~#&", c)) return 0.84;
  return 0.64;  // the other lower-case letters, digits, '_'
}

// One line of the legend's margin (kRight - 34 pixels) holds this many em
// of 11 px text, with a little to spare.
constexpr double kLegendEm = 14.5;
constexpr int kEntryGap = 16, kLineGap = 13;

// The lines of a legend name: each at most kLegendEm wide, broken after
// the last ',' or ' ' that leaves a line a third that wide, else after the
// last '[', ']', '@', '=' or '_', else where the line is full (never inside
// a UTF-8 character); nothing is dropped, so the lines read back the name.
std::vector<std::string> legend_lines(const std::string& name) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  do {
    double em = 0;
    std::size_t end = start, soft = 0, hard = 0;
    while (end < name.size() && em + char_em(name[end]) <= kLegendEm) {
      em += char_em(name[end++]);
      if (em < kLegendEm / 3) continue;
      if (std::strchr(", ", name[end - 1])) soft = end;
      if (std::strchr("[]@=_", name[end - 1])) hard = end;
    }
    if (end < name.size()) end = soft ? soft : hard ? hard : end;
    while (end > start + 1 && end < name.size() &&
           (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80)
      --end;
    lines.push_back(name.substr(start, end - start));
    start = end;
  } while (start < name.size());
  return lines;
}

// The height the legend takes below kTop.
int legend_height(const std::vector<Entry>& entries) {
  int h = 6;
  for (const Entry& e : entries)
    h += kEntryGap +
         kLineGap * (static_cast<int>(legend_lines(e.name).size()) - 1);
  return h;
}

void legend(std::ostringstream& o, int w, const std::vector<Entry>& entries) {
  int y = kTop + 6;
  for (const Entry& e : entries) {
    const int x = w - kRight + 10;
    if (e.line)
      o << "<line x1=\"" << x << "\" y1=\"" << y << "\" x2=\"" << x + 18
        << "\" y2=\"" << y << "\" stroke=\"" << colour(e.colour)
        << "\" stroke-width=\"2.5\""
        << (e.dashed ? " stroke-dasharray=\"5 3\"" : "") << "/>";
    else
      o << "<circle cx=\"" << x + 9 << "\" cy=\"" << y << "\" r=\"3\" fill=\""
        << colour(e.colour) << "\"/>";
    const std::vector<std::string> lines = legend_lines(e.name);
    o << "<text class=\"legend\" x=\"" << x + 24 << "\" y=\"" << y + 4 << "\">";
    for (std::size_t k = 0; k < lines.size(); ++k)
      o << "<tspan x=\"" << x + 24 << "\""
        << (k ? " dy=\"" + std::to_string(kLineGap) + "\"" : std::string())
        << ">" << escape(lines[k]) << "</tspan>";
    o << "<title>" << escape(e.name) << "</title></text>";
    y += kEntryGap + kLineGap * static_cast<int>(lines.size() - 1);
  }
}

}  // namespace

Point::Point() : lo(kNaN), hi(kNaN) {}
Point::Point(double x_, double y_) : x(x_), y(y_), lo(kNaN), hi(kNaN) {}

std::string escape(const std::string& raw) {
  // Control characters and U+FFFE/U+FFFF are no XML, even escaped: spelt
  // out first (printable.hpp).
  const std::string text = printable(raw);
  std::string out;
  out.reserve(text.size());
  for (char c : text) switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  return out;
}

const char* colour(int i) {
  static const char* const kPalette[] = {
      "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return kPalette[((i % 10) + 10) % 10];
}

namespace {

// The extent of the points drawable on the chart's scales: [x0, x1] and
// [y0, y1] (bands included); `dropped` counts the points not drawable.
struct Extent {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  std::size_t dropped = 0, kept = 0;
};
Extent extent_of(const LineChart& c) {
  Extent e;
  for (const Series& s : c.series)
    for (const Point& p : s.points) {
      if (!usable(p.x, c.x.log) || !usable(p.y, c.y.log)) {
        ++e.dropped;
        continue;
      }
      ++e.kept;
      e.x0 = std::min(e.x0, p.x);
      e.x1 = std::max(e.x1, p.x);
      for (double v : {p.y, p.lo, p.hi})
        if (usable(v, c.y.log)) {
          e.y0 = std::min(e.y0, v);
          e.y1 = std::max(e.y1, v);
        }
    }
  return e;
}

// The grid, the ticks and the axis labels of a line chart whose plot area
// ends at (pw, ph).
void draw_axes(std::ostringstream& o, const LineChart& c, const Scale& sx,
               const Scale& sy, int pw, int ph) {
  for (double v : ticks(sx, c.x.integers)) {
    const double p = sx.px(v);
    o << "<line class=\"grid\" x1=\"" << num(p) << "\" y1=\"" << kTop
      << "\" x2=\"" << num(p) << "\" y2=\"" << ph
      << "\"/><text class=\"tick\" x=\"" << num(p) << "\" y=\"" << ph + 15
      << "\" text-anchor=\"middle\">"
      << escape(c.x.format ? c.x.format(v) : num(v)) << "</text>";
  }
  for (double v : ticks(sy, false)) {
    const double p = sy.px(v);
    o << "<line class=\"grid\" x1=\"" << kLeft << "\" y1=\"" << num(p)
      << "\" x2=\"" << pw << "\" y2=\"" << num(p)
      << "\"/><text class=\"tick ytick\" x=\"" << kLeft - 6 << "\" y=\""
      << num(p + 4) << "\" text-anchor=\"end\">"
      << escape(c.y.format ? c.y.format(v) : num(v)) << "</text>";
  }
  o << "<text class=\"axis\" x=\"" << (kLeft + pw) / 2 << "\" y=\""
    << ph + kBottom - 12 << "\" text-anchor=\"middle\">" << escape(c.x.label)
    << "</text><text class=\"axis\" transform=\"translate(14,"
    << (kTop + ph) / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
    << escape(c.y.label) << "</text>";
}

// The legend's entries: each series with a point to draw.
std::vector<Entry> legend_entries(const LineChart& c) {
  std::vector<Entry> out;
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const Series& s = c.series[i];
    const int ci = s.colour >= 0 ? s.colour : static_cast<int>(i);
    if (s.legend &&
        std::any_of(s.points.begin(), s.points.end(), [&](const Point& p) {
          return usable(p.x, c.x.log) && usable(p.y, c.y.log);
        }))
      out.push_back({s.name, ci, s.dashed || ci >= 10, s.line});
  }
  return out;
}

// Series `i` of the chart: its bands, its line and its dots.
void draw_series(std::ostringstream& o, const LineChart& c, std::size_t i,
                 const Scale& sx, const Scale& sy) {
  auto fmt = [&](const Axis& a, double v) {
    return a.format ? a.format(v) : num(v);
  };
  const Series& s = c.series[i];
  const int ci = s.colour >= 0 ? s.colour : static_cast<int>(i);
  const char* col = colour(ci);
  const bool dash = s.dashed || ci >= 10;
  std::vector<Point> pts;
  for (const Point& p : s.points)
    if (usable(p.x, c.x.log) && usable(p.y, c.y.log)) pts.push_back(p);
  std::sort(pts.begin(), pts.end(),
            [](const Point& a, const Point& b) { return a.x < b.x; });
  if (pts.empty()) return;
  o << "<g class=\"series\">";
  for (const Point& p : pts)
    if (usable(p.lo, c.y.log) && usable(p.hi, c.y.log))
      o << "<line class=\"mark band\" x1=\"" << num(sx.px(p.x)) << "\" y1=\""
        << num(sy.px(p.lo)) << "\" x2=\"" << num(sx.px(p.x)) << "\" y2=\""
        << num(sy.px(p.hi)) << "\" stroke=\"" << col << "\"/>";
  if (s.line && pts.size() > 1) {
    o << "<path class=\"mark line\" d=\"";
    for (std::size_t k = 0; k < pts.size(); ++k)
      o << (k ? " L" : "M") << num(sx.px(pts[k].x)) << ","
        << num(sy.px(pts[k].y));
    o << "\" stroke=\"" << col << "\""
      << (dash ? " stroke-dasharray=\"5 3\"" : "") << "/>";
  }
  for (const Point& p : pts) {
    if (!s.markers && s.line && pts.size() > 1) continue;
    const std::string tip =
        p.tip.empty() ? s.name + ": " + fmt(c.x, p.x) + ", " + fmt(c.y, p.y)
                      : p.tip;
    o << "<circle class=\"mark dot\" cx=\"" << num(sx.px(p.x)) << "\" cy=\""
      << num(sy.px(p.y)) << "\" r=\"3\" fill=\"" << col << "\"><title>"
      << escape(tip) << "</title></circle>";
    if (!p.flag.empty())
      o << "<circle class=\"mark flag " << (p.flag == "up" ? "up" : "down")
        << "\" cx=\"" << num(sx.px(p.x)) << "\" cy=\"" << num(sy.px(p.y))
        << "\" r=\"7\"><title>" << escape(tip) << "</title></circle>";
    if (!p.step.empty())
      o << "<rect class=\"mark step " << (p.step == "up" ? "up" : "down")
        << "\" x=\"" << num(sx.px(p.x) - 9) << "\" y=\"" << num(sy.px(p.y) - 9)
        << "\" width=\"18\" height=\"18\"><title>" << escape(tip)
        << "</title></rect>";
  }
  o << "</g>";
}

}  // namespace

std::string render(const LineChart& c) {
  Scale sx{c.x.log, c.x.base}, sy{c.y.log, c.y.base};
  Extent e = extent_of(c);
  std::ostringstream o;
  // Taller than asked when the legend's names take more lines than fit.
  const std::vector<Entry> entries = legend_entries(c);
  const int height = std::max(c.height, kTop + legend_height(entries) + 4);
  frame(o, c.title, c.width, height);
  const int pw = c.width - kRight, ph = height - kBottom;
  o << "<rect class=\"plot\" x=\"" << kLeft << "\" y=\"" << kTop
    << "\" width=\"" << pw - kLeft << "\" height=\"" << ph - kTop << "\"/>";
  std::string caption = c.caption;
  if (e.dropped)
    caption +=
        std::string(caption.empty() ? "" : " ") + "(" +
        std::to_string(e.dropped) +
        " point(s) not drawn: zero, negative or not finite on this scale)";
  if (e.kept == 0) {
    o << "<text class=\"empty\" x=\"" << (kLeft + pw) / 2 << "\" y=\""
      << (kTop + ph) / 2 << "\">no point to draw</text></svg>";
    return figure(o.str(), caption);
  }
  fit_domain(sx, e.x0, e.x1, c.x.integers);
  fit_domain(sy, e.y0, e.y1, false);
  sx.p0 = kLeft;
  sx.p1 = pw;
  sy.p0 = ph;
  sy.p1 = kTop;
  draw_axes(o, c, sx, sy, pw, ph);
  for (std::size_t i = 0; i < c.series.size(); ++i)
    draw_series(o, c, i, sx, sy);
  legend(o, c.width, entries);
  o << "</svg>";
  return figure(o.str(), caption);
}

std::string render(const StackedBars& b) {
  std::vector<Entry> entries;
  for (std::size_t s = 0; s < b.stack_names.size(); ++s)
    entries.push_back({b.stack_names[s], static_cast<int>(s)});
  const int height = std::max(b.height, kTop + legend_height(entries) + 4);
  std::ostringstream o;
  frame(o, b.title, b.width, height);
  const int pw = b.width - kRight, ph = height - kBottom;
  o << "<rect class=\"plot\" x=\"" << kLeft << "\" y=\"" << kTop
    << "\" width=\"" << pw - kLeft << "\" height=\"" << ph - kTop << "\"/>";
  for (int pct = 0; pct <= 100; pct += 25) {
    const double y = ph - (ph - kTop) * pct / 100.0;
    o << "<line class=\"grid\" x1=\"" << kLeft << "\" y1=\"" << num(y)
      << "\" x2=\"" << pw << "\" y2=\"" << num(y)
      << "\"/><text class=\"tick ytick\" x=\"" << kLeft - 6 << "\" y=\""
      << num(y + 4) << "\" text-anchor=\"end\">" << pct << "%</text>";
  }
  const std::size_t n = b.categories.size();
  const double slot = n ? (pw - kLeft) / static_cast<double>(n) : 0;
  const double bar = std::min(48.0, slot * 0.7);
  bool drew = false;
  for (std::size_t c = 0; c < n; ++c) {
    // Shares of the largest phase: a sum of values near the largest double
    // would overflow.
    double top = 0, sum = 0;
    for (const auto& v : b.values)
      if (c < v.size() && std::isfinite(v[c]) && v[c] > 0)
        top = std::max(top, v[c]);
    for (const auto& v : b.values)
      if (c < v.size() && std::isfinite(v[c]) && v[c] > 0) sum += v[c] / top;
    const double x = kLeft + slot * (c + 0.5);
    o << "<text class=\"tick\" x=\"" << num(x) << "\" y=\"" << ph + 15
      << "\" text-anchor=\"middle\">" << escape(b.categories[c]) << "</text>";
    if (!(sum > 0)) continue;
    double y = ph;
    for (std::size_t s = 0; s < b.values.size(); ++s) {
      const double raw = c < b.values[s].size() ? b.values[s][c] : 0;
      if (!(std::isfinite(raw) && raw > 0)) continue;
      const double v = raw / top;
      const double h = (ph - kTop) * v / sum;
      y -= h;
      std::string tip =
          b.stack_names[s] + ": " +
          std::to_string(static_cast<int>(std::lround(100 * v / sum))) + "%";
      if (s < b.tips.size() && c < b.tips[s].size() && !b.tips[s][c].empty())
        tip += ", " + b.tips[s][c];
      o << "<rect class=\"mark bar\" x=\"" << num(x - bar / 2) << "\" y=\""
        << num(y) << "\" width=\"" << num(bar) << "\" height=\""
        << num(std::max(h, 0.5)) << "\" fill=\"" << colour(static_cast<int>(s))
        << "\"><title>" << escape(b.categories[c] + ", " + tip)
        << "</title></rect>";
      drew = true;
    }
  }
  if (!drew)
    o << "<text class=\"empty\" x=\"" << (kLeft + pw) / 2 << "\" y=\""
      << (kTop + ph) / 2 << "\">no phase to draw</text>";
  legend(o, b.width, entries);
  o << "</svg>";
  return figure(o.str(), b.caption);
}

}  // namespace mpiarena::svg
