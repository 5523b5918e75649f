// The chart of one point of a trend page (trend_chart.hpp).
#include "core/analysis/trend/trend_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/analysis/svg/svg.hpp"
#include "core/analysis/svg/svg_scale.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

namespace {

// The margins of the plot area; the top grows with the title's lines.
constexpr int kLeft = 84, kRight = 24, kBottom = 44, kTitleLine = 15;
// Title lines are broken after a '/' once this many characters are on one.
constexpr std::size_t kTitleChars = 72;

std::vector<std::string> title_lines(const std::string& title) {
  std::vector<std::string> lines(1);
  for (std::size_t i = 0; i < title.size(); ++i) {
    lines.back() += title[i];
    if (lines.back().size() >= kTitleChars && title[i] == '/' &&
        i + 1 < title.size())
      lines.emplace_back();
  }
  return lines;
}

// A unit for seconds: its name and its size.
std::pair<const char*, double> unit_of(double s) {
  if (s < 1e-6) return {"ns", 1e-9};
  if (s < 1e-3) return {"us", 1e-6};
  if (s < 1) return {"ms", 1e-3};
  return {"s", 1};
}

std::string points_of(const std::vector<std::pair<double, double>>& xy) {
  std::string out;
  for (const auto& [x, y] : xy)
    out += (out.empty() ? "" : " ") + svg::num(x) + "," + svg::num(y);
  return out;
}

// The first `max` - 1 characters of a long text and "..." (U+2026),
// never cut inside a UTF-8 character.
std::string cut_back(const std::string& text, std::size_t max) {
  std::size_t chars = 0, end = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
      if (++chars == max) end = i;
  return chars <= max ? text : text.substr(0, end) + "\xE2\x80\xA6";
}

// A boundary's text beside its line holds this many characters at most
// (the whole of it in the hover text).
constexpr std::size_t kBoundaryChars = 44;

}  // namespace

TrendYRange trend_y_range(const std::vector<double>& medians,
                          const std::vector<double>& quartiles) {
  double a = INFINITY, b = -INFINITY;
  for (double v : medians)
    if (std::isfinite(v) && v >= 0) {
      a = std::min(a, v);
      b = std::max(b, v);
    }
  TrendYRange r;
  if (!(a <= b)) return r;  // nothing to fit: 0 to 1
  r.log = a > 0 && b / a > 10;
  // The quartiles widen the range, up to half the medians' level (a
  // factor of 2 on a log axis) or their span beyond them: with a few
  // samples a quartile can be a slow sample itself.
  const double up = r.log ? b * 2 : b + std::max(b - a, b * 0.5);
  const double down =
      r.log ? a / 2 : std::max(0.0, a - std::max(b - a, a * 0.5));
  double lo = a, hi = b;
  for (double v : quartiles)
    if (std::isfinite(v) && v >= 0) {
      lo = std::min(lo, std::max(v, down));
      hi = std::max(hi, std::min(v, up));
    }
  if (r.log) {
    const double pad = std::max(0.03, std::log10(hi / lo) * 0.08);
    r.lo = lo / std::pow(10.0, pad);
    r.hi = hi * std::pow(10.0, pad);
    return r;
  }
  // A flat series gets a range of +-2% of its level (the noise a chart
  // should not blow up); a zero level one of 1 ns.
  const double pad = hi > 0 ? std::max((hi - lo) * 0.12, hi * 0.02) : 1e-9;
  r.lo = std::max(lo - pad, lo * 0.5);
  r.hi = hi + pad;
  return r;
}

std::vector<std::string> trend_tick_labels(const std::vector<double>& v,
                                           const TrendYRange& r) {
  std::vector<std::string> out;
  char buf[48];
  if (r.log) {
    for (double x : v) {
      const auto [name, size] = unit_of(x);
      std::snprintf(buf, sizeof buf, "%.3g %s", x / size, name);
      out.push_back(buf);
    }
    return out;
  }
  const auto [name, size] = unit_of(r.hi);
  const double step = v.size() > 1 ? (v[1] - v[0]) / size : 1;
  int decimals = step > 0 ? static_cast<int>(std::ceil(-std::log10(step) -
                                                       1e-9))
                          : 0;
  decimals = std::clamp(decimals, 0, 4);
  for (double x : v) {
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, x / size, name);
    out.push_back(buf);
  }
  return out;
}

std::string cut_front(const std::string& text, std::size_t max) {
  std::size_t chars = 0;
  for (unsigned char c : text) chars += (c & 0xC0) != 0x80;
  if (chars <= max || max < 2) return text;
  std::size_t skip = chars - (max - 1), i = 0;  // characters to drop
  for (; i < text.size() && skip > 0; ++i)
    if (i + 1 >= text.size() ||
        (static_cast<unsigned char>(text[i + 1]) & 0xC0) != 0x80)
      --skip;
  return "\xE2\x80\xA6" + text.substr(i);  // U+2026, then the tail
}

