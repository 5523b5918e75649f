// The copy limit of a run's transfer points (docs/methodology.md, "The
// copy limit"): measured once per payload byte count and rank count, before
// the first group that needs it (outside every timed loop), kept, and put
// in each transfer record with the fraction its method reaches.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "core/results/copy_limit.hpp"
#include "core/results/records.hpp"
#include "runner/plan.hpp"

namespace spdlog {
class logger;
}

namespace mpiarena {

class CopyLimits {
 public:
  // `available`: the memory the node with the least may fill (0: unknown),
  // shared by up to `ranks_per_node` ranks.
  CopyLimits(bool on, std::size_t available, int ranks_per_node)
      : on_(on), available_(available), ranks_per_node_(ranks_per_node) {}

  // Collective over `harness` (the group's ranks): measures the limit for
  // the group's points that need one and have none yet; not where its two
  // buffers per rank would fill more than half the node's available memory
  // (the log says so). Rank 0 logs it.
  void prepare(const std::vector<const Point*>& group, MPI_Comm harness,
               spdlog::logger& log, int rank);

  // The limit of `p`'s byte count in `rec`, with the copies its method
  // declares and the fraction (nothing when it was not measured).
  void attach(Record& rec, const Point& p) const;

 private:
  using Key = std::pair<std::size_t, int>;  // payload bytes, ranks
  static Key key_of(const Point& p);
  bool needs(const Point& p) const;
  // The copies of one message on the MPI library's shared-memory path
  // (library_path_copies), read once through MPI_T; 0 when unknown.
  int library_copies() const;

  bool on_;
  std::size_t available_;
  int ranks_per_node_;
  std::map<Key, CopyLimit> limits_;
  mutable int library_ = -1;  // not read yet
};

}  // namespace mpiarena
