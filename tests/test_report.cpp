// The human-readable table: ranking by median within a group, failures and
// skips, what each group's time means. Other views: test_report_views.cpp;
// the header, numbers and columns: test_report_format.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/report/breakdown.hpp"
#include "core/analysis/report/report.hpp"
#include "core/analysis/report/scaling.hpp"
#include "core/analysis/report/summary.hpp"
#include "doc_fixtures.hpp"
#include "report_fixtures.hpp"

using mpiarena_test::make_record;
using mpiarena_test::make_skip;
using report_test::find_line;
using report_test::first_word;
using report_test::lines_of;
using report_test::method_line;

TEST(Report, RanksMethodsByMedianWithinAGroup) {
  mpiarena::Document doc;
  // Document order is not speed order; the mean would rank "spiky" last.
  doc.records.push_back(make_record("slow", {4e-6, 4e-6, 4e-6}));
  doc.records.push_back(make_record("spiky", {1e-6, 1e-6, 9e-5}));
  doc.records.push_back(make_record("mid", {2e-6, 2e-6, 2e-6}));
  const auto lines = lines_of(mpiarena::render_table(doc));
  const int spiky = method_line(lines, "spiky");
  const int mid = method_line(lines, "mid");
  const int slow = method_line(lines, "slow");
  ASSERT_GE(spiky, 0) << mpiarena::render_table(doc);
  ASSERT_GE(mid, 0);
  ASSERT_GE(slow, 0);
  EXPECT_LT(spiky, mid);
  EXPECT_LT(mid, slow);
  EXPECT_EQ(first_word(lines[spiky]), "1");
  EXPECT_EQ(first_word(lines[mid]), "2");
  EXPECT_EQ(first_word(lines[slow]), "3");
  // Ratio to the best median.
  EXPECT_NE(lines[slow].find("4.00"), std::string::npos) << lines[slow];
  EXPECT_NE(lines[mid].find("2.00"), std::string::npos) << lines[mid];
  EXPECT_NE(lines[spiky].find("1.00"), std::string::npos) << lines[spiky];
}

TEST(Report, RanksEachGroupOnItsOwn) {
  mpiarena::Document doc;
  doc.records.push_back(make_record("a", {5e-6}, 11000));
  doc.records.push_back(make_record("b", {1e-6}, 11000));
  doc.records.push_back(make_record("a", {1e-3}, 4096));
  doc.records.push_back(make_record("b", {2e-3}, 4096));
  doc.records.push_back(make_record("a", {3e-6}, 11000, "2d"));
  const std::string table = mpiarena::render_table(doc);
  const auto lines = lines_of(table);
  // Three groups: (1d, 4096), (1d, small), (2d, small), each with its title.
  const int g4096 = find_line(lines, "transfer / 1d / 4096");
  const int gsmall = find_line(lines, "transfer / 1d / small");
  const int g2d = find_line(lines, "transfer / 2d / small");
  ASSERT_GE(g4096, 0) << table;
  ASSERT_GE(gsmall, 0) << table;
  ASSERT_GE(g2d, 0) << table;
  EXPECT_NE(lines[gsmall].find("2 ranks"), std::string::npos) << lines[gsmall];
  // 4096 B: a first. small: b first. 2d: a alone, rank 1.
  EXPECT_EQ(first_word(lines[method_line(lines, "a", g4096)]), "1");
  EXPECT_EQ(first_word(lines[method_line(lines, "b", g4096)]), "2");
  EXPECT_EQ(first_word(lines[method_line(lines, "b", gsmall)]), "1");
  EXPECT_EQ(first_word(lines[method_line(lines, "a", gsmall)]), "2");
  EXPECT_EQ(first_word(lines[method_line(lines, "a", g2d)]), "1");
}

