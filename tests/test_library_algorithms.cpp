// MPICH's algorithm variables carry their values only in their
// description (issue 30): the items, in order, from the texts MPICH 4.0
// gives, whose lines it joins without a separator.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/engine/library_algorithms.hpp"

namespace {

std::vector<std::string> names(const std::string& description,
                               std::string& why) {
  std::vector<std::string> out;
  for (const auto& a : mpiarena::parse_mpich_algorithms(description, why))
    out.push_back(std::to_string(a.value) + ":" + a.name);
  return out;
}

}  // namespace

TEST(MpichAlgorithms, ItemsInOrderThoughGluedToTheTextBefore) {
  // MPICH 4.0.2's MPIR_CVAR_BCAST_INTRA_ALGORITHM: "Tree" + "nb", and
  // "algorithm" + "smp", glued.
  const std::string bcast =
      "Variable to select bcast algorithmauto - Internal algorithm selection "
      "(can be overridden with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE)"
      "binomial                                - Force Binomial Tree"
      "nb                                      - Force nonblocking algorithm"
      "smp                                     - Force smp algorithm"
      "scatter_recursive_doubling_allgather    - Force Scatter "
      "Recursive-Doubling Allgather"
      "scatter_ring_allgather                  - Force Scatter Ring";
  std::string why;
  EXPECT_EQ(names(bcast, why),
            (std::vector<std::string>{"0:auto", "1:binomial", "2:nb", "3:smp",
                                      "4:scatter_recursive_doubling_allgather",
                                      "5:scatter_ring_allgather"}))
      << why;
  // MPIR_CVAR_COLLECTIVE_FALLBACK: every name in the column, the first too.
  const std::string fallback =
      "Variable to control what the MPI library should do if theuser-"
      "specified collective algorithm does not work for thearguments passed "
      "in by the user.error   - throw an errorprint   - print an error "
      "message and fallback to the internally selected algorithmsilent  - "
      "silently fallback to the internally selected algorithm";
  EXPECT_EQ(names(fallback, why),
            (std::vector<std::string>{"0:error", "1:print", "2:silent"}))
      << why;
}

TEST(MpichAlgorithms, ATextOfAnotherFormIsRefusedWithTheReason) {
  std::string why;
  EXPECT_TRUE(names("Variable to select bcast algorithm", why).empty());
  EXPECT_NE(why, "");
  why.clear();
  EXPECT_TRUE(names("Variable algorithmauto - x)Bad Name! - c", why).empty());
  EXPECT_NE(why, "");
}
