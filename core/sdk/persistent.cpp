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