TEST(Report, OneMethodOverManySizesIsOneTable) {
  mpiarena::Document doc;
  for (std::size_t b : {1000u, 2000u, 4000u})
    doc.records.push_back(make_record("a", {1e-6}, b));
  doc.records.push_back(make_record("b", {1e-6}, 11000, "2d"));
  const std::string table = mpiarena::render_table(doc);
  const auto lines = lines_of(table);
  const int title = find_line(lines, "transfer / 1d / 2 ranks");
  ASSERT_GE(title, 0) << table;
  EXPECT_NE(lines[title + 1].find("size"), std::string::npos) << table;
  for (const char* size : {"1000 B", "2000 B", "4000 B"})
    EXPECT_GE(find_line(lines, size), title) << table;
  EXPECT_EQ(find_line(lines, "transfer / 1d / 1000"), -1) << table;
  // One size of one method keeps the ranked form.
  EXPECT_GE(find_line(lines, "transfer / 2d / small"), 0) << table;
  // No method had a rival at any size: no "fastest method" section, but
  // the fit of the ladder.
  const std::string summary =
      mpiarena::render_summary(mpiarena::compute_summary(doc));
  EXPECT_EQ(summary.find("Fastest method per size"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("Fitted model"), std::string::npos) << summary;
}

TEST(Report, ShowsFailedVerification) {
  const mpiarena::Document doc = mpiarena_test::sample_document();
  const std::string table = mpiarena::render_table(doc);
  const auto lines = lines_of(table);
  const int corrupt = method_line(lines, "corrupt");
  ASSERT_GE(corrupt, 0) << table;
  EXPECT_NE(lines[corrupt].find("FAILED"), std::string::npos) << lines[corrupt];
  EXPECT_NE(lines[corrupt].find("rank 1: 2d payload"), std::string::npos)
      << lines[corrupt];
  // Only that line says FAILED; the others say passed.
  EXPECT_EQ(find_line(lines, "FAILED"), corrupt) << table;
  EXPECT_EQ(find_line(lines, "FAILED", corrupt + 1), -1) << table;
  const int bcast = method_line(lines, "bcast");
  ASSERT_GE(bcast, 0);
  EXPECT_NE(lines[bcast].find("passed"), std::string::npos) << lines[bcast];
}

TEST(Report, NoBandwidthForStrategiesThatMoveNoData) {
  const mpiarena::Document doc = mpiarena_test::sample_document();
  const auto lines = lines_of(mpiarena::render_table(doc));
  const int null_probe = method_line(lines, "null");
  const int bcast = method_line(lines, "bcast");
  ASSERT_GE(null_probe, 0);
  ASSERT_GE(bcast, 0);
  EXPECT_EQ(lines[null_probe].find("B/s"), std::string::npos)
      << lines[null_probe];
  EXPECT_NE(lines[null_probe].find(" - "), std::string::npos)
      << lines[null_probe];
  // bcast: 11000 B in 1.5 us = 7.33 GB/s.
  EXPECT_NE(lines[bcast].find("7.33 GB/s"), std::string::npos) << lines[bcast];
}

TEST(Report, ListsSkipsWithTheirReason) {
  const mpiarena::Document doc = mpiarena_test::sample_document();
  const std::string table = mpiarena::render_table(doc);
  const auto lines = lines_of(table);
  const int rdma = find_line(lines, "skipped rdma");
  ASSERT_GE(rdma, 0) << table;
  EXPECT_NE(lines[rdma].find("needs MPI_Win_allocate_shared: not supported"),
            std::string::npos);
  // A skip in a group without records still gets its group title.
  const int xxx = find_line(lines, "skipped pack");
  ASSERT_GE(xxx, 0) << table;
  EXPECT_NE(lines[xxx].find("payload exceeds INT_MAX ints"), std::string::npos);
  const int title = find_line(lines, "440000000");
  ASSERT_GE(title, 0) << table;
  EXPECT_LT(title, xxx);
}

TEST(Report, MethodsSkippedForOneReasonShareALine) {
  mpiarena::Document doc;
  for (const char* m : {"bcast", "raw", "rdma"})
    doc.skipped.push_back(make_skip(m, "too small"));
  doc.skipped.push_back(make_skip("shm", "one node only"));
  const std::string table = mpiarena::render_table(doc);
  EXPECT_NE(table.find("  skipped bcast, raw, rdma: too small\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("  skipped shm: one node only\n"), std::string::npos)
      << table;
  const auto lines = lines_of(table);
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) {
                            return l.rfind("  skipped", 0) == 0;
                          }),
            2)
      << table;
}

