// The SVG charts and the HTML pages (svg.hpp, report_html.hpp, trend.hpp):
// escaping, the byte axis's labels, points a log scale cannot show, a
// chart with nothing to draw, and trend's grouping of contexts. The pages
// in a browser: e2e_report.py.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis/html/report_html.hpp"
#include "core/analysis/report/summary.hpp"
#include "core/analysis/svg/svg.hpp"
#include "core/analysis/trend/trend.hpp"
#include "doc_fixtures.hpp"

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

// The part of `page` from the heading of section `title` to its end.
std::string section_of(const std::string& page, const std::string& title) {
  const auto at = page.find(">" + title + "</h2>");
  if (at == std::string::npos) return "";
  return page.substr(at, page.find("</section>", at) - at);
}

// Two transfer methods at three sizes (one plugin declares a version, one
// point fails verification) and two collectives at three sizes.
mpiarena::Document page_document() {
  using mpiarena_test::make_record;
  mpiarena::Document doc;
  doc.context = mpiarena_test::sample_context();
  doc.complete = true;
  for (std::size_t b : {1024u, 4096u, 16384u}) {
    const double t = 1e-6 + static_cast<double>(b) * 1e-9;
    doc.records.push_back(make_record("bcast", {t, t, t}, b));
    doc.records.back().plugin_version = "2.1.0";
    doc.records.push_back(make_record("raw", {2 * t, 2 * t, 2 * t}, b));
    for (const char* m : {"allreduce", "alltoall"}) {
      doc.records.push_back(make_record(m, {3 * t, 3 * t, 3 * t}, b));
      doc.records.back().suite = "collective";
    }
  }
  doc.records[1].verification = "failed";
  doc.records[1].verification_message = "rank 1: element 3 is 5, expected 7";
  return doc;
}

std::string page_of(const mpiarena::Document& doc) {
  return mpiarena::render_html(doc, mpiarena::compute_summary(doc), "x.json");
}

TEST(Svg, EscapesTheFiveXmlSpecials) {
  EXPECT_EQ(mpiarena::svg::escape("a<b & \"c\" > 'd'"),
            "a&lt;b &amp; &quot;c&quot; &gt; &#39;d&#39;");
}

TEST(Svg, BinaryByteLabels) {
  EXPECT_EQ(mpiarena::binary_bytes(512), "512 B");
  EXPECT_EQ(mpiarena::binary_bytes(65536), "64 KiB");
  EXPECT_EQ(mpiarena::binary_bytes(1 << 20), "1 MiB");
  EXPECT_EQ(mpiarena::binary_bytes(1536), "1.5 KiB");
}

TEST(Svg, LogChartLeavesOutZeroAndNegativePointsAndSaysHowMany) {
  mpiarena::svg::LineChart c;
  c.title = "t <1>";
  mpiarena::svg::Series s;
  s.name = "m";
  s.points = {{0, 1e-6}, {8, 1e-6}, {64, 2e-6}, {512, -1}};
  c.series.push_back(s);
  const std::string svg = mpiarena::svg::render(c);
  EXPECT_EQ(count(svg, "class=\"mark dot\""), 2u) << svg;
  EXPECT_EQ(count(svg, "class=\"mark line\""), 1u);
  EXPECT_NE(svg.find("2 point(s) not drawn"), std::string::npos);
  EXPECT_NE(svg.find("t &lt;1&gt;"), std::string::npos);
}

TEST(Svg, AChartWithNothingToDrawHasNoMark) {
  mpiarena::svg::LineChart c;
  mpiarena::svg::Series s;
  s.name = "m";
  s.points = {{0, 0}};
  c.series.push_back(s);
  const std::string svg = mpiarena::svg::render(c);
  EXPECT_EQ(count(svg, "mark"), 0u) << svg;
  EXPECT_NE(svg.find("no point to draw"), std::string::npos);
}

