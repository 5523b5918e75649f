// The charts of the HTML page (report_charts.hpp).
#include "core/analysis/html/report_charts.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "core/analysis/html/report_html.hpp"
#include "core/analysis/report/breakdown.hpp"
#include "core/analysis/report/report.hpp"
#include "core/analysis/report/report_text.hpp"
#include "core/analysis/svg/svg.hpp"
#include "core/results/suites.hpp"

namespace mpiarena {

using nlohmann::json;

std::string anchor(const std::string& text) {
  std::string out = "s-";
  for (char c : text)
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

std::string para(const std::string& text, const char* cls) {
  return std::string("<p class=\"") + cls + "\">" + svg::escape(text) +
         "</p>\n";
}

namespace {

svg::Axis size_axis() {
  svg::Axis a;
  a.label = "message size (bytes, log)";
  a.base = 2;
  a.format = binary_bytes;
  return a;
}

svg::Axis value_axis(const std::string& label, bool log,
                     std::string (*format)(double)) {
  svg::Axis a;
  a.label = label;
  a.log = log;
  if (format) a.format = format;
  return a;
}

}  // namespace

std::string section_title(const SectionKey& k) {
  const auto& [suite, payload, ranks] = k;
  return suite + " / " + payload + " / " + std::to_string(ranks) +
         (ranks == 1 ? " rank" : " ranks");
}

namespace {

std::string point_tip(const Record& r) {
  std::string tip =
      r.method + ", " + r.size_label + " (" + std::to_string(r.bytes) +
      " B): median " + format_seconds(r.time.median) + ", samples " +
      format_seconds(r.time.min) + " to " + format_seconds(r.time.max);
  if (r.moves_data) tip += ", " + format_rate(r.bandwidth);
  tip += r.verification == "failed" ? ", verification FAILED"
                                    : ", " + r.verification;
  if (r.noise.noisy) tip += ", noisy: " + r.noise.reason;
  return tip;
}

// Time (or bandwidth) against size, one series per method of `methods`.

}  // namespace

std::vector<std::pair<std::string, std::vector<std::string>>> chart_groups(
    const std::vector<const Record*>& recs) {
  std::map<std::string, std::set<std::string>> by_column;
  std::set<std::string> all;
  for (const Record* r : recs) {
    all.insert(r->method);
    if (!r->matrix_column.empty())
      by_column[r->param(r->matrix_column)].insert(r->method);
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  if (!by_column.empty() && all.size() > kSeriesPerChart) {
    for (const auto& [col, methods] : by_column) {
      out.push_back({col, {methods.begin(), methods.end()}});
      for (const std::string& m : methods) all.erase(m);
    }
    if (all.empty()) return out;  // else the methods without a column too
  }
  std::vector<std::string> names(all.begin(), all.end());
  for (std::size_t i = 0; i < names.size(); i += kSeriesPerChart) {
    const std::size_t end = std::min(names.size(), i + kSeriesPerChart);
    const std::string part = names.size() > kSeriesPerChart
                                 ? "methods " + std::to_string(i + 1) + "-" +
                                       std::to_string(end) + " of " +
                                       std::to_string(names.size())
                                 : "";
    out.push_back({part, {names.begin() + i, names.begin() + end}});
  }
  return out;
}

std::string size_chart(const std::vector<const Record*>& recs,
                       const std::vector<std::string>& methods,
                       const std::string& title, bool bandwidth) {
  svg::LineChart c;
  c.title = title;
  c.x = size_axis();
  c.y = bandwidth
            ? value_axis("bandwidth (log)", true, format_rate)
            : value_axis("time per operation (log)", true, format_seconds);
  c.caption = bandwidth
                  ? "Payload bytes over the median time; the bar spans the "
                    "bandwidth of the slowest and the fastest sample."
                  : "Median per-operation time of the slowest rank; the bar "
                    "spans the fastest and the slowest sample.";
  for (std::size_t i = 0; i < methods.size(); ++i) {
    svg::Series s;
    s.name = methods[i];
    s.colour = static_cast<int>(i);
    for (const Record* r : recs) {
      if (r->method != methods[i]) continue;
      if (bandwidth && !r->moves_data) continue;
      svg::Point p(static_cast<double>(r->bytes),
                   bandwidth ? r->bandwidth : r->time.median);
      const double n = static_cast<double>(r->payload_bytes);
      p.lo =
          bandwidth ? (r->time.max > 0 ? n / r->time.max : NAN) : r->time.min;
      p.hi =
          bandwidth ? (r->time.min > 0 ? n / r->time.min : NAN) : r->time.max;
      p.tip = point_tip(*r);
      if (r->verification == "failed") p.flag = "up";
      s.points.push_back(p);
    }
    if (!s.points.empty()) c.series.push_back(std::move(s));
  }
  if (c.series.empty()) return "";
  return svg::render(c);
}

namespace {

// The dashed line of fit `f` of `method`: through the model at the sizes
// it was fitted on (its n is their payload), and between them (log-spaced
// in both).
svg::Series fit_line(const std::vector<const Record*>& recs,
                     const std::string& method, const json& f, int colour,
                     bool legend) {
  const double L = f["latency_s"];
  const double B = f["bandwidth_Bps"].is_null()
                       ? INFINITY
                       : f["bandwidth_Bps"].get<double>();
  std::vector<const Record*> on;
  for (const Record* r : recs)
    if (r->method == method && r->bytes > 0 && r->payload_bytes > 0 &&
        r->payload_bytes >= f["min_bytes"].get<double>() &&
        r->payload_bytes <= f["max_bytes"].get<double>())
      on.push_back(r);
  std::sort(on.begin(), on.end(), [](const Record* a, const Record* b) {
    return a->bytes < b->bytes;
  });
  svg::Series line;
  line.name = method + " fit";
  line.colour = colour;
  line.dashed = true;
  line.markers = false;
  line.legend = legend;
  for (std::size_t i = 0; i < on.size(); ++i)
    for (int k = 0; k < (i + 1 < on.size() ? 8 : 1); ++k) {
      const Record* a = on[i];
      const Record* b = i + 1 < on.size() ? on[i + 1] : a;
      const double x = static_cast<double>(a->bytes) *
                       std::pow(static_cast<double>(b->bytes) /
                                    static_cast<double>(a->bytes),
                                k / 8.0),
                   n = static_cast<double>(a->payload_bytes) *
                       std::pow(static_cast<double>(b->payload_bytes) /
                                    static_cast<double>(a->payload_bytes),
                                k / 8.0);
      line.points.emplace_back(x, L + (std::isinf(B) ? 0 : n / B));
    }
  return line;
}

}  // namespace

// The fitted model L + n / B of each method (summary "fits": one line per
// piece, over the sizes it was fitted on) drawn over its measured medians,
// every size's; no line over the sizes none holds for.
std::string fit_chart(const std::vector<const Record*>& recs,
                      const std::vector<json>& fits) {
  svg::LineChart c;
  c.title = "Fitted model time(n) = L + n / B against the medians";
  c.x = size_axis();
  c.y = value_axis("time per operation (log)", true, format_seconds);
  c.caption =
      "Dots: measured medians; dashed: the least-squares line of each "
      "method over the sizes where it holds (table below); no line over "
      "sizes where none does.";
  std::vector<std::string> methods;
  for (const json& f : fits)
    if (std::find(methods.begin(), methods.end(), f["method"]) == methods.end())
      methods.push_back(f["method"]);
  int colour = 0;
  for (const std::string& method : methods) {
    svg::Series dots;
    dots.name = method + " (measured)";
    dots.colour = colour;
    dots.line = false;
    for (const Record* r : recs) {
      if (r->method != method) continue;
      svg::Point p(static_cast<double>(r->bytes), r->time.median);
      p.tip = point_tip(*r);
      dots.points.push_back(p);
    }
    if (dots.points.size() < 2) continue;
    c.series.push_back(std::move(dots));
    bool first = true;
    for (const json& f : fits) {
      if (f["method"] != method) continue;
      c.series.push_back(fit_line(recs, method, f, colour, first));
      first = false;
    }
    ++colour;
  }
  if (c.series.empty()) return "";
  return svg::render(c);
}

// A metric's axis label: 3 significant digits, with k, M or G from 10^4
// ("500 k msg/s"), so the labels stay short.
namespace {

std::string metric_tick(double v, const std::string& unit) {
  if (unit == "%" || std::fabs(v) < 1e4) return format_metric(v, unit);
  static const char* const kPrefix[] = {"k", "M", "G", "T"};
  int p = -1;
  while (std::fabs(v) >= 1e3 && p < 3) {
    v /= 1e3;
    ++p;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g %s%s", v, kPrefix[p], unit.c_str());
  return buf;
}

// One chart per metric name: its value against size per method.

}  // namespace

std::string metric_charts(const std::vector<const Record*>& recs) {
  std::map<std::string, std::string> units;
  for (const Record* r : recs)
    for (const MetricValue& m : r->metrics) units[m.name] = m.unit;
  std::string out;
  for (const auto& [name, unit] : units) {
    std::vector<std::string> methods;
    bool positive = true;
    for (const Record* r : recs)
      for (const MetricValue& m : r->metrics)
        if (m.name == name) {
          if (std::find(methods.begin(), methods.end(), r->method) ==
              methods.end())
            methods.push_back(r->method);
          positive = positive && m.value > 0;
          for (double v : m.samples) positive = positive && v > 0;
        }
    std::sort(methods.begin(), methods.end());
    const bool log = positive && unit != "%";
    for (std::size_t first = 0; first < methods.size();
         first += kSeriesPerChart) {
      svg::LineChart c;
      c.title = "metric " + name + (unit.empty() ? "" : " (" + unit + ")");
      if (methods.size() > kSeriesPerChart)
        c.title += ", methods " + std::to_string(first + 1) + "+";
      c.x = size_axis();
      c.y.label = name + (unit.empty() ? "" : " (" + unit + ")") +
                  (log ? " (log)" : "");
      c.y.log = log;
      c.y.format = [unit = unit](double v) { return metric_tick(v, unit); };
      c.caption =
          "The metric on the medians of the parts and phases; the bar spans "
          "its value over the repetitions.";
      const std::size_t end = std::min(methods.size(), first + kSeriesPerChart);
      for (std::size_t i = first; i < end; ++i) {
        svg::Series s;
        s.name = methods[i];
        s.colour = static_cast<int>(i - first);
        for (const Record* r : recs) {
          if (r->method != methods[i]) continue;
          for (const MetricValue& m : r->metrics) {
            if (m.name != name) continue;
            svg::Point p(static_cast<double>(r->bytes), m.value);
            if (!m.samples.empty()) {
              p.lo = *std::min_element(m.samples.begin(), m.samples.end());
              p.hi = *std::max_element(m.samples.begin(), m.samples.end());
            }
            p.tip = r->method + ", " + r->size_label + ": " + name + " " +
                    format_metric(m.value, unit);
            s.points.push_back(p);
          }
        }
        c.series.push_back(std::move(s));
      }
      out += svg::render(c);
    }
  }
  return out;
}

// Per method with phases: the share of each phase per size.
std::string phase_charts(const std::vector<const Record*>& recs) {
  std::map<std::string, std::vector<const Record*>> by_method;
  for (const Record* r : recs)
    if (!r->phases.empty()) by_method[r->method].push_back(r);
  std::string out;
  for (auto& [method, rs] : by_method) {
    std::sort(rs.begin(), rs.end(), [](const Record* a, const Record* b) {
      return a->bytes < b->bytes;
    });
    svg::StackedBars b;
    b.title = method + ": phases of one operation";
    b.caption =
        "Each phase's median time as a share of the sum of the phase "
        "medians, per size (hover for the times).";
    for (const Record* r : rs)
      for (const PhaseTiming& p : r->phases)
        if (std::find(b.stack_names.begin(), b.stack_names.end(), p.name) ==
            b.stack_names.end())
          b.stack_names.push_back(p.name);
    b.values.assign(b.stack_names.size(), std::vector<double>(rs.size(), 0));
    b.tips.assign(b.stack_names.size(),
                  std::vector<std::string>(rs.size(), ""));
    for (std::size_t c = 0; c < rs.size(); ++c) {
      b.categories.push_back(binary_bytes(static_cast<double>(rs[c]->bytes)));
      for (const PhaseTiming& p : rs[c]->phases) {
        const std::size_t s = static_cast<std::size_t>(
            std::find(b.stack_names.begin(), b.stack_names.end(), p.name) -
            b.stack_names.begin());
        b.values[s][c] = p.time.median;
        b.tips[s][c] = format_seconds(p.time.median) + " of " +
                       format_seconds(rs[c]->time.median) + " per operation";
      }
    }
    out += svg::render(b);
  }
  return out;
}

}  // namespace mpiarena
