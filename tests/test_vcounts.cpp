// The per-rank counts of the v- and w-collectives (collective_suite.hpp):
// the varied pattern differs from rank to rank with OSU's total, the
// rotation keeps an alltoallv's sends and receives in one layout, and the
// checks name a block that arrived in the wrong place.
#include <gtest/gtest.h>

#include <mpiarena/collective_suite.hpp>

using mpiarena::Counts;
using mpiarena::v_layout;

TEST(VCounts, VariedDiffersWithTheUniformTotal) {
  for (int p = 2; p <= 7; ++p)
    for (std::size_t c : {2u, 3u, 10u, 1000u}) {
      const auto v = v_layout(p, c, Counts::varied);
      const auto u = v_layout(p, c, Counts::uniform);
      EXPECT_EQ(v.total, c * static_cast<std::size_t>(p)) << p << " " << c;
      EXPECT_EQ(u.total, v.total);
      EXPECT_LT(v.counts.front(), v.counts.back()) << p << " " << c;
      for (int s = 0; s < p; ++s) {
        EXPECT_GT(v.counts[s], 0);
        EXPECT_EQ(u.counts[s], static_cast<int>(c));
        if (s > 0) {
          EXPECT_EQ(v.first(s), v.first(s - 1) + v.size(s - 1));
        }
      }
    }
}

TEST(VCounts, AnAlltoallvSendsWhatItsPeersReceive) {
  // Rank i sends v_layout(p, c, varied, i) and receives in the same layout:
  // the count from i to j must be the count j expects from i.
  const int p = 5;
  for (int i = 0; i < p; ++i)
    for (int j = 0; j < p; ++j)
      EXPECT_EQ(v_layout(p, 7, Counts::varied, i).size(j),
                v_layout(p, 7, Counts::varied, j).size(i));
}

TEST(VCounts, ChecksNameTheMisplacedBlock) {
  const int p = 3;
  const auto l = v_layout(p, 4, Counts::varied);
  mpiarena::Ints all;
  for (int r = 0; r < p; ++r) {
    const auto mine = mpiarena::partials_of(r, p, l.size(r));
    all.insert(all.end(), mine.begin(), mine.end());
  }
  EXPECT_TRUE(mpiarena::check_gathered_v(all, p, l).ok);
  // The layout uniform counts would have used puts rank 1's block at 4.
  all[l.first(1)] = -1;
  const auto bad = mpiarena::check_gathered_v(all, p, l);
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("block of rank 1"), std::string::npos)
      << bad.message;

  const auto sent =
      mpiarena::alltoall_send_v(0, p, v_layout(p, 4, Counts::varied, 0));
  // What rank 0 sent to itself is what it receives from itself.
  mpiarena::Ints got(v_layout(p, 4, Counts::varied, 0).total, -1);
  const auto l0 = v_layout(p, 4, Counts::varied, 0);
  for (std::size_t i = 0; i < l0.size(0); ++i) got[l0.first(0) + i] = sent[i];
  const auto v = mpiarena::check_alltoall_v(got, 0, p, l0);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("from rank 1"), std::string::npos) << v.message;
}
