// mpiarena-startup (docs/methods.md, "Start-up: osu_init and osu_hello"):
// the time of MPI_Init and of a first collective, and of a whole launch,
// one launch per sample. The runner cannot measure them (it runs after its
// own MPI_Init), so this program drives the launches itself: it runs the
// launcher K times over itself in probe mode (probe.cpp), times each launch
// from outside, and writes the samples as records of the results schema
// (suite "startup"), which report, compare and trend read like any other.
#pragma once

#include <string>
#include <vector>

namespace mpiarena {

struct StartupOptions {
  // The launcher: a shell command line that the probe is appended to.
  std::string launch = "mpirun -np 2";
  int np = 0;                     // ranks each launch must start (--np)
  bool np_from_launch = false;    // np read from the launch's -np, -n...
  int launches = 10;              // measured launches (samples)
  int warmup = 1;                 // launches run first, not recorded
  int timeout = 300;              // seconds a launch may take (the bound)
  std::string output;             // -o: the result file
  std::string format = "table";   // table | json
  std::string probe;              // internal: probe mode, its file
  bool help = false;
};

// Parses the command line; throws std::invalid_argument with a message
// naming what is wrong and what is accepted.
StartupOptions parse_startup_options(int argc, char** argv);
std::string startup_help();

// One launch's probe, under the launcher; 0 on success.
int run_probe(int& argc, char**& argv, const std::string& out);
// The launches, the records and the table: 0, 1 (a launch failed or a
// check did not hold) or 2 (usage).
int run_startup(const StartupOptions& options, int argc, char** argv);

}  // namespace mpiarena
