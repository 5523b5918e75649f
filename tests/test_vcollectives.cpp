// The payloads and checks the v- and w-collectives and the scans share
// (v_collectives.hpp): reduce_scatter's split is OSU's under uniform
// counts and keeps its total under varied ones, the prefix sums' closed
// form is the sum it stands for, and each check names the misplaced block
// (the types of AlltoallwData need MPI: tests/e2e/e2e_vcoll.py).
#include <gtest/gtest.h>

#include <mpiarena/v_collectives.hpp>

using mpiarena::Counts;
using mpiarena::split_layout;
using mpiarena::VPoint;

namespace {

VPoint point(int rank, int ranks, std::size_t count, Counts pattern) {
  VPoint at;
  at.rank = rank;
  at.ranks = ranks;
  at.count = count;
  at.pattern = pattern;
  return at;
}

}  // namespace

TEST(VCollectives, ReduceScatterSplitsAsOsu) {
  for (int p = 2; p <= 5; ++p)
    for (std::size_t n : {1u, 2u, 3u, 7u, 257u, 16384u}) {
      const auto u = split_layout(p, n, Counts::uniform);
      const auto v = split_layout(p, n, Counts::varied);
      EXPECT_EQ(u.total, n);
      EXPECT_EQ(v.total, n);
      // osu_reduce_scatter: portion + 1 for the first `remainder` ranks;
      // one int each to the first n ranks when n < p.
      const std::size_t portion = n / p, remainder = n % p;
      for (int s = 0; s < p; ++s) {
        const std::size_t osu =
            n < static_cast<std::size_t>(p)
                ? (static_cast<std::size_t>(s) < n ? 1 : 0)
                : portion + (static_cast<std::size_t>(s) < remainder ? 1 : 0);
        EXPECT_EQ(u.size(s), osu) << p << " " << n << " " << s;
        if (s > 0) {
          EXPECT_EQ(v.first(s), v.first(s - 1) + v.size(s - 1));
        }
      }
      if (n / p >= 2) {
        EXPECT_LT(v.size(0), v.size(p - 1)) << p << " " << n;
      }
    }
}

TEST(VCollectives, PrefixSumsAreTheSumsOfThePartials) {
  for (int p = 2; p <= 5; ++p)
    for (int r = 0; r < p; ++r)
      for (std::size_t i : {0u, 1u, 1020u, 1021u, 5000u}) {
        long long inclusive = 0;
        for (int q = 0; q <= r; ++q)
          inclusive += mpiarena::partial_value(q, p, i);
        EXPECT_EQ(mpiarena::prefix_sum(r, p, i, true), inclusive);
        EXPECT_EQ(mpiarena::prefix_sum(r, p, i, false),
                  inclusive - mpiarena::partial_value(r, p, i));
      }
  mpiarena::Ints garbage(4, -1);
  EXPECT_TRUE(mpiarena::check_prefix_sums(garbage, 0, 3, false).ok)
      << "rank 0's exscan result is undefined";
  const auto bad = mpiarena::check_prefix_sums(garbage, 1, 3, false);
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("exscan of rank 1"), std::string::npos)
      << bad.message;
}

TEST(VCollectives, ChecksNameTheWrongBlock) {
  const int p = 3;
  // Scatterv: the root's array holds rank r's partials at r's place.
  mpiarena::ScattervData root, other;
  root.build(point(0, p, 10, Counts::varied));
  other.build(point(2, p, 10, Counts::varied));
  ASSERT_EQ(other.slice.size(), root.layout.size(2));
  for (std::size_t i = 0; i < other.slice.size(); ++i)
    other.slice[i] = root.array[root.layout.first(2) + i];
  EXPECT_TRUE(other.check().ok) << other.check().message;
  // The block at rank 1's place instead: rank 1's partials, wrong.
  for (std::size_t i = 0; i < other.slice.size(); ++i)
    other.slice[i] = mpiarena::partial_value(1, p, i);
  EXPECT_NE(other.check().message.find("slice of rank 2"), std::string::npos);

  // Reduce_scatter: rank 1's block of the sum at its place in the vector.
  mpiarena::ReduceScatterData rs;
  rs.build(point(1, p, 0, Counts::varied), 257);
  const std::size_t first = rs.layout.first(1);
  EXPECT_GT(first, 0u);
  for (std::size_t i = 0; i < rs.received.size(); ++i)
    rs.received[i] = static_cast<int>(mpiarena::partial_sum(p, first + i));
  EXPECT_TRUE(rs.check().ok) << rs.check().message;
  // The sums of the vector's start (a uniform displacement of 0): wrong.
  for (std::size_t i = 0; i < rs.received.size(); ++i)
    rs.received[i] = static_cast<int>(mpiarena::partial_sum(p, i));
  const auto bad = rs.check();
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("rank 1's block of the sum"), std::string::npos)
      << bad.message;

  // Gatherv: held at the root only.
  mpiarena::GathervData g;
  g.build(point(1, p, 8, Counts::varied), false);
  EXPECT_TRUE(g.gathered.empty());
  EXPECT_EQ(g.sent.size(), g.layout.size(1));
  EXPECT_TRUE(g.check().ok);
}
