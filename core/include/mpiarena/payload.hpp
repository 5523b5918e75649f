// Deterministic payloads of the transfer suite (those of the MPI & Boost
// Performance Benchmark) and their checks.
//
// Every element is a non-zero odd value that depends on its row and index, so
// a missing, misplaced or duplicated element is caught. Poison values are
// even, so a receive buffer that was never written never passes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mpiarena {

using Flat = std::vector<int>;
using Rows = std::vector<std::vector<int>>;

// The MPI & Boost benchmark's 2d shape: 5 rows, row i holds base * (i+1)^2
// ints (55 * base).
inline constexpr int kRows2d = 5;
inline constexpr std::size_t kIntsPerBase2d = 55;
inline constexpr int kPoison = static_cast<int>(0xDEADBEF0u);

// Value of element `index` of row `row` (row 0 for 1d payloads).
inline int payload_value(std::size_t row, std::size_t index) {
  std::uint64_t x = (static_cast<std::uint64_t>(row) << 40) ^ index;
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<int>(static_cast<std::uint32_t>(x) | 1u);
}

// Number of ints of a 1d payload of `bytes` bytes (rounded down).
std::size_t flat_count(std::size_t bytes);
// Base of a 2d payload of `bytes` bytes: bytes / (55 * sizeof(int)).
std::size_t rows_base(std::size_t bytes);
// Row sizes of a 2d payload with this base.
std::vector<int> row_sizes_for_base(std::size_t base);
// Bytes actually held by a payload of the given kind built for `bytes`.
// Every other payload ("bytes", the rma suite's window kinds) holds exactly
// `bytes`, 0 included.
std::size_t payload_bytes(const std::string& payload, std::size_t bytes);
// Why a 1d or 2d payload cannot be built at `bytes` (too small to hold one
// element), or an empty string when it can. Other payload names: empty.
std::string payload_size_problem(const std::string& payload, std::size_t bytes);

Flat make_flat(std::size_t count);
Rows make_rows(std::size_t base);
void fill_flat(Flat& data);
void fill_rows(Rows& data);

// The same on `count` ints at `data` (a payload outside a Flat: in a
// shared-memory segment, TransferStrategy::shared_payload()).
void fill_flat(int* data, std::size_t count);
void poison_flat(int* data, std::size_t count);
std::string check_flat(const int* data, std::size_t count);

// Overwrite with poison, keeping the shape.
void poison_flat(Flat& data);
void poison_rows(Rows& data);

// Empty string when `data` is exactly the payload; otherwise a sentence that
// names the first difference.
std::string check_flat(const Flat& data, std::size_t expected_count);
std::string check_rows(const Rows& data, std::size_t expected_base);

}  // namespace mpiarena
