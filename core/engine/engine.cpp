#include "core/engine/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "core/engine/collective.hpp"
#include "core/engine/noise.hpp"
#include "core/engine/point_notes.hpp"
#include "core/engine/point_run.hpp"
#include "core/engine/timed_run.hpp"
#include "core/engine/watchdog.hpp"

namespace mpiarena {

namespace {

using namespace timing;  // NOLINT: the steps of timed_run.hpp

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The members through the steps together (interleaved when there are
// several); each result in `out`, by member.
void run_together(const std::vector<GroupMember*>& members,
                  const MeasureOptions& opt, MPI_Comm harness,
                  std::uint64_t seed, int group,
                  const std::vector<GroupResult*>& out) {
  // One rank per node reads the node's steal time.
  MPI_Comm node = MPI_COMM_NULL;
  int rank = 0, node_rank = 0;
  MPIARENA_CHECK(MPI_Comm_rank(harness, &rank));
  MPIARENA_CHECK(MPI_Comm_split_type(harness, MPI_COMM_TYPE_SHARED, rank,
                                     MPI_INFO_NULL, &node));
  MPIARENA_CHECK(MPI_Comm_rank(node, &node_rank));
  MPIARENA_CHECK(MPI_Comm_free(&node));
  NoiseProbe probe(opt.noise, node_rank == 0);
  CoreProbe state(harness, opt.noise && !opt.oversubscribed);

  const std::size_t n = members.size();
  std::vector<std::unique_ptr<PointRun>> runs;
  for (GroupMember* m : members)
    runs.push_back(std::make_unique<PointRun>(*m, opt, harness));
  std::vector<bool> alive(n, true);
  // Each step of a member under its own catch: a failure ends that member
  // on every rank alike (the exceptions are agreed on), the others go on.
  auto step = [&](std::size_t i, auto&& body) {
    if (!alive[i]) return;
    try {
      body();
    } catch (const PointUsageError& e) {
      alive[i] = false;
      out[i]->kind = GroupResult::failed;
      out[i]->usage = true;
      out[i]->reason = e.what();
      runs[i]->release();
    } catch (const PointSkipped& e) {
      alive[i] = false;
      out[i]->kind = GroupResult::skipped;
      out[i]->reason = e.what();
    } catch (const PointError& e) {
      alive[i] = false;
      out[i]->kind = GroupResult::failed;
      out[i]->reason = e.what();
      runs[i]->release();
    }
  };
  for (std::size_t i = 0; i < n; ++i) step(i, [&] { runs[i]->prepare(); });
  for (std::size_t i = 0; i < n; ++i) step(i, [&] { runs[i]->calibrate(); });
  for (int round = 0;; ++round) {
    std::vector<std::size_t> order;
    for (int k : round_order(seed, group, round, static_cast<int>(n)))
      if (alive[static_cast<std::size_t>(k)] &&
          runs[static_cast<std::size_t>(k)]->sampling())
        order.push_back(static_cast<std::size_t>(k));
    if (order.empty()) break;
    for (std::size_t slot = 0; slot < order.size(); ++slot)
      step(order[slot], [&] {
        runs[order[slot]]->sample(static_cast<int>(slot), &probe, &state,
                                  n > 1);
      });
  }
  for (std::size_t i = 0; i < n; ++i)
    step(i, [&] {
      out[i]->record = runs[i]->finish();
      out[i]->kind = GroupResult::measured;
      if (n > 1) {
        out[i]->record.interleave_group = group;
        out[i]->record.interleave_points = static_cast<int>(n);
      } else {
        out[i]->record.slots.clear();
      }
    });
  Watchdog::instance().set_point({});
}

}  // namespace

std::vector<int> round_order(std::uint64_t seed, int group, int round, int n) {
  std::uint64_t state = seed ^ (static_cast<std::uint64_t>(group) << 32) ^
                        static_cast<std::uint64_t>(round);
  splitmix64(state);
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  for (int i = n - 1; i > 0; --i) {  // Fisher-Yates
    const int j =
        static_cast<int>(splitmix64(state) % static_cast<std::uint64_t>(i + 1));
    std::swap(order[static_cast<std::size_t>(i)],
              order[static_cast<std::size_t>(j)]);
  }
  return order;
}

// On an oversubscribed node a rank that has finished (or has nothing to do,
// as the idle ranks of a single ping-pong pair) must not take CPU time from
// the ranks still inside the timed loop.
void sleeping_barrier(MPI_Comm harness) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPIARENA_CHECK(MPI_Ibarrier(harness, &request));
  // First 50 us of polling: a rank whose last message still needs its own
  // progress (an eager fragment in flight) gets it at once, and a short
  // wait costs no sleep. Then sleeps growing from 20 us to 1 ms: every
  // wake-up takes a core from a rank that is working, so a long wait must
  // not wake often.
  int done = 0;
  for (const double until = MPI_Wtime() + 50e-6; !done && MPI_Wtime() < until;)
    MPIARENA_CHECK(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
  std::chrono::microseconds nap(20);
  while (!done) {
    std::this_thread::sleep_for(nap);
    nap = std::min(2 * nap, std::chrono::microseconds(1000));
    MPIARENA_CHECK(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
  }
}

std::vector<GroupResult> measure_group(std::vector<GroupMember>& members,
                                       const MeasureOptions& opt,
                                       MPI_Comm harness, std::uint64_t seed,
                                       int group) {
  std::vector<GroupResult> results(members.size());
  if (members.empty()) return results;
  Watchdog::instance().set_rank(members.front().ctx.rank);
  std::vector<GroupMember*> all;
  std::vector<GroupResult*> out;
  for (std::size_t i = 0; i < members.size(); ++i) {
    all.push_back(&members[i]);
    out.push_back(&results[i]);
  }
  if (opt.interleave) {
    run_together(all, opt, harness, seed, group, out);
  } else {
    for (std::size_t i = 0; i < members.size(); ++i)
      run_together({all[i]}, opt, harness, seed, group, {out[i]});
  }
  return results;
}

Record measure_point(Strategy& strategy, const RunContext& ctx,
                     const MeasureOptions& opt, MPI_Comm harness) {
  std::vector<GroupMember> one(1);
  one[0].strategy = &strategy;
  one[0].ctx = ctx;
  one[0].info = opt.info;
  one[0].time_scale = opt.time_scale;
  GroupResult r = measure_group(one, opt, harness, 0, 0).front();
  if (r.kind == GroupResult::skipped) throw PointSkipped(r.reason);
  if (r.kind == GroupResult::failed) throw PointError(r.reason);
  return std::move(r.record);
}

}  // namespace mpiarena
