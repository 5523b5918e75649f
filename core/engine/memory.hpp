// The memory guard: a point whose buffers would not fit in the node's
// available memory is skipped before anything is allocated.
#pragma once

#include <cstddef>
#include <string>

namespace mpiarena {

// MemAvailable of /proc/meminfo in bytes; 0 when it cannot be read (the
// guard is then off).
std::size_t available_memory_bytes();

// The memory this process may fill, and where the figure comes from.
struct MemoryBudget {
  std::size_t bytes = 0;  // 0: unknown (the guard is then off)
  std::string source;     // e.g. "MemAvailable of /proc/meminfo"
};

// What the memory control group of this process (cgroup v2 memory.max or
// v1 memory.limit_in_bytes, the tightest of its directory and their
// parents) still lets it fill: the limit less the usage, the usage without
// its inactive page cache (which the kernel reclaims before it kills).
// bytes 0 when no limit applies. `root` prefixes every path read (/proc,
// the cgroup mount points): a test's fake tree; empty on a real machine.
MemoryBudget cgroup_memory(const std::string& root = "");

// The smallest of MemAvailable, the cgroup's room (cgroup_memory) and
// `max_memory` (runner --max-memory; 0: none), with its source.
MemoryBudget memory_budget(std::size_t max_memory,
                           const std::string& root = "");

// This process's resident memory now (VmRSS) and at its peak so far
// (VmHWM) in bytes, from /proc/self/status; 0 when unknown.
std::size_t resident_bytes();
std::size_t peak_resident_bytes();

// Gives the heap's free memory back to the system (glibc's malloc_trim),
// so that resident_bytes() counts what is still held.
void return_free_memory();

// Share of the available memory a run may fill.
inline constexpr double kMemoryShare = 0.8;

// Why `ranks_on_node` ranks holding `copies` buffers of `payload_bytes`
// each would not fit in kMemoryShare of `available` bytes; empty when they
// fit or when `available` is 0 (unknown). `source` (may be empty) says
// where `available` came from.
std::string memory_problem(std::size_t payload_bytes, int copies,
                           int ranks_on_node, std::size_t available,
                           const std::string& source = "");

// The last-level cache of this CPU in bytes (the highest-level data or
// unified cache under /sys/devices/system/cpu/cpu0/cache, else
// sysconf(_SC_LEVEL3_CACHE_SIZE)), and where the figure came from in
// `source`; 0 when neither says.
std::size_t last_level_cache_bytes(std::string* source = nullptr);

// runner --cache cold: the bytes of the set of buffers each rank rotates
// over: twice the last-level cache, or kColdSetFallback when it is unknown.
inline constexpr std::size_t kColdSetFallback = std::size_t(256) << 20;
inline std::size_t cold_set_bytes(std::size_t llc_bytes) {
  return llc_bytes > 0 ? 2 * llc_bytes : kColdSetFallback;
}

}  // namespace mpiarena
