// Internal: the steady clock in seconds, for deadlines and durations that
// are not measurements (the timed loops use phase_timer.hpp's clock).
#pragma once

#include <chrono>

namespace mpiarena {

inline double monotonic_seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace mpiarena
