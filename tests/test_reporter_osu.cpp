// -f osu (runner/reporter_osu.hpp): OSU 7.4's tables, line by line. The
// expected headers are OSU 7.4's own, as its source prints them with the
// FIELD_WIDTH 18 its configure.ac sets for a released build:
//   c/util/osu_util_mpi.c print_only_header(): "%-*s" 10 "# Size", then
//     "%*s" 18 "Avg Latency(us)" or "Bandwidth (MB/s)"; without a size
//     (osu_barrier) "# Avg Latency(us)"; -f adds "%*s" 18 "Min
//     Latency(us)", "Max Latency(us)" and "%*s" 12 "Iterations"; -c
//     "%*s" 18 "Validation"; -z "%*sP%d Tail Lat(us)" padded to 18;
//   c/util/osu_util_mpi.c print_header_one_sided(): "Latency (us)";
//   c/util/osu_util_mpi.c print_preamble_nbc() and print_only_header_nbc():
//     the "# Overall = ..." line, a blank line, "Overall(us)",
//     "Compute(us)", "Pure Comm.(us)", "Overlap(%)";
//   c/mpi/pt2pt/standard/osu_mbw_mr.c: "MB/s", "Messages/s".
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "doc_fixtures.hpp"
#include "runner/reporter_osu.hpp"
#include "runner/reporters.hpp"

namespace {

using mpiarena::Record;

// OSU 7.4's headers, spelt out (the widths are the point).
const std::string kSize = "# Size    ";  // %-10s
const std::string kAvgLatency = "# Size       Avg Latency(us)";
const std::string kLatency = "# Size          Latency (us)";
const std::string kBandwidth = "# Size      Bandwidth (MB/s)";
const std::string kMbwMr = "# Size                  MB/s        Messages/s";
const std::string kBarrier = "# Avg Latency(us)";
const std::string kNbcLine =
    "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait";
const std::string kNbc =
    "# Size           Overall(us)       Compute(us)    Pure Comm.(us)"
    "        Overlap(%)";
const std::string kFull = "   Min Latency(us)   Max Latency(us)  Iterations";
const std::string kValidation = "        Validation";

Record record(const std::string& alias, const std::string& method,
              const std::string& suite, std::size_t bytes,
              std::vector<double> avg) {
  Record r = mpiarena_test::make_record(method, avg, bytes, "1d");
  r.suite = suite;
  r.samples_avg = avg;
  r.alias = alias;
  if (!alias.empty()) r.method = method + mpiarena::kAliasMark + alias;
  r.inner_iterations = 1;
  return r;
}

mpiarena::PartTiming part(const char* name, double seconds) {
  mpiarena::PartTiming p;
  p.name = name;
  p.samples_avg = {seconds, seconds};
  return p;
}

// A run of five OSU programs, a one-sided one and a method by its own name.
mpiarena::Document osu_document() {
  mpiarena::Document d;
  d.context = mpiarena_test::sample_context();
  Record lat = record("osu_latency", "mpi_bytes", "pingpong", 8,
                      {1.5e-6, 2.5e-6});
  lat.payload = "bytes";
  d.records.push_back(lat);
  Record bw = record("osu_bw", "isend_bw", "stream", 1024, {1e-6, 1e-6});
  bw.window = 64;
  d.records.push_back(bw);
  Record ar = record("osu_allreduce", "allreduce", "collective", 8,
                     {3e-6, 5e-6});
  ar.semantics = {{"datatype", "int"}, {"op", "sum"}};
  ar.per_rank = {3.5e-6, 4.5e-6};
  d.records.push_back(ar);
  Record nb = record("osu_iallreduce", "iallreduce", "overlap", 8, {4e-6});
  nb.parts = {part("comm", 2e-6), part("compute", 3e-6), part("both", 4e-6)};
  nb.metrics.push_back({"overlap_osu", "%", true, 50.0, {50.0, 50.0}});
  d.records.push_back(nb);
  Record ar2 = record("osu_allreduce", "allreduce", "collective", 1024,
                      {6e-6, 6e-6});
  ar2.verification = "failed";
  d.records.push_back(ar2);
  d.records.push_back(record("osu_barrier", "barrier", "collective", 0,
                             {1e-6, 3e-6}));
  Record mr = record("osu_mbw_mr", "isend_bw", "stream", 8, {1e-6, 1e-6});
  mr.window = 64;
  mr.metrics.push_back({"msg_rate", "msg/s", true, 1e6, {1e6, 1e6}});
  d.records.push_back(mr);
  Record put = record("osu_put_latency", "put_flush", "rma", 8, {9e-6});
  put.samples_max = {2e-6, 4e-6};  // the origin's: OSU times it alone
  d.records.push_back(put);
  d.records.push_back(record("", "bcast", "transfer", 64, {7e-6, 7e-6}));
  Record ib = record("osu_ibarrier", "ibarrier", "overlap", 0, {4e-6});
  ib.parts = {part("comm", 1e-6), part("compute", 2e-6), part("both", 3e-6)};
  ib.metrics.push_back({"overlap_osu", "%", true, 0.0, {0.0}});
  d.records.push_back(ib);
  return d;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos;
       from = nl + 1)
    out.push_back(text.substr(from, nl - from));
  EXPECT_EQ(from, text.size()) << "the text does not end in a newline";
  return out;
}

