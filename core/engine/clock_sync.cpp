// A global clock over the ranks (clock_sync.hpp).
#include "core/engine/clock_sync.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mpiarena/mpi_check.hpp>

namespace mpiarena::clocks {

namespace {

constexpr int kPingTag = 4601, kPongTag = 4602, kModelTag = 4603;
// A slope is fitted from 5 points or more; one above 100 ppm is not a
// clock's drift (quartz: a few ppm to tens) but the noise of few points.
constexpr std::size_t kMinSlopePoints = 5;
constexpr double kMaxDrift = 1e-4;
// A slope fitted over a few milliseconds, extrapolated over a run's
// seconds, turns the offsets' noise into a drift (at 4 oversubscribed ranks
// a 90 ppm slope fitted over 4 ms left a rank 92 us off a second later):
// a slope is kept only from points that span at least this long.
constexpr double kMinSlopeSpan = 0.05;
// An exchange this fast bounds an offset's error to +- 5 us; until one is,
// an offset measurement goes on, up to 10 times its exchanges.
constexpr double kGoodRtt = 10e-6;
constexpr int kMoreExchanges = 10;

// The client's side of one offset measurement against `server`; `to_clock`
// turns a local reading into the clock compared (identity, or global).
// Each ping carries whether an answer is wanted: `exchanges` ping-pongs,
// and more, up to kMoreExchanges times as many, while none has come back
// within kGoodRtt (a rank descheduled on an oversubscribed node); then a
// last ping that says stop.
template <class ToClock>
OffsetPoint measure(MPI_Comm comm, int server, int exchanges,
                    ToClock to_clock) {
  OffsetPoint best;
  best.rtt = std::numeric_limits<double>::infinity();
  for (int k = 0;
       k < exchanges || (best.rtt > kGoodRtt && k < kMoreExchanges * exchanges);
       ++k) {
    const int answer = 1;
    double theirs = 0;
    const double t0 = MPI_Wtime();
    MPIARENA_CHECK(MPI_Send(&answer, 1, MPI_INT, server, kPingTag, comm));
    MPIARENA_CHECK(MPI_Recv(&theirs, 1, MPI_DOUBLE, server, kPongTag, comm,
                            MPI_STATUS_IGNORE));
    const double t1 = MPI_Wtime();
    if (t1 - t0 < best.rtt) {
      best.rtt = t1 - t0;
      best.local = (t0 + t1) / 2;
      best.offset = (to_clock(t0) + to_clock(t1)) / 2 - theirs;
    }
  }
  const int stop = 0;
  MPIARENA_CHECK(MPI_Send(&stop, 1, MPI_INT, server, kPingTag, comm));
  return best;
}

// The server's side: answers the pings of `client` with its clock until
// one says stop.
template <class ToClock>
void serve(MPI_Comm comm, int client, ToClock to_clock) {
  for (;;) {
    int answer = 0;
    MPIARENA_CHECK(MPI_Recv(&answer, 1, MPI_INT, client, kPingTag, comm,
                            MPI_STATUS_IGNORE));
    if (!answer) return;
    const double now = to_clock(MPI_Wtime());
    MPIARENA_CHECK(MPI_Send(&now, 1, MPI_DOUBLE, client, kPongTag, comm));
  }
}

double identity(double t) { return t; }

// Busy-waits until `seconds` have passed since `from` (MPI_Wtime): the fit
// points of a line spread over the sync time.
void wait_until(double from, double seconds) {
  while (MPI_Wtime() - from < seconds) {
  }
}

// Composes a's line against b's clock with b's line against the reference:
// this rank's line against the reference.
ClockModel compose(const ClockModel& a, const ClockModel& b) {
  // ref = (l - a(l)) - b(l - a(l)), a(l) = oa + sa l, b(x) = ob + sb x.
  ClockModel out;
  out.offset = a.offset + b.offset - b.slope * a.offset;
  out.slope = a.slope + b.slope - b.slope * a.slope;
  return out;
}

ClockModel sync_jk(MPI_Comm comm, const SyncParams& p) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<OffsetPoint> mine;
  const double start = MPI_Wtime();
  for (int f = 0; f < p.fitpoints; ++f) {
    if (rank == 0)
      wait_until(start, p.spread_s * f / std::max(1, p.fitpoints - 1));
    for (int client = 1; client < size; ++client) {
      if (rank == 0)
        serve(comm, client, identity);
      else if (rank == client)
        mine.push_back(measure(comm, 0, p.exchanges, identity));
    }
  }
  return rank == 0 ? ClockModel{} : fit_line(mine);
}

ClockModel sync_hca(MPI_Comm comm, const SyncParams& p) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Round r: the ranks whose lowest set bit is r are clients of rank -
  // 2^r, their servers the ranks of which r is below the lowest set bit.
  ClockModel to_server;
  int server = -1, rounds = 0;
  while ((1 << rounds) < size) ++rounds;
  for (int r = 0; r < rounds; ++r) {
    const int step = 1 << r;
    if (rank % (2 * step) == step) {
      server = rank - step;
      std::vector<OffsetPoint> points;
      const double start = MPI_Wtime();
      for (int f = 0; f < p.fitpoints; ++f) {
        wait_until(start, p.spread_s * f / std::max(1, p.fitpoints - 1));
        points.push_back(measure(comm, server, p.exchanges, identity));
      }
      to_server = fit_line(points);
    } else if (rank % (2 * step) == 0 && rank + step < size) {
      for (int f = 0; f < p.fitpoints; ++f) serve(comm, rank + step, identity);
    }
  }
  // Down the tree: a rank receives its server's line against rank 0 and
  // sends its own to its clients, the highest round's first.
  ClockModel to_root;
  if (server >= 0) {
    double line[2];
    MPIARENA_CHECK(MPI_Recv(line, 2, MPI_DOUBLE, server, kModelTag, comm,
                            MPI_STATUS_IGNORE));
    to_root = compose(to_server, ClockModel{line[0], line[1]});
  }
  for (int r = rounds - 1; r >= 0; --r) {
    const int step = 1 << r;
    if (rank % (2 * step) == 0 && rank + step < size) {
      const double line[2] = {to_root.offset, to_root.slope};
      MPIARENA_CHECK(
          MPI_Send(line, 2, MPI_DOUBLE, rank + step, kModelTag, comm));
    }
  }
  return to_root;
}

}  // namespace