// Whatever finite values a valid document holds, an axis has a handful of
// ticks and every coordinate is a number (issue 27, D2: 1e308 made the log
// axis loop until the allocator gave up).
TEST(Svg, ExtremeValuesGiveBoundedTicksAndFiniteCoordinates) {
  const double big = 1e308, tiny = 1e-300, denormal = 4e-320;
  for (bool log : {true, false}) {
    for (std::vector<double> ys : {std::vector<double>{big, big},
                                   {tiny, big},
                                   {-big, big},
                                   {denormal, 1},
                                   {1e16, 1e16 + 4},
                                   {tiny, tiny}}) {
      mpiarena::svg::LineChart c;
      c.y.log = log;
      c.x.log = log;
      mpiarena::svg::Series s;
      s.name = "m";
      for (std::size_t i = 0; i < ys.size(); ++i)
        s.points.push_back({log ? 1.0 + i : ys[i], ys[i]});
      c.series.push_back(s);
      const std::string svg = mpiarena::svg::render(c);
      EXPECT_LE(count(svg, "class=\"grid\""), 30u) << svg;
      EXPECT_EQ(svg.find("nan"), std::string::npos) << svg;
      EXPECT_EQ(svg.find("inf"), std::string::npos) << svg;
    }
  }
}

// The visible text of each legend entry: its <tspan> lines joined, the
// hover <title> left out.
std::vector<std::string> legend_texts(const std::string& svg) {
  std::vector<std::string> out;
  for (auto at = svg.find("<text class=\"legend\""); at != std::string::npos;
       at = svg.find("<text class=\"legend\"", at + 1)) {
    const auto end = svg.find("</text>", at);
    std::string text = svg.substr(at, end - at);
    text = text.substr(0, text.find("<title>"));
    std::string shown;
    bool tag = false;
    for (char c : text) {
      if (c == '<' || c == '>')
        tag = c == '<';
      else if (!tag)
        shown += c;
    }
    out.push_back(shown);
  }
  return out;
}

// Issue 44: "chunked_pp[chunks=1] (mea." - a legend cut its long labels
// (a method with options is "name[opt=value,...]"). Every label is shown
// whole, on as many lines as it takes, and the chart grows to hold them.
TEST(Svg, LegendShowsLongLabelsWholeOnSeveralLines) {
  const std::string long_name =
      "chunked_pp[chunks=1,mode=pipelined,window=64] (measured)";
  mpiarena::svg::LineChart c;
  for (int i = 0; i < 10; ++i) {
    mpiarena::svg::Series s;
    s.name = i ? long_name + " " + std::to_string(i) : long_name;
    s.points = {{8, 1e-6 * (i + 1)}, {64, 2e-6 * (i + 1)}};
    c.series.push_back(s);
  }
  const std::string svg = mpiarena::svg::render(c);
  const std::vector<std::string> shown = legend_texts(svg);
  ASSERT_EQ(shown.size(), 10u) << svg;
  EXPECT_EQ(shown[0], long_name) << svg;
  EXPECT_EQ(shown[9], long_name + " 9");
  EXPECT_EQ(svg.find("\u2026"), std::string::npos) << "no name is cut";
  // No line longer than the margin holds (23 lower-case characters of
  // 11 px; 14 of the widest capitals).
  for (auto at = svg.find("<tspan"); at != std::string::npos;
       at = svg.find("<tspan", at + 1)) {
    const auto open = svg.find('>', at) + 1;
    EXPECT_LE(svg.find("</tspan>", open) - open, 23u) << svg.substr(at, 80);
  }
  mpiarena::svg::LineChart wide;
  wide.series.push_back({});
  wide.series[0].name = std::string(30, 'W');
  wide.series[0].points = {{8, 1e-6}};
  const std::string w = mpiarena::svg::render(wide);
  EXPECT_EQ(legend_texts(w), std::vector<std::string>{std::string(30, 'W')});
  EXPECT_NE(w.find(">" + std::string(14, 'W') + "</tspan>"), std::string::npos)
      << w;
  // Three lines an entry do not fit in 340 px: the chart is taller.
  EXPECT_EQ(svg.find("height=\"340\""), std::string::npos);
  // A short name stays one line in a chart of the usual size.
  mpiarena::svg::LineChart small;
  small.series.push_back({});
  small.series[0].name = "bcast";
  small.series[0].points = {{8, 1e-6}};
  const std::string one = mpiarena::svg::render(small);
  EXPECT_EQ(legend_texts(one), std::vector<std::string>{"bcast"});
  EXPECT_NE(one.find("height=\"340\""), std::string::npos);
}

