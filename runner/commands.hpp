// The runner's commands: list, --help-method and the run (MPI); the file
// commands (files/files.hpp) too.
#pragma once

#include <string>
#include <vector>

#include "files.hpp"
#include "options.hpp"
#include "registry.hpp"

namespace mpiarena {

// This process's rank as the launcher announces it (Open MPI, PMIx, PMI,
// Slurm), for printing before MPI is initialised; 0 when not launched.
int launcher_rank();
// Whether a launcher (mpirun, srun) started this process.
bool under_launcher();

std::string executable_dir();

// Loads the plugins from the default directories and --plugin-dir. Fills
// `errors` with what must stop the run (a missing --plugin-dir) and
// `warnings` with what is only reported (a broken plugin file).
void load_plugins(Registry& registry, const Options& options,
                  std::vector<std::string>& errors,
                  std::vector<std::string>& warnings);

int command_list(const Options& options);
int command_help_method(const Options& options);
int command_run(const Options& options, int argc, char** argv);

}  // namespace mpiarena
