// Size ladders: presets, byte values with units, ranges, lists and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <mpiarena/sizes.hpp>
#include <string>
#include <utility>
#include <vector>

#include "sizes_fixtures.hpp"

using mpiarena::parse_bytes;
using mpiarena::parse_sizes;
using mpiarena::SizePoint;
using mpiarena::SizeSpecError;

namespace {

using sizes_fixtures::bytes_of;
using sizes_fixtures::labels_of;

}  // namespace

TEST(Presets, NamesAndBasesOfSeed000) {
  const auto& p = mpiarena::presets();
  ASSERT_EQ(p.size(), 6u);
  const std::vector<std::string> names = {"small",  "medium",  "large",
                                          "xlarge", "xxlarge", "xxxlarge"};
  const std::vector<std::size_t> bases = {50,    500,    5000,
                                          50000, 500000, 2000000};
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(p[i].name, names[i]);
    EXPECT_EQ(p[i].base, bases[i]) << names[i];
  }
}

TEST(Presets, BytesAre220TimesBase) {
  for (const auto& p : mpiarena::presets())
    EXPECT_EQ(mpiarena::preset_bytes(p.base), 220 * p.base) << p.name;
  EXPECT_EQ(mpiarena::preset_bytes(50), 11000u);
  EXPECT_EQ(mpiarena::preset_bytes(500), 110000u);
  EXPECT_EQ(mpiarena::preset_bytes(5000), 1100000u);
  EXPECT_EQ(mpiarena::preset_bytes(50000), 11000000u);
  EXPECT_EQ(mpiarena::preset_bytes(500000), 110000000u);
  EXPECT_EQ(mpiarena::preset_bytes(2000000), 440000000u);
}

TEST(ParseSizes, EachPresetByName) {
  for (const auto& p : mpiarena::presets()) {
    const auto points = parse_sizes(p.name);
    ASSERT_EQ(points.size(), 1u) << p.name;
    EXPECT_EQ(points[0].label, p.name);
    EXPECT_EQ(points[0].bytes, 220 * p.base);
  }
  // Preset names are case-insensitive and may be surrounded by blanks.
  EXPECT_EQ(parse_sizes(" Large ").at(0), (SizePoint{"large", 1100000}));
}

TEST(ParseSizes, AllIsTheSixPresetsInOrder) {
  const auto points = parse_sizes("all");
  EXPECT_EQ(labels_of(points),
            (std::vector<std::string>{"small", "medium", "large", "xlarge",
                                      "xxlarge", "xxxlarge"}));
  EXPECT_EQ(bytes_of(points),
            (std::vector<std::size_t>{11000, 110000, 1100000, 11000000,
                                      110000000, 440000000}));
  // `all` together with one of its presets gives no duplicate.
  EXPECT_EQ(parse_sizes("large,all").size(), 6u);
}

TEST(ParseBytes, PlainNumbersAndUnits) {
  EXPECT_EQ(parse_bytes("0"), 0u);
  EXPECT_EQ(parse_bytes("4096"), 4096u);
  EXPECT_EQ(parse_bytes("7B"), 7u);
  EXPECT_EQ(parse_bytes("3kB"), 3000u);
  EXPECT_EQ(parse_bytes("3KB"), 3000u);
  EXPECT_EQ(parse_bytes("3KiB"), 3072u);
  EXPECT_EQ(parse_bytes("2MB"), 2000000u);
  EXPECT_EQ(parse_bytes("2MiB"), 2097152u);
  EXPECT_EQ(parse_bytes("5GB"), 5000000000u);
  EXPECT_EQ(parse_bytes("5GiB"), 5368709120u);
  EXPECT_EQ(parse_bytes("2 GiB"), 2147483648u);
  EXPECT_EQ(parse_bytes(" 16 KiB "), 16384u);
}

TEST(ParseBytes, RejectsBadValues) {
  EXPECT_THROW(parse_bytes(""), SizeSpecError);
  EXPECT_THROW(parse_bytes("KiB"), SizeSpecError);
  EXPECT_THROW(parse_bytes("5XB"), SizeSpecError);
  EXPECT_THROW(parse_bytes("5 kib"), SizeSpecError);
  EXPECT_THROW(parse_bytes("-5"), SizeSpecError);
  EXPECT_THROW(parse_bytes("1.5MB"), SizeSpecError);
  EXPECT_THROW(parse_bytes("99999999999999999999"), SizeSpecError);
  // Fits in the digits but overflows once multiplied by the unit.
  EXPECT_THROW(parse_bytes("20000000000GiB"), SizeSpecError);
}

TEST(ParseSizes, ByteValuesAreLabelledInTheUnitTheyWereGivenIn) {
  EXPECT_EQ(parse_sizes("4KiB").at(0), (SizePoint{"4 KiB", 4096}));
  EXPECT_EQ(parse_sizes("4096").at(0), (SizePoint{"4096", 4096}));
}

