// The memory guard: a point whose buffers would not fit in the node's
// available memory is skipped before anything is allocated.
#pragma once

#include <cstddef>
#include <string>

namespace mpiarena {

// MemAvailable of /proc/meminfo in bytes; 0 when it cannot be read (the
// guard is then off).
std::size_t available_memory_bytes();

// Share of the available memory a run may fill.
inline constexpr double kMemoryShare = 0.8;

// Why `ranks_on_node` ranks holding `copies` buffers of `payload_bytes`
// each would not fit in kMemoryShare of `available` bytes; empty when they
// fit or when `available` is 0 (unknown).
std::string memory_problem(std::size_t payload_bytes, int copies,
                           int ranks_on_node, std::size_t available);

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