TEST(Svg, StackedBarsShareEachBarByItsSum) {
  mpiarena::svg::StackedBars b;
  b.categories = {"1 KiB", "1 MiB"};
  b.stack_names = {"pack", "comm"};
  b.values = {{1, 3}, {3, 0}};
  const std::string svg = mpiarena::svg::render(b);
  EXPECT_EQ(count(svg, "class=\"mark bar\""), 3u) << svg;  // a zero is no bar
  EXPECT_NE(svg.find("1 KiB, pack: 25%"), std::string::npos);
  EXPECT_NE(svg.find("1 MiB, pack: 100%"), std::string::npos);
}

// Issue 44: whether each point was verified showed only in the charts'
// tooltips, and the plugins' versions nowhere.
TEST(Html, EveryPointsVerificationIsAColumnAndThePluginsATable) {
  const std::string page = page_of(page_document());
  const std::string transfer = section_of(page, "transfer / 1d / 2 ranks");
  ASSERT_FALSE(transfer.empty()) << page;
  EXPECT_NE(transfer.find("<th>verified</th>"), std::string::npos);
  // A row per point, each with its verification.
  EXPECT_EQ(count(transfer, "<td>passed</td>"), 5u);
  EXPECT_NE(
      transfer.find("<td>FAILED: rank 1: element 3 is 5, expected 7</td>"),
      std::string::npos);
  EXPECT_NE(transfer.find("5 passed verification, 1 FAILED"),
            std::string::npos);
  const auto plugins = page.find("<h3 id=\"plugins\">Plugins</h3>");
  ASSERT_NE(plugins, std::string::npos) << page;
  const std::string table =
      page.substr(plugins, page.find("</table>", plugins));
  EXPECT_NE(table.find("<th>version</th>"), std::string::npos);
  EXPECT_NE(
      table.find("<td>/opt/mpiarena/lib/mpiarena/plugins/"
                 "mpiarena_bcast.so</td><td>2.1.0</td><td class=\"num\">" +
                 std::to_string(mpiarena::kAbiVersion) + "</td>"),
      std::string::npos)
      << table;
  EXPECT_NE(table.find("mpiarena_raw.so</td><td>-</td>"), std::string::npos);
}

// The percentiles (stats.hpp) join the table of every point once a point
// has a p95 (20 samples); '-' where another has too few.
TEST(Html, EveryPointHasItsPercentilesWhereSomePointHasATail) {
  const std::string before =
      section_of(page_of(page_document()), "transfer / 1d / 2 ranks");
  EXPECT_EQ(before.find("<th class=\"num\">p95</th>"), std::string::npos);
  mpiarena::Document doc = page_document();
  std::vector<double> samples;
  for (int i = 1; i <= 20; ++i) samples.push_back(i * 1e-6);
  doc.records[0] = mpiarena_test::make_record("bcast", samples, 1024);
  const std::string transfer =
      section_of(page_of(doc), "transfer / 1d / 2 ranks");
  ASSERT_FALSE(transfer.empty());
  EXPECT_NE(transfer.find("<th class=\"num\">min</th><th class=\"num\">p50"
                          "</th><th class=\"num\">p95</th><th "
                          "class=\"num\">p99</th><th class=\"num\">max</th>"),
            std::string::npos)
      << transfer;
  // 1..20 us: p50 10 us, p95 19 us, p99 none.
  EXPECT_NE(transfer.find("<td class=\"num\">10.00 us</td><td "
                          "class=\"num\">19.00 us</td><td "
                          "class=\"num\">-</td>"),
            std::string::npos)
      << transfer;
}

