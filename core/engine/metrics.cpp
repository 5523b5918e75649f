// Contract-v4 metrics of a record, from its parts and phases (engine.hpp).
#include <cmath>
#include <string>

#include "engine.hpp"

namespace mpiarena {

void compute_metrics(Record& rec, const StrategyInfo& info) {
  rec.metrics.clear();
  if (info.metrics.empty()) return;
  // The inputs of repetition `i` (or of the medians when i < 0).
  auto input = [&](long i) {
    MetricInput in;
    in.bytes = rec.payload_bytes;
    in.ranks = rec.ranks;
    in.pairs = rec.pairs;
    auto pick = [i](const Timing& t) {
      return i < 0 ? t.time.median : t.samples_max[static_cast<std::size_t>(i)];
    };
    if (rec.parts.empty()) {
      in.parts[""] = i < 0 ? rec.time.median
                           : rec.samples_max[static_cast<std::size_t>(i)];
    }
    for (const PartTiming& p : rec.parts) {
      in.parts[p.name] = pick(p);
      for (const PhaseTiming& ph : p.phases)
        in.phases[p.name + "/" + ph.name] = pick(ph);
    }
    for (const PhaseTiming& ph : rec.phases) in.phases[ph.name] = pick(ph);
    return in;
  };
  for (const MetricInfo& m : info.metrics) {
    MetricValue v;
    v.name = m.name;
    v.unit = m.unit;
    v.higher_is_better = m.higher_is_better;
    try {
      v.value = m.compute(input(-1));
      for (long i = 0; i < static_cast<long>(rec.samples_max.size()); ++i)
        v.samples.push_back(m.compute(input(i)));
    } catch (const std::exception& e) {
      throw PointError("metric '" + m.name + "' failed: " + e.what());
    } catch (...) {
      // `throw 7`: ends the point like any other failure (docs/plugins.md).
      throw PointError("metric '" + m.name +
                       "' failed: it threw something not derived from "
                       "std::exception");
    }
    if (!std::isfinite(v.value))
      throw PointError("metric '" + m.name + "' is not a finite number (" +
                       std::to_string(v.value) + ")");
    for (double& x : v.samples)
      if (!std::isfinite(x)) x = v.value;  // one odd repetition: no NaN
    rec.metrics.push_back(std::move(v));
  }
}

}  // namespace mpiarena
