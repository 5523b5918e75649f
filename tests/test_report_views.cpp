// The report's other views: the matrix of the rma suite, the rank ladder
// (scaling), the parts-and-metrics breakdown, the summary of the winners.
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
using report_test::find_line;
using report_test::lines_of;

// Records with matrix axes (the rma suite): one matrix per payload, size
// and params off the axes; rows and columns in order of appearance; the
// fastest of each row marked; a missing cell '-'; a failed one FAILED.
TEST(Report, MatrixOfOpsBySyncsMarksTheFastestOfEachRow) {
  mpiarena::Document doc;
  auto add = [&](const std::string& op, const std::string& sync, double t,
                 bool bw = false) {
    mpiarena::Record r = make_record(op + "_" + sync + (bw ? "_bw" : ""),
                                     {t, t, t}, 64, "allocate");
    r.suite = "rma";
    r.params = {
        {"op", op}, {"sync", sync}, {"mode", bw ? "bandwidth" : "latency"}};
    r.matrix_row = "op";
    r.matrix_column = "sync";
    if (bw) r.window = 64;
    doc.records.push_back(r);
  };
  add("put", "fence", 3e-6);
  add("put", "flush", 1e-6);
  add("get", "fence", 2e-6);
  add("get", "flush", 4e-6);
  add("get", "pscw", 5e-6);
  add("put", "fence", 9e-7, true);
  add("put", "flush", 8e-7, true);
  doc.records[4].verification = "failed";
  const std::vector<std::string> l = lines_of(mpiarena::render_matrices(doc));
  const int lat = find_line(l, "mode latency: op x sync (median time");
  ASSERT_GE(lat, 0) << mpiarena::render_matrices(doc);
  EXPECT_NE(l[lat + 1].find("fence"), std::string::npos);
  EXPECT_LT(l[lat + 1].find("fence"), l[lat + 1].find("flush"));
  EXPECT_NE(l[lat + 1].find("pscw"), std::string::npos);
  EXPECT_EQ(l[lat + 2].find("put"), 3u);
  EXPECT_NE(l[lat + 2].find("*1.00 us"), std::string::npos) << l[lat + 2];
  EXPECT_NE(l[lat + 2].find(" -"), std::string::npos) << l[lat + 2];
  EXPECT_NE(l[lat + 3].find("*2.00 us"), std::string::npos) << l[lat + 3];
  EXPECT_NE(l[lat + 3].find("FAILED"), std::string::npos) << l[lat + 3];
  const int bw = find_line(l, "mode bandwidth: op x sync (bandwidth per");
  ASSERT_GE(bw, 0);
  EXPECT_NE(l[bw + 2].find("*"), std::string::npos);
  // Records without axes draw no matrix.
  EXPECT_EQ(mpiarena::render_matrices(mpiarena_test::sample_document()), "");
}

