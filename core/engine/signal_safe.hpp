// Internal: what a signal handler may write (async-signal-safe only).
#pragma once

#include <unistd.h>

#include <cstring>

namespace mpiarena {

// `text` to stderr with write(2), to its end or the first failure.
inline void write_stderr(const char* text) {
  std::size_t n = std::strlen(text);
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<std::size_t>(w);
  }
}

}  // namespace mpiarena
