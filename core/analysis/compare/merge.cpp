// One point's records of several blocks of runner ab as one (merge.hpp).
#include "core/analysis/compare/merge.hpp"

#include <algorithm>
#include <mpiarena/stats.hpp>

namespace mpiarena {

namespace {

template <typename T>
void append(std::vector<T>& into, const std::vector<T>& more) {
  into.insert(into.end(), more.begin(), more.end());
}

void merge_timing(Timing& into, const Timing& more) {
  append(into.samples_max, more.samples_max);
  append(into.samples_min, more.samples_min);
  append(into.samples_avg, more.samples_avg);
  into.time = summarize(into.samples_max);
}

template <typename Named>
const Named* named(const std::vector<Named>& items, const std::string& name) {
  for (const Named& item : items)
    if (item.name == name) return &item;
  return nullptr;
}

void merge_noise(Noise& into, const Noise& more) {
  if (!into.recorded || !more.recorded) return;
  append(into.steal_s, more.steal_s);
  append(into.preemptions, more.preemptions);
  append(into.cpu_mhz, more.cpu_mhz);
  append(into.core_to_core_ns, more.core_to_core_ns);
  into.retries += more.retries;
  into.noisy_samples += more.noisy_samples;
  if (more.noisy && !into.noisy) into.reason = more.reason;
  into.noisy = into.noisy || more.noisy;
}

}  // namespace

void merge_record(Record& into, const Record& more) {
  // Each rank's time: the blocks' medians weighed by their repetitions (a
  // running mean of halves would give the first block a quarter after
  // three blocks).
  const double w_into = into.repetitions, w_more = more.repetitions;
  for (std::size_t i = 0; i < into.per_rank.size() && i < more.per_rank.size();
       ++i)
    into.per_rank[i] =
        w_into + w_more > 0
            ? (into.per_rank[i] * w_into + more.per_rank[i] * w_more) /
                  (w_into + w_more)
            : more.per_rank[i];
  Timing head{into.samples_max, into.samples_min, into.samples_avg, into.time};
  merge_timing(
      head, {more.samples_max, more.samples_min, more.samples_avg, more.time});
  into.samples_max = head.samples_max;
  into.samples_min = head.samples_min;
  into.samples_avg = head.samples_avg;
  into.time = head.time;
  into.repetitions += more.repetitions;
  into.bandwidth =
      into.time.median > 0 && into.payload_bytes > 0
          ? static_cast<double>(into.payload_bytes) / into.time.median
          : 0;
  append(into.slots, more.slots);
  merge_noise(into.noise, more.noise);
  for (PhaseTiming& ph : into.phases)
    if (const auto* m = named(more.phases, ph.name)) merge_timing(ph, *m);
  for (PartTiming& pt : into.parts)
    if (const auto* m = named(more.parts, pt.name)) {
      merge_timing(pt, *m);
      for (PhaseTiming& ph : pt.phases)
        if (const auto* mp = named(m->phases, ph.name)) merge_timing(ph, *mp);
    }
  for (MetricValue& mv : into.metrics)
    if (const auto* m = named(more.metrics, mv.name)) {
      append(mv.samples, m->samples);
      mv.value = summarize(mv.samples).median;
    }
  if (more.verification == "failed" && into.verification != "failed") {
    into.verification = "failed";
    into.verification_message = more.verification_message;
  }
  if (more.inner_iterations != into.inner_iterations)
    into.notes.push_back(
        "runner ab: inner iterations " + std::to_string(into.inner_iterations) +
        " in the first block, " + std::to_string(more.inner_iterations) +
        " in the second.");
  for (const std::string& n : more.notes)
    if (std::find(into.notes.begin(), into.notes.end(), n) == into.notes.end())
      into.notes.push_back(n);
}

}  // namespace mpiarena
