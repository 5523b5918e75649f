// The copy limit's arithmetic (core/results/copy_limit.hpp), its JSON in a
// record against the schema, and the report's line under a table.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis/report/report.hpp"
#include "core/results/copy_limit.hpp"
#include "core/results/schema.hpp"
#include "doc_fixtures.hpp"

namespace {

using mpiarena::CopyLimit;
using nlohmann::json;

CopyLimit limit_110mb() {
  CopyLimit c;
  c.bytes = 110000000;
  c.one_core_Bps = 15e9;
  c.all_ranks_Bps = 20e9;
  c.node_ranks = 2;
  c.repetitions = 5;
  c.seconds = 0.2;
  return c;
}

TEST(CopyLimit, BestRateIsBytesOverTheShortestTime) {
  EXPECT_DOUBLE_EQ(mpiarena::best_rate(1000, {2.0, 0.5, 1.0}), 2000.0);
  EXPECT_DOUBLE_EQ(mpiarena::best_rate(1000, {}), 0.0);
  EXPECT_DOUBLE_EQ(mpiarena::best_rate(1000, {0.0, 1.0}), 0.0);
}

TEST(CopyLimit, AggregateRateCountsEveryRanksBytes) {
  EXPECT_DOUBLE_EQ(mpiarena::aggregate_rate(1000, 2, 0.25), 8000.0);
  EXPECT_DOUBLE_EQ(mpiarena::aggregate_rate(1000, 0, 0.25), 0.0);
  EXPECT_DOUBLE_EQ(mpiarena::aggregate_rate(1000, 2, 0.0), 0.0);
}

TEST(CopyLimit, FractionCountsCopiesAndReceivers) {
  // 9 GB/s moved with 2 copies to one receiver: 18 GB/s of copying.
  EXPECT_DOUBLE_EQ(mpiarena::copy_fraction(9e9, 2, 1, 20e9), 0.9);
  EXPECT_DOUBLE_EQ(mpiarena::copy_fraction(9e9, 2, 3, 20e9), 2.7);
  EXPECT_DOUBLE_EQ(mpiarena::copy_fraction(9e9, 0, 1, 20e9), 0.0);
  EXPECT_DOUBLE_EQ(mpiarena::copy_fraction(9e9, 2, 1, 0), 0.0);
}

TEST(CopyLimit, LibraryPathCopiesFollowTheSingleCopyMechanism) {
  EXPECT_EQ(mpiarena::library_path_copies("none"), 2);
  EXPECT_EQ(mpiarena::library_path_copies("cma"), 1);
  EXPECT_EQ(mpiarena::library_path_copies("xpmem"), 1);
  EXPECT_EQ(mpiarena::library_path_copies(""), 0);
}

TEST(CopyLimit, ASingleReceiverReadIsHeldAgainstOneCoreTheRestAllRanks) {
  CopyLimit c = limit_110mb();
  mpiarena::apply_copies(c, 1, 2, 12e9, true);  // the receiver's read alone
  EXPECT_EQ(c.fraction_of, "one_core");
  EXPECT_DOUBLE_EQ(c.fraction, 0.8);
  mpiarena::apply_copies(c, 1, 3, 6e9, true);  // two receivers copy at once
  EXPECT_EQ(c.fraction_of, "all_ranks");
  EXPECT_DOUBLE_EQ(c.fraction, 0.6);
  mpiarena::apply_copies(c, 1, 2, 12e9);  // one copy split over the cores
  EXPECT_EQ(c.fraction_of, "all_ranks");
  EXPECT_DOUBLE_EQ(c.fraction, 0.6);
  mpiarena::apply_copies(c, 2, 2, 9e9);
  EXPECT_EQ(c.fraction_of, "all_ranks");
  EXPECT_DOUBLE_EQ(c.fraction, 0.9);
  mpiarena::apply_copies(c, 0, 2, 9e9);
  EXPECT_EQ(c.fraction_of, "");
  EXPECT_DOUBLE_EQ(c.fraction, 0.0);
  c.node_ranks = 1;  // one rank per node: one core is all there is
  mpiarena::apply_copies(c, 2, 2, 6e9);
  EXPECT_EQ(c.fraction_of, "one_core");
  EXPECT_DOUBLE_EQ(c.fraction, 0.8);
}

TEST(CopyLimit, RecordCarriesItAndValidates) {
  auto doc = mpiarena_test::sample_document();
  mpiarena::Record& r = doc.records[0];
  EXPECT_FALSE(mpiarena::to_json(r).contains("copy_limit"));
  r.copy_limit = limit_110mb();
  mpiarena::apply_copies(r.copy_limit, 2, 2, 9e9);
  const json j = mpiarena::to_json(r);
  EXPECT_EQ(j.at("copy_limit").at("statistic"), "best");
  EXPECT_EQ(j.at("copy_limit").at("copies"), 2);
  EXPECT_DOUBLE_EQ(j.at("copy_limit").at("fraction").get<double>(), 0.9);
  const mpiarena::Record back = mpiarena::record_from_json(j);
  EXPECT_EQ(back.copy_limit.bytes, 110000000u);
  EXPECT_DOUBLE_EQ(back.copy_limit.one_core_Bps, 15e9);
  EXPECT_EQ(back.copy_limit.fraction_of, "all_ranks");
  EXPECT_TRUE(mpiarena::validate_results(mpiarena::to_json(doc)).empty());
  json bad = mpiarena::to_json(doc);
  bad["records"][0]["copy_limit"]["fraction_of"] = "two_cores";
  EXPECT_FALSE(mpiarena::validate_results(bad).empty());
  bad = mpiarena::to_json(doc);
  bad["records"][0]["copy_limit"].erase("all_ranks_Bps");
  EXPECT_FALSE(mpiarena::validate_results(bad).empty());
}

TEST(CopyLimit, TableSaysWhatEachMethodReached) {
  mpiarena::Document doc;
  doc.context = mpiarena_test::sample_context();
  doc.records = {mpiarena_test::make_record("shm", {0.0122}, 110000000),
                 mpiarena_test::make_record("bcast", {0.02}, 110000000)};
  for (mpiarena::Record& r : doc.records) r.copy_limit = limit_110mb();
  mpiarena::apply_copies(doc.records[0].copy_limit, 2, 2,
                         doc.records[0].bandwidth);
  const std::string table = mpiarena::render_table(doc);
  EXPECT_NE(table.find("copy limit at 110 MB: 15.00 GB/s one core, 20.00 "
                       "GB/s 2 ranks at once; reached: shm 0.90 (2 copies), "
                       "bcast (copies not declared)"),
            std::string::npos)
      << table;
}

}  // namespace
