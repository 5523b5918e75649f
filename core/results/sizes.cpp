#include "core/results/size_units.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
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

const std::vector<NamedLadder>& named_ladders() {
  static const std::vector<NamedLadder> kLadders = {
      {"osu", "1:4194304"}, {"osu-coll", "1:1048576"}};
  return kLadders;
}

std::string size_syntax() {
  return "a comma-separated list of: a preset (small, medium, large, xlarge, "
         "xxlarge, xxxlarge = 11 kB .. 440 MB), 'all' (every "
         "preset), a range of presets (small..xxlarge: every preset from the "
         "first to the last), a byte value with an optional unit (4096, 4KiB, "
         "1MB; units B, kB, KiB, MB, MiB, GB, GiB: 1MB is 10^6 bytes, 1MiB "
         "2^20), a range a..b of byte values doubling from a to b (8B..4MiB, "
         "0..1MiB), OSU's range A:B (its -m: 1:4194304, 0:1MiB; :B starts at "
         "1, A: ends at 4194304), OSU's ladders osu (1:4194304) and osu-coll "
         "(1:1048576), or NetPIPE's perturbed ladder netpipe:a..b (2^k and "
         "1.5*2^k, each also -3 and +3 bytes)";
}

namespace {

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

std::vector<std::size_t> osu_ladder(std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> out;
  for (std::size_t b = lo; b <= hi; b = b ? b * 2 : 1) {
    out.push_back(b);
    if (b > std::numeric_limits<std::size_t>::max() / 2) break;
  }
  return out;
}

namespace {

// "A:B", OSU's -m: lo to hi doubling, ":B" from OSU's first size, "A:" to
// its point-to-point maximum. Binary labels: OSU's sizes are powers of 2.
void add_osu(const std::string& item, std::size_t colon,
             std::vector<SizePoint>& out) {
  const std::string a = trim_blanks(item.substr(0, colon));
  const std::string b = trim_blanks(item.substr(colon + 1));
  if (b.find(':') != std::string::npos)
    bad_size(item, "an OSU range has one colon (A:B, :B or A:)");
  if (a.empty() && b.empty())
    bad_size(item, "an OSU range needs a start, an end or both (1:4194304)");
  const std::size_t lo = a.empty() ? kOsuMinBytes : parse_bytes(a);
  const std::size_t hi = b.empty() ? kOsuMaxBytes : parse_bytes(b);
  if (lo > hi)
    bad_size(item, b.empty() ? "the range starts above its end (A: ends at "
                               "OSU's 4194304)"
                             : "the range starts above its end");
  for (std::size_t bytes : osu_ladder(lo, hi))
    out.push_back({binary_label(bytes), bytes});
}

// "netpipe:a..b": NetPIPE's perturbed ladder.
void add_netpipe(const std::string& item, std::vector<SizePoint>& out) {
  const std::string range = item.substr(8);
  const std::size_t dots = range.find("..");
  if (dots == std::string::npos) bad_size(item, "netpipe: needs a range a..b");
  const std::size_t lo = parse_bytes(range.substr(0, dots));
  const std::size_t hi = parse_bytes(range.substr(dots + 2));
  if (lo > hi) bad_size(item, "the range starts above its end");
  for (std::size_t b : netpipe_ladder(lo, hi))
    out.push_back({std::to_string(b), b});
}

// "a..b" at `dots`: every preset from a to b, or byte values doubling.
void add_range(const std::string& item, std::size_t dots,
               std::vector<SizePoint>& out) {
  // small..xxlarge: every preset from the first to the last.
  const std::string first = lower_case(trim_blanks(item.substr(0, dots)));
  const std::string last = lower_case(trim_blanks(item.substr(dots + 2)));
  const int from = preset_index(first), to = preset_index(last);
  if (from >= 0 && to >= 0) {
    if (from > to)
      bad_size(item,
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
      bad_size(item, "'" + *end +
                         "' is neither a preset name nor a byte value" +
                         kRanges);
  if (from >= 0 || to >= 0)
    bad_size(item, std::string("it mixes a preset and a byte value") + kRanges);
  const std::size_t lo = parse_bytes(item.substr(0, dots));
  const std::size_t hi = parse_bytes(item.substr(dots + 2));
  if (lo > hi) bad_size(item, "the range starts above its end");
  for (std::size_t b : osu_ladder(lo, hi))
    out.push_back({std::to_string(b), b});
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
  if (trim_blanks(spec).empty()) bad_size(spec, "empty list");
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t comma = spec.find(',', start);
    if (comma == std::string::npos) comma = spec.size();
    const std::string item = trim_blanks(spec.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) bad_size(spec, "empty item in the list");
    const std::string name = lower_case(item);
    bool matched = false;
    for (const Preset& p : presets()) {
      if (name == p.name || name == "all") {
        out.push_back({p.name, preset_bytes(p.base)});
        matched = true;
      }
    }
    for (const NamedLadder& l : named_ladders())
      if (name == l.name) {
        add_osu(l.spec, std::string(l.spec).find(':'), out);
        matched = true;
      }
    if (matched) continue;
    if (name.rfind("netpipe:", 0) == 0) {
      add_netpipe(item, out);
    } else if (const std::size_t colon = item.find(':'); colon != item.npos) {
      add_osu(item, colon, out);
    } else if (const std::size_t dots = item.find(".."); dots != item.npos) {
      add_range(item, dots, out);
    } else {
      if (!std::isdigit(static_cast<unsigned char>(item[0])))
        bad_size(item, "not a preset name");
      // "1,000" would be the sizes 1 and 0: a digit group after a
      // thousands separator starts with a zero, or has three digits.
      if (item.size() > 1 && item[0] == '0' &&
          std::isdigit(static_cast<unsigned char>(item[1])))
        bad_size(item,
                 "a number with a leading zero; the list's items are "
                 "separated by commas, so write 1000 or 1KB, not 1,000");
      const ByteValue v = parse_byte_value(item);
      out.push_back({size_label(v), v.bytes});
    }
  }
  return sorted_unique(std::move(out));
}

}  // namespace mpiarena
