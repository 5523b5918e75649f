// The report's header, its numbers (times, rates, extreme and non-finite
// values), per-rank times, the noisy points' table and the percentile
// columns.
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
using report_test::method_line;

TEST(Report, HeaderSaysOversubscribedIncompleteAndTheStatistic) {
  mpiarena::Document doc = mpiarena_test::sample_document();
  doc.complete = true;
  std::string h = mpiarena::render_header(doc);
  EXPECT_NE(h.find(" ranks on 1 node, Open MPI v4.1.4\n"), std::string::npos)
      << h;
  EXPECT_NE(h.find("median over 3 samples"), std::string::npos) << h;
  EXPECT_EQ(h.find("oversubscribed"), std::string::npos) << h;
  EXPECT_EQ(h.find("incomplete"), std::string::npos) << h;
  EXPECT_EQ(h.find("label"), std::string::npos) << h;
  doc.context.label = "nightly-42\n";  // a file's string, shown printable
  EXPECT_NE(mpiarena::render_header(doc).find("\nlabel: nightly-42\\x0A\n"),
            std::string::npos)
      << mpiarena::render_header(doc);
  doc.context.oversubscribed = true;
  doc.context.cpus_per_node = 2;
  doc.context.waiting = "sleep";
  doc.complete = false;
  h = mpiarena::render_header(doc);
  EXPECT_NE(h.find("oversubscribed: more ranks than the 2 CPUs of a node; "
                   "ranks waiting between samples sleep"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("incomplete run"), std::string::npos) << h;
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
