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

}  // namespace mpiarena
