// What runner tune takes from a run of --algorithms and checks first
// (tuning.hpp).
#include <stdexcept>

#include "core/analysis/tuning/tuning.hpp"

namespace mpiarena {

// A forced algorithm is one the run's library listed for its variable
// (the context's library_algorithms), with the same name and value: a
// file that names another would make every program loading it fail
// (Open MPI: MPI_ERR_ARG at each call; MPICH: an abort in MPI_Init).
void check_listed_algorithm(const Record& r, const Context& context) {
  if (r.algorithm.value == 0) return;  // the library's own choice
  std::string listed;
  if (context.library_algorithms)
    for (const CollectiveContext& c : context.library_algorithms->collectives) {
      if (c.variable != r.algorithm.variable) continue;
      for (const AlgorithmChoice& a : c.algorithms) {
        if (a.name == r.algorithm.name && a.value == r.algorithm.value)
          return;
        listed += (listed.empty() ? "" : ", ") + a.name + " = " +
                  std::to_string(a.value);
      }
    }
  throw std::invalid_argument(
      "a record of " + r.method + " at " + std::to_string(r.bytes) + " B ran " +
      r.algorithm.variable + " = " + std::to_string(r.algorithm.value) + " (" +
      r.algorithm.name + "), which its run's context does not list" +
      (listed.empty() ? " (it lists no algorithm of that variable)"
                      : " (it lists " + listed + ")") +
      ": a tuning file must name only algorithms the library has");
}

}  // namespace mpiarena
