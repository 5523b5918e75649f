// What every rank of a run must agree on (options.hpp: run_settings), and
// the list splitting the options share.
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "runner/options.hpp"

namespace mpiarena {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    const auto b = item.find_first_not_of(" \t");
    const auto e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

std::string pairs_setting(const Options& o) {
  if (!o.pair_placement.empty()) return o.pair_placement;
  return o.all_pairs ? "all" : "one";
}

namespace {

std::string set_list(const std::vector<OptionSetting>& settings) {
  std::string out;
  for (const OptionSetting& s : settings) {
    out += (out.empty() ? "" : " ") + s.method + "." + s.option + "=";
    for (std::size_t i = 0; i < s.values.size(); ++i)
      out += (i ? "," : "") + s.values[i];
  }
  return out.empty() ? "none" : out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> run_settings(
    const Options& o) {
  auto list = [](const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& i : items) out += (out.empty() ? "" : ",") + i;
    return out;
  };
  std::vector<std::string> sizes;
  // The bytes: a label is only how rank 0 names a point in its records.
  for (const SizePoint& p : o.sizes) sizes.push_back(std::to_string(p.bytes));
  // The shortest text that reads back as the same double ("0.005").
  const std::string min_time = nlohmann::json(o.min_time).dump();
  return {{"--methods", list(o.methods)},
          {"--payloads", list(o.payloads)},
          {"--sizes", list(sizes)},
          {"--pairs", pairs_setting(o)},
          {"--wait", o.wait},
          {"--ranks", o.ranks_spec},
          {"--test-every", std::to_string(o.test_every)},
          {"--exchanges", std::to_string(o.exchanges)},
          {"--window", std::to_string(o.window)},
          {"--stride", std::to_string(o.stride)},
          {"--size-basis", o.size_total ? "total" : "per-rank"},
          {"--min-time", min_time},
          {"--repetitions", std::to_string(o.repetitions)},
          {"--warmup", std::to_string(o.warmup)},
          {"--max-memory", std::to_string(o.max_memory)},
          {"--plugin-dir", list(o.plugin_dirs)},
          {"--base-plugin-dir", list(o.base_plugin_dirs)},
          {"--new-plugin-dir", list(o.new_plugin_dirs)},
          {"--no-verify", o.verify ? "no" : "yes"},
          {"--interleave", o.interleave ? "on" : "off"},
          {"--seed", o.seed_given ? std::to_string(o.seed) : "drawn"},
          {"--noise", o.noise ? "on" : "off"},
          {"--retry-noisy", std::to_string(o.retry_noisy)},
          {"--target-rse", nlohmann::json(o.target_rse).dump()},
          {"--precision", nlohmann::json(o.precision).dump()},
          {"--max-time", nlohmann::json(o.max_time).dump()},
          {"--cache", o.cache_cold ? "cold" : "hot"},
          {"--buffers", o.separate_buffers ? "separate" : "shared"},
          {"--receive", o.receive_fresh ? "fresh" : "reuse"},
          {"--iterations", std::to_string(o.iterations)},
          {"--set", set_list(o.settings)},
          {"--algorithms", list(o.algorithms)},
          {"--profile", o.profile}};
}

}  // namespace mpiarena
