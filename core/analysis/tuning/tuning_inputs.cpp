// What runner tune takes from a run of --algorithms and checks first
// (tuning.hpp).
#include <stdexcept>

#include "core/analysis/tuning/tuning.hpp"

namespace mpiarena {

// A forced algorithm is one the run's library listed for its variable
// (the context's library_algorithms), with the same name and value: a
// file that names another would make every program loading it fail
// (Open MPI: MPI_ERR_ARG at each call; MPICH: an abort in MPI_Init).
void check_listed_algorithm(const Record& r, const nlohmann::json& context) {
  if (r.algorithm.value == 0) return;  // the library's own choice
  const nlohmann::json& algs =
      context.value("library_algorithms", nlohmann::json::object());
  const nlohmann::json& collectives =
      algs.is_object() ? algs.value("collectives", nlohmann::json::array())
                       : nlohmann::json::array();
  std::string listed;
  for (const nlohmann::json& c : collectives) {
    if (!c.is_object() || c.value("variable", "") != r.algorithm.variable)
      continue;
    for (const nlohmann::json& a :
         c.value("algorithms", nlohmann::json::array())) {
      if (!a.is_object()) continue;
      const std::string name = a.value("name", "");
      const int value = a.value("value", -1);
      if (name == r.algorithm.name && value == r.algorithm.value) return;
      listed +=
          (listed.empty() ? "" : ", ") + name + " = " + std::to_string(value);
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
