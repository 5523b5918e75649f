#include "memory.hpp"

#include <unistd.h>

#include <cstdlib>
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

namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

std::size_t last_level_cache_bytes(std::string* source) {
  // Test hook (tests/e2e/e2e_pingpong.py): MPIARENA_TEST_LLC_BYTES=N reads
  // as a last-level cache of N bytes, so that --cache cold's set (twice
  // it) stays small on a host with a large cache; the context names it.
  if (const char* env = std::getenv("MPIARENA_TEST_LLC_BYTES")) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(env, &end, 10);
    if (end != env && *end == '\0' && n > 0) {
      if (source) *source = "MPIARENA_TEST_LLC_BYTES";
      return static_cast<std::size_t>(n);
    }
  }
  int best_level = 0;
  std::size_t best = 0;
  std::string where;
  for (int i = 0; i < 16; ++i) {
    const std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string level = read_line(dir + "level");
    if (level.empty()) break;
    if (read_line(dir + "type") == "Instruction") continue;
    std::size_t bytes = 0;
    try {
      bytes = parse_bytes(read_line(dir + "size") + "iB");  // "32768K"
    } catch (const SizeSpecError&) {
      continue;
    }
    if (std::stoi(level) > best_level) {
      best_level = std::stoi(level);
      best = bytes;
      where = dir + "size";
    }
  }
  if (best == 0) {
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) {
      best = static_cast<std::size_t>(l3);
      where = "sysconf(_SC_LEVEL3_CACHE_SIZE)";
    }
  }
  if (source) *source = best > 0 ? where : "unknown";
  return best;
}

}  // namespace mpiarena
