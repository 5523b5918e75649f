// runner compare: the verdicts on synthetic documents (regressions,
// improvements, the threshold, too few samples, a plugin's metrics). The
// statistics: test_stats_inference.cpp; points and files:
// test_compare_points.cpp; noise and the suggested threshold:
// test_compare_noise.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compare_fixtures.hpp"
#include "core/analysis/compare/compare.hpp"
#include "core/analysis/compare/compare_text.hpp"
#include "core/results/formats.hpp"
#include "doc_fixtures.hpp"

using compare_test::around;
using compare_test::doc_of;
using compare_test::only_point;
using mpiarena::compare_documents;
using mpiarena::Outcome;
using mpiarena_test::make_record;

TEST(Compare, ClearRegressionExitsOne) {
  const auto c =
      compare_documents(doc_of({make_record("bcast", around(1e-5))}),
                        doc_of({make_record("bcast", around(1.2e-5))}));
  const auto& p = only_point(c);
  EXPECT_EQ(p.verdict, Outcome::regressed);
  ASSERT_EQ(p.metrics.size(), 2u);
  EXPECT_EQ(p.metrics[0].metric, "time_s");
  EXPECT_FALSE(p.metrics[0].higher_is_better);
  EXPECT_NEAR(p.metrics[0].change, 0.2, 1e-9);
  EXPECT_EQ(p.metrics[0].verdict, Outcome::regressed);
  EXPECT_EQ(p.metrics[1].metric, "bandwidth_Bps");
  EXPECT_TRUE(p.metrics[1].higher_is_better);
  EXPECT_NEAR(p.metrics[1].change, 1 / 1.2 - 1, 1e-9);
  EXPECT_EQ(p.metrics[1].verdict, Outcome::regressed);
  EXPECT_NEAR(p.test.p, 2.0 / 3432, 1e-15);  // fully separated, 7 vs 7
  EXPECT_EQ(c.exit_code(), 1);
  EXPECT_TRUE(c.warnings.empty());
}

// The derived figures are a cache (docs/formats.md, "Measured and
// derived"): compare's changes come from the samples, not from a record's
// time_s or bandwidth_Bps.
TEST(Compare, ChangesComeFromTheSamplesNotTheCache) {
  mpiarena::Record b = make_record("bcast", around(1e-5));
  mpiarena::Record n = make_record("bcast", around(1.2e-5));
  for (mpiarena::Record* r : {&b, &n}) {
    r->time.median = 1;  // a cache that says nothing changed
    r->bandwidth = 1;
  }
  const auto c = compare_documents(doc_of({b}), doc_of({n}));
  const auto& p = only_point(c);
  ASSERT_EQ(p.metrics.size(), 2u);
  EXPECT_NEAR(p.metrics[0].change, 0.2, 1e-9);
  EXPECT_NEAR(p.metrics[1].change, 1 / 1.2 - 1, 1e-9);
  EXPECT_EQ(p.verdict, Outcome::regressed);
}

TEST(Compare, ImprovementExitsZero) {
  const auto c =
      compare_documents(doc_of({make_record("bcast", around(1e-5))}),
                        doc_of({make_record("bcast", around(8e-6))}));
  EXPECT_EQ(only_point(c).verdict, Outcome::improved);
  EXPECT_EQ(c.points[0].metrics[1].verdict, Outcome::improved);  // bandwidth
  EXPECT_EQ(c.exit_code(), 0);
}

TEST(Compare, SmallSignificantChangeIsUnchanged) {
  const auto c =
      compare_documents(doc_of({make_record("bcast", around(1e-5))}),
                        doc_of({make_record("bcast", around(1.03e-5))}));
  EXPECT_LT(only_point(c).test.p, 0.05);
  EXPECT_EQ(c.points[0].verdict, Outcome::unchanged);
  EXPECT_EQ(c.exit_code(), 0);
}

