// The key that matches a record across files and names a point
// ("transfer/bcast/2d/1100000/np4"): compare, trend and the formats use it.
#pragma once

#include <cstddef>
#include <string>

#include "core/results/records.hpp"

namespace mpiarena {

struct PointKey {
  std::string suite, method, payload, size_label;
  std::size_t bytes = 0;
  int ranks = 0;
  int pairs = 0;  // pairwise methods: pairs at once; 0 otherwise
  // Pairwise methods whose pairs crossed nodes: "inter" or "mixed"; empty
  // within a node (and in files written before pair_placement existed).
  std::string placement;
};
// Whether a pairwise method's pairs crossed nodes: "inter" or "mixed";
// empty within a node (and for records written before pair_placement
// existed, all from one node).
std::string across_nodes(const Record& r);
// The key that matches a record across files.
PointKey point_key(const Record& r);
// "transfer/bcast/2d/1100000/np4"; "pingpong/mpi_bytes/bytes/1024/np4/2pairs"
// for 2 or more pairs at once; ".../np4/inter" for a pair across nodes.
std::string point_name(const PointKey& k);

}  // namespace mpiarena
