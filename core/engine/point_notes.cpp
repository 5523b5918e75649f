// Notes on a measured point (point_notes.hpp).
#include "core/engine/point_notes.hpp"

#include <algorithm>
#include <cstdio>

#include "core/results/units.hpp"

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
  const auto comp =
      std::find_if(r.parts.begin(), r.parts.end(),
                   [](const PartTiming& p) { return p.name == "compute"; });
  const double comp_cv = comp == r.parts.end() ? 0 : comp->time.cv;
  char text[480];
  std::snprintf(
      text, sizeof text,
      "the computation took %.2fx the communication, outside 0.95-1.05: it "
      "was sized on the calibration runs, and the two parts' samples then "
      "moved: the communication's from %s to %s (CV %.1f%%), the "
      "computation's with CV %.1f%%%s",
      ratio->value, format_seconds(*lo).c_str(), format_seconds(*hi).c_str(),
      100 * comm->time.cv, 100 * comp_cv,
      std::max(comm->time.cv, comp_cv) > 0.05
          ? ": the machine's noise"
          : "; both steady within the samples, so the cost of one of them "
            "changed between the calibration and the samples");
  notes.emplace_back(text);
  return notes;
}

}  // namespace mpiarena
