#include <cctype>
#include <mpiarena/persistent.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

std::string persistent_missing(const std::string& call) {
  return std::string(kMpiImplementation) + " has neither MPI_" + call +
         " (MPI-4) nor MPIX_" + call +
         " (Open MPI's pcollreq extension): no persistent collectives";
}

std::string persistent_known_broken(const std::string& name) {
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
  // Found by these methods' checks, and by hand in plain C on
  // MPI_COMM_WORLD (docs/methods.md, MPI-4).
  if (name == "MPI_Allgather_init" || name == "MPI_Scatter_init")
    return std::string(kMpiImplementation) + "'s " + name +
           " is known to deliver wrong data: blocks left unwritten after the "
           "first MPI_Start (and MPI_Wait failing at 3 ranks)";
  if (name == "MPI_Gather_init")
    return std::string(kMpiImplementation) + "'s " + name +
           " is known to deliver wrong data: the root's own block is never "
           "copied (pmodels/mpich#7078)";
#else
  (void)name;
#endif
  return {};
}

// The blocking method's collective (its param "collective", else its
// library_collective) becomes the param "persistent".
StrategyInfo persistent_info(StrategyInfo info) {
  std::string collective = std::move(info.library_collective);
  info.library_collective.clear();
  std::vector<std::pair<std::string, std::string>> params;
  for (auto& kv : info.params)
    if (kv.first == "collective")
      collective = kv.second;
    else
      params.push_back(std::move(kv));
  if (collective.empty()) collective = info.name;
  params.emplace_back("persistent", collective);
  info.params = std::move(params);
  std::string call = collective;
  call[0] = static_cast<char>(std::toupper(call[0]));
  info.name += "_persistent";
  info.summary = "persistent (" MPIARENA_PERSISTENT_PREFIX + call +
                 "_init once, then MPI_Start + MPI_Wait): " + info.summary;
  return info;
}

}  // namespace mpiarena