const char* algorithm_name(Algorithm a) {
  return a == Algorithm::hca ? "hca" : "jk";
}

bool parse_algorithm(const std::string& name, Algorithm& out) {
  if (name == "hca")
    out = Algorithm::hca;
  else if (name == "jk")
    out = Algorithm::jk;
  else
    return false;
  return true;
}

ClockModel fit_line(const std::vector<OffsetPoint>& all) {
  ClockModel m;
  if (all.empty()) return m;
  // A point whose best round trip was slow (a rank descheduled in it: an
  // oversubscribed node) has an error up to half of it: only the points
  // within twice the fastest round trip (and 200 ns) are fitted.
  double fastest = all.front().rtt;
  for (const OffsetPoint& q : all) fastest = std::min(fastest, q.rtt);
  std::vector<OffsetPoint> points;
  for (const OffsetPoint& q : all)
    if (q.rtt <= std::max(2 * fastest, fastest + 200e-9)) points.push_back(q);
  const double n = static_cast<double>(points.size());
  double mx = 0, my = 0;
  for (const OffsetPoint& q : points) mx += q.local / n, my += q.offset / n;
  double sxx = 0, sxy = 0;
  for (const OffsetPoint& q : points) {
    sxx += (q.local - mx) * (q.local - mx);
    sxy += (q.local - mx) * (q.offset - my);
  }
  double slope = sxx > 0 ? sxy / sxx : 0;
  double first = points.front().local, last = first;
  for (const OffsetPoint& q : points)
    first = std::min(first, q.local), last = std::max(last, q.local);
  if (points.size() >= kMinSlopePoints && sxx > 0 &&
      last - first >= kMinSlopeSpan) {
    double sse = 0;
    for (const OffsetPoint& q : points) {
      const double e = q.offset - (my + slope * (q.local - mx));
      sse += e * e;
    }
    const double se = std::sqrt(sse / (n - 2) / sxx);
    if (std::fabs(slope) <= 3 * se || std::fabs(slope) > kMaxDrift) slope = 0;
  } else {
    slope = 0;
  }
  m.slope = slope;
  m.offset = my - slope * mx;
  return m;
}

ClockModel synchronize(Algorithm a, MPI_Comm comm, const SyncParams& p) {
  return a == Algorithm::hca ? sync_hca(comm, p) : sync_jk(comm, p);
}

std::vector<OffsetPoint> residuals(MPI_Comm comm, const ClockModel& model,
                                   int exchanges) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto global = [&model](double t) { return model.global(t); };
  OffsetPoint mine;
  for (int client = 1; client < size; ++client) {
    if (rank == 0)
      serve(comm, client, global);
    else if (rank == client)
      mine = measure(comm, 0, exchanges, global);
  }
  const double sent[3] = {mine.local, mine.offset, mine.rtt};
  std::vector<double> got(3 * static_cast<std::size_t>(size));
  MPIARENA_CHECK(
      MPI_Allgather(sent, 3, MPI_DOUBLE, got.data(), 3, MPI_DOUBLE, comm));
  std::vector<OffsetPoint> all;
  for (std::size_t r = 0; r < got.size(); r += 3)
    all.push_back({got[r], got[r + 1], got[r + 2]});
  return all;
}

}  // namespace mpiarena::clocks
