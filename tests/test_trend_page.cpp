// The trend page's charts (trend_chart.hpp, trend.hpp render_trend_html):
// the y range fits the medians and quartiles, never an extreme sample; a
// sample beyond it is a caret at the edge; a logarithmic axis when the
// medians span decades; the boundaries where the MPI library changes; the
// store's names of the points; the runs table's file names. The page in a
// browser: e2e_report.py (trend-page).
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "core/analysis/svg/svg.hpp"
#include "core/analysis/trend/trend.hpp"
#include "core/analysis/trend/trend_chart.hpp"

namespace {

using mpiarena::Trend;
using mpiarena::TrendCell;
using mpiarena::TrendYRange;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

constexpr const char* kStoreName = "pingpong/mpi_bytes/bytes/separate/8/np2";

// One group of `medians.size()` runs of one point, each cell its median
// with quartiles 3% and its fastest and slowest samples 4% away; `slow`
// (if not negative) the run whose slowest sample is 600 us.
Trend trend_of(const std::vector<double>& medians, int slow = -1) {
  Trend t;
  mpiarena::TrendGroup g;
  mpiarena::TrendPoint p;
  p.key.suite = "pingpong";
  p.key.method = "mpi_bytes";
  p.key.payload = "bytes";
  p.key.bytes = 8;
  p.key.size_label = "8";
  p.key.ranks = 2;
  p.store_name = kStoreName;
  for (std::size_t i = 0; i < medians.size(); ++i) {
    mpiarena::TrendRun run;
    run.file = "night_" + std::to_string(i + 1) + ".json";
    run.started = "2026-11-" + std::to_string(10 + i) + "T02:00:00Z";
    t.runs.push_back(run);
    g.runs.push_back(static_cast<int>(i));
    TrendCell c;
    c.present = true;
    c.median = medians[i];
    c.q1 = medians[i] * 0.97;
    c.q3 = medians[i] * 1.03;
    c.lo = medians[i] * 0.96;
    c.hi = static_cast<int>(i) == slow ? 600e-6 : medians[i] * 1.04;
    p.cells.push_back(c);
  }
  g.points.push_back(p);
  t.groups.push_back(g);
  return t;
}

// The y of every median dot and the bottom of the plot area.
std::vector<double> dot_ys(const std::string& page) {
  std::vector<double> out;
  const std::regex dot("class=\"mark dot\" cx=\"[0-9.]+\" cy=\"([0-9.]+)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), dot);
       it != std::sregex_iterator(); ++it)
    out.push_back(std::atof((*it)[1].str().c_str()));
  return out;
}
double plot_bottom(const std::string& page) {
  std::smatch m;
  const std::regex plot(
      "class=\"plot\" x=\"[0-9.]+\" y=\"([0-9.]+)\" width=\"[0-9.]+\" "
      "height=\"([0-9.]+)\"");
  if (!std::regex_search(page, m, plot)) return 0;
  return std::atof(m[1].str().c_str()) + std::atof(m[2].str().c_str());
}

TEST(TrendPage, RangeFitsTheMediansNotASlowSample) {
  const TrendYRange r =
      mpiarena::trend_y_range({14e-6, 15e-6, 16e-6}, {14e-6, 16e-6});
  EXPECT_FALSE(r.log);
  EXPECT_LT(r.lo, 14e-6);
  EXPECT_GT(r.lo, 10e-6);  // not from 0: 15 us is not on the axis
  EXPECT_GT(r.hi, 16e-6);
  EXPECT_LT(r.hi, 20e-6);
  // The lowest median is at least a tenth of the height above the axis.
  EXPECT_GT((14e-6 - r.lo) / (r.hi - r.lo), 0.08);
  // A third quartile that is a slow sample itself (2 of 7 samples of
  // 1 ms) widens the range at most to 1.5 times the highest median.
  const TrendYRange q =
      mpiarena::trend_y_range({14e-6, 15e-6, 16e-6}, {13e-6, 1e-3});
  EXPECT_FALSE(q.log);
  EXPECT_LT(q.hi, 30e-6);
  EXPECT_LT(q.lo, 13e-6);
  EXPECT_GT(q.lo, 5e-6);
}

TEST(TrendPage, RangeIsLogarithmicWhenTheMediansSpanDecades) {
  const TrendYRange r = mpiarena::trend_y_range({2e-6, 3e-6, 900e-6}, {});
  EXPECT_TRUE(r.log);
  EXPECT_LT(r.lo, 2e-6);
  EXPECT_GT(r.hi, 900e-6);
  EXPECT_FALSE(mpiarena::trend_y_range({2e-6, 15e-6}, {}).log);
  // Quartiles do not make a log axis.
  EXPECT_FALSE(mpiarena::trend_y_range({2e-6, 3e-6}, {1e-6, 900e-6}).log);
  // Nothing usable: a range still.
  const TrendYRange none = mpiarena::trend_y_range({}, {});
  EXPECT_LT(none.lo, none.hi);
  const TrendYRange flat = mpiarena::trend_y_range({5e-6, 5e-6}, {});
  EXPECT_LT(flat.lo, 5e-6);
  EXPECT_GT(flat.hi, 5e-6);
}

TEST(TrendPage, TickLabelsInOneUnitWithTheDecimalsTheStepNeeds) {
  TrendYRange lin{13e-6, 17e-6, false};
  EXPECT_EQ(mpiarena::trend_tick_labels({14e-6, 15e-6, 16e-6}, lin),
            (std::vector<std::string>{"14 us", "15 us", "16 us"}));
  EXPECT_EQ(mpiarena::trend_tick_labels({14e-6, 14.5e-6}, lin),
            (std::vector<std::string>{"14.0 us", "14.5 us"}));
  TrendYRange ms{0.9e-3, 1.2e-3, false};
  EXPECT_EQ(mpiarena::trend_tick_labels({0.9e-3, 1e-3}, ms),
            (std::vector<std::string>{"0.9 ms", "1.0 ms"}));
  TrendYRange lg{1e-6, 2e-3, true};
  EXPECT_EQ(mpiarena::trend_tick_labels({1e-6, 50e-6, 1e-3}, lg),
            (std::vector<std::string>{"1 us", "50 us", "1 ms"}));
}

TEST(TrendPage, ASlowSampleIsACaretAtTheTopNotTheScale) {
  const std::string page =
      mpiarena::render_trend_html(trend_of({15e-6, 15.2e-6, 14.8e-6,
                                            15.1e-6, 15e-6}, 2));
  EXPECT_EQ(count(page, "class=\"mark outlier high\""), 1u) << page;
  EXPECT_EQ(count(page, "class=\"mark outlier low\""), 0u);
  EXPECT_NE(page.find("#3: slowest sample 600.00 us, above the chart"),
            std::string::npos);
  // No y tick reaches the slow sample: the labels stay near 15 us.
  const std::regex tick("class=\"tick ytick\"[^>]*>([0-9.]+) us<");
  int ticks = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), tick);
       it != std::sregex_iterator(); ++it, ++ticks) {
    EXPECT_GT(std::atof((*it)[1].str().c_str()), 13.0) << (*it)[0];
    EXPECT_LT(std::atof((*it)[1].str().c_str()), 17.0) << (*it)[0];
  }
  EXPECT_GE(ticks, 2);
  // Every median well above the axis (the plot is ~170 px high).
  const double bottom = plot_bottom(page);
  const std::vector<double> ys = dot_ys(page);
  ASSERT_EQ(ys.size(), 5u);
  for (double y : ys) EXPECT_LT(y, bottom - 12) << "bottom " << bottom;
  // The band of the quartiles, no min-max bar.
  EXPECT_EQ(count(page, "class=\"mark qband\""), 1u);
  EXPECT_EQ(count(page, "class=\"mark band\""), 0u);
  EXPECT_EQ(page.find("(log scale)"), std::string::npos);
}

