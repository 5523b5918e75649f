// Contract-v4 metrics of a record, from its parts and phases (engine.hpp).
#include <cmath>
#include <string>

#include "core/engine/engine.hpp"

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
    long dropped = 0, first_dropped = -1;
    try {
      v.value = m.compute(input(-1));
      for (long i = 0; i < static_cast<long>(rec.samples_max.size()); ++i) {
        // A repetition whose value is not a number is left out, and the
        // record says so (replacing it by the value, as it once was,
        // made the samples agree with it more than they did).
        const double x = m.compute(input(i));
        if (std::isfinite(x)) {
          v.samples.push_back(x);
        } else if (dropped++ == 0) {
          first_dropped = i + 1;
        }
      }
    } catch (const std::exception& e) {
      throw PointError("metric '" + m.name + "' failed: " + e.what());
    } catch (...) {
      // `throw 7`: ends the point like any other failure
      // (docs/writing-a-plugin.md, "Phases, parts and metrics").
      throw PointError("metric '" + m.name +
                       "' failed: it threw something not derived from "
                       "std::exception");
    }
    if (!std::isfinite(v.value))
      throw PointError("metric '" + m.name + "' is not a finite number (" +
                       std::to_string(v.value) + ")");
    if (dropped > 0)
      rec.notes.push_back(
          "metric '" + m.name + "': " + std::to_string(dropped) + " of " +
          std::to_string(rec.samples_max.size()) +
          " repetitions gave no finite value (the first: repetition " +
          std::to_string(first_dropped) + ") and are left out of its samples");
    rec.metrics.push_back(std::move(v));
  }
}

}  // namespace mpiarena