namespace {

// The frame of a chart: the scales, the plot area [l, r] x [t, b].
struct Frame {
  svg::Scale sx, sy;
  double l = 0, r = 0, t = 0, b = 0;
};

void draw_axes(std::ostringstream& o, const TrendChart& c, const Frame& f,
               const TrendYRange& range) {
  o << "<rect class=\"plot\" x=\"" << svg::num(f.l) << "\" y=\""
    << svg::num(f.t) << "\" width=\"" << svg::num(f.r - f.l)
    << "\" height=\"" << svg::num(f.b - f.t) << "\"/>";
  for (double v : svg::ticks(f.sx, true)) {
    const long long k = std::llround(v);
    if (k < 1 || k > static_cast<long long>(c.x_labels.size())) continue;
    const std::string p = svg::num(f.sx.px(v));
    o << "<line class=\"grid\" x1=\"" << p << "\" y1=\"" << svg::num(f.t)
      << "\" x2=\"" << p << "\" y2=\"" << svg::num(f.b)
      << "\"/><text class=\"tick\" x=\"" << p << "\" y=\""
      << svg::num(f.b + 15) << "\" text-anchor=\"middle\">"
      << svg::escape(c.x_labels[static_cast<std::size_t>(k - 1)])
      << "</text>";
  }
  const std::vector<double> ys = svg::ticks(f.sy, false);
  const std::vector<std::string> labels = trend_tick_labels(ys, range);
  for (std::size_t i = 0; i < ys.size(); ++i) {
    const std::string p = svg::num(f.sy.px(ys[i]));
    o << "<line class=\"grid\" x1=\"" << svg::num(f.l) << "\" y1=\"" << p
      << "\" x2=\"" << svg::num(f.r) << "\" y2=\"" << p
      << "\"/><text class=\"tick ytick\" x=\"" << svg::num(f.l - 6)
      << "\" y=\"" << svg::num(f.sy.px(ys[i]) + 4)
      << "\" text-anchor=\"end\">" << svg::escape(labels[i]) << "</text>";
  }
  o << "<text class=\"axis\" x=\"" << svg::num((f.l + f.r) / 2) << "\" y=\""
    << svg::num(f.b + 34)
    << "\" text-anchor=\"middle\">run of the group (time order)</text>"
    << "<text class=\"axis\" transform=\"translate(14,"
    << svg::num((f.t + f.b) / 2) << ") rotate(-90)\" text-anchor=\"middle\">"
    << (range.log ? "median time (log scale)" : "median time") << "</text>";
}

// A dashed line before each boundary's run, its text beside it (left of
// the line in the right half), staggered over three rows.
void draw_boundaries(std::ostringstream& o, const TrendChart& c,
                     const Frame& f) {
  for (std::size_t k = 0; k < c.boundaries.size(); ++k) {
    const TrendBoundary& bd = c.boundaries[k];
    const double x = f.sx.px(std::max(0, bd.at) + 0.5);
    if (x < f.l || x > f.r) continue;
    const bool left = x > (f.l + f.r) / 2;
    o << "<g class=\"boundary\"><line x1=\"" << svg::num(x) << "\" y1=\""
      << svg::num(f.t) << "\" x2=\"" << svg::num(x) << "\" y2=\""
      << svg::num(f.b)
      << "\" stroke=\"#7f4fa0\" stroke-width=\"1.5\" stroke-dasharray=\"5 "
         "4\"/><text x=\""
      << svg::num(left ? x - 4 : x + 4) << "\" y=\""
      << svg::num(f.t + 12 + 12 * static_cast<double>(k % 3))
      << "\" text-anchor=\"" << (left ? "end" : "start")
      << "\" font-size=\"10\" fill=\"#5b2c82\" stroke=\"#fff\" "
         "stroke-width=\"3\" paint-order=\"stroke\">"
      << svg::escape(cut_back(bd.text, kBoundaryChars))
      << "<title>" << svg::escape(bd.text) << "</title></text></g>";
  }
}

// The band between the quartiles, the median line, the dots, rings and
// squares.
void draw_runs(std::ostringstream& o, const TrendChart& c, const Frame& f) {
  const char* col = svg::colour(0);
  // A quartile beyond the range: the band runs along the edge.
  auto in = [&f](double v) { return std::clamp(v, f.sy.lo, f.sy.hi); };
  std::vector<std::pair<double, double>> band, line;
  for (const TrendChartRun& r : c.runs)
    band.emplace_back(f.sx.px(r.place), f.sy.px(in(r.q3)));
  for (auto it = c.runs.rbegin(); it != c.runs.rend(); ++it)
    band.emplace_back(f.sx.px(it->place), f.sy.px(in(it->q1)));
  if (c.runs.size() == 1)  // one run: a narrow box
    band = {{band[0].first - 4, band[0].second},
            {band[0].first + 4, band[0].second},
            {band[1].first + 4, band[1].second},
            {band[1].first - 4, band[1].second}};
  o << "<g class=\"series\"><polygon class=\"mark qband\" points=\""
    << points_of(band) << "\" fill=\"" << col
    << "\" fill-opacity=\"0.22\" stroke=\"none\"><title>the middle half of "
       "each run's samples (first to third quartile)</title></polygon>";
  for (const TrendChartRun& r : c.runs)
    line.emplace_back(f.sx.px(r.place), f.sy.px(r.median));
  if (line.size() > 1)
    o << "<polyline class=\"mark line\" points=\"" << points_of(line)
      << "\" stroke=\"" << col << "\"/>";
  const double dot = c.runs.size() > 30 ? 2.2 : 3;
  for (std::size_t i = 0; i < c.runs.size(); ++i) {
    const TrendChartRun& r = c.runs[i];
    const std::string x = svg::num(line[i].first),
                      y = svg::num(line[i].second),
                      tip = "<title>" + svg::escape(r.tip) + "</title>";
    o << "<circle class=\"mark dot\" cx=\"" << x << "\" cy=\"" << y
      << "\" r=\"" << dot << "\" fill=\"" << col << "\">" << tip
      << "</circle>";
    if (!r.flag.empty())
      o << "<circle class=\"mark flag " << (r.flag == "up" ? "up" : "down")
        << "\" cx=\"" << x << "\" cy=\"" << y << "\" r=\"7\">" << tip
        << "</circle>";
    if (!r.step.empty())
      o << "<rect class=\"mark step " << (r.step == "up" ? "up" : "down")
        << "\" x=\"" << svg::num(line[i].first - 9) << "\" y=\""
        << svg::num(line[i].second - 9) << "\" width=\"18\" height=\"18\">"
        << tip << "</rect>";
  }
  o << "</g>";
}

// A caret at the top edge for each run whose slowest sample is above the
// range, at the bottom for a fastest sample below it.
void draw_outliers(std::ostringstream& o, const TrendChart& c,
                   const Frame& f, const TrendYRange& range) {
  for (const TrendChartRun& r : c.runs) {
    const double x = f.sx.px(r.place);
    const std::string& run = c.x_labels[static_cast<std::size_t>(r.place - 1)];
    if (r.hi > range.hi)
      o << "<polygon class=\"mark outlier high\" points=\""
        << points_of({{x - 4, f.t + 8}, {x + 4, f.t + 8}, {x, f.t + 1}})
        << "\" fill=\"#c0392b\"><title>"
        << svg::escape(run + ": slowest sample " + format_seconds(r.hi) +
                       ", above the chart")
        << "</title></polygon>";
    if (r.lo < range.lo)
      o << "<polygon class=\"mark outlier low\" points=\""
        << points_of({{x - 4, f.b - 8}, {x + 4, f.b - 8}, {x, f.b - 1}})
        << "\" fill=\"#888\"><title>"
        << svg::escape(run + ": fastest sample " + format_seconds(r.lo) +
                       ", below the chart")
        << "</title></polygon>";
  }
}

}  // namespace