// Issue 44: the collective section had charts and a fit, but no table of
// its numbers.
TEST(Html, ACollectiveSectionHasATableOfItsNumbers) {
  const std::string page = page_of(page_document());
  const std::string coll = section_of(page, "collective / 1d / 2 ranks");
  ASSERT_FALSE(coll.empty()) << page;
  const auto table = coll.find("<h4>Median time per size");
  ASSERT_NE(table, std::string::npos) << coll;
  EXPECT_NE(coll.find("<th class=\"num\">allreduce</th><th class=\"num\">"
                      "alltoall</th>",
                      table),
            std::string::npos);
  // 3 x (1 us + 4096 ns) at 4 KiB, for both methods.
  EXPECT_NE(coll.find("<td class=\"num\">15.29 us</td><td class=\"num\">"
                      "15.29 us</td>",
                      table),
            std::string::npos)
      << coll;
  // A ranked section keeps its table of the fastest method instead.
  const std::string transfer = section_of(page, "transfer / 1d / 2 ranks");
  EXPECT_NE(transfer.find("Fastest method per size"), std::string::npos);
  EXPECT_EQ(transfer.find("Median time per size"), std::string::npos);
}

// Issue 44: about 80 "noisy: ..." lines took more than half the page. The
// noisy points of a section are one folded table under a one-line count.
TEST(Html, NoisyPointsAreOneFoldedTableUnderACount) {
  mpiarena::Document doc = page_document();
  for (mpiarena::Record& r : doc.records) {
    r.noise.recorded = true;
    r.noise.steal_s = {0, 0, 0};
    r.noise.preemptions = {0, 4, 0};
    if (r.suite != "transfer") continue;
    r.noise.noisy = true;
    r.noise.noisy_samples = 1;
    r.noise.reason =
        "1 of 3 samples noisy after retries; first: sample 2: a rank "
        "preempted 4 times in 2.00 ms";
  }
  const std::string page = page_of(doc);
  EXPECT_EQ(page.find("<li>noisy:"), std::string::npos);
  const std::string transfer = section_of(page, "transfer / 1d / 2 ranks");
  EXPECT_EQ(count(transfer, "<details class=\"noisy\">"), 1u);
  EXPECT_NE(transfer.find("<details class=\"noisy\"><summary>Noisy points: "
                          "6 of 6 ("),
            std::string::npos)
      << transfer;
  const auto table = transfer.find("<details class=\"noisy\">");
  const std::string folded =
      transfer.substr(table, transfer.find("</details>", table) - table);
  EXPECT_EQ(count(folded,
                  "<td>sample 2: a rank preempted 4 times in "
                  "2.00 ms</td>"),
            6u)
      << folded;
  // A section without a noisy point has none.
  EXPECT_EQ(section_of(page, "collective / 1d / 2 ranks").find("Noisy points"),
            std::string::npos);
}

// Issue 44: a fit's line was drawn over every size, severalfold above the
// small ones. Each line now spans the sizes it holds over, a piece each.
TEST(Html, EachFitIsDrawnOverTheSizesItHoldsOnly) {
  using mpiarena_test::make_record;
  mpiarena::Document doc;
  doc.context = mpiarena_test::sample_context();
  doc.complete = true;
  for (std::size_t b = 8; b <= 65536; b *= 2) {
    const double n = static_cast<double>(b);
    // pp: a protocol switch at 4 KiB; bcast: twofold jumps up to 512 B.
    const double pp = n < 4096 ? 300e-9 + n / 2e9 : 1.4e-6 + n / 25e9;
    const double bc = n <= 256   ? (b & 0x2AA ? 80e-9 : 160e-9)
                      : n == 512 ? 700e-9
                                 : 1.2e-6 + n / 24e9;
    doc.records.push_back(make_record("pp", {pp, pp, pp}, b));
    doc.records.push_back(make_record("bcast", {bc, bc, bc}, b));
    for (std::size_t k = doc.records.size() - 2; k < doc.records.size(); ++k)
      doc.records[k].payload_bytes = b;
  }
  const std::string page = page_of(doc);
  const auto at = page.find("<title>Fitted model");
  ASSERT_NE(at, std::string::npos) << page;
  const std::string chart = page.substr(at, page.find("</svg>", at) - at);
  // pp: two lines; bcast: one, from 1 KiB, where its dot is.
  EXPECT_EQ(count(chart, "class=\"mark line\""), 3u) << chart;
  EXPECT_EQ(legend_texts(chart),
            (std::vector<std::string>{"bcast (measured)", "bcast fit",
                                      "pp (measured)", "pp fit"}));
  const auto dot = chart.find("<title>bcast, 1024 (1024 B)");
  ASSERT_NE(dot, std::string::npos);
  const auto cx = chart.rfind("cx=\"", dot) + 4;
  const std::string x = chart.substr(cx, chart.find('"', cx) - cx);
  const auto line = chart.find("d=\"M" + x + ",");
  ASSERT_NE(line, std::string::npos) << x << chart;
  // That path is bcast's (the first colour).
  const auto stroke = chart.find("stroke=\"", line) + 8;
  EXPECT_EQ(chart.substr(stroke, 7), mpiarena::svg::colour(0));
  const std::string section = section_of(page, "transfer / 1d / 2 ranks");
  EXPECT_NE(section.find("No line L + n / B holds over these sizes"),
            std::string::npos);
  EXPECT_NE(section.find("7 of 14: 8 B to 512 B"), std::string::npos);
}

