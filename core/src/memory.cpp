#include "memory.hpp"

#include <fstream>
#include <mpiarena/sizes.hpp>
#include <sstream>

namespace mpiarena {

std::size_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::size_t value = 0;
  std::string unit;
  while (in >> key >> value) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return value * 1024;  // kB
  }
  return 0;
}

std::string memory_problem(std::size_t payload_bytes, int copies,
                           int ranks_on_node, std::size_t available) {
  if (available == 0 || copies <= 0) return {};
  const double need =
      static_cast<double>(payload_bytes) * copies * ranks_on_node;
  const double budget = kMemoryShare * static_cast<double>(available);
  if (need <= budget) return {};
  std::ostringstream out;
  out << "needs about " << format_bytes(need) << " of memory on one node ("
      << ranks_on_node << (ranks_on_node == 1 ? " rank x " : " ranks x ")
      << copies << (copies == 1 ? " payload copy x " : " payload copies x ")
      << format_bytes(static_cast<double>(payload_bytes)) << "), more than "
      << static_cast<int>(kMemoryShare * 100) << "% of the "
      << format_bytes(static_cast<double>(available)) << " available";
  return out.str();
}

}  // namespace mpiarena
