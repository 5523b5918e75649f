// The comparison as `runner compare` prints it (compare_text.hpp).
#include "core/analysis/compare/compare_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mpiarena/sizes.hpp>
#include <sstream>

#include "core/analysis/compare/compare_procedures.hpp"
#include "core/analysis/text/text_format.hpp"
#include "core/results/printable.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

namespace {

std::string percent(double change) {
  if (std::isnan(change)) return "n/a";
  if (std::isinf(change)) return change > 0 ? "+inf%" : "-inf%";
  char buf[32];
  std::snprintf(buf, sizeof buf,
                std::fabs(change) < 1     ? "%+.1f%%"
                : std::fabs(change) < 1e4 ? "%+.0f%%"
                                          : "%+.2e%%",  // no 300 digits
                change * 100);
  return buf;
}

std::string pvalue(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, p < 1e-4 ? "%.1e" : "%.4f", p);
  return buf;
}

std::string verdict_text(Outcome v) {
  return v == Outcome::noisy ? "too noisy" : verdict_name(v);
}

// A point's verdict cell: "too noisy" says when it is for want of samples
// (the note says more).
std::string verdict_text(const Comparison& c, const PointComparison& p) {
  if (p.verdict == Outcome::noisy &&
      c.options.procedure != Procedure::launches &&
      !(min_p_value(p.test.n1, p.test.n2) < c.options.alpha))
    return "too noisy: too few samples";
  return verdict_text(p.verdict);
}

// "small", "1 MiB", or "4 KiB", "1.00 MB" for a size given in bytes.
std::string size_cell(const PointKey& k) {
  return k.size_label == std::to_string(k.bytes) ? short_size(k.bytes)
                                                 : k.size_label;
}

// Which file measured the point while the machine was noisy.
std::string noise_cell(const PointComparison& p) {
  const PointNoise &b = p.base_noise, &n = p.new_noise;
  if (p.state_changed) return "state";
  if (b.noisy && n.noisy) return "both";
  if (b.noisy) return "BASE";
  if (n.noisy) return "NEW";
  return b.recorded && n.recorded ? "quiet" : "-";
}

// A ratio as "0.3x", "23x", "1.2e+04x".
std::string spread_text(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ratio < 10 ? "%.2gx" : ratio < 1e4 ? "%.0fx"
                                                                    : "%.2gx",
                ratio);
  return buf;
}

std::string suggestion_line(const Comparison& c) {
  const ThresholdSuggestion& s = c.suggestion;
  if (s.value < 0)
    return "smallest threshold these files support: n/a (no point has "
           "enough samples on both sides)";
  char largest_text[16];
  std::snprintf(largest_text, sizeof largest_text, "%g%%",
                100 * kLargestThreshold);
  const std::string largest = largest_text;  // "1000%"
  // What limits the widest point: its samples' spread against its median.
  const std::string widest_spread =
      s.widest_spread >= 0
          ? ", whose samples' interquartile range is " +
                spread_text(s.widest_spread) + " its median"
          : "";
  char buf[256];
  std::string line;
  if (s.capped) {
    std::snprintf(buf, sizeof buf,
                  "%zu of %zu points resolve no change up to %s (the largest "
                  "--threshold) at alpha %g",
                  s.beyond, s.points, largest.c_str(), c.options.alpha);
    line = "smallest threshold these files support: more than " + largest +
           " (" + buf + "; widest at " + s.widest + widest_spread + ")";
  } else {
    std::snprintf(buf, sizeof buf,
                  " (%zu of %zu points, %g%% or more, resolve a change that "
                  "size at alpha %g; median point ",
                  s.within, s.points, kSuggestionQuantile * 100,
                  c.options.alpha);
    line = "smallest threshold these files support: " +
           suggested_percent(s.value) + buf + suggested_percent(s.median) +
           ", widest " +
           (s.widest_value > kLargestThreshold
                ? "more than " + largest + " at " + s.widest + widest_spread
                : suggested_percent(s.widest_value) + " at " + s.widest) +
           ")";
  }
  if (s.excluded > 0)
    line += "; " + std::to_string(s.excluded) +
            " point(s) with too few samples, or no positive median, left out";
  return line;
}

std::string only_line(const OnlyIn& o) {
  std::string s = o.key.suite + "/" + o.key.method + "/" + o.key.payload + " " +
                  o.key.size_label + " (" + std::to_string(o.key.bytes) +
                  " B), " + std::to_string(o.key.ranks) + " ranks";
  return o.other.empty() ? s : s + " (" + o.other + ")";
}

