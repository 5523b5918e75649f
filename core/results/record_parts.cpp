// Parts of a record's JSON with their own shape (record_parts.hpp).
#include "core/results/record_parts.hpp"

namespace mpiarena {

using nlohmann::json;

json noise_json(const Noise& noise) {
  json n = {{"steal_s", noise.steal_s},
            {"preemptions", noise.preemptions},
            {"retries", noise.retries},
            {"noisy_samples", noise.noisy_samples},
            {"noisy", noise.noisy}};
  if (!noise.cpu_mhz.empty()) n["cpu_mhz"] = noise.cpu_mhz;
  if (!noise.core_to_core_ns.empty())
    n["core_to_core_ns"] = noise.core_to_core_ns;
  if (!noise.reason.empty()) n["reason"] = noise.reason;
  return n;
}

Noise noise_from(const json& n) {
  Noise noise;
  noise.recorded = true;
  noise.steal_s = n.at("steal_s").get<std::vector<double>>();
  noise.preemptions = n.at("preemptions").get<std::vector<int>>();
  if (n.contains("cpu_mhz"))
    noise.cpu_mhz = n.at("cpu_mhz").get<std::vector<double>>();
  if (n.contains("core_to_core_ns"))
    noise.core_to_core_ns = n.at("core_to_core_ns").get<std::vector<double>>();
  noise.retries = n.at("retries").get<int>();
  noise.noisy_samples = n.at("noisy_samples").get<int>();
  noise.noisy = n.at("noisy").get<bool>();
  noise.reason = n.value("reason", "");
  return noise;
}

json sync_json(const SyncTiming& s) {
  return {{"method", "window"},     {"clock", s.clock},
          {"window_s", s.window_s}, {"windows", s.windows},
          {"invalid", s.invalid},   {"invalid_fraction", s.invalid_fraction()},
          {"grew", s.grew},         {"residual_s", s.residual_s}};
}

SyncTiming sync_from(const json& j) {
  SyncTiming s;
  s.windowed = j.at("method").get<std::string>() == "window";
  s.clock = j.at("clock").get<std::string>();
  s.window_s = j.at("window_s").get<double>();
  s.windows = j.at("windows").get<std::int64_t>();
  s.invalid = j.at("invalid").get<std::int64_t>();
  s.grew = j.at("grew").get<int>();
  s.residual_s = j.at("residual_s").get<double>();
  return s;
}

}  // namespace mpiarena
