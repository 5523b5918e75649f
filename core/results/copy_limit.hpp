// The machine's copy limit beside a record (docs/methodology.md, "The copy
// limit"): how fast a memcpy moves a payload's byte count on one core and
// on every rank of the node at once, and the fraction of it a method
// reaches for the bytes it really copies through memory. Pure arithmetic
// and JSON; the engine measures (core/engine/copy_probe.hpp).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mpiarena {

struct CopyLimit {
  std::size_t bytes = 0;     // bytes each copy moved (0: not measured)
  double one_core_Bps = 0;   // one rank of the node copying, the others idle
  double all_ranks_Bps = 0;  // every rank of the node copying its own bytes
  int node_ranks = 0;        // ranks that copied together (all_ranks_Bps)
  int repetitions = 0;       // timed copies of each kind; the best is kept
  double seconds = 0;        // what measuring it cost (buffers included)
  // The record's own figures: the copies of the payload one operation
  // makes per receiving rank (0: not declared, no fraction); the limit
  // they are held against (fraction_of: "one_core" or "all_ranks",
  // apply_copies); and copies x receivers x bandwidth / that limit.
  int copies = 0;
  std::string fraction_of;
  double fraction = 0;
  bool measured() const { return bytes > 0; }
};

// bytes / the shortest of `seconds`: the best rate of the copies (0 when
// there is none or a time is not positive).
double best_rate(std::size_t bytes, const std::vector<double>& seconds);

// The aggregate rate of `ranks` ranks that each copied `bytes` and took
// `slowest` seconds at most: ranks x bytes / slowest (0 when not positive).
double aggregate_rate(std::size_t bytes, int ranks, double slowest);

// copies x receivers x bandwidth / limit: the share of the node's copy
// bandwidth the bytes a transfer copies through memory take. 0 when any
// figure is not positive.
double copy_fraction(double bandwidth_Bps, int copies, int receivers,
                     double limit_Bps);

// The copies of one message on Open MPI's shared-memory path, from its
// btl_vader_single_copy_mechanism setting: "none" is two (the sender into
// a FIFO, the receiver out of it), another mechanism (cma, xpmem, knem)
// one; empty (unknown) 0.
int library_path_copies(const std::string& single_copy_mechanism);

// Sets copies, fraction_of and fraction for a record of `ranks` ranks (one
// root, ranks - 1 receivers) whose bandwidth is `bandwidth_Bps`. The limit
// is one_core_Bps when one core makes the operation's only copy
// (`one_core`: the library's single-copy path, where the receiver reads
// the sender's pages, with one receiver) or the node has one rank, else
// all_ranks_Bps: the copies can run on the node's cores at once.
void apply_copies(CopyLimit& limit, int copies, int ranks,
                  double bandwidth_Bps, bool one_core = false);

nlohmann::json copy_limit_json(const CopyLimit& c);
CopyLimit copy_limit_from(const nlohmann::json& j);

}  // namespace mpiarena