// Issue 44: a page made from a runner ab file did not show the gate's
// verdict. It shows runner compare FILE's judgement per point and overall.
TEST(Html, ARunnerAbPageShowsTheGatesVerdictPerPointAndItsExitCode) {
  using mpiarena_test::make_record;
  auto around = [](double median) {
    std::vector<double> v;
    for (int i = 0; i < 15; ++i) v.push_back(median * (1 + 0.002 * (i - 7)));
    return v;
  };
  mpiarena::Document doc;
  doc.context = mpiarena_test::sample_context();
  doc.complete = true;
  for (const char* build : {"base", "new"}) {
    const bool now = std::string(build) == "new";
    doc.records.push_back(make_record(std::string("bcast@") + build,
                                      around(now ? 15e-6 : 10e-6)));
    doc.records.push_back(
        make_record(std::string("raw@") + build, around(10e-6)));
    doc.records.push_back(
        make_record(std::string("pack@") + build, around(now ? 7e-6 : 10e-6)));
    for (std::size_t k = doc.records.size() - 3; k < doc.records.size(); ++k)
      doc.records[k].plugin_build = build;
  }
  const std::string page = page_of(doc);
  const auto at =
      page.find("<h2 id=\"ab\">A/B judgement: runner compare x.json");
  ASSERT_NE(at, std::string::npos) << page.substr(0, 3000);
  EXPECT_LT(at, page.find("<h2 id=\"context\">"));  // the verdict first
  const std::string ab = page.substr(at, page.find("<h2 id=\"context\">") - at);
  for (const char* row :
       {"<td>transfer/bcast/1d</td><td class=\"num\">small</td><td "
        "class=\"num\">2</td><td class=\"num\">10.00 us</td><td "
        "class=\"num\">15.00 us</td><td class=\"num\">+50.0%</td>",
        "<td>transfer/pack/1d</td>", "<td>transfer/raw/1d</td>"})
    EXPECT_NE(ab.find(row), std::string::npos) << row << "\n" << ab;
  EXPECT_EQ(count(ab, "<td>regressed</td>"), 1u) << ab;
  EXPECT_EQ(count(ab, "<td>improved</td>"), 1u);
  EXPECT_EQ(count(ab, "<td>unchanged</td>"), 1u);
  EXPECT_NE(ab.find("<th class=\"num\">p (Holm)</th>"), std::string::npos);
  EXPECT_NE(ab.find("result: 1 regressed, 1 improved, 1 unchanged, 0 too "
                    "noisy to tell; 0 only in BASE, 0 only in NEW; exit 1"),
            std::string::npos)
      << ab;
  EXPECT_NE(ab.find("the gate fails"), std::string::npos);
  // A plain run's page has none of it.
  EXPECT_EQ(page_of(page_document()).find("id=\"ab\""), std::string::npos);
}

TEST(Trend, ContextKeyIgnoresHostOrderAndTheRestOfTheLibraryString) {
  mpiarena::Context a;
  a.mpi_library = "Open MPI v4.1.4, package: x";
  a.hosts = {"b", "a"};
  a.ranks = 2;
  mpiarena::Context b = a;
  b.hosts = {"a", "b"};
  b.mpi_library = "Open MPI v4.1.4, package: y";
  EXPECT_EQ(mpiarena::trend_context(a), mpiarena::trend_context(b));
  b.ranks = 4;
  EXPECT_NE(mpiarena::trend_context(a), mpiarena::trend_context(b));
}

}  // namespace
