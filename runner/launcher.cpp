#include "runner/launcher.hpp"

#include <cstdlib>

namespace mpiarena {

namespace {
constexpr const char* kLauncherRankVars[] = {
    "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
}

int launcher_rank() {
  for (const char* var : kLauncherRankVars)
    if (const char* v = std::getenv(var)) return std::atoi(v);
  return 0;
}

bool under_launcher() {
  for (const char* var : kLauncherRankVars)
    if (std::getenv(var)) return true;
  return false;
}

}  // namespace mpiarena
