// Payloads of the transfer suite: ladders, contents and the checks that catch
// every kind of wrong delivery.
#include <gtest/gtest.h>

#include <cstdint>
#include <mpiarena/buffer.hpp>
#include <mpiarena/payload.hpp>
#include <mpiarena/pingpong.hpp>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

using mpiarena::check_flat;
using mpiarena::check_rows;
using mpiarena::payload_value;

TEST(Payload, RowSizesAreBaseTimesSquares) {
  for (std::size_t base : {0u, 1u, 7u, 50u, 2000000u}) {
    const auto sizes = mpiarena::row_sizes_for_base(base);
    ASSERT_EQ(sizes.size(), static_cast<std::size_t>(mpiarena::kRows2d));
    for (std::size_t i = 0; i < sizes.size(); ++i)
      EXPECT_EQ(static_cast<std::size_t>(sizes[i]), base * (i + 1) * (i + 1))
          << "base " << base << " row " << i;
    const long long total = std::accumulate(sizes.begin(), sizes.end(), 0LL);
    EXPECT_EQ(static_cast<std::size_t>(total), 55 * base);
  }
  EXPECT_EQ(mpiarena::row_sizes_for_base(50),
            (std::vector<int>{50, 200, 450, 800, 1250}));
}

TEST(Payload, ValuesAreOddAndNeverZero) {
  for (std::size_t row = 0; row < 6; ++row) {
    for (std::size_t i = 0; i < 20000; ++i) {
      const int v = payload_value(row, i);
      ASSERT_NE(v, 0) << row << "," << i;
      ASSERT_NE(v % 2, 0) << row << "," << i;  // odd (also when negative)
    }
  }
  // Large indices too (xxxlarge rows hold 50M ints).
  for (std::size_t i = 49999000; i < 50000000; ++i)
    ASSERT_NE(payload_value(4, i) % 2, 0) << i;
  // Poison is even, so it never equals a payload value.
  EXPECT_EQ(mpiarena::kPoison % 2, 0);
}

TEST(Payload, ValuesDependOnRowAndIndex) {
  for (std::size_t i = 0; i + 1 < 5000; ++i)
    ASSERT_NE(payload_value(0, i), payload_value(0, i + 1)) << i;
  int differ = 0;
  for (std::size_t i = 0; i < 100; ++i)
    differ += payload_value(0, i) != payload_value(1, i);
  EXPECT_EQ(differ, 100);
  EXPECT_EQ(payload_value(3, 17), payload_value(3, 17));  // deterministic
}

TEST(Payload, MakeFlatHoldsTheValuesOfRowZero) {
  const mpiarena::Flat flat = mpiarena::make_flat(1000);
  ASSERT_EQ(flat.size(), 1000u);
  for (std::size_t i = 0; i < flat.size(); ++i)
    ASSERT_EQ(flat[i], payload_value(0, i));
  EXPECT_TRUE(mpiarena::make_flat(0).empty());
}

TEST(Payload, MakeRowsHoldsTheLadder) {
  const mpiarena::Rows rows = mpiarena::make_rows(3);
  ASSERT_EQ(rows.size(), 5u);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r].size(), 3 * (r + 1) * (r + 1));
    for (std::size_t i = 0; i < rows[r].size(); ++i)
      ASSERT_EQ(rows[r][i], payload_value(r, i)) << r << "," << i;
  }
}

TEST(Payload, CountsAndBytes) {
  EXPECT_EQ(mpiarena::flat_count(10), 2u);
  EXPECT_EQ(mpiarena::flat_count(3), 0u);
  EXPECT_EQ(mpiarena::rows_base(11000), 50u);
  EXPECT_EQ(mpiarena::rows_base(219), 0u);
  EXPECT_EQ(mpiarena::rows_base(1000), 4u);
  EXPECT_EQ(mpiarena::payload_bytes("1d", 10), 8u);
  EXPECT_EQ(mpiarena::payload_bytes("1d", 4096), 4096u);
  EXPECT_EQ(mpiarena::payload_bytes("1d", 3), 0u);
  EXPECT_EQ(mpiarena::payload_bytes("2d", 11000), 11000u);
  EXPECT_EQ(mpiarena::payload_bytes("2d", 1000), 880u);
  EXPECT_EQ(mpiarena::payload_bytes("2d", 219), 0u);
  EXPECT_EQ(mpiarena::payload_bytes("2d", 440000000), 440000000u);
}

TEST(CheckFlat, AcceptsTheExactPayload) {
  EXPECT_EQ(check_flat(mpiarena::make_flat(257), 257), "");
  EXPECT_EQ(check_flat(mpiarena::make_flat(0), 0), "");
}

TEST(CheckFlat, CatchesAWrongValue) {
  auto flat = mpiarena::make_flat(100);
  flat[42] ^= 2;
  const std::string msg = check_flat(flat, 100);
  EXPECT_NE(msg, "");
  EXPECT_NE(msg.find("42"), std::string::npos) << msg;
}

TEST(CheckFlat, CatchesASwappedPair) {
  auto flat = mpiarena::make_flat(100);
  std::swap(flat[10], flat[11]);
  const std::string msg = check_flat(flat, 100);
  EXPECT_NE(msg.find("element 10"), std::string::npos) << msg;
}

TEST(CheckFlat, CatchesAMissingAndAnExtraElement) {
  auto flat = mpiarena::make_flat(100);
  flat.pop_back();
  EXPECT_NE(check_flat(flat, 100), "");
  flat = mpiarena::make_flat(101);
  EXPECT_NE(check_flat(flat, 100), "");
  // A shifted buffer (first element lost, one appended) is caught too.
  flat = mpiarena::make_flat(101);
  flat.erase(flat.begin());
  EXPECT_NE(check_flat(flat, 100), "");
}

