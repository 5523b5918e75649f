// The key of a point across files (point_key.hpp).
#include "core/results/point_key.hpp"

namespace mpiarena {

std::string across_nodes(const Record& r) {
  return r.pair_placement == "intra" ? "" : r.pair_placement;
}

std::string point_name(const PointKey& k) {
  return k.suite + "/" + k.method + "/" + k.payload + "/" +
         std::to_string(k.bytes) + "/np" + std::to_string(k.ranks) +
         (k.pairs > 1 ? "/" + std::to_string(k.pairs) + "pairs" : "") +
         (k.placement.empty() ? "" : "/" + k.placement);
}

PointKey point_key(const Record& r) {
  return {r.suite, r.method, r.payload, r.size_label,
          r.bytes, r.ranks,  r.pairs,   across_nodes(r)};
}

}  // namespace mpiarena
