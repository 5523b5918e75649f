// mpiarena-startup: the driver of launches (no MPI in this process) or,
// with --probe, one launch's probe (startup.hpp).
#include <iostream>
#include <stdexcept>

#include "runner/launcher.hpp"
#include "runner/startup/startup.hpp"

int main(int argc, char** argv) {
  using namespace mpiarena;
  StartupOptions options;
  try {
    options = parse_startup_options(argc, argv);
  } catch (const std::invalid_argument& e) {
    if (launcher_rank() == 0)
      std::cerr << "mpiarena-startup: error: " << e.what() << ".\n";
    return 2;
  }
  if (!options.probe.empty()) return run_probe(argc, argv, options.probe);
  if (options.help) {
    std::cout << startup_help();
    return 0;
  }
  return run_startup(options, argc, argv);
}
