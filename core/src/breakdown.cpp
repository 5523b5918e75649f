#include "breakdown.hpp"

#include <cmath>
#include <cstdio>
#include <mpiarena/sizes.hpp>
#include <vector>

namespace mpiarena {

std::string format_metric(double value, const std::string& unit) {
  if (!std::isfinite(value)) return "n/a";
  char buf[48];
  const double a = std::fabs(value);
  if (a != 0 && (a >= 1e6 || a < 1e-2))
    std::snprintf(buf, sizeof buf, "%.3g", value);
  else
    std::snprintf(buf, sizeof buf, "%.1f", value);
  return std::string(buf) + " " + unit;
}

namespace {

std::string phases_text(const std::vector<PhaseTiming>& phases,
                        double total) {
  std::string out;
  for (const PhaseTiming& p : phases) {
    if (!out.empty()) out += ", ";
    out += p.name + " " + format_seconds(p.time.median);
    if (total > 0) {
      char pct[16];
      std::snprintf(pct, sizeof pct, " (%.0f%%)",
                    100 * p.time.median / total);
      out += pct;
    }
  }
  return out.empty() ? "-" : out;
}

}  // namespace

std::string render_breakdown(const Document& doc, Style style) {
  std::vector<std::vector<std::string>> rows;
  for (const Record& r : doc.records) {
    if (r.parts.empty() && r.phases.empty() && r.metrics.empty()) continue;
    std::string metrics;
    for (const MetricValue& m : r.metrics)
      metrics += (metrics.empty() ? "" : ", ") + m.name + " " +
                 format_metric(m.value, m.unit) + " (" +
                 (m.higher_is_better ? "higher" : "lower") + " is better)";
    if (metrics.empty()) metrics = "-";
    const std::string size =
        r.size_label == std::to_string(r.bytes)
            ? format_bytes(static_cast<double>(r.bytes))
            : r.size_label;
    const std::string point = r.suite + "/" + r.method;
    if (r.parts.empty()) {
      rows.push_back({point, r.payload, size, "-",
                      format_seconds(r.time.median),
                      phases_text(r.phases, r.time.median), metrics});
      continue;
    }
    bool first = true;
    for (const PartTiming& p : r.parts) {
      const std::string part =
          p.name + (p.name == r.headline_part ? " *" : "");
      rows.push_back({first ? point : "", first ? r.payload : "",
                      first ? size : "", part, format_seconds(p.time.median),
                      phases_text(p.phases, p.time.median),
                      first ? metrics : ""});
      first = false;
    }
  }
  if (rows.empty()) return {};
  const std::string title =
      "Parts, phases and metrics (per operation, slowest rank, median; "
      "* the part that is the record's time)";
  const std::string head = style == Style::markdown ? "\n### " + title + "\n\n"
                                                    : "\n" + title + "\n";
  return head + render_grid({"method", "payload", "size", "part", ">median",
                             "phases (share of the part)", "metrics"},
                            rows, style);
}

}  // namespace mpiarena
