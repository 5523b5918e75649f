#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <mpiarena/payload.hpp>
#include <mpiarena/sizes.hpp>

namespace mpiarena {

const std::vector<Preset>& presets() {
  static const std::vector<Preset> kPresets = {
      {"small", 50},     {"medium", 500},     {"large", 5000},
      {"xlarge", 50000}, {"xxlarge", 500000}, {"xxxlarge", 2000000}};
  return kPresets;
}

std::size_t preset_bytes(std::size_t base) {
  return base * kIntsPerBase2d * sizeof(int);
}

std::string size_syntax() {
  return "a comma-separated list of: a preset (small, medium, large, xlarge, "
         "xxlarge, xxxlarge = 11 kB .. 440 MB), 'all' (every "
         "preset), a range of presets (small..xxlarge: every preset from the "
         "first to the last), a byte value with an optional unit (4096, 4KiB, "
         "1MB; units B, kB, KiB, MB, MiB, GB, GiB), a range a..b of byte "
         "values doubling from a to b (8B..4MiB, 0..1MiB), or NetPIPE's "
         "perturbed ladder netpipe:a..b (2^k and 1.5*2^k, each also -3 and +3 "
         "bytes)";
}

namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

[[noreturn]] void bad(const std::string& item, const std::string& why) {
  throw SizeSpecError("invalid size '" + item + "': " + why +
                      ". Accepted: " + size_syntax());
}

std::string lower(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The index of preset `name` (lower case) in presets(), or -1.
int preset_index(const std::string& name) {
  const auto& all = presets();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (name == all[i].name) return static_cast<int>(i);
  return -1;
}

bool starts_with_digit(const std::string& s) {
  return !s.empty() && std::isdigit(static_cast<unsigned char>(s[0]));
}

}  // namespace

std::vector<std::size_t> netpipe_ladder(std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> out;
  auto add = [&](std::size_t b) {
    if (b >= lo && b <= hi) out.push_back(b);
  };
  for (std::size_t p = 1; p <= hi; p *= 2) {
    for (std::size_t base : {p, p + p / 2}) {
      if (base >= 3) add(base - 3);
      add(base);
      add(base + 3);
    }
    if (p > std::numeric_limits<std::size_t>::max() / 4) break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::size_t parse_bytes(const std::string& raw) {
  const std::string text = trim(raw);
  if (text.empty()) bad(raw, "empty value");
  std::size_t pos = 0;
  while (pos < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[pos])))
    ++pos;
  if (pos == 0) bad(raw, "it does not start with a number");
  const std::string digits = text.substr(0, pos);
  const std::string unit = trim(text.substr(pos));
  static const std::map<std::string, std::size_t> kUnits = {
      {"", 1},           {"B", 1},           {"kB", 1000},
      {"KB", 1000},      {"KiB", 1024},      {"MB", 1000000},
      {"MiB", 1u << 20}, {"GB", 1000000000}, {"GiB", 1u << 30}};
  auto it = kUnits.find(unit);
  if (it == kUnits.end()) bad(raw, "unknown unit '" + unit + "'");
  if (digits.size() > 15) bad(raw, "number too large");
  const unsigned long long value = std::stoull(digits);
  if (value > std::numeric_limits<std::size_t>::max() / it->second)
    bad(raw, "number too large");
  return static_cast<std::size_t>(value) * it->second;
}

namespace {

// "netpipe:a..b": NetPIPE's perturbed ladder.
void add_netpipe(const std::string& item, std::vector<SizePoint>& out) {
  const std::string range = item.substr(8);
  const std::size_t dots = range.find("..");
  if (dots == std::string::npos) bad(item, "netpipe: needs a range a..b");
  const std::size_t lo = parse_bytes(range.substr(0, dots));
  const std::size_t hi = parse_bytes(range.substr(dots + 2));
  if (lo > hi) bad(item, "the range starts above its end");
  for (std::size_t b : netpipe_ladder(lo, hi))
    out.push_back({std::to_string(b), b});
}

// "a..b" at `dots`: every preset from a to b, or byte values doubling.
void add_range(const std::string& item, std::size_t dots,
               std::vector<SizePoint>& out) {
  // small..xxlarge: every preset from the first to the last.
  const std::string first = lower(trim(item.substr(0, dots)));
  const std::string last = lower(trim(item.substr(dots + 2)));
  const int from = preset_index(first), to = preset_index(last);
  if (from >= 0 && to >= 0) {
    if (from > to)
      bad(item,
          "the range starts above its end (presets in order: "
          "small, medium, large, xlarge, xxlarge, xxxlarge)");
    for (int i = from; i <= to; ++i) {
      const Preset& p = presets()[static_cast<std::size_t>(i)];
      out.push_back({p.name, preset_bytes(p.base)});
    }
    return;
  }
  const char* kRanges =
      "; a range joins two presets (small..xxlarge) or two byte values "
      "(8B..4MiB)";
  for (const std::string* end : {&first, &last})
    if (!end->empty() && preset_index(*end) < 0 && !starts_with_digit(*end))
      bad(item,
          "'" + *end + "' is neither a preset name nor a byte value" + kRanges);
  if (from >= 0 || to >= 0)
    bad(item, std::string("it mixes a preset and a byte value") + kRanges);
  const std::size_t lo = parse_bytes(item.substr(0, dots));
  const std::size_t hi = parse_bytes(item.substr(dots + 2));
  if (lo > hi) bad(item, "the range starts above its end");
  if (lo == 0) out.push_back({"0", 0});
  for (std::size_t b = std::max<std::size_t>(lo, 1); b <= hi; b *= 2) {
    out.push_back({std::to_string(b), b});
    if (b > std::numeric_limits<std::size_t>::max() / 2) break;
  }
}

// Sorted by bytes, one point per byte value; a preset's name wins over the
// same bytes given as a number.
std::vector<SizePoint> sorted_unique(std::vector<SizePoint> out) {
  std::stable_sort(
      out.begin(), out.end(),
      [](const SizePoint& a, const SizePoint& b) { return a.bytes < b.bytes; });
  auto is_preset = [](const SizePoint& p) {
    return !p.label.empty() &&
           !std::isdigit(static_cast<unsigned char>(p.label[0]));
  };
  std::vector<SizePoint> unique;
  for (const SizePoint& p : out) {
    if (unique.empty() || unique.back().bytes != p.bytes)
      unique.push_back(p);
    else if (is_preset(p) && !is_preset(unique.back()))
      unique.back() = p;
  }
  return unique;
}

}  // namespace

std::vector<SizePoint> parse_sizes(const std::string& spec) {
  std::vector<SizePoint> out;
  if (trim(spec).empty()) bad(spec, "empty list");
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t comma = spec.find(',', start);
    if (comma == std::string::npos) comma = spec.size();
    const std::string item = trim(spec.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) bad(spec, "empty item in the list");
    const std::string name = lower(item);
    bool matched = false;
    for (const Preset& p : presets()) {
      if (name == p.name || name == "all") {
        out.push_back({p.name, preset_bytes(p.base)});
        matched = true;
      }
    }
    if (matched) continue;
    if (name.rfind("netpipe:", 0) == 0) {
      add_netpipe(item, out);
    } else if (const std::size_t dots = item.find(".."); dots != item.npos) {
      add_range(item, dots, out);
    } else {
      if (!std::isdigit(static_cast<unsigned char>(item[0])))
        bad(item, "not a preset name");
      // "1,000" would be the sizes 1 and 0: a digit group after a
      // thousands separator starts with a zero, or has three digits.
      if (item.size() > 1 && item[0] == '0' &&
          std::isdigit(static_cast<unsigned char>(item[1])))
        bad(item,
            "a number with a leading zero; the list's items are separated by "
            "commas, so write 1000 or 1KB, not 1,000");
      const std::size_t b = parse_bytes(item);
      out.push_back({std::to_string(b), b});
    }
  }
  return sorted_unique(std::move(out));
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
