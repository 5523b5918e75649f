// The human-readable table: ranking by median, failures and skips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "breakdown.hpp"
#include "doc_fixtures.hpp"
#include "report.hpp"
#include "scaling.hpp"
#include "summary.hpp"

using mpiarena_test::make_record;
using mpiarena_test::make_skip;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Index of the first line at or after `from` containing `word`, or -1.
int find_line(const std::vector<std::string>& lines, const std::string& word,
              int from = 0) {
  for (int i = from; i < static_cast<int>(lines.size()); ++i)
    if (lines[i].find(word) != std::string::npos) return i;
  return -1;
}

// The line of method `m` in a table row ("  <rank> <method> ...").
int method_line(const std::vector<std::string>& lines, const std::string& m,
                int from = 0) {
  for (int i = from; i < static_cast<int>(lines.size()); ++i) {
    std::istringstream in(lines[i]);
    std::string rank, method;
    in >> rank >> method;
    if (method == m &&
        rank.find_first_not_of("0123456789") == std::string::npos)
      return i;
  }
  return -1;
}

std::string first_word(const std::string& line) {
  std::istringstream in(line);
  std::string w;
  in >> w;
  return w;
}

}  // namespace

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

TEST(Report, HeaderSaysOversubscribedIncompleteAndTheStatistic) {
  mpiarena::Document doc = mpiarena_test::sample_document();
  doc.complete = true;
  std::string h = mpiarena::render_header(doc);
  EXPECT_NE(h.find(" ranks on 1 node, Open MPI v4.1.4\n"), std::string::npos)
      << h;
  EXPECT_NE(h.find("median over 3 samples"), std::string::npos) << h;
  EXPECT_EQ(h.find("oversubscribed"), std::string::npos) << h;
  EXPECT_EQ(h.find("incomplete"), std::string::npos) << h;
  doc.context["oversubscribed"] = true;
  doc.context["cpus_per_node"] = 2;
  doc.context["waiting"] = "sleep";
  doc.complete = false;
  h = mpiarena::render_header(doc);
  EXPECT_NE(h.find("oversubscribed: more ranks than the 2 CPUs of a node; "
                   "ranks waiting between samples sleep"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("incomplete run"), std::string::npos) << h;
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

TEST(Report, FormatsTimesAndRates) {
  EXPECT_EQ(mpiarena::format_seconds(5e-7), "500.0 ns");
  EXPECT_EQ(mpiarena::format_seconds(7.52e-6), "7.52 us");
  EXPECT_EQ(mpiarena::format_seconds(1.23e-3), "1.23 ms");
  EXPECT_EQ(mpiarena::format_seconds(-7.46e-5), "-74.60 us");
  const std::string secs = mpiarena::format_seconds(2.1);
  EXPECT_EQ(secs.rfind("2.10", 0), 0u) << secs;
  EXPECT_EQ(secs.substr(secs.size() - 2), " s") << secs;
  EXPECT_EQ(mpiarena::format_rate(5.81e9), "5.81 GB/s");
  EXPECT_EQ(mpiarena::format_rate(2.5e6), "2.5 MB/s");
  EXPECT_EQ(mpiarena::format_rate(1500), "1.5 kB/s");
}

TEST(Report, PerRankTimesWithTheSlowestOverTheFastest) {
  mpiarena::Document doc;
  EXPECT_EQ(mpiarena::render_per_rank(doc), "");  // nothing to show
  mpiarena::Record grows = make_record("ssend", {6e-6, 6e-6, 6e-6});
  grows.ranks = 4;
  grows.per_rank = {5e-6, 2e-6, 4e-6, 6e-6};
  mpiarena::Record pair = make_record("pingpong", {1e-6, 1e-6, 1e-6});
  pair.ranks = 4;
  pair.per_rank = {1e-6, 1.5e-6, 2e-9, 1e-9};  // ranks 2, 3 idle
  pair.pairs = 1;
  doc.records = {grows, pair};
  const auto lines = lines_of(mpiarena::render_per_rank(doc));
  const int header = find_line(lines, "rank 3");
  ASSERT_GE(header, 0);
  EXPECT_NE(lines[header].find("max / min"), std::string::npos);
  const int s = find_line(lines, "ssend");
  ASSERT_GT(s, header);
  EXPECT_NE(lines[s].find("2.00 us"), std::string::npos) << lines[s];
  EXPECT_NE(lines[s].find("6.00 us"), std::string::npos) << lines[s];
  EXPECT_EQ(lines[s].substr(lines[s].size() - 4), "3.00") << lines[s];
  // The idle ranks are shown but left out of the ratio.
  const int p = find_line(lines, "pingpong");
  ASSERT_GT(p, header);
  EXPECT_NE(lines[p].find("idle"), std::string::npos) << lines[p];
  EXPECT_EQ(lines[p].find("2.0 ns"), std::string::npos) << lines[p];
  EXPECT_EQ(lines[p].substr(lines[p].size() - 4), "1.50") << lines[p];
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

namespace {

// The longest run of consecutive digits in `text`.
std::size_t longest_digit_run(const std::string& text) {
  std::size_t best = 0, run = 0;
  for (char c : text) {
    run = std::isdigit(static_cast<unsigned char>(c)) ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

}  // namespace

TEST(Report, FormatsExtremeAndNonFiniteValuesShortly) {
  EXPECT_EQ(mpiarena::format_seconds(1e308), "1.000e+308 s");
  EXPECT_EQ(mpiarena::format_seconds(-1e308), "-1.000e+308 s");
  EXPECT_EQ(mpiarena::format_seconds(99999), "99999.000 s");
  EXPECT_EQ(mpiarena::format_seconds(2e5), "2.000e+05 s");
  EXPECT_EQ(mpiarena::format_seconds(std::nan("")), "n/a");
  EXPECT_EQ(mpiarena::format_seconds(-std::nan("")), "n/a");
  EXPECT_EQ(mpiarena::format_seconds(HUGE_VAL), "inf s");
  EXPECT_EQ(mpiarena::format_rate(1e308), "1.00e+308 B/s");
  EXPECT_EQ(mpiarena::format_rate(2.5e12), "2.50 TB/s");
  EXPECT_EQ(mpiarena::format_rate(std::nan("")), "n/a");
  EXPECT_EQ(mpiarena::format_rate(HUGE_VAL), "inf B/s");
  EXPECT_EQ(mpiarena::format_rate(8e-306), "8.00e-306 B/s");
}

TEST(Report, TablesOfExtremeTimesStayReadable) {
  mpiarena::Document doc;
  doc.context = mpiarena_test::sample_context();
  doc.complete = true;
  // Times near the largest double (statistics over them overflow: the mean
  // is infinite, the CV not a number) next to ordinary ones.
  for (std::size_t bytes : {1000, 2000, 4000}) {
    doc.records.push_back(
        make_record("huge", {1e308, 1.2e308, 1.4e308}, bytes));
    doc.records.push_back(make_record("tiny", {1e-300, 1e-300, 1e-300}, bytes));
  }
  const std::string text =
      mpiarena::render_table(doc) +
      mpiarena::render_summary(mpiarena::compute_summary(doc));
  EXPECT_LE(longest_digit_run(text), 8u) << text;
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  EXPECT_NE(text.find("1.200e+308 s"), std::string::npos) << text;
  for (const std::string& line : lines_of(text))
    EXPECT_LT(line.size(), 200u) << line;
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

// Issue 44: a sentence per noisy point ("noisy: bcast 64: 2 of 5 samples
// noisy after retries; first: ...") took half the report. Now a noisy row
// says so, and one count line and one compact table follow the tables.
TEST(Report, NoisyPointsAreOneCompactTableNotASentenceEach) {
  mpiarena::Document doc;
  doc.context = mpiarena_test::sample_context();
  doc.complete = true;
  for (std::size_t b : {1000u, 2000u, 4000u, 8000u})
    for (const char* m : {"bcast", "raw"}) {
      doc.records.push_back(make_record(m, {1e-6, 1e-6, 1e-6}, b));
      mpiarena::Noise& n = doc.records.back().noise;
      n.recorded = true;
      n.steal_s = {0, 2e-4, 0};
      n.preemptions = {0, 3, 1};
      if (b != 8000) {
        n.noisy = true;
        n.noisy_samples = 1;
        n.retries = 2;
        n.reason =
            "1 of 3 samples noisy after retries; first: sample 2: a rank "
            "preempted 3 times in 1.23 ms";
      }
    }
  for (const mpiarena::Style style :
       {mpiarena::Style::text, mpiarena::Style::markdown}) {
    const std::string out = mpiarena::render_table(doc, style);
    EXPECT_EQ(out.find("noisy: "), std::string::npos) << out;
    EXPECT_EQ(out.find("samples noisy after retries"), std::string::npos);
    const auto lines = lines_of(out);
    const int count = find_line(lines, "Noisy points: 6 of 8");
    ASSERT_GE(count, 0) << out;
    EXPECT_EQ(find_line(lines, "Noisy points", count + 1), -1);
    // One row per noisy point after the count, with its figures.
    int rows = 0;
    for (int i = count + 1; i < static_cast<int>(lines.size()); ++i)
      if (lines[i].find("transfer/") != std::string::npos) {
        ++rows;
        EXPECT_NE(lines[i].find("1 of 3"), std::string::npos) << lines[i];
        EXPECT_NE(lines[i].find("200.00 us"), std::string::npos) << lines[i];
      }
    EXPECT_EQ(rows, 6) << out;
    // The ranked tables mark the noisy rows, and only them.
    int marked = 0;
    for (const std::string& l : lines)
      marked += l.find("passed, noisy") != std::string::npos;
    EXPECT_EQ(marked, 6) << out;
  }
}

// runner --percentiles (OSU's -z): p50, p95, p99 after min, '-' where the
// samples are too few; without it the table is as before.
TEST(Report, PercentileColumnsOnlyWhenAsked) {
  mpiarena::Document doc;
  std::vector<double> many, few;
  for (int i = 1; i <= 100; ++i) many.push_back(i * 1e-6);
  for (int i = 1; i <= 7; ++i) few.push_back(i * 1e-6);
  doc.records.push_back(make_record("many", many));
  doc.records.push_back(make_record("few", few));
  const std::string plain = mpiarena::render_table(doc);
  EXPECT_EQ(plain.find("p95"), std::string::npos) << plain;
  const auto lines =
      lines_of(mpiarena::render_table(doc, mpiarena::Style::text, true));
  const int header = find_line(lines, "median");
  ASSERT_GE(header, 0);
  std::istringstream words(lines[header]);
  std::vector<std::string> columns;
  for (std::string w; words >> w;) columns.push_back(w);
  const auto min = std::find(columns.begin(), columns.end(), "min");
  ASSERT_NE(min, columns.end()) << lines[header];
  EXPECT_EQ(std::vector<std::string>(min + 1, min + 4),
            (std::vector<std::string>{"p50", "p95", "p99"}));
  // 100 samples of 1..100 us: p50 50 us, p95 95 us, p99 99 us; 7: p50 4 us.
  const auto words_of = [&](const std::string& method) {
    const int at = method_line(lines, method);
    std::string out;
    std::istringstream in(at >= 0 ? lines[at] : "");
    for (std::string w; in >> w;) out += (out.empty() ? "" : " ") + w;
    return out;
  };
  EXPECT_NE(words_of("many").find("1.00 us 50.00 us 95.00 us 99.00 us"),
            std::string::npos)
      << words_of("many");
  EXPECT_NE(words_of("few").find("1.00 us 4.00 us - -"), std::string::npos)
      << words_of("few");
  const std::string md =
      mpiarena::render_table(doc, mpiarena::Style::markdown, true);
  EXPECT_NE(md.find("| median | min | p50 | p95 | p99 |"), std::string::npos)
      << md;
}