TEST(TrendPage, MediansSpanningDecadesGetALogAxis) {
  const std::string page =
      mpiarena::render_trend_html(trend_of({2e-6, 2.1e-6, 800e-6, 2e-6}));
  EXPECT_NE(page.find("median time (log scale)"), std::string::npos);
  const double bottom = plot_bottom(page);
  for (double y : dot_ys(page)) EXPECT_LT(y, bottom - 8);
}

TEST(TrendPage, BoundariesAreDashedLinesWithTheirText) {
  Trend t = trend_of({15e-6, 15e-6, 15e-6, 12e-6, 12e-6});
  t.groups[0].boundaries.push_back({3, "Open MPI 4.1.4 -> 4.1.6"});
  const std::string page = mpiarena::render_trend_html(t);
  EXPECT_EQ(count(page, "<g class=\"boundary\">"), 1u);
  EXPECT_NE(page.find(">Open MPI 4.1.4 -&gt; 4.1.6<title>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("stroke-dasharray"), std::string::npos);
  // Between the third and the fourth run's dots.
  const std::regex line("<g class=\"boundary\"><line x1=\"([0-9.]+)\"");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(page, m, line));
  const double x = std::atof(m[1].str().c_str());
  const std::regex dot("class=\"mark dot\" cx=\"([0-9.]+)\"");
  std::vector<double> xs;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), dot);
       it != std::sregex_iterator(); ++it)
    xs.push_back(std::atof((*it)[1].str().c_str()));
  ASSERT_EQ(xs.size(), 5u);
  EXPECT_GT(x, xs[2]);
  EXPECT_LT(x, xs[3]);
  // A long text is cut beside the line, whole in its hover text.
  const std::string text =
      "Open MPI 4.1.4 -> 4.1.6; btl_tcp_if_include eth0 -> ib0, "
      "mpi_leave_pinned 0 -> 1";
  t.groups[0].boundaries = {{1, text}};
  const std::string cut = mpiarena::render_trend_html(t);
  EXPECT_NE(cut.find(">Open MPI 4.1.4 -&gt; 4.1.6; btl_tcp_if_include"
                     "\xE2\x80\xA6<title>" +
                     mpiarena::svg::escape(text) + "</title>"),
            std::string::npos)
      << cut;
}

