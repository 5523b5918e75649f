// The runner's commands: list, --help-method and the run (MPI); the file
// commands (files/files.hpp) too.
#pragma once

#include <string>
#include <vector>

#include "core/engine/registry.hpp"
#include "runner/files/files.hpp"
#include "runner/launcher.hpp"
#include "runner/options.hpp"

namespace mpiarena {

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
// runner clocks: every --clock-sync algorithm's synchronization over the
// launch, its residual offsets right after it and a second later, printed
// by rank 0 (clocks.cpp). Exit 0.
int command_clocks(const Options& options);

}  // namespace mpiarena
