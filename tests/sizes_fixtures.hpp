// What the size tests read of a ladder (test_sizes.cpp, test_size_units.cpp).
#pragma once

#include <cstddef>
#include <mpiarena/sizes.hpp>
#include <string>
#include <vector>

namespace sizes_fixtures {

inline std::vector<std::size_t> bytes_of(
    const std::vector<mpiarena::SizePoint>& points) {
  std::vector<std::size_t> out;
  for (const mpiarena::SizePoint& p : points) out.push_back(p.bytes);
  return out;
}

inline std::vector<std::string> labels_of(
    const std::vector<mpiarena::SizePoint>& points) {
  std::vector<std::string> out;
  for (const mpiarena::SizePoint& p : points) out.push_back(p.label);
  return out;
}

}  // namespace sizes_fixtures
