// The copy limit's arithmetic and JSON (copy_limit.hpp).
#include "core/results/copy_limit.hpp"

#include <algorithm>

namespace mpiarena {

double best_rate(std::size_t bytes, const std::vector<double>& seconds) {
  if (seconds.empty()) return 0;
  const double best = *std::min_element(seconds.begin(), seconds.end());
  return best > 0 ? static_cast<double>(bytes) / best : 0;
}

double aggregate_rate(std::size_t bytes, int ranks, double slowest) {
  if (ranks <= 0 || slowest <= 0) return 0;
  return static_cast<double>(bytes) * ranks / slowest;
}

double copy_fraction(double bandwidth_Bps, int copies, int receivers,
                     double limit_Bps) {
  if (bandwidth_Bps <= 0 || copies <= 0 || receivers <= 0 || limit_Bps <= 0)
    return 0;
  return bandwidth_Bps * copies * receivers / limit_Bps;
}

int library_path_copies(const std::string& single_copy_mechanism) {
  if (single_copy_mechanism.empty()) return 0;
  return single_copy_mechanism == "none" ? 2 : 1;
}

void apply_copies(CopyLimit& limit, int copies, int ranks,
                  double bandwidth_Bps, bool one_core) {
  limit.copies = std::max(copies, 0);
  limit.fraction_of.clear();
  limit.fraction = 0;
  const int receivers = ranks - 1;
  if (limit.copies == 0 || receivers <= 0) return;
  const bool one = (one_core && limit.copies * receivers == 1) ||
                   limit.node_ranks < 2;
  limit.fraction_of = one ? "one_core" : "all_ranks";
  limit.fraction =
      copy_fraction(bandwidth_Bps, limit.copies, receivers,
                    one ? limit.one_core_Bps : limit.all_ranks_Bps);
}

nlohmann::json copy_limit_json(const CopyLimit& c) {
  nlohmann::json j = {{"bytes", c.bytes},
                      {"one_core_Bps", c.one_core_Bps},
                      {"all_ranks_Bps", c.all_ranks_Bps},
                      {"node_ranks", c.node_ranks},
                      {"repetitions", c.repetitions},
                      {"statistic", "best"},
                      {"seconds", c.seconds},
                      {"copies", c.copies}};
  if (!c.fraction_of.empty()) {
    j["fraction_of"] = c.fraction_of;
    j["fraction"] = c.fraction;
  }
  return j;
}

CopyLimit copy_limit_from(const nlohmann::json& j) {
  CopyLimit c;
  c.bytes = j.at("bytes").get<std::size_t>();
  c.one_core_Bps = j.at("one_core_Bps").get<double>();
  c.all_ranks_Bps = j.at("all_ranks_Bps").get<double>();
  c.node_ranks = j.at("node_ranks").get<int>();
  c.repetitions = j.at("repetitions").get<int>();
  c.seconds = j.value("seconds", 0.0);
  c.copies = j.value("copies", 0);
  c.fraction_of = j.value("fraction_of", "");
  c.fraction = j.value("fraction", 0.0);
  return c;
}

}  // namespace mpiarena