// What is compared, how it is judged, the noise of both files and the
// threshold they support.
std::string preamble(const Comparison& c, const std::string& base,
                     const std::string& now, bool md, bool noise) {
  const std::string item = md ? "- " : "  ";
  std::ostringstream out;
  char thresholds[240];
  const bool launches = c.options.procedure == Procedure::launches;
  std::snprintf(thresholds, sizeof thresholds,
                "threshold %g%%: a median more than %.4gx slower or faster "
                "counts\n%salpha %g: %s",
                c.options.threshold * 100, 1 + c.options.threshold,
                item.c_str(), c.options.alpha,
                launches ? "two-sided Welch t test on the logarithms of the "
                           "launches' medians"
                         : "two-sided Mann-Whitney U test on the raw samples");
  const auto labelled = [](const std::string& label) {
    return label.empty() ? "" : " (label " + printable(label) + ")";
  };
  out << (md ? "## " : "") << "runner compare: BASE " << base
      << labelled(c.base_label) << " vs NEW " << now << labelled(c.new_label)
      << "\n"
      << (md ? "\n" : "") << item << thresholds << "\n"
      << item
      << "time: median per-operation time of the slowest rank, lower is "
         "better\n"
      << item << "bandwidth: payload bytes / median time, higher is better\n"
      << item << procedure_line(c) << "\n";
  if (!c.settings.empty())
    out << item << "MPI settings differ: "
        << printable(settings_text(c.settings)) << "\n";
  if (c.options.holm)
    out << item << "correction: Holm over the " << c.tests
        << " tests of this comparison (p column: adjusted), so that an A/A "
           "comparison flags any point with a chance below alpha\n";
  if (noise)
    out << item << "noise: BASE " << describe(c.noise.base) << "; NEW "
        << describe(c.noise.now) << "\n"
        << item
        << "noise column: the file whose samples of the point were noisy "
           "(BASE, NEW, both), quiet, state (measured in two machine "
           "states: not judged), or - (not recorded)\n";
  else if (!c.points.empty())
    out << item << "noise: not recorded in either file\n";
  if (!c.points.empty()) out << item << suggestion_line(c) << "\n";
  return out.str();
}

// One row per point in both files: time, bandwidth, p, verdict (noise).
std::string points_table(const Comparison& c, Style style, bool noise) {
  std::vector<std::vector<std::string>> rows;
  for (const PointComparison& p : c.points) {
    const MetricChange& t = p.metrics.front();
    const MetricChange* bw = nullptr;
    for (const MetricChange& m : p.metrics)
      if (m.metric == "bandwidth_Bps") bw = &m;
    rows.push_back({p.key.suite + "/" + p.key.method + "/" + p.key.payload,
                    size_cell(p.key), std::to_string(p.key.ranks),
                    format_seconds(t.base), format_seconds(t.now),
                    percent(t.change), bw ? percent(bw->change) : "-",
                    pvalue(c.options.holm ? p.p_adjusted : p.test.p),
                    std::to_string(p.test.n1) + "/" + std::to_string(p.test.n2),
                    verdict_text(c, p)});
    if (noise) rows.back().push_back(noise_cell(p));
  }
  std::vector<std::string> header = {
      "point",     ">size",  ">ranks",     ">base time",
      ">new time", ">time",  ">bandwidth", c.options.holm ? ">p (Holm)" : ">p",
      ">n",        "verdict"};
  if (noise) header.push_back("noise");
  return render_grid(header, rows, style);
}

// Contract v4: phases, parts and the plugins' metrics, each with its own
// U test and direction; empty when no point has them.
std::string extras_table(const Comparison& c, Style style) {
  std::vector<std::vector<std::string>> extra;
  for (const PointComparison& p : c.points)
    for (const MetricChange& m : p.metrics) {
      if (m.metric == "time_s" || m.metric == "bandwidth_Bps") continue;
      const bool seconds = m.unit == "s";
      extra.push_back(
          {point_name(p.key), m.metric,
           seconds ? format_seconds(m.base) : format_metric(m.base, m.unit),
           seconds ? format_seconds(m.now) : format_metric(m.now, m.unit),
           percent(m.change), m.higher_is_better ? "higher" : "lower",
           pvalue(c.options.holm ? m.p_adjusted : m.p),
           verdict_text(m.verdict)});
    }
  if (extra.empty()) return "";
  return render_grid(
      {"point", "what", ">base", ">new", ">change", "better", ">p", "verdict"},
      extra, style);
}

