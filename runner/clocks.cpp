// runner clocks: how well the ranks' clocks agree once synchronized
// (core/engine/clock_sync.hpp), per algorithm, measured by an independent
// ping-pong check right after the synchronization and again a second later.
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <mpiarena/mpi_check.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/engine/clock_sync.hpp"
#include "core/engine/global_clock.hpp"
#include "core/engine/watchdog.hpp"
#include "core/results/units.hpp"
#include "runner/commands.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

namespace {

// The wait between the two checks: the drift shows over it.
constexpr double kLater = 1.0;

struct Measured {
  std::string algorithm;
  double sync_s = 0, interval_s = 0;
  std::vector<double> offset, slope, residual, later, rtt, later_rtt;
};

void split(const std::vector<clocks::OffsetPoint>& points,
           std::vector<double>& offset, std::vector<double>& rtt) {
  for (const clocks::OffsetPoint& p : points) {
    offset.push_back(p.offset);
    rtt.push_back(p.rtt);
  }
}

// A step of the synchronization or a check must end within `bound` s: a
// rank that failed leaves the others waiting in MPI, and the watchdog ends
// the run with one message naming the step (exit 3).
Measured measure(clocks::Algorithm a, MPI_Comm comm, double bound) {
  Measured m;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  m.algorithm = clocks::algorithm_name(a);
  int size = 1;
  MPI_Comm_size(comm, &size);
  clocks::ClockModel model;
  {
    Armed armed(std::string("clock synchronization (") + m.algorithm + ")",
                bound, Role::plugin);
    MPIARENA_CHECK(MPI_Barrier(comm));
    clock_test_hang(rank);
    const double t0 = MPI_Wtime();
    model = clocks::synchronize(a, comm);
    double mine = MPI_Wtime() - t0;
    MPIARENA_CHECK(
        MPI_Allreduce(&mine, &m.sync_s, 1, MPI_DOUBLE, MPI_MAX, comm));
  }
  Armed armed(std::string("clock check (") + m.algorithm + ")", bound + kLater,
              Role::plugin);
  const double first = MPI_Wtime();
  split(clocks::residuals(comm, model), m.residual, m.rtt);
  std::this_thread::sleep_for(std::chrono::duration<double>(kLater));
  const double second = MPI_Wtime();
  split(clocks::residuals(comm, model), m.later, m.later_rtt);
  double interval = second - first;
  MPIARENA_CHECK(
      MPI_Allreduce(&interval, &m.interval_s, 1, MPI_DOUBLE, MPI_MAX, comm));
  const double line[2] = {model.offset, model.slope};
  std::vector<double> all(2 * static_cast<std::size_t>(size));
  MPIARENA_CHECK(
      MPI_Allgather(line, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, comm));
  for (int r = 0; r < size; ++r) {
    m.offset.push_back(all[2 * static_cast<std::size_t>(r)]);
    m.slope.push_back(all[2 * static_cast<std::size_t>(r) + 1]);
  }
  return m;
}

// The largest |residual| and its uncertainty: +- half the round trip of
// the check's exchange it comes from.
std::string worst(const std::vector<double>& v,
                  const std::vector<double>& rtt) {
  std::size_t at = 0;
  for (std::size_t r = 0; r < v.size(); ++r)
    if (std::fabs(v[r]) > std::fabs(v[at])) at = r;
  return format_seconds(std::fabs(v[at])) + " +- " +
         format_seconds(rtt[at] / 2);
}

nlohmann::json to_json(const std::vector<Measured>& all, int ranks) {
  nlohmann::json out = {{"ranks", ranks},
                        {"clock", "MPI_Wtime"},
                        {"reference_rank", 0},
                        {"algorithms", nlohmann::json::array()}};
  for (const Measured& m : all) {
    std::vector<double> drift;
    for (std::size_t r = 0; r < m.residual.size(); ++r)
      drift.push_back((m.later[r] - m.residual[r]) / m.interval_s);
    out["algorithms"].push_back({{"algorithm", m.algorithm},
                                 {"sync_s", m.sync_s},
                                 {"offset_s", m.offset},
                                 {"slope", m.slope},
                                 {"residual_s", m.residual},
                                 {"residual_rtt_s", m.rtt},
                                 {"later_s", m.later},
                                 {"later_rtt_s", m.later_rtt},
                                 {"interval_s", m.interval_s},
                                 {"drift", drift}});
  }
  return out;
}

std::string table_text(const std::vector<Measured>& all, int ranks) {
  std::ostringstream os;
  os << "clock synchronization over " << ranks
     << " ranks (MPI_Wtime, rank 0 the reference): each rank's "
        "offset left on the global clock, measured by ping-pongs "
        "right after the synchronization and "
     << kLater << " s later\n\n";
  os << "   algorithm   sync time   max |residual|   " << kLater
     << " s later   model (offset, slope) per rank\n";
  for (const Measured& m : all) {
    os << "   " << m.algorithm << std::string(12 - m.algorithm.size(), ' ')
       << format_seconds(m.sync_s) << "   " << worst(m.residual, m.rtt)
       << "   " << worst(m.later, m.later_rtt) << "   ";
    for (std::size_t r = 1; r < m.offset.size(); ++r)
      os << (r > 1 ? ", " : "") << r << ": (" << format_seconds(m.offset[r])
         << ", " << m.slope[r] << ")";
    os << "\n";
  }
  return os.str();
}

}  // namespace

int command_clocks(const Options& options) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Watchdog::instance().set_rank(rank);
  MPI_Comm comm = MPI_COMM_NULL;
  MPIARENA_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  std::vector<Measured> all;
  for (const std::string& name : options.clock_sync) {
    clocks::Algorithm a;
    clocks::parse_algorithm(name, a);  // checked by the options
    all.push_back(measure(
        a, comm, options.point_timeout > 0 ? options.point_timeout : 3600));
  }
  MPI_Comm_free(&comm);
  if (rank != 0) return 0;
  Printout out;
  out.json = [&] { return to_json(all, size); };
  out.tables = [&](Style) { return table_text(all, size); };
  std::cout << reporter(options.format).render(out);
  return 0;
}

}  // namespace mpiarena