// The lines of the table whose title starts with `title`: the title, its
// header and rows, up to the next title (the empty line before it left).
std::vector<std::string> table(const std::string& text,
                               const std::string& title) {
  std::vector<std::string> out;
  for (const std::string& l : lines_of(text)) {
    const bool a_title = l.rfind("# mpiarena", 0) == 0;
    if (!out.empty() && a_title) break;
    if (!out.empty() || (a_title && l.rfind(title, 0) == 0))
      out.push_back(l);
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

std::string render(const std::vector<std::string>& columns = {}) {
  return mpiarena::render_osu(osu_document(), columns);
}

// A size (%-10d) and values (%18.2f), OSU's row.
std::string row(const std::string& size, std::vector<std::string> values) {
  std::string out = size + std::string(10 - size.size(), ' ');
  for (const std::string& v : values)
    out += std::string(18 - v.size(), ' ') + v;
  return out;
}

TEST(ReporterOsu, OneTablePerProgramInTheRunsOrder) {
  std::vector<std::string> titles;
  for (const std::string& l : lines_of(render()))
    if (l.rfind("# mpiarena", 0) == 0) titles.push_back(l);
  const std::vector<std::string> want = {
      "# mpiarena 0.1.0: osu_latency as mpi_bytes (MPI_CHAR), 2 ranks",
      "# mpiarena 0.1.0: osu_bw as isend_bw, 2 ranks",
      "# mpiarena 0.1.0: osu_allreduce as allreduce (MPI_INT), 2 ranks",
      "# mpiarena 0.1.0: osu_iallreduce as iallreduce, 2 ranks",
      "# mpiarena 0.1.0: osu_barrier as barrier, 2 ranks",
      "# mpiarena 0.1.0: osu_mbw_mr as isend_bw, 2 ranks",
      "# mpiarena 0.1.0: osu_put_latency as put_flush, 2 ranks",
      "# mpiarena 0.1.0: bcast, payload 1d, 2 ranks",
      "# mpiarena 0.1.0: osu_ibarrier as ibarrier, 2 ranks"};
  EXPECT_EQ(titles, want);
  // Nothing pretends to be OSU's banner.
  EXPECT_EQ(render().find("# OSU MPI"), std::string::npos);
}

TEST(ReporterOsu, EveryLineIsAHashLineAnEmptyLineOrARow) {
  const std::regex data(R"(^\d+\s+\d+\.\d\d(\s+\S+)*$|^\s+\d+\.\d\d.*$)");
  for (const auto& cols : {std::vector<std::string>{},
                           {"full", "validation", "p50", "p99"}}) {
    for (const std::string& l : lines_of(render(cols)))
      EXPECT_TRUE(l.empty() || l[0] == '#' || std::regex_match(l, data))
          << "'" << l << "'";
  }
}

TEST(ReporterOsu, HeadersAndRowsAreOsus) {
  const std::string text = render();
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_latency"),
            (std::vector<std::string>{
                "# mpiarena 0.1.0: osu_latency as mpi_bytes (MPI_CHAR), 2 "
                "ranks",
                kAvgLatency, row("8", {"2.00"})}));
  // Decimal MB/s of the time per message: 1024 B / 1 us.
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_bw"),
            (std::vector<std::string>{
                "# mpiarena 0.1.0: osu_bw as isend_bw, 2 ranks", kBandwidth,
                row("1024", {"1024.00"})}));
  // The mean over the samples of the mean over the ranks; both sizes.
  const auto ar = table(text, "# mpiarena 0.1.0: osu_allreduce");
  ASSERT_EQ(ar.size(), 4u);
  EXPECT_EQ(ar[1], kAvgLatency);
  EXPECT_EQ(ar[2], row("8", {"4.00"}));
  EXPECT_EQ(ar[3], row("1024", {"6.00"}));
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_iallreduce"),
            (std::vector<std::string>{
                "# mpiarena 0.1.0: osu_iallreduce as iallreduce, 2 ranks",
                kNbcLine, "", kNbc,
                row("8", {"4.00", "3.00", "2.00", "50.00"})}));
  // No size column: the value is %17.2f under "# Avg Latency(us)".
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_barrier"),
            (std::vector<std::string>{
                "# mpiarena 0.1.0: osu_barrier as barrier, 2 ranks", kBarrier,
                "             2.00"}));
  EXPECT_EQ(kBarrier.size(), 17u);
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_mbw_mr")[1], kMbwMr);
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_mbw_mr")[2],
            row("8", {"8.00", "1000000.00"}));
  // One-sided: its own header, the origin's (slowest rank's) time.
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_put_latency")[1], kLatency);
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_put_latency")[2],
            row("8", {"3.00"}));
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: bcast")[1], kAvgLatency);
  // osu_ibarrier: no size column, Overall %13.2f.
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_ibarrier"),
            (std::vector<std::string>{
                "# mpiarena 0.1.0: osu_ibarrier as ibarrier, 2 ranks",
                kNbcLine, "",
                "# Overall(us)       Compute(us)    Pure Comm.(us)"
                "        Overlap(%)",
                "         3.00              2.00              1.00"
                "              0.00"}));
  EXPECT_EQ(kAvgLatency.size(), 28u);
  EXPECT_EQ(kSize.size(), 10u);
}

