// Sizes in the unit system they were given in: labels, OSU's ranges and
// ladders, the did-you-mean of an unknown unit, the size of a table cell.
#include <gtest/gtest.h>

#include <cstddef>
#include <mpiarena/sizes.hpp>
#include <string>
#include <utility>
#include <vector>

#include "sizes_fixtures.hpp"

using mpiarena::parse_sizes;
using mpiarena::SizePoint;
using mpiarena::SizeSpecError;

namespace {

using sizes_fixtures::bytes_of;
using sizes_fixtures::labels_of;

// The message of the SizeSpecError `spec` throws ("" when accepted).
std::string error_of(const std::string& spec) {
  try {
    parse_sizes(spec);
  } catch (const SizeSpecError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SizeLabels, MebibytesAndMegabytesAreLabelledApart) {
  EXPECT_EQ(parse_sizes("1MiB").at(0), (SizePoint{"1 MiB", 1048576}));
  EXPECT_EQ(parse_sizes("1MB").at(0), (SizePoint{"1 MB", 1000000}));
  EXPECT_EQ(parse_sizes("4KiB").at(0), (SizePoint{"4 KiB", 4096}));
  EXPECT_EQ(parse_sizes("2 GiB").at(0), (SizePoint{"2 GiB", 2147483648}));
  EXPECT_EQ(parse_sizes("3kB").at(0), (SizePoint{"3 kB", 3000}));
  EXPECT_EQ(parse_sizes("3KB").at(0), (SizePoint{"3 kB", 3000}));
  // The largest unit of the same system that holds the size exactly.
  EXPECT_EQ(parse_sizes("1024KiB").at(0).label, "1 MiB");
  EXPECT_EQ(parse_sizes("1536KiB").at(0).label, "1536 KiB");
  EXPECT_EQ(parse_sizes("1000kB").at(0).label, "1 MB");
  EXPECT_EQ(parse_sizes("0KiB").at(0).label, "0 B");
  // A bare number, or one in B, keeps its digits.
  EXPECT_EQ(parse_sizes("1048576").at(0).label, "1048576");
  EXPECT_EQ(parse_sizes("64B").at(0).label, "64");
}

TEST(SizeLabels, BinaryAndDecimalLabels) {
  EXPECT_EQ(mpiarena::binary_label(0), "0 B");
  EXPECT_EQ(mpiarena::binary_label(512), "512 B");
  EXPECT_EQ(mpiarena::binary_label(1024), "1 KiB");
  EXPECT_EQ(mpiarena::binary_label(3072), "3 KiB");
  EXPECT_EQ(mpiarena::binary_label(std::size_t{1} << 22), "4 MiB");
  EXPECT_EQ(mpiarena::binary_label(std::size_t{1} << 40), "1 TiB");
  EXPECT_EQ(mpiarena::binary_label(1000000), "1000000 B");
  EXPECT_EQ(mpiarena::decimal_label(1000000), "1 MB");
  EXPECT_EQ(mpiarena::decimal_label(1048576), "1048576 B");
  EXPECT_EQ(mpiarena::decimal_label(1500000), "1500 kB");
}

TEST(OsuRanges, EveryPowerOfTwoFromAToB) {
  const auto points = parse_sizes("1:16");
  EXPECT_EQ(bytes_of(points), (std::vector<std::size_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(labels_of(points), (std::vector<std::string>{"1 B", "2 B", "4 B",
                                                         "8 B", "16 B"}));
  const auto big = parse_sizes("8:4194304");
  ASSERT_EQ(big.size(), 20u);  // 2^3 .. 2^22
  EXPECT_EQ(big.back(), (SizePoint{"4 MiB", 4194304}));
  EXPECT_EQ(parse_sizes("1:1MiB").back().label, "1 MiB");
}

TEST(OsuRanges, ZeroStartAndOpenEnds) {
  EXPECT_EQ(bytes_of(parse_sizes("0:8")),
            (std::vector<std::size_t>{0, 1, 2, 4, 8}));
  EXPECT_EQ(parse_sizes("0:1048576").size(), 22u);  // 0, 2^0 .. 2^20
  // ":B" from OSU's first size (1), "A:" to its point-to-point maximum.
  EXPECT_EQ(parse_sizes(":1024"), parse_sizes("1:1024"));
  EXPECT_EQ(parse_sizes("1048576:"), parse_sizes("1048576:4194304"));
  EXPECT_EQ(bytes_of(parse_sizes("2MiB:")),
            (std::vector<std::size_t>{2097152, 4194304}));
}

TEST(OsuRanges, AStartOffThePowersDoublesAsOsusLoop) {
  // OSU's loop: size = size ? size * 2 : 1, from the start it is given.
  EXPECT_EQ(bytes_of(parse_sizes("3:20")),
            (std::vector<std::size_t>{3, 6, 12}));
  EXPECT_EQ(mpiarena::osu_ladder(0, 0), (std::vector<std::size_t>{0}));
  EXPECT_EQ(mpiarena::osu_ladder(5, 4), (std::vector<std::size_t>{}));
}

TEST(OsuRanges, OsuLaddersByName) {
  const auto p2p = parse_sizes("osu");
  ASSERT_EQ(p2p.size(), 23u);  // 2^0 .. 2^22
  EXPECT_EQ(p2p.front(), (SizePoint{"1 B", 1}));
  EXPECT_EQ(p2p.back(), (SizePoint{"4 MiB", 4194304}));
  EXPECT_EQ(p2p, parse_sizes("1:4194304"));
  const auto coll = parse_sizes("OSU-Coll");
  ASSERT_EQ(coll.size(), 21u);  // 2^0 .. 2^20
  EXPECT_EQ(coll.back(), (SizePoint{"1 MiB", 1048576}));
  EXPECT_EQ(parse_sizes("osu,osu-coll"), p2p);
}

TEST(OsuRanges, BadRangesSayWhy) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"16:8", "starts above its end"},
      {"8MiB:", "ends at OSU's 4194304"},
      {":", "needs a start, an end or both"},
      {"1:2:4", "one colon"},
      {"1:4Kb", "unknown unit 'Kb'"},
      {"small:large", "does not start with a number"}};
  for (const auto& [spec, why] : cases) {
    const std::string what = error_of(spec);
    EXPECT_NE(what.find(why), std::string::npos) << spec << ": " << what;
    EXPECT_NE(what.find(mpiarena::size_syntax()), std::string::npos) << spec;
  }
}

TEST(UnitErrors, DidYouMeanTheNearestUnit) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"4Kb", "did you mean 'kB' or 'KiB'?"},
      {"1mib", "did you mean 'MiB'?"},
      {"1mb", "did you mean 'MB' or 'MiB'?"},
      {"1M", "did you mean 'MB' or 'MiB'?"},
      {"2XB", "did you mean 'B', 'kB', 'MB' or 'GB'?"},
      {"1GIB", "did you mean 'GiB'?"}};
  for (const auto& [spec, hint] : cases) {
    const std::string what = error_of(spec);
    EXPECT_NE(what.find("'" + spec + "'"), std::string::npos) << what;
    EXPECT_NE(what.find(hint), std::string::npos) << spec << ": " << what;
    // Every unit error names the accepted units and what they mean.
    EXPECT_NE(what.find("KiB, MiB, GiB, powers of 1024"), std::string::npos)
        << what;
  }
  // Nothing near: no guess, still the list.
  const std::string far = error_of("4 bytes");
  EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
  EXPECT_NE(far.find("kB (or KB), MB, GB"), std::string::npos) << far;
}

TEST(ShortSize, PowersOfTwoInBinaryUnitsOthersDecimal) {
  EXPECT_EQ(mpiarena::short_size(1048576), "1 MiB");
  EXPECT_EQ(mpiarena::short_size(4096), "4 KiB");
  EXPECT_EQ(mpiarena::short_size(512), "512 B");
  EXPECT_EQ(mpiarena::short_size(1000000), "1.00 MB");
  EXPECT_EQ(mpiarena::short_size(11000), "11.0 kB");
  EXPECT_EQ(mpiarena::short_size(3072), "3.07 kB");
}