TEST(ParseSizes, DoublingRangeWithUnits) {
  const auto points = parse_sizes("8B..4MiB");
  ASSERT_EQ(points.size(), 20u);  // 2^3 .. 2^22
  EXPECT_EQ(points.front(), (SizePoint{"8", 8}));
  EXPECT_EQ(points.back(), (SizePoint{"4194304", 4194304}));
  for (std::size_t i = 1; i < points.size(); ++i)
    EXPECT_EQ(points[i].bytes, 2 * points[i - 1].bytes) << i;
}

TEST(ParseSizes, RangeFromZero) {
  const auto points = parse_sizes("0..8");
  EXPECT_EQ(bytes_of(points), (std::vector<std::size_t>{0, 1, 2, 4, 8}));
  EXPECT_EQ(labels_of(points),
            (std::vector<std::string>{"0", "1", "2", "4", "8"}));
}

TEST(ParseSizes, RangeEndOffTheLadderIsNotIncluded) {
  EXPECT_EQ(bytes_of(parse_sizes("3..20")),
            (std::vector<std::size_t>{3, 6, 12}));
  EXPECT_EQ(bytes_of(parse_sizes("5..5")), (std::vector<std::size_t>{5}));
}

TEST(ParseSizes, DeduplicatesAndSortsAscending) {
  const auto points = parse_sizes("4MiB, 1, small, 1024, 1KiB, 1,2..4");
  EXPECT_EQ(bytes_of(points),
            (std::vector<std::size_t>{1, 2, 4, 1024, 11000, 4194304}));
  EXPECT_EQ(labels_of(points), (std::vector<std::string>{"1", "2", "4", "1024",
                                                         "small", "4 MiB"}));
}

TEST(ParseSizes, PresetWinsOverTheSameByteValue) {
  // sizes.cpp: "Keep the first of equal sizes (a preset wins over the same
  // byte value)". Whatever the order of the list, the label is the preset's.
  EXPECT_EQ(parse_sizes("small,11000").at(0).label, "small");
  EXPECT_EQ(parse_sizes("11000,small").at(0).label, "small");
}

TEST(ParseSizes, ErrorsAreSizeSpecErrorsWithTheSyntax) {
  const std::string syntax = mpiarena::size_syntax();
  ASSERT_FALSE(syntax.empty());
  for (const std::string spec :
       {"", "   ", "abc", "5XB", "8..4", "1,,2", "1,", ",1",
        "99999999999999999999", "small,huge", "1..", "..4"}) {
    try {
      parse_sizes(spec);
      ADD_FAILURE() << "'" << spec << "' was accepted";
    } catch (const SizeSpecError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(syntax), std::string::npos)
          << "'" << spec << "': " << what;
    }
  }
}

TEST(ParseSizes, ErrorsNameTheBadItem) {
  try {
    parse_sizes("small,5XB");
    FAIL() << "accepted";
  } catch (const SizeSpecError& e) {
    EXPECT_NE(std::string(e.what()).find("5XB"), std::string::npos) << e.what();
  }
  try {
    parse_sizes("8..4");
    FAIL() << "accepted";
  } catch (const SizeSpecError& e) {
    EXPECT_NE(std::string(e.what()).find("8..4"), std::string::npos)
        << e.what();
  }
}

TEST(ParseSizes, AThousandsSeparatorIsRefusedNotSplit) {
  // "1,000" is not the sizes 1 and 0.
  try {
    parse_sizes("1,000");
    FAIL() << "accepted";
  } catch (const SizeSpecError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'000'"), std::string::npos) << what;
    EXPECT_NE(what.find("write 1000"), std::string::npos) << what;
  }
  EXPECT_THROW(parse_sizes("8,016"), SizeSpecError);
  // A zero alone, and zeros inside a number, are sizes.
  EXPECT_EQ(parse_sizes("0,1000").size(), 2u);
  EXPECT_EQ(parse_sizes("0").front().bytes, 0u);
}

TEST(SizeSyntax, DescribesEveryForm) {
  const std::string syntax = mpiarena::size_syntax();
  for (const std::string word : {"small", "xxxlarge", "all", "KiB", "MiB",
                                 "GiB", "kB", "MB", "GB", ".."})
    EXPECT_NE(syntax.find(word), std::string::npos) << word;
}

TEST(FormatBytes, DecimalUnitsThreeSignificantDigits) {
  EXPECT_EQ(mpiarena::format_bytes(0), "0 B");
  EXPECT_EQ(mpiarena::format_bytes(999), "999 B");
  EXPECT_EQ(mpiarena::format_bytes(1000), "1.00 kB");
  EXPECT_EQ(mpiarena::format_bytes(12300), "12.3 kB");
  EXPECT_EQ(mpiarena::format_bytes(110000), "110 kB");
  EXPECT_EQ(mpiarena::format_bytes(1050000), "1.05 MB");
  EXPECT_EQ(mpiarena::format_bytes(440000000), "440 MB");
  EXPECT_EQ(mpiarena::format_bytes(2.5e9), "2.50 GB");
}