TEST(ReporterOsu, NoExtraColumnsByDefault) {
  for (const std::string& l : lines_of(render())) {
    if (l.empty() || l[0] == '#' || l.rfind("  ", 0) == 0) continue;
    std::size_t fields = 0;
    std::istringstream in(l);
    for (std::string f; in >> f;) ++fields;
    EXPECT_LE(fields, l.find("50.00") != std::string::npos ? 5u : 3u) << l;
    EXPECT_EQ(l.find("Pass"), std::string::npos) << l;
  }
}

TEST(ReporterOsu, FullAndValidationAsOsusFlags) {
  const std::string text = render({"full", "validation"});
  const auto ar = table(text, "# mpiarena 0.1.0: osu_allreduce");
  ASSERT_EQ(ar.size(), 4u);
  EXPECT_EQ(ar[1], kAvgLatency + kFull + kValidation);
  // Min and Max: the fastest and slowest rank's median; iterations:
  // inner iterations x samples.
  EXPECT_EQ(ar[2], row("8", {"4.00", "3.50", "4.50"}) +
                       std::string(11, ' ') + "2" + std::string(14, ' ') +
                       "Pass");
  // A failed verification still prints its row, Fail.
  EXPECT_NE(ar[3].find("Fail"), std::string::npos) << ar[3];
  EXPECT_EQ(ar[3].rfind("1024      ", 0), 0u);
  // -f is the collectives': point-to-point gains the validation only.
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_latency")[1],
            kAvgLatency + kValidation);
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_latency")[2],
            row("8", {"2.00", "Pass"}));
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_barrier")[1],
            kBarrier + kFull + kValidation);
  // ReFrame's sanity line, ^{size}.*Pass, finds the passed point only.
  const std::regex pass8(R"((^|\n)8\s.*Pass)");
  const std::regex pass1024(R"((^|\n)1024\s.*Pass)");
  EXPECT_TRUE(std::regex_search(text, pass8));
  EXPECT_FALSE(std::regex_search(ar[3], pass1024)) << ar[3];
}

