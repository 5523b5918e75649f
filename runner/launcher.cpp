#include "runner/launcher.hpp"

#include <cstdlib>
#include <ctime>

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

std::string iso_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace mpiarena