TEST(CheckFlat, CatchesAPoisonedElement) {
  auto flat = mpiarena::make_flat(64);
  flat[63] = mpiarena::kPoison;
  const std::string msg = check_flat(flat, 64);
  EXPECT_NE(msg.find("never written"), std::string::npos) << msg;
  mpiarena::poison_flat(flat);
  EXPECT_NE(check_flat(flat, 64), "");
  mpiarena::fill_flat(flat);
  EXPECT_EQ(check_flat(flat, 64), "");
}

TEST(CheckRows, AcceptsTheExactPayload) {
  EXPECT_EQ(check_rows(mpiarena::make_rows(4), 4), "");
  EXPECT_EQ(check_rows(mpiarena::make_rows(0), 0), "");
}

TEST(CheckRows, CatchesAWrongValue) {
  auto rows = mpiarena::make_rows(4);
  rows[3][5] += 2;
  const std::string msg = check_rows(rows, 4);
  EXPECT_NE(msg.find("row 3"), std::string::npos) << msg;
}

TEST(CheckRows, CatchesASwappedPair) {
  auto rows = mpiarena::make_rows(4);
  std::swap(rows[2][0], rows[2][1]);
  EXPECT_NE(check_rows(rows, 4), "");
  // Two whole rows swapped (same values, wrong place).
  rows = mpiarena::make_rows(4);
  rows[1].swap(rows[2]);
  EXPECT_NE(check_rows(rows, 4), "");
}

TEST(CheckRows, CatchesAShortRow) {
  auto rows = mpiarena::make_rows(4);
  rows[4].pop_back();
  const std::string msg = check_rows(rows, 4);
  EXPECT_NE(msg.find("row 4"), std::string::npos) << msg;
}

TEST(CheckRows, CatchesAnExtraOrMissingRow) {
  auto rows = mpiarena::make_rows(4);
  rows.push_back(rows.back());
  EXPECT_NE(check_rows(rows, 4), "");
  rows = mpiarena::make_rows(4);
  rows.pop_back();
  EXPECT_NE(check_rows(rows, 4), "");
  EXPECT_NE(check_rows(mpiarena::Rows{}, 4), "");
  EXPECT_NE(check_rows(mpiarena::Rows{}, 0), "");  // 5 empty rows expected
}

TEST(CheckRows, CatchesAPoisonedElementAndAWrongBase) {
  auto rows = mpiarena::make_rows(2);
  rows[0][1] = mpiarena::kPoison;
  EXPECT_NE(check_rows(rows, 2).find("never written"), std::string::npos);
  mpiarena::poison_rows(rows);
  EXPECT_NE(check_rows(rows, 2), "");
  ASSERT_EQ(rows[4].size(), 50u);  // poison keeps the shape
  mpiarena::fill_rows(rows);
  EXPECT_EQ(check_rows(rows, 2), "");
  EXPECT_NE(check_rows(rows, 3), "");
}

TEST(BytesPayload, HoldsExactlyTheRequestedBytesZeroIncluded) {
  EXPECT_EQ(mpiarena::payload_bytes("bytes", 0), 0u);
  EXPECT_EQ(mpiarena::payload_bytes("bytes", 3), 3u);
  EXPECT_EQ(mpiarena::payload_size_problem("bytes", 0), "");
}

TEST(BytesPayload, OddBytesNeverPoisonAndChecked) {
  std::vector<unsigned char> data(4096);
  mpiarena::fill_bytes(data);
  for (unsigned char b : data) EXPECT_EQ(b & 1, 1);
  EXPECT_EQ(mpiarena::check_bytes(data), "");
  data[100] = mpiarena::kPoisonByte;
  const std::string diff = mpiarena::check_bytes(data);
  EXPECT_NE(diff.find("byte 100"), std::string::npos) << diff;
  EXPECT_NE(diff.find("never written"), std::string::npos) << diff;
}

// Issue 26: where a buffer starts changed MPI_Allreduce's time 2.5x; the
// collective and overlap suites' buffers start on a page.
TEST(Buffer, PageVectorStartsOnAPage) {
  for (std::size_t n : {1u, 3u, 1000u, 16384u, 300000u}) {
    mpiarena::Ints v(n, 7);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % mpiarena::kPageAlign,
              0u)
        << n;
    v.resize(n * 2 + 1);  // a reallocation stays aligned
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % mpiarena::kPageAlign,
              0u)
        << n;
    EXPECT_EQ(v[0], 7);
  }
}

// A payload held outside a Flat (a shared-memory segment: the transfer
// base's shared_payload()): filled, poisoned and checked in place.
TEST(CheckFlat, InPlaceOnMemoryOutsideAVector) {
  std::vector<int> segment(1000, 0);
  mpiarena::fill_flat(segment.data(), segment.size());
  EXPECT_TRUE(mpiarena::check_flat(segment.data(), segment.size()).empty());
  EXPECT_EQ(segment, mpiarena::make_flat(1000));
  segment[500] ^= 2;
  EXPECT_NE(mpiarena::check_flat(segment.data(), segment.size())
                .find("element 500"),
            std::string::npos);
  mpiarena::poison_flat(segment.data(), segment.size());
  const std::string diff = mpiarena::check_flat(segment.data(), 1000);
  EXPECT_NE(diff.find("element 0"), std::string::npos) << diff;
  EXPECT_NE(diff.find("never written"), std::string::npos) << diff;
}