TEST(TrendPage, PointsAreNamedAsTheStoreNamesThem) {
  Trend t = trend_of({15e-6, 16e-6});
  const std::string page = mpiarena::render_trend_html(t);
  EXPECT_NE(page.find(std::string("<title>") + kStoreName + "</title>"),
            std::string::npos);
  EXPECT_NE(page.find(std::string("<td>") + kStoreName + "</td>"),
            std::string::npos);
  EXPECT_EQ(page.find("pingpong/mpi_bytes/bytes/8/np2"), std::string::npos);
  EXPECT_EQ(mpiarena::to_json(t)["groups"][0]["points"][0]["store_name"],
            kStoreName);
  // Without a store name: compare's.
  t.groups[0].points[0].store_name.clear();
  EXPECT_NE(mpiarena::render_trend_html(t).find(
                "<title>pingpong/mpi_bytes/bytes/8/np2</title>"),
            std::string::npos);
}

TEST(TrendPage, LongFileNamesAreCutAtTheFrontAndEscaped) {
  Trend t = trend_of({15e-6, 16e-6});
  t.runs[0].file = "/scratch/" + std::string(150, 'd') + "/<night>&1.json";
  const std::string page = mpiarena::render_trend_html(t);
  const std::string cut = mpiarena::cut_front(t.runs[0].file, 64);
  EXPECT_EQ(cut.substr(0, 3), "\xE2\x80\xA6");
  EXPECT_EQ(cut.size(), 63u + 3u);
  EXPECT_NE(page.find(">\xE2\x80\xA6" + std::string(48, 'd') +
                      "/&lt;night&gt;&amp;1.json</td>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("title=\"/scratch/ddd"), std::string::npos);
  EXPECT_NE(page.find("title=\"night_2.json\">night_2.json</td>"),
            std::string::npos);
  EXPECT_EQ(page.find("<details>"), std::string::npos);
  // Many runs: the table folded, the charts first.
  const std::string many = mpiarena::render_trend_html(
      trend_of(std::vector<double>(13, 15e-6)));
  EXPECT_NE(many.find("<details><summary>the 13 runs: start, label, group, "
                      "file</summary>"),
            std::string::npos);
  // UTF-8 is never cut inside a character.
  EXPECT_EQ(mpiarena::cut_front("\xC3\xA9\xC3\xA9\xC3\xA9", 2),
            "\xE2\x80\xA6\xC3\xA9");
}

}  // namespace
