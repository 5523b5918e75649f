// The nearest accepted names of a mistyped word (core/results/suggest.hpp):
// the distance, its cut-off, the order, and the sentence the messages use.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/results/suggest.hpp"

namespace {

using mpiarena::did_you_mean;
using mpiarena::edit_distance;
using mpiarena::nearest;
using Names = std::vector<std::string>;

TEST(Suggest, TheDistanceCountsASwapOfNeighboursAsOneEdit) {
  EXPECT_EQ(edit_distance("bcats", "bcast"), 1u);
  EXPECT_EQ(edit_distance("allreduse", "allreduce"), 1u);
  EXPECT_EQ(edit_distance("treshold", "threshold"), 1u);
  EXPECT_EQ(edit_distance("compair", "compare"), 2u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  // Optimal string alignment: "ca" -> "ac" -> "abc" edits a swapped pair
  // again, so it is 3, not Damerau-Levenshtein's 2.
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);
  // Case and leading dashes do not count.
  EXPECT_EQ(edit_distance("BCAST", "bcast"), 0u);
  EXPECT_EQ(edit_distance("--treshold", "--threshold"), 1u);
}

TEST(Suggest, TheNearestComeFirstThenTheNamesThatHoldTheWord) {
  const Names methods = {"allgather", "allreduce", "bcast",     "coll_bcast",
                         "gather",    "latency",   "latency_mt", "pack",
                         "reduce",    "scatter",   "osu_bw"};
  EXPECT_EQ(nearest("bcats", methods), (Names{"bcast", "coll_bcast"}));
  EXPECT_EQ(nearest("allreduse", methods), (Names{"allreduce"}));
  EXPECT_EQ(nearest("osu_latency", methods, 2),
            (Names{"latency", "latency_mt"}));
  EXPECT_EQ(nearest("latenc", methods), (Names{"latency", "latency_mt"}));
  // At most `most`, the nearest first.
  EXPECT_EQ(nearest("gathre", methods, 1), (Names{"gather"}));
  EXPECT_EQ(nearest("GATHER", methods, 1), (Names{"gather"}));
  // Nothing near: nothing suggested, rather than the least far.
  EXPECT_TRUE(nearest("frobnicate", methods).empty());
  EXPECT_TRUE(nearest("xyz", methods).empty());
  EXPECT_TRUE(nearest("", methods).empty());
  EXPECT_TRUE(nearest("bcats", {}).empty());
}

TEST(Suggest, AShortWordMatchesOnlyWhatDiffersInCase) {
  const Names options = {"-h", "-m", "-o", "-q"};
  EXPECT_TRUE(nearest("-x", options).empty());
  EXPECT_EQ(nearest("1D", {"1d", "2d"}), (Names{"1d"}));
  EXPECT_TRUE(nearest("3d", {"1d", "2d"}).empty());
}

TEST(Suggest, OptionsMatchWithTheirDashes) {
  const Names options = {"--threshold", "--alpha", "--format", "--output",
                         "--relative"};
  EXPECT_EQ(nearest("--treshold", options), (Names{"--threshold"}));
  EXPECT_EQ(nearest("--fromat", options), (Names{"--format"}));
}

TEST(Suggest, TheSentenceNamesOneTwoOrThree) {
  EXPECT_EQ(did_you_mean("bcats", {"bcast", "coll_bcast", "gather"}),
            "did you mean 'bcast' or 'coll_bcast'?");
  EXPECT_EQ(did_you_mean("compair", {"compare", "report", "trend"}),
            "did you mean 'compare'?");
  EXPECT_EQ(did_you_mean("pol", {"poll", "pool", "pole", "auto"}),
            "did you mean 'pole', 'poll' or 'pool'?");
  EXPECT_EQ(did_you_mean("spin", {"auto", "poll", "sleep"}), "");
}

}  // namespace