TEST(FormatBytes, RoundingNeverGivesFourDigits) {
  // A value that rounds up to 1000 of a unit must move to the next unit
  // (three significant digits, as the header documents).
  EXPECT_EQ(mpiarena::format_bytes(999999), "1.00 MB");
  EXPECT_EQ(mpiarena::format_bytes(99999), "100 kB");
  EXPECT_EQ(mpiarena::format_bytes(9999), "10.0 kB");
}

TEST(NetpipeLadder, PowersAndOneAndAHalfWithPerturbations) {
  const std::vector<std::size_t> want = {1,  2,  3,  4,  5,  6,  7,  8,  9,
                                         11, 12, 13, 15, 16, 19, 21, 24, 27};
  EXPECT_EQ(mpiarena::netpipe_ladder(1, 24 + 3), want);
  // Bounds are inclusive and perturbations never leave them.
  const auto l = mpiarena::netpipe_ladder(1000, 1 << 12);
  EXPECT_EQ(l.front(), 1021u);  // 1024 - 3
  EXPECT_EQ(l.back(), 4096u);   // 4096 + 3 is above the end
  EXPECT_TRUE(std::is_sorted(l.begin(), l.end()));
}

TEST(NetpipeLadder, ParsedAsASizeSpec) {
  const auto sizes = mpiarena::parse_sizes("netpipe:1B..8MiB");
  EXPECT_EQ(sizes.front().bytes, 1u);
  EXPECT_EQ(sizes.back().bytes, 8u << 20);
  bool has_perturbed = false, has_half = false;
  for (const auto& s : sizes) {
    has_perturbed |= s.bytes == (1u << 20) + 3;
    has_half |= s.bytes == 3u << 19;
    EXPECT_EQ(s.label, std::to_string(s.bytes));
  }
  EXPECT_TRUE(has_perturbed);
  EXPECT_TRUE(has_half);
  EXPECT_THROW(mpiarena::parse_sizes("netpipe:64"), mpiarena::SizeSpecError);
  EXPECT_THROW(mpiarena::parse_sizes("netpipe:8..4"), mpiarena::SizeSpecError);
}

TEST(PowerLadder, StartsAtZeroOrOne) {
  const auto zero = mpiarena::parse_sizes("0..4");
  ASSERT_EQ(zero.size(), 4u);
  EXPECT_EQ(zero[0].bytes, 0u);
  EXPECT_EQ(zero[1].bytes, 1u);
  EXPECT_EQ(mpiarena::parse_sizes("1B..4MiB").size(), 23u);
}

TEST(ParseSizes, PresetRangeIsEveryPresetFromTheFirstToTheLast) {
  // The README's and --help's default.
  EXPECT_EQ(labels_of(parse_sizes("small..xxlarge")),
            (std::vector<std::string>{"small", "medium", "large", "xlarge",
                                      "xxlarge"}));
  EXPECT_EQ(labels_of(parse_sizes(" Medium .. LARGE ")),
            (std::vector<std::string>{"medium", "large"}));
  EXPECT_EQ(labels_of(parse_sizes("large..large")),
            (std::vector<std::string>{"large"}));
  EXPECT_EQ(parse_sizes("small..xxxlarge"), parse_sizes("all"));
  // Mixed with other items, deduplicated and sorted as usual.
  EXPECT_EQ(labels_of(parse_sizes("xlarge,small..medium,1KiB")),
            (std::vector<std::string>{"1 KiB", "small", "medium", "xlarge"}));
}

TEST(ParseSizes, BadPresetRangesSayWhatIsAccepted) {
  const std::string syntax = mpiarena::size_syntax();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"xxlarge..small", "starts above its end"},
      {"small..4MiB", "mixes a preset and a byte value"},
      {"8B..large", "mixes a preset and a byte value"},
      {"small..huge", "'huge' is neither a preset name nor a byte value"},
      {"all..large", "'all' is neither"}};
  for (const auto& [spec, why] : cases) {
    try {
      parse_sizes(spec);
      ADD_FAILURE() << "'" << spec << "' was accepted";
    } catch (const SizeSpecError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(why), std::string::npos) << spec << ": " << what;
      EXPECT_NE(what.find("'" + spec + "'"), std::string::npos) << what;
      EXPECT_NE(what.find(syntax), std::string::npos) << what;
    }
  }
  EXPECT_NE(syntax.find("small..xxlarge"), std::string::npos) << syntax;
}

TEST(FormatBytes, ExtremeAndNonFiniteValuesStayShort) {
  EXPECT_EQ(mpiarena::format_bytes(2e12), "2.00 TB");
  EXPECT_EQ(mpiarena::format_bytes(2e15), "2.00 PB");
  // The largest size_t.
  EXPECT_EQ(mpiarena::format_bytes(18446744073709551615.0), "18.4 EB");
  EXPECT_EQ(mpiarena::format_bytes(1e308), "1.00e+308 B");
  EXPECT_EQ(mpiarena::format_bytes(-1e308), "-1.00e+308 B");
  EXPECT_EQ(mpiarena::format_bytes(-5), "-5 B");
  EXPECT_EQ(mpiarena::format_bytes(std::nan("")), "n/a");
  EXPECT_EQ(mpiarena::format_bytes(HUGE_VAL), "inf B");
}