TEST(Compare, TimeAndBandwidthAgreeAtTheThreshold) {
  // 4.9% less time is 5.15% more bandwidth: both beat the 5% threshold as a
  // factor (1 / 0.951 = 1.0515), so both say improved.
  const auto c =
      compare_documents(doc_of({make_record("bcast", around(1e-5))}),
                        doc_of({make_record("bcast", around(0.951e-5))}));
  const auto& p = only_point(c);
  EXPECT_NEAR(p.metrics[0].change, -0.049, 1e-9);
  EXPECT_NEAR(p.metrics[1].change, 1 / 0.951 - 1, 1e-9);
  EXPECT_EQ(p.metrics[0].verdict, Outcome::improved);
  EXPECT_EQ(p.metrics[1].verdict, Outcome::improved);
  // 4.9% more time (a factor of 1.049) is within the threshold.
  const auto d =
      compare_documents(doc_of({make_record("bcast", around(1e-5))}),
                        doc_of({make_record("bcast", around(1.049e-5))}));
  EXPECT_EQ(only_point(d).metrics[0].verdict, Outcome::unchanged);
  EXPECT_EQ(d.points[0].metrics[1].verdict, Outcome::unchanged);
}

TEST(Compare, NoisyPointIsNotARegression) {
  // The median is 10% worse, but the samples overlap: p = 0.7.
  const std::vector<double> base = {1.0e-5, 0.7e-5, 1.5e-5, 0.9e-5,
                                    1.3e-5, 0.6e-5, 1.4e-5};
  const std::vector<double> now = {1.1e-5,  0.65e-5, 1.45e-5, 0.8e-5,
                                   1.35e-5, 0.75e-5, 1.6e-5};
  const auto c = compare_documents(doc_of({make_record("bcast", base)}),
                                   doc_of({make_record("bcast", now)}));
  const auto& p = only_point(c);
  EXPECT_NEAR(p.metrics[0].change, 0.1, 1e-9);
  EXPECT_GE(p.test.p, 0.05);
  EXPECT_EQ(p.verdict, Outcome::noisy);
  EXPECT_NE(p.note.find("not below alpha"), std::string::npos) << p.note;
  EXPECT_EQ(c.exit_code(), 0);
}

TEST(Compare, TooFewSamplesAreSaidSo) {
  const auto c = compare_documents(
      doc_of({make_record("bcast", {1e-5, 1.01e-5, 1.02e-5})}),
      doc_of({make_record("bcast", {2e-5, 2.01e-5, 2.02e-5})}));
  const auto& p = only_point(c);
  EXPECT_DOUBLE_EQ(p.test.p, 0.1);
  EXPECT_EQ(p.verdict, Outcome::noisy);
  EXPECT_NE(p.note.find("the smallest p the U test can give is 0.1"),
            std::string::npos)
      << p.note;
  EXPECT_NE(p.note.find("BASE has 3 samples, NEW 3 samples"),
            std::string::npos)
      << p.note;
  EXPECT_NE(p.note.find("at least 4 repetitions"), std::string::npos);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("too few samples"), std::string::npos);
  // A gate that could not have failed does not pass (issue 44): exit 2,
  // naming the repetitions it needs, unless allowed.
  EXPECT_EQ(c.exit_code(), 2);
  EXPECT_NE(c.refusal().find("at least 4 repetitions"), std::string::npos)
      << c.refusal();
  mpiarena::CompareOptions allowed;
  allowed.allow_powerless = true;
  EXPECT_EQ(
      compare_documents(
          doc_of({make_record("bcast", {1e-5, 1.01e-5, 1.02e-5})}),
          doc_of({make_record("bcast", {2e-5, 2.01e-5, 2.02e-5})}), allowed)
          .exit_code(),
      0);
}

