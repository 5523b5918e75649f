#include "core/engine/memory.hpp"

#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <cstdlib>
#include <fstream>
#include <mpiarena/sizes.hpp>
#include <sstream>
#include <vector>

namespace mpiarena {

namespace {

std::size_t meminfo_available(const std::string& path) {
  std::ifstream in(path);
  std::string key;
  std::size_t value = 0;
  std::string unit;
  while (in >> key >> value) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return value * 1024;  // kB
  }
  return 0;
}

// A cgroup file holding one number; false when missing, "max" or not a
// number.
bool read_number(const std::string& path, unsigned long long& out) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word)) return false;
  char* end = nullptr;
  out = std::strtoull(word.c_str(), &end, 10);
  return end != word.c_str() && *end == '\0';
}

// The value of `key` in a memory.stat file (0 when absent).
unsigned long long stat_value(const std::string& path,
                              const std::string& key) {
  std::ifstream in(path);
  std::string k;
  unsigned long long v = 0;
  while (in >> k >> v)
    if (k == key) return v;
  return 0;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

// The memory cgroup of this process: its directory under the mount point
// (`dir`), the mount point (`top`) and the version (1 or 2); false when
// none is mounted or the process is in none.
bool memory_cgroup(const std::string& root, std::string& dir,
                   std::string& top, int& version) {
  std::ifstream cg(root + "/proc/self/cgroup");
  std::string line, v1_path, v2_path;
  bool v2 = false;
  while (std::getline(cg, line)) {  // "4:memory:/job", "0::/job"
    const std::size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    const std::string path = line.substr(b + 1);
    if (controllers.empty() && line.compare(0, a, "0") == 0) {
      v2 = true;
      v2_path = path;
    }
    for (const std::string& c : split(controllers, ','))
      if (c == "memory") v1_path = path;
  }
  std::ifstream mounts(root + "/proc/self/mountinfo");
  while (std::getline(mounts, line)) {
    // id parent dev root mountpoint options [optional...] - type source
    // super-options
    const std::vector<std::string> f = split(line, ' ');
    std::size_t dash = 0;
    while (dash < f.size() && f[dash] != "-") ++dash;
    if (f.size() < 5 || dash + 1 >= f.size()) continue;
    const std::string& type = f[dash + 1];
    const std::string super = dash + 3 < f.size() ? f[dash + 3] : "";
    std::string path;
    if (type == "cgroup" && !v1_path.empty()) {
      bool memory = false;
      for (const std::string& o : split(super, ','))
        if (o == "memory") memory = true;
      if (!memory) continue;
      path = v1_path;
      version = 1;
    } else if (type == "cgroup2" && v2 && v1_path.empty()) {
      path = v2_path;
      version = 2;
    } else {
      continue;
    }
    const std::string& mount_root = f[3];
    if (mount_root != "/" &&
        path.compare(0, mount_root.size(), mount_root) == 0)
      path = path.substr(mount_root.size());
    if (path == "/") path.clear();
    top = root + f[4];
    dir = top + path;
    return true;
  }
  return false;
}

}  // namespace

namespace {

std::size_t status_bytes(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string k, unit;
  std::size_t value = 0;
  while (in >> k) {
    if (k == key && in >> value) return value * 1024;  // kB
    std::getline(in, unit);
  }
  return 0;
}

}  // namespace

std::size_t resident_bytes() { return status_bytes("VmRSS:"); }
std::size_t peak_resident_bytes() { return status_bytes("VmHWM:"); }

void return_free_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

std::size_t available_memory_bytes() {
  return meminfo_available("/proc/meminfo");
}

MemoryBudget cgroup_memory(const std::string& root) {
  MemoryBudget best;
  std::string dir, top;
  int version = 0;
  if (!memory_cgroup(root, dir, top, version)) return best;
  // v1 writes "no limit" as the largest page-aligned long.
  constexpr unsigned long long kUnlimited = 1ULL << 62;
  for (std::string d = dir;; d = d.substr(0, d.rfind('/'))) {
    unsigned long long limit = 0, usage = 0;
    const bool limited =
        version == 2
            ? read_number(d + "/memory.max", limit) &&
                  read_number(d + "/memory.current", usage)
            : read_number(d + "/memory.limit_in_bytes", limit) &&
                  limit < kUnlimited &&
                  read_number(d + "/memory.usage_in_bytes", usage);
    if (limited) {
      const unsigned long long inactive = stat_value(
          d + "/memory.stat",
          version == 2 ? "inactive_file" : "total_inactive_file");
      const unsigned long long used = usage > inactive ? usage - inactive : 0;
      const unsigned long long room = limit > used ? limit - used : 0;
      if (best.bytes == 0 || room < best.bytes) {
        best.bytes = static_cast<std::size_t>(room > 0 ? room : 1);
        const std::string shown = root.empty() ? d : d.substr(root.size());
        best.source = "cgroup v" + std::to_string(version) +
                      " memory limit of " + shown + ": " +
                      format_bytes(static_cast<double>(limit)) + ", " +
                      format_bytes(static_cast<double>(used)) + " in use";
      }
    }
    if (d.size() <= top.size() || d.rfind('/') == std::string::npos) break;
  }
  return best;
}

MemoryBudget memory_budget(std::size_t max_memory, const std::string& root) {
  MemoryBudget b;
  b.bytes = meminfo_available(root + "/proc/meminfo");
  if (b.bytes > 0) b.source = "MemAvailable of /proc/meminfo";
  const MemoryBudget group = cgroup_memory(root);
  if (group.bytes > 0 && (b.bytes == 0 || group.bytes < b.bytes)) b = group;
  if (max_memory > 0 && (b.bytes == 0 || max_memory < b.bytes)) {
    b.bytes = max_memory;
    b.source = "--max-memory";
  }
  return b;
}

std::string memory_problem(std::size_t payload_bytes, int copies,
                           int ranks_on_node, std::size_t available,
                           const std::string& source) {
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
  if (!source.empty()) out << " (" << source << ")";
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
