// One launch of mpiarena-startup --probe FILE, under the launcher: every
// rank times its MPI_Init as osu_init does (the clock read just before and
// just after the call) and its first collective (an MPI_Barrier, the first
// call after MPI_Init), then checks that the whole job is there (the sum
// of the ranks over MPI_COMM_WORLD); rank 0 writes what every rank saw to
// FILE as one JSON object, which the driver (driver.cpp) reads.
#include <mpi.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runner/startup/startup.hpp"

namespace mpiarena {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string s(text, static_cast<std::size_t>(length));
  return s.substr(0, s.find('\n'));
}

}  // namespace

int run_probe(int& argc, char**& argv, const std::string& out) {
  const Clock::time_point before_init = Clock::now();
  MPI_Init(&argc, &argv);
  const Clock::time_point after_init = Clock::now();
  MPI_Barrier(MPI_COMM_WORLD);
  const Clock::time_point after_barrier = Clock::now();

  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The whole job took part: the ranks' sum is 0 + 1 + ... + size - 1.
  long long mine = rank, sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  const double times[2] = {seconds(before_init, after_init),
                           seconds(after_init, after_barrier)};
  std::vector<double> all(2 * static_cast<std::size_t>(size));
  MPI_Gather(times, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0,
             MPI_COMM_WORLD);
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  std::vector<char> names(static_cast<std::size_t>(size) *
                          MPI_MAX_PROCESSOR_NAME);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(),
             MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);

  int code = 0;
  if (rank == 0) {
    nlohmann::json j;
    j["ranks"] = size;
    j["rank_sum"] = sum;
    j["init_s"] = nlohmann::json::array();
    j["barrier_s"] = nlohmann::json::array();
    j["hosts"] = nlohmann::json::array();
    for (int r = 0; r < size; ++r) {
      j["init_s"].push_back(all[2 * static_cast<std::size_t>(r)]);
      j["barrier_s"].push_back(all[2 * static_cast<std::size_t>(r) + 1]);
      j["hosts"].push_back(std::string(
          &names[static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME]));
    }
    j["mpi_library"] = library_version();
    int version = 0, subversion = 0;
    MPI_Get_version(&version, &subversion);
    j["mpi_version"] =
        std::to_string(version) + "." + std::to_string(subversion);
    std::ofstream f(out);
    f << j.dump() << "\n";
    if (!f.flush()) code = 1;
  }
  MPI_Finalize();
  return code;
}

}  // namespace mpiarena
