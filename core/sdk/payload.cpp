#include <mpiarena/payload.hpp>
#include <sstream>

namespace mpiarena {

std::size_t flat_count(std::size_t bytes) { return bytes / sizeof(int); }

std::size_t rows_base(std::size_t bytes) {
  return bytes / (kIntsPerBase2d * sizeof(int));
}

std::vector<int> row_sizes_for_base(std::size_t base) {
  std::vector<int> sizes(kRows2d);
  for (int i = 0; i < kRows2d; ++i)
    sizes[i] =
        static_cast<int>(base * static_cast<std::size_t>((i + 1) * (i + 1)));
  return sizes;
}

std::size_t payload_bytes(const std::string& payload, std::size_t bytes) {
  if (payload == "2d") return rows_base(bytes) * kIntsPerBase2d * sizeof(int);
  if (payload == "1d") return flat_count(bytes) * sizeof(int);
  return bytes;
}

std::string payload_size_problem(const std::string& payload,
                                 std::size_t bytes) {
  if (payload == "2d" && rows_base(bytes) == 0)
    return "a 2d payload needs at least 220 bytes (5 rows of base*(i+1)^2 "
           "ints, "
           "base >= 1), got " +
           std::to_string(bytes);
  if (payload == "1d" && flat_count(bytes) == 0)
    return "a 1d payload needs at least 4 bytes (one int), got " +
           std::to_string(bytes);
  return {};
}

void fill_flat(int* data, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) data[i] = payload_value(0, i);
}

void fill_flat(Flat& data) { fill_flat(data.data(), data.size()); }

void fill_rows(Rows& data) {
  for (std::size_t r = 0; r < data.size(); ++r)
    for (std::size_t i = 0; i < data[r].size(); ++i)
      data[r][i] = payload_value(r, i);
}

Flat make_flat(std::size_t count) {
  Flat data(count);
  fill_flat(data);
  return data;
}

Rows make_rows(std::size_t base) {
  Rows data;
  for (int size : row_sizes_for_base(base)) data.emplace_back(size);
  fill_rows(data);
  return data;
}

void poison_flat(int* data, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) data[i] = kPoison;
}

void poison_flat(Flat& data) { poison_flat(data.data(), data.size()); }

void poison_rows(Rows& data) {
  for (auto& row : data)
    for (int& v : row) v = kPoison;
}

namespace {
std::string first_difference(const int* data, std::size_t count,
                             std::size_t row, const char* what) {
  for (std::size_t i = 0; i < count; ++i) {
    const int want = payload_value(row, i);
    if (data[i] != want) {
      std::ostringstream out;
      out << what << " element " << i;
      if (what[0] == 'r') out << " of row " << row;
      out << " is " << data[i] << ", expected " << want
          << (data[i] == kPoison ? " (never written)" : "");
      return out.str();
    }
  }
  return {};
}
}  // namespace

std::string check_flat(const Flat& data, std::size_t expected_count) {
  if (data.size() != expected_count)
    return "1d payload holds " + std::to_string(data.size()) +
           " ints, expected " + std::to_string(expected_count);
  return first_difference(data.data(), data.size(), 0, "1d payload");
}

std::string check_flat(const int* data, std::size_t count) {
  return first_difference(data, count, 0, "1d payload");
}

std::string check_rows(const Rows& data, std::size_t expected_base) {
  const std::vector<int> sizes = row_sizes_for_base(expected_base);
  if (data.size() != sizes.size())
    return "2d payload has " + std::to_string(data.size()) +
           " rows, expected " + std::to_string(sizes.size());
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    if (data[r].size() != static_cast<std::size_t>(sizes[r]))
      return "2d payload row " + std::to_string(r) + " holds " +
             std::to_string(data[r].size()) + " ints, expected " +
             std::to_string(sizes[r]);
    std::string diff =
        first_difference(data[r].data(), data[r].size(), r, "row");
    if (!diff.empty()) return "2d payload " + diff;
  }
  return {};
}

}  // namespace mpiarena