// The rank ladder (--ranks): time against ranks per method, and the winner
// of each size and rank count, only when the records span several ranks.
TEST(Scaling, TimeAgainstRanksAndWinnerPerRankCount) {
  mpiarena::Document doc;
  auto rec = [](const std::string& method, double t, int ranks) {
    mpiarena::Record r = make_record(method, {t, t, t}, 4096);
    r.suite = "distribution";
    r.ranks = ranks;
    return r;
  };
  doc.records = {rec("distribute_scatter", 1e-6, 2),
                 rec("distribute_bcast", 3e-6, 2)};
  EXPECT_EQ(mpiarena::render_scaling(doc),
            "");  // one rank count: nothing to scale
  doc.records.push_back(rec("distribute_scatter", 4e-6, 4));
  doc.records.push_back(rec("distribute_bcast", 2e-6, 4));
  const std::string out = mpiarena::render_scaling(doc);
  EXPECT_NE(out.find("Scaling over ranks: distribution / 1d"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("sizes per rank"), std::string::npos) << out;
  // scatter: 1 us at 2 ranks, 4 us at 4: x4.00 from the fewest to the most.
  EXPECT_NE(out.find("x4.00"), std::string::npos) << out;
  // Winners: scatter at 2 ranks (bcast 3x slower), bcast at 4 (2x).
  EXPECT_NE(out.find("distribute_scatter (x3.00)"), std::string::npos) << out;
  EXPECT_NE(out.find("distribute_bcast (x2.00)"), std::string::npos) << out;
  // The everyday collectives are different operations: no winner grid.
  for (mpiarena::Record& r : doc.records) r.suite = "collective";
  const std::string coll = mpiarena::render_scaling(doc);
  EXPECT_NE(coll.find("Scaling over ranks: collective"), std::string::npos);
  EXPECT_EQ(coll.find("Winner per size"), std::string::npos) << coll;
}

// Records with parts (the overlap suite): one table per method, a row per
// size with each part's time and each metric, as seed 002's output.
TEST(Breakdown, PartsAsColumnsPerMethod) {
  auto part = [](const std::string& name, double t) {
    mpiarena::PartTiming p;
    p.name = name;
    p.samples_max = {t, t, t};
    p.time = mpiarena::summarize(p.samples_max);
    return p;
  };
  mpiarena::Document doc;
  for (std::size_t bytes : {65536u, 131072u}) {
    mpiarena::Record r =
        make_record("nob_halo2d", {30e-6, 30e-6, 30e-6}, bytes);
    r.suite = "overlap";
    r.parts = {part("comm", 12e-6), part("compute", 14e-6),
               part("both", 27e-6)};
    r.headline_part = "both";
    mpiarena::MetricValue m;
    m.name = "overlap";
    m.unit = "%";
    m.value = bytes == 65536 ? 3.5 : 42.25;
    r.metrics = {m};
    doc.records.push_back(r);
  }
  const std::string out = mpiarena::render_breakdown(doc);
  EXPECT_NE(out.find("overlap/nob_halo2d / 1d / 2 ranks: parts and metrics"),
            std::string::npos)
      << out;
  for (const char* cell : {"comm", "compute", "both *", "overlap (%)",
                           "12.00 us", "14.00 us", "27.00 us", "3.50", "42.2"})
    EXPECT_NE(out.find(cell), std::string::npos) << cell << "\n" << out;
  // One table for the method, not one per size.
  EXPECT_EQ(out.find("parts and metrics"), out.rfind("parts and metrics"));
}

// --format summary (render_brief): a winner is clear only 5 % ahead and
// told apart by the U test; the clear winner's change of method is said,
// a tie's is not.
TEST(Report, TheSummaryMarksTiesAndSaysWhereTheClearWinnerChanges) {
  mpiarena::Document doc;
  const std::vector<double> a{1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06};
  auto times = [&](double f) {
    std::vector<double> v;
    for (double x : a) v.push_back(x * f * 1e-6);
    return v;
  };
  // 11 kB: raw clearly ahead; 110 kB: a tie (bcast 2 % ahead); 1.1 MB:
  // bcast clearly ahead.
  doc.records.push_back(make_record("raw", times(1.0), 11000));
  doc.records.push_back(make_record("bcast", times(1.5), 11000));
  doc.records.push_back(make_record("raw", times(1.02), 110000));
  doc.records.push_back(make_record("bcast", times(1.0), 110000));
  doc.records.push_back(make_record("raw", times(2.0), 1100000));
  doc.records.push_back(make_record("bcast", times(1.0), 1100000));
  const std::string out =
      mpiarena::render_brief(doc, mpiarena::compute_summary(doc), "r.json");
  EXPECT_NE(out.find("tie: bcast"), std::string::npos) << out;
  EXPECT_EQ(out.find("tie: raw"), std::string::npos) << out;
  EXPECT_NE(out.find("transfer 1d, 2 ranks: raw at small (11.0 kB), bcast at "
                     "1100000"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("runner report r.json"), std::string::npos) << out;
  EXPECT_LT(std::count(out.begin(), out.end(), '\n'), 60) << out;
}
