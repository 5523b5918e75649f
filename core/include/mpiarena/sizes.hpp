// Size ladders: presets of the MPI & Boost Performance Benchmark, byte values
// with units and ranges. Pure functions; no MPI.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace mpiarena {

struct SizePoint {
  // A preset's name ("large"), a bare number's digits ("4096") or the size
  // in the unit it was given in ("1 MiB", "1 MB"; size_label).
  std::string label;
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

// OSU's ladders (its -m A:B): every size from 1 to 4 MiB for the
// point-to-point benchmarks, to 1 MiB for the collectives.
constexpr std::size_t kOsuMinBytes = 1;
constexpr std::size_t kOsuMaxBytes = std::size_t{1} << 22;
constexpr std::size_t kOsuCollMaxBytes = std::size_t{1} << 20;

// A named ladder that is no preset: "osu" is "1:4194304".
struct NamedLadder {
  const char* name;
  const char* spec;
};
// osu (1:4194304), osu-coll (1:1048576).
const std::vector<NamedLadder>& named_ladders();

// A byte value and the unit it was written in ("" for a bare number).
struct ByteValue {
  std::size_t bytes = 0;
  std::string unit;  // "", "B", "kB", "KB", "MB", "GB", "KiB", "MiB", "GiB"
};

// Parses one byte value: "4096", "4KiB", "1MB", "2 GiB" (B, kB, KB, KiB, MB,
// MiB, GB, GiB; decimal units are powers of 1000, binary ones of 1024).
// Units are case-sensitive; an unknown one is refused with the nearest.
ByteValue parse_byte_value(const std::string& text);
std::size_t parse_bytes(const std::string& text);

// The label of a byte value in the unit system it was written in: a bare
// number (or B) keeps its digits ("4096"); a decimal unit gives the largest
// decimal unit that holds it exactly ("1 MB", "1500 kB"); a binary unit the
// largest binary one ("1 MiB", "4 KiB", "3 B").
std::string size_label(const ByteValue& value);
std::string binary_label(std::size_t bytes);   // "1 MiB", "512 B"
std::string decimal_label(std::size_t bytes);  // "1 MB", "999 B"

// OSU's ladder from lo to hi: lo, then doubling (0 is followed by 1), as
// OSU's loop `size = size ? size * 2 : 1`; hi is included when reached.
std::vector<std::size_t> osu_ladder(std::size_t lo, std::size_t hi);

// Parses a comma-separated list of presets, `all`, byte values and ranges
// `a..b` (doubling from a up to b, b included when it falls on the ladder).
// `netpipe:a..b` is NetPIPE's perturbed ladder (netpipe_ladder); `A:B` is
// OSU's -m range (osu_ladder; `:B` from 1, `A:` to 4 MiB, binary labels),
// `osu` and `osu-coll` its default ladders (named_ladders).
// Duplicates are dropped; order is ascending by bytes. Throws SizeSpecError.
std::vector<SizePoint> parse_sizes(const std::string& spec);

// NetPIPE's ladder within [lo, hi]: every 2^k and 1.5 * 2^k, each with the
// perturbations -3 and +3 bytes, ascending, without duplicates. The
// perturbed points find protocol-switch drops a power-of-two sweep misses.
std::vector<std::size_t> netpipe_ladder(std::size_t lo, std::size_t hi);

// "11.0 kB", "1.10 MB", "440 MB": decimal units, 3 significant digits.
std::string format_bytes(double bytes);
// A size for a table cell: a power of two from 1 KiB on in binary units
// ("4 KiB", never "4.10 kB"); any other size as format_bytes.
std::string short_size(std::size_t bytes);

}  // namespace mpiarena
