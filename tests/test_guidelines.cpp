// The report's "Guideline violations" view (issue 30): a mock-up or a
// forced algorithm significantly faster than the library's own choice is
// listed with its factor and p; a faster one within the noise, a slower
// one, a failed one, or one of another size or rank count is not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis/report/guidelines.hpp"
#include "doc_fixtures.hpp"

using mpiarena::Document;
using mpiarena::Record;
using mpiarena_test::make_record;

namespace {

Record collective(const std::string& method, std::vector<double> samples,
                  const std::string& guideline = "", int algorithm = -1) {
  Record r = make_record(method, std::move(samples), 65536);
  r.suite = "collective";
  r.params = {{"collective", "allreduce"}};
  if (!guideline.empty()) r.params.emplace_back("guideline", guideline);
  if (algorithm >= 0)
    r.algorithm = {"MPICH", "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM",
                   algorithm == 0 ? "auto" : "ring", algorithm};
  return r;
}

const std::vector<double> kLibrary{10e-6,   10.2e-6, 9.9e-6, 10.1e-6,
                                   10.3e-6, 9.8e-6,  10e-6};

}  // namespace

TEST(Guidelines, ListsWhatBeatsTheLibrarySignificantly) {
  Document d;
  d.records.push_back(collective("allreduce", kLibrary));
  // 20% faster in every sample: a violation.
  d.records.push_back(collective(
      "allreduce_as_reduce_bcast",
      {8e-6, 8.1e-6, 7.9e-6, 8.2e-6, 8e-6, 7.8e-6, 8.1e-6}, "reduce_bcast"));
  // Faster in the median but overlapping: not significant.
  d.records.push_back(
      collective("allreduce_as_rsb_allgather",
                 {9.7e-6, 10.4e-6, 9.6e-6, 10.2e-6, 9.9e-6, 10.5e-6, 9.8e-6},
                 "reduce_scatter_block_allgather"));
  // A forced algorithm, slower: not listed.
  d.records.push_back(collective(
      "allreduce[algorithm=ring]",
      {12e-6, 12.1e-6, 11.9e-6, 12e-6, 12.2e-6, 11.8e-6, 12e-6}, "", 3));
  // Faster but failed verification: never a violation.
  Record wrong = collective("allreduce_as_bad",
                            {1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6}, "bad");
  wrong.verification = "failed";
  d.records.push_back(wrong);
  int compared = 0;
  const auto found = mpiarena::guideline_violations(d, 0.05, compared);
  EXPECT_EQ(compared, 3);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].faster, "allreduce_as_reduce_bcast");
  EXPECT_EQ(found[0].collective, "allreduce");
  EXPECT_NEAR(found[0].factor, 10e-6 / 8e-6, 1e-9);
  EXPECT_LT(found[0].p, 0.05);
  const std::string text =
      mpiarena::render_guidelines(d, mpiarena::Style::text);
  EXPECT_NE(text.find("Guideline violations"), std::string::npos);
  EXPECT_NE(text.find("allreduce_as_reduce_bcast"), std::string::npos);
  EXPECT_NE(text.find("1.25x"), std::string::npos);
  EXPECT_EQ(text.find("allreduce_as_rsb_allgather"), std::string::npos);
}

TEST(Guidelines, TheLibrarysChoiceUnderAlgorithmsIsTheReference) {
  Document d;
  // Under --algorithms the library's own choice carries value 0.
  d.records.push_back(
      collective("allreduce[algorithm=library]", kLibrary, "", 0));
  d.records.push_back(
      collective("allreduce[algorithm=ring]",
                 {5e-6, 5.1e-6, 4.9e-6, 5e-6, 5.2e-6, 4.8e-6, 5e-6}, "", 3));
  // Another size: nothing to compare it with.
  Record other =
      collective("allreduce_as_reduce_bcast",
                 {1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6}, "reduce_bcast");
  other.bytes = 8;
  d.records.push_back(other);
  int compared = 0;
  const auto found = mpiarena::guideline_violations(d, 0.05, compared);
  EXPECT_EQ(compared, 1);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].faster, "allreduce[algorithm=ring]");
  EXPECT_NEAR(found[0].factor, 2.0, 1e-9);
}

TEST(Guidelines, NothingToCompareRendersNothing) {
  Document d;
  d.records.push_back(collective("allreduce", kLibrary));
  EXPECT_EQ(mpiarena::render_guidelines(d, mpiarena::Style::text), "");
  d.records.push_back(
      collective("allreduce_as_reduce_bcast", kLibrary, "reduce_bcast"));
  const std::string text =
      mpiarena::render_guidelines(d, mpiarena::Style::text);
  EXPECT_NE(text.find("none: no mock-up"), std::string::npos) << text;
}
