// Notes on a measured point (point_notes.hpp).
#include "point_notes.hpp"

#include <algorithm>
#include <cstdio>

#include "report.hpp"

namespace mpiarena {

std::vector<std::string> point_notes(const Record& r) {
  std::vector<std::string> notes;
  if (r.suite != "overlap") return notes;
  const auto ratio = std::find_if(
      r.metrics.begin(), r.metrics.end(),
      [](const MetricValue& m) { return m.name == "comp_over_comm"; });
  const auto comm =
      std::find_if(r.parts.begin(), r.parts.end(),
                   [](const PartTiming& p) { return p.name == "comm"; });
  if (ratio == r.metrics.end() || comm == r.parts.end()) return notes;
  if (ratio->value >= 0.95 && ratio->value <= 1.05) return notes;
  const auto [lo, hi] =
      std::minmax_element(comm->samples_max.begin(), comm->samples_max.end());
  char text[400];
  std::snprintf(
      text, sizeof text,
      "the computation took %.2fx the communication, outside 0.95-1.05: it "
      "was sized on the communication's calibration runs, and the "
      "communication's samples then spread from %s to %s (CV %.1f%%)%s",
      ratio->value, format_seconds(*lo).c_str(), format_seconds(*hi).c_str(),
      100 * comm->time.cv,
      comm->time.cv > 0.05 ? ": the machine's noise, not the calibration" : "");
  notes.emplace_back(text);
  return notes;
}

}  // namespace mpiarena
