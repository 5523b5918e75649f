// FNV-1a of a text (digest.hpp).
#include "core/results/digest.hpp"

#include <cstdint>
#include <cstdio>

namespace mpiarena {

std::string text_digest(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

}  // namespace mpiarena