// The closing line: the counts and the exit code.
std::string result_line(const Comparison& c, bool md) {
  std::ostringstream out;
  out << (md ? "**" : "") << "result: " << c.count(Outcome::regressed)
      << " regressed"
      << (c.regressed_while_noisy() > 0
              ? " (" + std::to_string(c.regressed_while_noisy()) +
                    " measured while noisy)"
              : "")
      << ", " << c.count(Outcome::improved) << " improved, "
      << c.count(Outcome::unchanged) << " unchanged, "
      << c.count(Outcome::noisy) << " too noisy to tell"
      << (c.state_changed() > 0 ? " (" + std::to_string(c.state_changed()) +
                                      " measured in two machine states)"
                                : "")
      << "; " << c.only_base.size() << " only in BASE, " << c.only_new.size()
      << " only in NEW; exit " << c.exit_code() << (md ? "**" : "") << "\n";
  return out.str();
}

}  // namespace

std::string render_comparison(const Comparison& c, const std::string& base,
                              const std::string& now, Style style) {
  const bool md = style == Style::markdown;
  const std::string item = md ? "- " : "  ";
  auto heading = [&](const std::string& t) {
    return md ? "\n### " + t + "\n\n" : "\n" + t + ":\n";
  };
  const bool noise = c.noise.base.recorded > 0 || c.noise.now.recorded > 0;
  std::ostringstream out;
  out << preamble(c, base, now, md, noise);
  if (!c.warnings.empty()) {
    out << heading("Warnings");
    for (const std::string& w : c.warnings) out << item << w << "\n";
  }
  if (!c.points.empty())
    out << heading("Points in both files") << points_table(c, style, noise);
  const std::string extras = extras_table(c, style);
  if (!extras.empty())
    out << heading("Phases, parts and metrics of points in both files")
        << extras;
  if (!c.only_base.empty()) {
    out << heading("Only in BASE (not measured in NEW)");
    for (const OnlyIn& o : c.only_base) out << item << only_line(o) << "\n";
  }
  if (!c.only_new.empty()) {
    out << heading("Only in NEW (not measured in BASE)");
    for (const OnlyIn& o : c.only_new) out << item << only_line(o) << "\n";
  }
  bool notes = false;
  for (const PointComparison& p : c.points) {
    if (p.note.empty()) continue;
    if (!notes) out << heading("Notes");
    notes = true;
    out << item << point_name(p.key) << ": " << p.note << "\n";
  }
  out << "\n" << result_line(c, md);
  return out.str();
}

std::string render_compared_points(const Comparison& c, Style style) {
  return points_table(c, style,
                      c.noise.base.recorded > 0 || c.noise.now.recorded > 0);
}

std::string comparison_result(const Comparison& c) {
  std::string line = result_line(c, false);
  return line.substr(0, line.size() - 1);  // without its newline
}

namespace {

// "no record (3 points skipped: the first because ...)", or "4 records
// (allreduce[algorithm=ring] 1d 4096 B at 2 ranks, ...)".
std::string side_points(const Document& d) {
  if (d.records.empty()) {
    if (d.skipped.empty()) return "no record";
    const Skip& s = d.skipped.front();
    return "no record (" + std::to_string(d.skipped.size()) +
           " point(s) skipped, the first, " + s.method + " " + s.payload + " " +
           s.size_label + ", because " + s.reason + ")";
  }
  std::string out = std::to_string(d.records.size()) + " record(s) (";
  const std::size_t shown = std::min<std::size_t>(d.records.size(), 3);
  for (std::size_t i = 0; i < shown; ++i) {
    const Record& r = d.records[i];
    out += (i ? ", " : "") + r.method + " " + r.payload + " " +
           std::to_string(r.bytes) + " B at " + std::to_string(r.ranks) +
           " ranks";
  }
  return out + (d.records.size() > shown ? ", ...)" : ")");
}

}  // namespace

std::string nothing_compared(const Document& base, const Document& now,
                             const std::string& base_name,
                             const std::string& new_name) {
  return base_name + " has " + side_points(base) + ", " + new_name + " has " +
         side_points(now);
}

}  // namespace mpiarena
