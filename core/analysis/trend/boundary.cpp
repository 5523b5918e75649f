// What changed between two runs of a series (boundary.hpp).
#include "core/analysis/trend/boundary.hpp"

#include <cctype>
#include <vector>

#include "core/results/mpi_settings.hpp"
#include "core/results/printable.hpp"

namespace mpiarena {

namespace {

// The words of a library string up to its first comma or line: "Open MPI
// v4.1.4, package: ..." -> {"Open", "MPI", "v4.1.4"}.
std::vector<std::string> library_words(const std::string& library) {
  std::vector<std::string> out;
  std::string word;
  for (char ch : library.substr(0, library.find_first_of(",\n"))) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += ch;
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

std::string joined(const std::vector<std::string>& w, std::size_t b,
                   std::size_t e) {
  std::string out;
  for (std::size_t i = b; i < e; ++i) out += (out.empty() ? "" : " ") + w[i];
  return out;
}

}  // namespace

std::string library_step(const std::string& before, const std::string& after) {
  const auto x = library_words(before), y = library_words(after);
  if (x == y) return "";
  std::size_t same = 0;
  while (same + 1 < x.size() && same + 1 < y.size() && x[same] == y[same])
    ++same;
  const std::string family = joined(x, 0, same),
                    from = joined(x, same, x.size()),
                    to = joined(y, same, y.size());
  return printable((family.empty() ? "" : family + " ") +
                   (from.empty() ? "(none)" : from) + " -> " +
                   (to.empty() ? "(none)" : to));
}

std::string context_step(const Context& before, const Context& after) {
  std::string out = library_step(before.mpi_library, after.mpi_library);
  if (out.empty() && before.mpi_library != after.mpi_library)
    out = "MPI library build: " + printable(after.mpi_library.substr(
                                      0, after.mpi_library.find('\n')));
  const std::string settings = settings_text(before, after);
  if (!settings.empty())
    out += (out.empty() ? "MPI settings: " : "; MPI settings: ") +
           printable(settings);
  return out;
}

}  // namespace mpiarena