// One point that can reach significance is enough for the gate to have
// power; an incomplete side exits 2 unless allowed.
TEST(Compare, APowerlessOrIncompleteJudgementIsNotAPass) {
  mpiarena::Document base =
      doc_of({make_record("bcast", {1e-5, 1.01e-5, 1.02e-5}),
              make_record("raw", around(1e-5))});
  mpiarena::Document now =
      doc_of({make_record("bcast", {1e-5, 1.01e-5, 1.02e-5}),
              make_record("raw", around(1e-5))});
  EXPECT_EQ(compare_documents(base, now).exit_code(), 0);
  now.complete = false;
  const auto c = compare_documents(base, now);
  EXPECT_EQ(c.exit_code(), 2);
  EXPECT_NE(c.refusal().find("NEW is an incomplete"), std::string::npos)
      << c.refusal();
  mpiarena::CompareOptions allowed;
  allowed.allow_incomplete = true;
  EXPECT_EQ(compare_documents(base, now, allowed).exit_code(), 0);
  // Holm over many tests: 4 samples a side cannot pass the correction.
  mpiarena::CompareOptions holm;
  holm.holm = true;
  const auto h = compare_documents(
      doc_of({make_record("bcast", {1e-5, 1.01e-5, 1.02e-5, 1.03e-5}),
              make_record("raw", {1e-5, 1.01e-5, 1.02e-5, 1.03e-5})}),
      doc_of({make_record("bcast", {1e-5, 1.01e-5, 1.02e-5, 1.03e-5}),
              make_record("raw", {1e-5, 1.01e-5, 1.02e-5, 1.03e-5})}),
      holm);
  EXPECT_EQ(h.exit_code(), 2);
  EXPECT_NE(h.refusal().find("Holm"), std::string::npos) << h.refusal();
}

TEST(Compare, ThresholdAndAlphaAreOptions) {
  const auto base = doc_of({make_record("bcast", around(1e-5))});
  const auto now = doc_of({make_record("bcast", around(1.2e-5))});
  EXPECT_EQ(only_point(compare_documents(base, now, {0.25, 0.05})).verdict,
            Outcome::unchanged);
  EXPECT_EQ(only_point(compare_documents(base, now, {0.05, 1e-4})).verdict,
            Outcome::noisy);  // p = 5.8e-4 is not below alpha 1e-4
}

TEST(Compare, MissingPointsAreListedWithTheOtherSidesReason) {
  auto base = doc_of({make_record("bcast", around(1e-5)),
                      make_record("bcast", around(3e-5), 110000)});
  auto now = doc_of(
      {make_record("bcast", around(1e-5)), make_record("raw", around(2e-5))});
  now.skipped.push_back(
      mpiarena_test::make_skip("bcast", "needs at least 4 ranks", 110000));
  const auto c = compare_documents(base, now);
  EXPECT_EQ(c.points.size(), 1u);
  ASSERT_EQ(c.only_base.size(), 1u);
  EXPECT_EQ(c.only_base[0].key.bytes, 110000u);
  EXPECT_EQ(c.only_base[0].other, "skipped: needs at least 4 ranks");
  ASSERT_EQ(c.only_new.size(), 1u);
  EXPECT_EQ(c.only_new[0].key.method, "raw");
  EXPECT_EQ(c.only_new[0].other, "");
  EXPECT_EQ(c.exit_code(), 0);
  const std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_NE(text.find("Only in BASE"), std::string::npos) << text;
  EXPECT_NE(text.find("transfer/bcast/1d 110000 (110000 B), 2 ranks (skipped: "
                      "needs at least 4 ranks)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1 only in BASE, 1 only in NEW; exit 0"),
            std::string::npos);
}

// runner --label: the header names each run's, the JSON holds them, and
// two labels alone are no difference of context.
TEST(Compare, TheHeaderShowsTheLabels) {
  auto base = doc_of({make_record("bcast", around(1e-5))});
  auto now = doc_of({make_record("bcast", around(1e-5))});
  auto c = compare_documents(base, now);
  std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "runner compare: BASE a.json vs NEW b.json");
  base.context.label = "nightly-41";
  now.context.label = "nightly-42";
  c = compare_documents(base, now);
  EXPECT_TRUE(c.warnings.empty());
  text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "runner compare: BASE a.json (label nightly-41) vs NEW b.json "
            "(label nightly-42)");
  const nlohmann::json j = mpiarena::to_json(c);
  EXPECT_EQ(j.at("labels"),
            nlohmann::json({{"base", "nightly-41"}, {"new", "nightly-42"}}));
}