TEST(Report, PingPongGroupsSayOneWay) {
  mpiarena::Document doc;
  auto r = make_record("mpi_bytes", {1e-6, 1e-6, 1e-6});
  r.suite = "pingpong";
  r.time_scale = 0.5;
  doc.records.push_back(r);
  doc.records.push_back(make_record("bcast", {1e-6, 1e-6, 1e-6}));
  const std::string table = mpiarena::render_table(doc);
  EXPECT_NE(table.find("pingpong / 1d / small (11.0 kB) / 2 ranks (one-way "
                       "time: round trip / 2)"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("transfer / 1d / small (11.0 kB) / 2 ranks (one-way"),
            std::string::npos)
      << table;
  doc.records[0].pairs = 2;  // --pairs all at 4 ranks
  doc.records[0].ranks = 4;
  const std::string pairs = mpiarena::render_table(doc);
  EXPECT_NE(pairs.find("4 ranks (one-way time: round trip / 2; 2 pairs at "
                       "once: time and bandwidth per pair, aggregate x2)"),
            std::string::npos)
      << pairs;
}

// Windowed methods' time_scale holds 1 / window (1 / (2 x window) both
// ways at once): their groups say per message, never "round trip / 2".
TEST(Report, WindowedGroupsSayPerMessage) {
  mpiarena::Document doc;
  auto one = make_record("isend_bw", {1e-6, 1e-6, 1e-6});
  one.suite = "stream";
  one.window = 64;
  one.time_scale = 1.0 / 64;
  auto both = one;
  both.method = "isend_bibw";
  both.time_scale = 0.5 / 64;
  doc.records = {both};
  std::string table = mpiarena::render_table(doc);
  EXPECT_NE(table.find("(time per message, both ways at once: a window's "
                       "time / (2 x window))"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("round trip"), std::string::npos) << table;
  doc.records = {one};
  table = mpiarena::render_table(doc);
  EXPECT_NE(table.find("(time per message: a window's time / window)"),
            std::string::npos)
      << table;
  doc.records = {one, both};
  table = mpiarena::render_table(doc);
  EXPECT_NE(table.find("(time per message: a window's time / window (both "
                       "ways at once: / (2 x window)))"),
            std::string::npos)
      << table;
}

TEST(Report, SkipsOnlyDocument) {
  mpiarena::Document doc;
  doc.skipped.push_back(make_skip("rdma", "one rank only"));
  const std::string table = mpiarena::render_table(doc);
  EXPECT_NE(table.find("skipped rdma: one rank only"), std::string::npos)
      << table;
  EXPECT_EQ(table.find("median"), std::string::npos)
      << table;  // no empty header
  // Nothing measured: no empty "Fastest method per size" either.
  EXPECT_EQ(mpiarena::render_summary(mpiarena::compute_summary(doc)), "");
}

TEST(Report, FailedVerificationRanksAfterEveryPassedMethod) {
  mpiarena::Document doc;
  // A wrong transfer is often the fastest: it must not lead the table.
  doc.records.push_back(make_record("slow", {5e-6, 5e-6, 5e-6}));
  doc.records.push_back(make_record("wrong", {1e-7, 1e-7, 1e-7}));
  doc.records.push_back(make_record("fast", {2e-6, 2e-6, 2e-6}));
  doc.records[1].verification = "failed";
  doc.records[1].verification_message = "rank 1: element 3";
  const std::string table = mpiarena::render_table(doc);
  const auto lines = lines_of(table);
  const int fast = method_line(lines, "fast");
  const int slow = method_line(lines, "slow");
  const int wrong = method_line(lines, "wrong");
  ASSERT_GE(fast, 0) << table;
  ASSERT_GE(slow, 0) << table;
  ASSERT_GE(wrong, 0) << table;
  EXPECT_EQ(first_word(lines[fast]), "1") << table;
  EXPECT_EQ(first_word(lines[slow]), "2") << table;
  EXPECT_EQ(first_word(lines[wrong]), "3") << table;
  // x best is relative to the best method that passed.
  EXPECT_NE(lines[slow].find("2.50"), std::string::npos) << lines[slow];
  EXPECT_NE(lines[fast].find("1.00"), std::string::npos) << lines[fast];
  // The per-rank table follows the same order.
  for (auto& r : doc.records) r.per_rank = {r.time.median, r.time.median};
  const auto per_rank = lines_of(mpiarena::render_per_rank(doc));
  const int pr_fast = find_line(per_rank, "fast");
  const int pr_wrong = find_line(per_rank, "wrong");
  ASSERT_GE(pr_fast, 0);
  EXPECT_GT(pr_wrong, pr_fast);
}

// A method with a metric but neither parts nor phases (issue 27: titled
// "phases of one operation" before).
TEST(Report, AMetricOnlyMethodIsTitledByItsMetrics) {
  mpiarena::Document doc;
  mpiarena::Record r = make_record("rate", {2e-6, 2e-6, 2e-6});
  r.suite = "pingpong";
  mpiarena::MetricValue m;
  m.name = "msg_rate";
  m.unit = "msg/s";
  m.value = 5e5;
  r.metrics = {m};
  doc.records.push_back(r);
  const std::string out = mpiarena::render_breakdown(doc);
  EXPECT_NE(out.find("rate / 1d / 2 ranks: metrics (per operation"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("phases of one operation"), std::string::npos) << out;
}

// A failed point is no contender: its row shows no factor against the best
// (issue 27).
TEST(Report, AFailedRowHasNoFactorAgainstTheBest) {
  const mpiarena::Document doc = mpiarena_test::sample_document();
  const auto lines = lines_of(mpiarena::render_table(doc));
  const int corrupt = method_line(lines, "corrupt");
  ASSERT_GE(corrupt, 0);
  std::istringstream cells(lines[corrupt]);
  std::vector<std::string> words;
  for (std::string w; cells >> w;) words.push_back(w);
  // "#, method, median (2 words), min (2), bandwidth (2), CV, x best...".
  ASSERT_GT(words.size(), 9u) << lines[corrupt];
  EXPECT_EQ(words[9], "-") << lines[corrupt];
}
