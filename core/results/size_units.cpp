// Byte values, their units and labels (sizes.hpp): "4KiB", "1 MiB", "1.05 MB".
#include "core/results/size_units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mpiarena/sizes.hpp>
#include <vector>

namespace mpiarena {

std::string trim_blanks(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string lower_case(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void bad_size(const std::string& item, const std::string& why) {
  throw SizeSpecError("invalid size '" + item + "': " + why +
                      ". Accepted: " + size_syntax());
}

namespace {

struct Unit {
  const char* name;
  std::size_t factor;
};

// The units a size may carry; KB is kB's other spelling.
const std::vector<Unit>& units() {
  static const std::vector<Unit> kUnits = {
      {"B", 1},          {"kB", 1000},      {"KB", 1000},
      {"MB", 1000000},   {"GB", 1000000000}, {"KiB", 1u << 10},
      {"MiB", 1u << 20}, {"GiB", 1u << 30}};
  return kUnits;
}

const char* kUnitList =
    "units (case-sensitive): B; kB (or KB), MB, GB, powers of 1000 (1MB = "
    "1000000 bytes); KiB, MiB, GiB, powers of 1024 (1MiB = 1048576 bytes)";

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The units `unit` may have meant: the same letters in another case (a
// decimal one with its binary twin: "mb" is MB or MiB), else those it
// begins ("M": MB, MiB), else the nearest by edit distance (at most 2).
std::vector<std::string> nearest_units(const std::string& unit) {
  static const char* kCanonical[] = {"B",   "kB",  "MB", "GB",
                                     "KiB", "MiB", "GiB"};
  const std::string low = lower_case(unit);
  std::vector<std::string> out;
  for (const char* u : kCanonical)
    if (lower_case(u) == low) {
      out.push_back(u);
      if (low.size() == 2)
        out.push_back(std::string(1, static_cast<char>(std::toupper(
                                         static_cast<unsigned char>(u[0])))) +
                      "iB");
    }
  if (!out.empty() || low.empty()) return out;
  for (const char* u : kCanonical)
    if (std::string(u) != "B" && lower_case(u).rfind(low, 0) == 0)
      out.push_back(u);
  if (!out.empty()) return out;
  std::size_t best = 3;
  for (const char* u : kCanonical)
    best = std::min(best, edit_distance(unit, u));
  for (const char* u : kCanonical)
    if (best <= 2 && edit_distance(unit, u) == best) out.push_back(u);
  return out;
}

[[noreturn]] void bad_unit(const std::string& item, const std::string& unit) {
  std::string why = "unknown unit '" + unit + "'";
  const std::vector<std::string> near = nearest_units(unit);
  for (std::size_t i = 0; i < near.size(); ++i)
    why += std::string(i == 0                 ? " (did you mean '"
                       : i + 1 == near.size() ? "' or '"
                                              : "', '") +
           near[i] + (i + 1 == near.size() ? "'?)" : "");
  bad_size(item, why + "; the " + kUnitList);
}

// "1 MiB": `bytes` in the largest of `names` (factors 1, step, step^2...)
// that holds it exactly.
std::string exact_label(std::size_t bytes, std::size_t step,
                        const char* const* names, int count) {
  std::size_t factor = 1;
  int u = 0;
  while (u + 1 < count && bytes > 0 &&
         factor <= std::numeric_limits<std::size_t>::max() / step &&
         bytes % (factor * step) == 0) {
    factor *= step;
    ++u;
  }
  return std::to_string(bytes / factor) + " " + names[u];
}

}  // namespace

ByteValue parse_byte_value(const std::string& raw) {
  const std::string text = trim_blanks(raw);
  if (text.empty()) bad_size(raw, "empty value");
  std::size_t pos = 0;
  while (pos < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[pos])))
    ++pos;
  if (pos == 0) bad_size(raw, "it does not start with a number");
  const std::string digits = text.substr(0, pos);
  const std::string unit = trim_blanks(text.substr(pos));
  const auto& all = units();
  auto it = std::find_if(all.begin(), all.end(),
                         [&](const Unit& u) { return unit == u.name; });
  if (!unit.empty() && it == all.end()) bad_unit(raw, unit);
  const std::size_t factor = unit.empty() ? 1 : it->factor;
  if (digits.size() > 15) bad_size(raw, "number too large");
  const unsigned long long value = std::stoull(digits);
  if (value > std::numeric_limits<std::size_t>::max() / factor)
    bad_size(raw, "number too large");
  return {static_cast<std::size_t>(value) * factor, unit};
}

std::size_t parse_bytes(const std::string& text) {
  return parse_byte_value(text).bytes;
}

std::string binary_label(std::size_t bytes) {
  static const char* kNames[] = {"B",   "KiB", "MiB", "GiB",
                                 "TiB", "PiB", "EiB"};
  return exact_label(bytes, 1024, kNames, 7);
}

std::string decimal_label(std::size_t bytes) {
  static const char* kNames[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  return exact_label(bytes, 1000, kNames, 7);
}

std::string size_label(const ByteValue& v) {
  if (v.unit.empty() || v.unit == "B") return std::to_string(v.bytes);
  const bool binary = v.unit.find('i') != std::string::npos;
  return binary ? binary_label(v.bytes) : decimal_label(v.bytes);
}

std::string short_size(std::size_t bytes) {
  if (bytes >= 1024 && (bytes & (bytes - 1)) == 0) return binary_label(bytes);
  return format_bytes(static_cast<double>(bytes));
}

std::string format_bytes(double bytes) {
  if (std::isnan(bytes)) return "n/a";
  if (bytes < 0) return "-" + format_bytes(-bytes);
  if (std::isinf(bytes)) return "inf B";
  static const char* kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  constexpr int kLast = 6;
  int u = 0;
  // Pick the unit after rounding to 3 significant digits, so 999999 B reads
  // "1.00 MB", never "1000 kB".
  auto rounded = [](double v) {
    const double scale = v >= 100 ? 1 : v >= 10 ? 10 : 100;
    return std::round(v * scale) / scale;
  };
  const double original = bytes;
  while (rounded(bytes) >= 1000.0 && u < kLast) {
    bytes /= 1000.0;
    ++u;
  }
  char buf[32];
  // Beyond 999 EB (no size_t gets there): scientific notation, never a
  // number of hundreds of digits.
  if (rounded(bytes) >= 1000.0)
    std::snprintf(buf, sizeof buf, "%.2e B", original);
  else if (u == 0)
    std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  else if (rounded(bytes) >= 100)
    std::snprintf(buf, sizeof buf, "%.0f %s", bytes, kUnits[u]);
  else if (rounded(bytes) >= 10)
    std::snprintf(buf, sizeof buf, "%.1f %s", bytes, kUnits[u]);
  else
    std::snprintf(buf, sizeof buf, "%.2f %s", bytes, kUnits[u]);
  return buf;
}

}  // namespace mpiarena