TEST(ReporterOsu, PercentilesAsOsusTailColumns) {
  mpiarena::Document d = osu_document();
  std::vector<double> samples;
  for (int i = 1; i <= 100; ++i) samples.push_back(i * 1e-6);
  d.records[2].samples_avg = samples;  // allreduce 8 B: 1 .. 100 us
  const std::string text =
      mpiarena::render_osu(d, {"p5", "p50", "p99"});
  const auto ar = table(text, "# mpiarena 0.1.0: osu_allreduce");
  EXPECT_EQ(ar[1], kAvgLatency + "   P5 Tail Lat(us)" + "  P50 Tail Lat(us)" +
                       "  P99 Tail Lat(us)");
  EXPECT_EQ(ar[2], row("8", {"50.50", "5.00", "50.00", "99.00"}));
  // Two samples give p5 and p50 but no p99 ('-'): it needs 100.
  EXPECT_EQ(ar[3], row("1024", {"6.00", "6.00", "6.00", "-"}));
  EXPECT_EQ(table(text, "# mpiarena 0.1.0: osu_bw")[1],
            kBandwidth + "  P5 Tail BW(MB/s)" + " P50 Tail BW(MB/s)" +
                " P99 Tail BW(MB/s)");
}

// The column header of OSU 7.4's own output (tests/data/osu74_*.txt,
// captured from OSU 7.4 built with Open MPI: tests/data/README.md).
std::string osu_header(const std::string& fixture) {
  std::ifstream in(std::string(MPIARENA_SOURCE_DIR) + "/tests/data/" +
                   fixture);
  EXPECT_TRUE(in) << fixture;
  for (std::string l; std::getline(in, l);)
    if (l.rfind("# Size", 0) == 0 || l.rfind("# Avg", 0) == 0 ||
        l.rfind("# Overall(", 0) == 0)
      return l;
  return "no header in " + fixture;
}

TEST(ReporterOsu, HeadersAreThoseOfOsusOwnOutput) {
  struct Case {
    const char* fixture;
    const char* title;
    std::vector<std::string> columns;
  };
  const std::vector<Case> cases = {
      {"osu74_latency.txt", "# mpiarena 0.1.0: osu_latency", {}},
      {"osu74_latency_cz.txt",
       "# mpiarena 0.1.0: osu_latency",
       {"validation", "p50", "p90", "p99"}},
      {"osu74_bw.txt", "# mpiarena 0.1.0: osu_bw", {}},
      {"osu74_allreduce.txt", "# mpiarena 0.1.0: osu_allreduce", {}},
      {"osu74_allreduce_fcz.txt",
       "# mpiarena 0.1.0: osu_allreduce",
       {"full", "validation", "p50", "p90", "p99"}},
      {"osu74_barrier.txt", "# mpiarena 0.1.0: osu_barrier", {"full"}},
      {"osu74_iallreduce.txt", "# mpiarena 0.1.0: osu_iallreduce", {}},
      {"osu74_ibarrier.txt", "# mpiarena 0.1.0: osu_ibarrier", {}},
  };
  for (const Case& c : cases) {
    auto t = table(render(c.columns), c.title);
    ASSERT_GE(t.size(), 2u) << c.fixture;
    // The non-blocking tables: their header after OSU's Overall line.
    if (t[1] == kNbcLine) t.erase(t.begin() + 1, t.begin() + 3);
    EXPECT_EQ(t[1], osu_header(c.fixture)) << c.fixture;
  }
}

TEST(ReporterOsu, TheRegistrysFormatRendersIt) {
  const mpiarena::Document doc = osu_document();
  mpiarena::Printout out;
  out.document = &doc;
  out.osu_columns = {"validation"};
  const std::string text = mpiarena::reporter("osu").render(out);
  EXPECT_EQ(text, mpiarena::render_osu(doc, {"validation"}));
  EXPECT_TRUE(mpiarena::reporter("osu").machine_read());
  EXPECT_EQ(mpiarena::render_osu(mpiarena::Document(), {}), "");
}

}  // namespace