TEST(Compare, DifferentContextWarns) {
  auto base = doc_of({make_record("bcast", around(1e-5))});
  auto now = doc_of({make_record("bcast", around(1e-5))});
  now.context.mpi_library = "MPICH Version: 4.0.2";
  now.context.hosts = {"node1", "node2"};
  now.context.options.repetitions = 7;
  // The sizes select points: no warning.
  now.context.options.sizes = std::vector<std::string>{"large"};
  const auto c = compare_documents(base, now);
  ASSERT_EQ(c.warnings.size(), 3u);
  EXPECT_EQ(c.warnings[0],
            "context differs: mpi_library is 'Open MPI v4.1.4' in BASE, "
            "'MPICH Version: 4.0.2' in NEW");
  EXPECT_NE(c.warnings[1].find("hosts"), std::string::npos);
  EXPECT_EQ(c.warnings[2],
            "context differs: options.repetitions is '3' in BASE, '7' in NEW");
  EXPECT_EQ(only_point(c).verdict, Outcome::unchanged);
  EXPECT_EQ(c.exit_code(), 0);
}

// Contract v4: a plugin metric is judged on its own samples, in its own
// direction; equal times do not hide it.
namespace {
mpiarena::Record with_metric(double value, bool higher_is_better) {
  mpiarena::Record r = make_record("probe", around(1e-5));
  mpiarena::MetricValue m;
  m.name = "overlap";
  m.unit = "%";
  m.higher_is_better = higher_is_better;
  m.value = value;
  for (double s : around(value == 0 ? 1 : value))
    m.samples.push_back(value == 0 ? s - 1 : s);
  r.metrics = {m};
  return r;
}
const mpiarena::MetricChange* find_metric(const mpiarena::PointComparison& p,
                                          const std::string& name) {
  for (const auto& m : p.metrics)
    if (m.metric == name) return &m;
  return nullptr;
}
}  // namespace

TEST(Compare, AHigherIsBetterMetricThatDropsIsARegression) {
  const auto c = compare_documents(doc_of({with_metric(80, true)}),
                                   doc_of({with_metric(40, true)}));
  const auto& p = only_point(c);
  const auto* m = find_metric(p, "metric:overlap");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->unit, "%");
  EXPECT_NEAR(m->change, -0.5, 1e-9);
  EXPECT_NEAR(m->p, 2.0 / 3432, 1e-15);
  EXPECT_EQ(m->verdict, Outcome::regressed);
  EXPECT_EQ(p.verdict, Outcome::regressed);
  EXPECT_EQ(c.exit_code(), 1);
}

TEST(Compare, ALowerIsBetterMetricThatDropsIsAnImprovement) {
  const auto c = compare_documents(doc_of({with_metric(80, false)}),
                                   doc_of({with_metric(40, false)}));
  EXPECT_EQ(find_metric(only_point(c), "metric:overlap")->verdict,
            Outcome::improved);
  EXPECT_EQ(c.exit_code(), 0);
}

TEST(Compare, AMetricRisingFromZeroFollowsTheDifference) {
  // From 0 to 50 on a higher-is-better metric: better, whatever the base.
  const auto c = compare_documents(doc_of({with_metric(0, true)}),
                                   doc_of({with_metric(50, true)}));
  const auto* m = find_metric(only_point(c), "metric:overlap");
  ASSERT_NE(m, nullptr);
  EXPECT_GT(m->change, 0);
  EXPECT_EQ(m->verdict, Outcome::improved);
}

// Issue 16: the noise of the two files, the points measured while noisy and
