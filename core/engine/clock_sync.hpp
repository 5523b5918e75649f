// Internal: a global clock over the ranks of a communicator, for window timing
// (docs/methodology.md "A global clock").
//
// Every rank models its own clock (MPI_Wtime) against the reference rank's
// (rank 0 of the communicator) as a line: reference = local - (offset +
// slope x local). Two algorithms learn the models, chosen at run time:
//
//   jk   (Jones and Koenig's, O(p)): rank 0 measures every other rank's
//        offset at F fit points spread over the sync time, one rank after
//        the other in each fit point, and each rank fits its line to its
//        points;
//   hca  (Hunold and Carpen-Amarie's hierarchical one, O(log p)): in round
//        r every rank whose lowest set bit is bit r learns its line
//        against the rank 2^r below it, all such pairs at once; then the
//        lines are composed down the tree from rank 0, so that every rank
//        holds its line against rank 0.
//
// One offset measurement between a client and its server is SKaMPI's: K
// ping-pongs (up to 10 K while none came back within 10 us), the client's
// clock read before the ping and after the pong, the server's in between;
// the one with the shortest round trip gives the offset (client - server)
// at the midpoint of the client's two reads. A
// slope is kept only when it is larger than three standard errors of its
// fit (on one node every rank reads the same clock and the slope is 0); a
// slope fitted from noise would grow the error over a run.
//
// The accuracy is measured, not assumed: residuals() is an independent
// measurement, after the models: rank 0 and each other rank in turn,
// ping-pongs on the global clock, the offset that remains.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace mpiarena::clocks {

// reference time = local - (offset + slope x local).
struct ClockModel {
  double offset = 0, slope = 0;
  double global(double local) const { return local - (offset + slope * local); }
  // The local time at which the global clock reads `g`.
  double local(double g) const { return (g + offset) / (1 - slope); }
};

enum class Algorithm { hca, jk };
const char* algorithm_name(Algorithm a);
// "hca" or "jk" (runner/options.hpp, kClockSyncAlgorithms); false for
// anything else.
bool parse_algorithm(const std::string& name, Algorithm& out);

struct SyncParams {
  int exchanges = 10;       // ping-pongs per offset measurement (K)
  int fitpoints = 8;        // offset measurements per line (F)
  double spread_s = 0.004;  // the fit points of a pair spread over this
};

// One offset measurement: the client's local time (midpoint) and its
// offset against the server (client - server), from the ping-pong with the
// shortest round trip.
struct OffsetPoint {
  double local = 0, offset = 0, rtt = 0;
};

// Least squares of offset on local time over the points whose round trip
// was within twice the fastest one's (and 200 ns); the slope kept only
// from 5 points on spanning 50 ms or more, above three standard errors and
// below 100 ppm (else the mean offset, slope 0). One point: its offset.
// With the default spread (4 ms) the model is an offset: a run's checks
// (global_clock.hpp) catch a drift and synchronize again.
ClockModel fit_line(const std::vector<OffsetPoint>& points);

// Collective over `comm`: this rank's model against rank 0 of `comm`.
ClockModel synchronize(Algorithm a, MPI_Comm comm, const SyncParams& p = {});

// Collective over `comm`: every rank's remaining offset against rank 0 on
// the global clock (`model` applied on both sides), measured by `exchanges`
// ping-pongs per rank, rank 0 serving the others in turn; indexed by rank
// (rank 0: all 0), on every rank. Each holds the round trip of the
// exchange it comes from: the offset is known to +- half of it.
std::vector<OffsetPoint> residuals(MPI_Comm comm, const ClockModel& model,
                                   int exchanges = 20);

}  // namespace mpiarena::clocks
