// Size ladders: presets of the MPI & Boost Performance Benchmark, byte values
// with units and ranges. Pure functions; no MPI.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace mpiarena {

struct SizePoint {
  std::string label;  // preset name ("large") or the canonical byte text
  std::size_t bytes = 0;
  bool operator==(const SizePoint& o) const {
    return label == o.label && bytes == o.bytes;
  }
};

struct Preset {
  const char* name;
  std::size_t base;  // ints per 2d base (its 2d payload)
};

// small..xxxlarge: base 50, 500, 5k, 50k, 500k, 2M ints; 220 * base bytes.
const std::vector<Preset>& presets();
std::size_t preset_bytes(std::size_t base);

class SizeSpecError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The accepted syntax, for error messages and --help.
std::string size_syntax();

// Parses one byte value: "4096", "4KiB", "1MB", "2 GiB" (B, kB, KB, KiB, MB,
// MiB, GB, GiB; decimal units are powers of 1000, binary ones of 1024).
std::size_t parse_bytes(const std::string& text);

// Parses a comma-separated list of presets, `all`, byte values and ranges
// `a..b` (doubling from a up to b, b included when it falls on the ladder).
// `netpipe:a..b` is NetPIPE's perturbed ladder (netpipe_ladder).
// Duplicates are dropped; order is ascending by bytes. Throws SizeSpecError.
std::vector<SizePoint> parse_sizes(const std::string& spec);

// NetPIPE's ladder within [lo, hi]: every 2^k and 1.5 * 2^k, each with the
// perturbations -3 and +3 bytes, ascending, without duplicates. The
// perturbed points find protocol-switch drops a power-of-two sweep misses.
std::vector<std::size_t> netpipe_ladder(std::size_t lo, std::size_t hi);

// "11.0 kB", "1.10 MB", "440 MB": decimal units, 3 significant digits.
std::string format_bytes(double bytes);

}  // namespace mpiarena