std::string render_trend_chart(const TrendChart& c) {
  const std::vector<std::string> lines = title_lines(c.title);
  const int top = 12 + kTitleLine * static_cast<int>(lines.size());
  const int height = c.height + top - 27;
  std::ostringstream o;
  o << "<figure><svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
       "width=\""
    << c.width << "\" height=\"" << height << "\" viewBox=\"0 0 " << c.width
    << " " << height << "\" role=\"img\"><title>" << svg::escape(c.title)
    << "</title><text class=\"ctitle\" x=\"" << kLeft << "\" y=\"18\">";
  for (std::size_t k = 0; k < lines.size(); ++k)
    o << "<tspan x=\"" << kLeft << "\""
      << (k ? " dy=\"" + std::to_string(kTitleLine) + "\"" : std::string())
      << ">" << svg::escape(lines[k]) << "</tspan>";
  o << "</text>";
  std::vector<double> medians, quartiles;
  for (const TrendChartRun& r : c.runs) {
    medians.push_back(r.median);
    quartiles.insert(quartiles.end(), {r.q1, r.q3});
  }
  const TrendYRange range = trend_y_range(medians, quartiles);
  Frame f;
  f.l = kLeft;
  f.r = c.width - kRight;
  f.t = top;
  f.b = height - kBottom;
  f.sx = svg::Scale{false, 10, 0.5, c.x_labels.size() + 0.5, f.l, f.r};
  f.sy = svg::Scale{range.log, 10, range.lo, range.hi, f.b, f.t};
  draw_axes(o, c, f, range);
  draw_boundaries(o, c, f);
  if (c.runs.empty())
    o << "<text class=\"empty\" x=\"" << svg::num((f.l + f.r) / 2)
      << "\" y=\"" << svg::num((f.t + f.b) / 2)
      << "\">no run has this point</text>";
  else
    draw_runs(o, c, f);
  draw_outliers(o, c, f, range);
  o << "</svg></figure>\n";
  return o.str();
}

}  // namespace mpiarena
