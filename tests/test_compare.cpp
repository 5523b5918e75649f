// runner compare: the Mann-Whitney U test against independent reference
// values, and the verdicts on synthetic documents.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compare.hpp"
#include "compare_text.hpp"
#include "doc_fixtures.hpp"
#include "formats.hpp"

using mpiarena::compare_documents;
using mpiarena::mann_whitney;
using mpiarena::Outcome;
using mpiarena_test::make_record;

namespace {

// Deterministic pseudo-random values without ties: the 31-bit LCG of
// tests/reference/mannwhitney_reference.py (lcg()), rounded to 9 digits.
std::vector<double> lcg(unsigned long long seed, int count, double scale) {
  std::vector<double> out;
  for (int i = 0; i < count; ++i) {
    seed = (1103515245ULL * seed + 12345ULL) % 2147483648ULL;
    const double v = scale * (1 + static_cast<double>(seed) / 2147483648.0);
    out.push_back(std::round(v * 1e9) / 1e9);
  }
  return out;
}

std::vector<double> seq(double first, int count, double step = 1) {
  std::vector<double> out;
  for (int i = 0; i < count; ++i) out.push_back(first + step * i);
  return out;
}

std::vector<double> modulo(int count, int mod, int add) {
  std::vector<double> out;
  for (int i = 0; i < count; ++i) out.push_back(i % mod + add);
  return out;
}

}  // namespace

// Reference values: the output of tests/reference/mannwhitney_reference.py
// (standard library only: U counted pair by pair; exact p by enumerating
// every split with itertools.combinations, or by Mann and Whitney's
// recurrence for 20 vs 20; the normal approximation with tie and continuity
// corrections), pasted here:
//   scipy_doc: n1=5 n2=4 U=17.0 p=0.1111111111111111 (enumeration)
//   separated_3v3: n1=3 n2=3 U=0.0 p=0.1 (enumeration)
//   separated_4v4: n1=4 n2=4 U=16.0 p=0.02857142857142857 (enumeration)
//   separated_7v7: n1=7 n2=7 U=0.0 p=0.0005827505827505828 (enumeration)
//   interleaved_7v7: n1=7 n2=7 U=21.0 p=0.7103729603729604 (enumeration)
//   ties_5v6: n1=5 n2=6 U=6.0 p=0.12121212121212122 (enumeration)
//   ties_7v7: n1=7 n2=7 U=3.5 p=0.007575757575757576 (enumeration)
//   all_equal_3v3: n1=3 n2=3 U=4.5 p=1.0 (enumeration)
//   no_ties_20v20: n1=20 n2=20 U=130.0 p=0.05956383156170359 (recursion)
//   no_ties_26v30: n1=26 n2=30 U=238.0 p=0.012811612036996205 (normal)
//   ties_30v30: n1=30 n2=30 U=272.0 p=0.008236698339101782 (normal)
// scipy.stats.mannwhitneyu 1.17.1 (two-sided) agrees to 1e-15 on every case.
// "scipy_doc" is the example of scipy's mannwhitneyu documentation, which
// prints U = 17, p = 0.1111111111111111 (exact) and p = 0.11134688653314041
// (method="asymptotic").
struct Reference {
  const char* name;
  std::vector<double> x, y;
  double u, p;
  bool exact, ties;
};

TEST(MannWhitney, MatchesIndependentReferenceValues) {
  const std::vector<Reference> cases = {
      {"scipy_doc",
       {19, 22, 16, 29, 24},
       {20, 11, 17, 12},
       17,
       0.1111111111111111,
       true,
       false},
      {"separated_3v3", {1, 2, 3}, {4, 5, 6}, 0, 0.1, true, false},
      {"separated_4v4",
       {4, 5, 6, 7},
       {1, 2, 3, 0.5},
       16,
       0.02857142857142857,
       true,
       false},
      {"separated_7v7", seq(1, 7), seq(10, 7), 0, 0.0005827505827505828, true,
       false},
      {"interleaved_7v7", seq(1, 7, 2), seq(2, 7, 2), 21, 0.7103729603729604,
       true, false},
      {"ties_5v6",
       {1, 2, 2, 3, 4},
       {2, 3, 3, 5, 6, 6},
       6,
       0.12121212121212122,
       true,
       true},
      {"ties_7v7",
       {3, 3, 4, 5, 5, 5, 6},
       {5, 6, 6, 7, 7, 8, 9},
       3.5,
       0.007575757575757576,
       true,
       true},
      {"all_equal_3v3", {2, 2, 2}, {2, 2, 2}, 4.5, 1.0, true, true},
      {"no_ties_20v20", lcg(1, 20, 1.0), lcg(2, 20, 1.1), 130,
       0.05956383156170359, true, false},
      {"no_ties_26v30", lcg(3, 26, 1.0), lcg(4, 30, 1.15), 238,
       0.012811612036996205, false, false},
      {"ties_30v30", modulo(30, 7, 0), modulo(30, 9, 1), 272,
       0.008236698339101782, false, true},
  };
  for (const Reference& c : cases) {
    SCOPED_TRACE(c.name);
    const mpiarena::UTest t = mann_whitney(c.x, c.y);
    EXPECT_EQ(t.n1, c.x.size());
    EXPECT_EQ(t.n2, c.y.size());
    EXPECT_DOUBLE_EQ(t.u, c.u);
    EXPECT_NEAR(t.p, c.p, 1e-12 * c.p);
    EXPECT_EQ(t.exact, c.exact);
    EXPECT_EQ(t.ties, c.ties);
  }
}

TEST(MannWhitney, NormalApproximationOfTheScipyExample) {
  // exact_limit 0 forces the normal approximation; scipy's documentation
  // gives 0.11134688653314041 for method="asymptotic".
  const auto t = mann_whitney({19, 22, 16, 29, 24}, {20, 11, 17, 12}, 0);
  EXPECT_FALSE(t.exact);
  EXPECT_NEAR(t.p, 0.11134688653314041, 1e-13);
}

TEST(MannWhitney, IsSymmetricAndHandlesEmptySamples) {
  const auto ab = mann_whitney({1, 4, 9, 2}, {3, 5, 7});
  const auto ba = mann_whitney({3, 5, 7}, {1, 4, 9, 2});
  EXPECT_DOUBLE_EQ(ab.u + ba.u, 12);
  EXPECT_DOUBLE_EQ(ab.p, ba.p);
  EXPECT_EQ(mann_whitney({}, {1, 2}).p, 1);
}

TEST(MannWhitney, SmallestPossiblePValues) {
  EXPECT_DOUBLE_EQ(mpiarena::min_p_value(3, 3), 0.1);  // 2 / C(6, 3)
  EXPECT_DOUBLE_EQ(mpiarena::min_p_value(4, 4), 2.0 / 70);
  EXPECT_DOUBLE_EQ(mpiarena::min_p_value(7, 7), 2.0 / 3432);
  EXPECT_EQ(mpiarena::min_samples_for(0.05), 4u);  // 3v3 cannot: 0.1
  EXPECT_EQ(mpiarena::min_samples_for(0.01), 5u);  // 2 / 252 < 0.01 < 2 / 70
}

namespace {

// Seven samples around `median` seconds, spread by +-2%, no ties.
std::vector<double> around(double median, int n = 7) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i)
    out.push_back(median * (1 + 0.02 * (i - n / 2) / (n / 2) + 1e-6 * i));
  return out;
}

mpiarena::Document doc_of(std::vector<mpiarena::Record> records) {
  mpiarena::Document d;
  d.context = mpiarena_test::sample_context();
  d.complete = true;
  d.records = std::move(records);
  return d;
}

const mpiarena::PointComparison& only_point(const mpiarena::Comparison& c) {
  EXPECT_EQ(c.points.size(), 1u);
  return c.points.front();
}

}  // namespace

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
  EXPECT_NE(p.note.find("smallest possible p is 0.1"), std::string::npos)
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

TEST(Compare, DifferentContextWarns) {
  auto base = doc_of({make_record("bcast", around(1e-5))});
  auto now = doc_of({make_record("bcast", around(1e-5))});
  now.context["mpi_library"] = "MPICH Version: 4.0.2";
  now.context["hosts"] = {"node1", "node2"};
  now.context["options"]["repetitions"] = 7;
  now.context["options"]["sizes"] = {"large"};  // selects points: no warning
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

TEST(Compare, OnePairAndAllPairsAreDifferentPoints) {
  auto one = make_record("mpi_bytes", around(1e-6));
  one.suite = "pingpong";
  one.pairs = 1;
  auto all = one;
  all.pairs = 2;
  const auto c = compare_documents(doc_of({one}), doc_of({all}));
  EXPECT_TRUE(c.points.empty());
  ASSERT_EQ(c.only_base.size(), 1u);
  ASSERT_EQ(c.only_new.size(), 1u);
  const std::string name = mpiarena::point_name(c.only_new[0].key);
  EXPECT_EQ(name.substr(name.size() - 7), "/2pairs") << name;
  EXPECT_EQ(c.exit_code(), 2);
  // The same pairs on both sides: compared.
  EXPECT_EQ(compare_documents(doc_of({all}), doc_of({all})).points.size(), 1u);
  // A record written before `pairs` existed (0) is the one-pair point.
  auto old_style = one;
  old_style.pairs = 0;
  EXPECT_EQ(compare_documents(doc_of({old_style}), doc_of({one})).points.size(),
            1u);
}

TEST(Compare, APairAcrossNodesIsNeverMatchedWithOneWithinANode) {
  auto intra = make_record("mpi_bytes", around(1e-6));
  intra.suite = "pingpong";
  intra.pairs = 1;
  intra.pair_placement = "intra";
  intra.pair_ranks = {{0, 1}};
  auto inter = intra;
  inter.pair_placement = "inter";
  inter.pair_ranks = {{0, 2}};
  const auto c = compare_documents(doc_of({intra}), doc_of({inter}));
  EXPECT_TRUE(c.points.empty());
  ASSERT_EQ(c.only_new.size(), 1u);
  const std::string name = mpiarena::point_name(c.only_new[0].key);
  EXPECT_EQ(name.substr(name.size() - 6), "/inter") << name;
  EXPECT_EQ(c.exit_code(), 2);
  EXPECT_EQ(compare_documents(doc_of({inter}), doc_of({inter})).points.size(),
            1u);
  // A record written before pair_placement existed ran on one node: intra.
  auto old_style = intra;
  old_style.pair_placement.clear();
  old_style.pair_ranks.clear();
  EXPECT_EQ(
      compare_documents(doc_of({old_style}), doc_of({intra})).points.size(),
      1u);
}

// --relative: a whole group moving together is the machine, not the
// methods; a method that moved more than its group still regressed.
TEST(Compare, RelativeJudgesEachPointAgainstItsGroupsShift) {
  std::vector<mpiarena::Record> base, now;
  for (const char* m : {"bcast", "raw", "datatype", "pack"}) {
    base.push_back(make_record(m, around(1e-5)));
    now.push_back(
        make_record(m, around(std::string(m) == "pack" ? 1.5e-5 : 1.2e-5)));
  }
  const auto plain = compare_documents(doc_of(base), doc_of(now));
  EXPECT_EQ(plain.count(mpiarena::Outcome::regressed), 4);
  EXPECT_TRUE(plain.shifts.empty());
  mpiarena::CompareOptions relative;
  relative.relative = true;
  const auto c = compare_documents(doc_of(base), doc_of(now), relative);
  ASSERT_EQ(c.shifts.size(), 1u);
  EXPECT_EQ(c.shifts[0].points, 4);
  // The median of 1.2, 1.2, 1.2, 1.5 (with the samples' jitter).
  EXPECT_NEAR(c.shifts[0].shift, 1.2, 0.001);
  EXPECT_EQ(c.shifts[0].group.find("transfer/1d/"), 0u) << c.shifts[0].group;
  EXPECT_EQ(c.count(mpiarena::Outcome::regressed), 1);  // pack: 1.5 / 1.2
  for (const auto& p : c.points) {
    EXPECT_EQ(p.verdict == mpiarena::Outcome::regressed, p.key.method == "pack")
        << p.key.method;
    EXPECT_NE(p.note.find("group's shift of +20.0%"), std::string::npos)
        << p.note;
  }
  EXPECT_TRUE(std::any_of(
      c.warnings.begin(), c.warnings.end(), [](const std::string& w) {
        return w.find("moved together by +20.0%") != std::string::npos;
      }));
  EXPECT_TRUE(mpiarena::to_json(c)["relative"].get<bool>());
  EXPECT_EQ(mpiarena::to_json(c)["group_shifts"].size(), 1u);
  // A group of two is too small to tell the machine from the methods.
  base.resize(2);
  now.resize(2);
  const auto small = compare_documents(doc_of(base), doc_of(now), relative);
  EXPECT_TRUE(small.shifts.empty());
  EXPECT_EQ(small.count(mpiarena::Outcome::regressed), 2);
}

TEST(Compare, ColdCacheAndSeparateBuffersAreOtherPoints) {
  auto hot = make_record("mpi_bytes", around(1e-6));
  hot.suite = "pingpong";
  hot.cache = "hot";
  hot.buffers = "shared";
  auto cold = hot;
  cold.cache = "cold";
  auto separate = hot;
  separate.buffers = "separate";
  for (const auto& other : {cold, separate}) {
    const auto c = compare_documents(doc_of({hot}), doc_of({other}));
    EXPECT_TRUE(c.points.empty());
    ASSERT_EQ(c.only_new.size(), 1u);
  }
  EXPECT_EQ(compare_documents(doc_of({cold}), doc_of({cold})).points.size(),
            1u);
  // Older files: hot, and one buffer per rank (NetPIPE's scheme).
  auto old_style = hot;
  old_style.cache.clear();
  old_style.buffers.clear();
  EXPECT_EQ(compare_documents(doc_of({old_style}), doc_of({hot})).points.size(),
            1u);
}

TEST(Compare, FieldsAnOlderFileLacksDoNotWarn) {
  auto base = doc_of({make_record("bcast", around(1e-5))});
  auto now = doc_of({make_record("bcast", around(1e-5))});
  now.context["oversubscribed"] = false;
  now.context["waiting"] = "poll";
  now.context["options"]["wait"] = "auto";
  EXPECT_TRUE(compare_documents(base, now).warnings.empty())
      << compare_documents(base, now).warnings.front();
}

TEST(Compare, OversubscribedAgainstNotWarns) {
  auto base = doc_of({make_record("bcast", around(1e-5))});
  auto now = doc_of({make_record("bcast", around(1e-5))});
  base.context["oversubscribed"] = false;
  base.context["waiting"] = "poll";
  now.context["oversubscribed"] = true;
  now.context["waiting"] = "sleep";
  const auto c = compare_documents(base, now);
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_EQ(
      c.warnings[0],
      "context differs: oversubscribed is 'false' in BASE, 'true' in NEW");
  EXPECT_EQ(c.warnings[1],
            "context differs: waiting is 'poll' in BASE, 'sleep' in NEW");
}

TEST(Compare, FailedVerificationInNewIsARegression) {
  auto bad = make_record("bcast", around(1e-5));
  bad.verification = "failed";
  bad.verification_message = "rank 1: element 3 is 5, expected 7";
  const auto c = compare_documents(doc_of({make_record("bcast", around(1e-5))}),
                                   doc_of({bad}));
  EXPECT_EQ(only_point(c).verdict, Outcome::regressed);
  EXPECT_NE(c.points[0].note.find("verification failed in NEW"),
            std::string::npos);
  EXPECT_EQ(c.exit_code(), 1);
}

TEST(Compare, MethodsWithoutPayloadCompareTimeOnly) {
  auto base = make_record("null", around(2e-7));
  auto now = make_record("null", around(3e-7));
  base.moves_data = now.moves_data = false;
  const auto c = compare_documents(doc_of({base}), doc_of({now}));
  ASSERT_EQ(only_point(c).metrics.size(), 1u);
  EXPECT_EQ(c.points[0].verdict, Outcome::regressed);
}

TEST(Compare, NothingInCommonWarnsAndExitsTwo) {
  const auto c =
      compare_documents(doc_of({make_record("bcast", around(1e-5))}),
                        doc_of({make_record("bcast", around(1e-5), 110000)}));
  EXPECT_TRUE(c.points.empty());
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("no point is in both files"), std::string::npos);
  EXPECT_EQ(c.exit_code(), 2);  // a gate that compared nothing must not pass
  EXPECT_EQ(mpiarena::to_json(c)["exit_code"], 2);
  EXPECT_EQ(mpiarena::to_json(c)["regressed"], false);
}

TEST(Compare, JsonAndRenderingSayWhatIsBetter) {
  const auto c = compare_documents(doc_of({make_record("bcast", around(1e-5)),
                                           make_record("raw", around(1e-5))}),
                                   doc_of({make_record("bcast", around(1.2e-5)),
                                           make_record("raw", around(1e-5))}));
  const nlohmann::json j = mpiarena::to_json(c);
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["counts"]["regressed"], 1);
  EXPECT_EQ(j["counts"]["unchanged"], 1);
  const nlohmann::json& p = j["points"][0];
  EXPECT_EQ(p["name"], "transfer/bcast/1d/11000/np2");
  EXPECT_EQ(p["verdict"], "regressed");
  EXPECT_EQ(p["test"], "exact");
  EXPECT_EQ(p["metrics"][0]["better"], "lower");
  EXPECT_EQ(p["metrics"][1]["better"], "higher");
  const std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_NE(text.find("lower is better"), std::string::npos);
  EXPECT_NE(text.find("higher is better"), std::string::npos);
  EXPECT_NE(text.find("+20.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("regressed"), std::string::npos);
  EXPECT_NE(text.find("result: 1 regressed, 0 improved, 1 unchanged"),
            std::string::npos);
  const std::string md = mpiarena::render_comparison(c, "a.json", "b.json",
                                                     mpiarena::Style::markdown);
  EXPECT_NE(md.find("| transfer/bcast/1d | small |"), std::string::npos) << md;
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
// the smallest threshold the files support.
namespace {

// A record of `method` whose samples (about a second each) ran with `steal`
// of their wall time stolen (one CPU: sample_context() has no
// cpus_per_node), `preempt_rate` preemptions per second and the CPU at
// `mhz` (0: not exposed); `noisy` marks its first sample noisy.
mpiarena::Record with_noise(const std::string& method, double median,
                            double steal, double preempt_rate, double mhz,
                            bool noisy) {
  mpiarena::Record r = make_record(method, around(median));
  r.inner_iterations = 100000;
  r.noise.recorded = true;
  for (double s : r.samples_max) {
    const double wall = s * static_cast<double>(r.inner_iterations);
    r.noise.steal_s.push_back(steal * wall);
    r.noise.preemptions.push_back(
        static_cast<int>(std::lround(preempt_rate * wall)));
    if (mhz > 0) r.noise.cpu_mhz.push_back(mhz);
  }
  if (noisy) {
    r.noise.noisy = true;
    r.noise.noisy_samples = 1;
    r.noise.reason = "sample 1: steal 80 ms in a 1e+03 ms sample on 1 CPUs";
  }
  return r;
}

// Four points; the first `noisy` of them marked noisy.
mpiarena::Document noise_doc(double steal, double preempt_rate, double mhz,
                             int noisy) {
  std::vector<mpiarena::Record> records;
  const char* methods[] = {"bcast", "raw", "pack", "gather"};
  for (int i = 0; i < 4; ++i)
    records.push_back(
        with_noise(methods[i], 1e-5, steal, preempt_rate, mhz, i < noisy));
  return doc_of(records);
}

bool has_warning(const mpiarena::Comparison& c, const std::string& text) {
  for (const std::string& w : c.warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(CompareNoise, NoisyAgainstQuietFileWarnsWithBothFilesFigures) {
  const auto c =
      compare_documents(noise_doc(0.031, 2, 2400, 2), noise_doc(0, 2, 2400, 0));
  EXPECT_EQ(c.noise.base.recorded, 4u);
  EXPECT_EQ(c.noise.base.noisy_points, 2u);
  EXPECT_NEAR(c.noise.base.steal_fraction, 0.031, 1e-12);
  EXPECT_NEAR(c.noise.now.steal_fraction, 0, 1e-12);
  EXPECT_NEAR(c.noise.base.cpu_mhz, 2400, 1e-9);
  ASSERT_EQ(c.noise.differences.size(), 2u);
  EXPECT_EQ(c.noise.differences[0].figure, "noisy_points");
  EXPECT_EQ(c.noise.differences[1].figure, "steal");
  EXPECT_TRUE(c.noise.differences[0].base_noisier);
  EXPECT_TRUE(c.noise.differences[1].base_noisier);
  EXPECT_EQ(c.noise.warning,
            "BASE was measured in a noisier state than NEW (more noisy "
            "points in BASE, more steal in BASE): BASE: 2 of 4 points noisy, "
            "steal 3.1% of sample time, 2.0 preemptions/s, CPU 2400 MHz; "
            "NEW: 0 of 4 points noisy, steal 0.0% of sample time, 2.0 "
            "preemptions/s, CPU 2400 MHz");
  EXPECT_TRUE(has_warning(c, "noisier state"));
  EXPECT_EQ(c.exit_code(), 0);  // the warning alone fails nothing
  const nlohmann::json j = mpiarena::to_json(c);
  EXPECT_EQ(j["noise"]["warning"], c.noise.warning);
  EXPECT_EQ(j["noise"]["base"]["noisy_points"], 2);
  EXPECT_EQ(j["noise"]["differences"][1]["figure"], "steal");
  EXPECT_EQ(j["noise"]["differences"][1]["noisier"], "base");
  const std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_NE(text.find("noise: BASE 2 of 4 points noisy"), std::string::npos)
      << text;
  EXPECT_NE(text.find("BASE was measured in a noisier state"),
            std::string::npos);
  const std::string md = mpiarena::render_comparison(c, "a.json", "b.json",
                                                     mpiarena::Style::markdown);
  EXPECT_NE(md.find("- BASE was measured in a noisier state"),
            std::string::npos)
      << md;
}

TEST(CompareNoise, EqualFilesDoNotWarn) {
  const auto d = noise_doc(0.02, 30, 2400, 1);
  const auto c = compare_documents(d, d);
  EXPECT_TRUE(c.noise.differences.empty());
  EXPECT_TRUE(c.noise.warning.empty());
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  EXPECT_TRUE(mpiarena::to_json(c)["noise"]["warning"].is_null());
  // Differences within the rules' bounds do not warn either: steal 0.5%
  // against 0% is under 1 point apart, 15 against 6 preemptions/s under
  // 10/s apart, 45 against 30 under twice, 2400 against 2300 MHz 4.3% apart
  // (and a clock one file does not expose is not compared).
  for (const auto& [base, now] :
       std::vector<std::pair<mpiarena::Document, mpiarena::Document>>{
           {noise_doc(0.005, 2, 2400, 0), noise_doc(0, 2, 2400, 0)},
           {noise_doc(0, 15, 2400, 0), noise_doc(0, 6, 2400, 0)},
           {noise_doc(0, 45, 2400, 0), noise_doc(0, 30, 2400, 0)},
           {noise_doc(0, 2, 2400, 0), noise_doc(0, 2, 2300, 0)},
           {noise_doc(0, 2, 0, 0), noise_doc(0, 2, 2300, 0)}})
    EXPECT_TRUE(compare_documents(base, now).noise.warning.empty())
        << compare_documents(base, now).noise.warning;
}

TEST(CompareNoise, PreemptionsAndTheClockCountEach) {
  // 60 against 5 preemptions/s: over 10/s apart and over twice.
  auto c =
      compare_documents(noise_doc(0, 5, 2400, 0), noise_doc(0, 60, 2400, 0));
  ASSERT_EQ(c.noise.differences.size(), 1u);
  EXPECT_EQ(c.noise.differences[0].figure, "preemptions");
  EXPECT_EQ(c.noise.warning.rfind("NEW was measured in a noisier state", 0), 0u)
      << c.noise.warning;
  // Not judged where preemptions are not counted (oversubscribed).
  auto over = noise_doc(0, 60, 2400, 0);
  over.context["noise"] = {{"preemption_counts", false}};
  EXPECT_TRUE(
      compare_documents(noise_doc(0, 5, 2400, 0), over).noise.warning.empty());
  // The median clocks 2400 and 2200 MHz are 9.1% apart (a factor 1.091).
  c = compare_documents(noise_doc(0, 2, 2200, 0), noise_doc(0, 2, 2400, 0));
  ASSERT_EQ(c.noise.differences.size(), 1u);
  EXPECT_EQ(c.noise.differences[0].figure, "cpu_mhz");
  EXPECT_TRUE(c.noise.differences[0].base_noisier);
  EXPECT_NE(c.noise.warning.find("a CPU clock 8.3% lower in BASE"),
            std::string::npos)
      << c.noise.warning;
  // Figures that disagree on the side.
  c = compare_documents(noise_doc(0.05, 5, 2400, 0), noise_doc(0, 60, 2400, 0));
  EXPECT_EQ(c.noise.warning.rfind("BASE and NEW were measured in differently "
                                  "noisy states (more steal in BASE, more "
                                  "preemptions in NEW)",
                                  0),
            0u)
      << c.noise.warning;
}

TEST(CompareNoise, StealIsOverTheCpuTimeOfTheSamples) {
  // 4% of the wall time stolen on a node of 4 CPUs is 1% of its CPU time.
  auto base = noise_doc(0.04, 2, 0, 0);
  base.context["cpus_per_node"] = 4;
  const auto c = compare_documents(base, base);
  EXPECT_EQ(c.noise.base.cpus, 4);
  EXPECT_NEAR(c.noise.base.steal_fraction, 0.01, 1e-12);
  double wall = 0;  // 4 points, 7 samples of 100000 iterations each
  for (double s : around(1e-5)) wall += s * 100000;
  EXPECT_NEAR(c.noise.base.sampled_s, 4 * wall, 1e-12);
  EXPECT_EQ(c.noise.base.cpu_mhz, -1);
  EXPECT_NE(mpiarena::describe(c.noise.base).find("CPU clock not exposed"),
            std::string::npos);
}

TEST(CompareNoise, FilesWithoutNoiseSayNotRecorded) {
  const auto old = doc_of({make_record("bcast", around(1e-5))});
  auto c = compare_documents(old, old);
  EXPECT_EQ(mpiarena::describe(c.noise.base), "not recorded");
  EXPECT_TRUE(c.warnings.empty());
  nlohmann::json j = mpiarena::to_json(c);
  EXPECT_EQ(j["noise"]["base"]["recorded"], false);
  EXPECT_TRUE(j["points"][0]["noise"]["base"].is_null());
  std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_NE(text.find("noise: not recorded in either file"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("noise column"), std::string::npos);
  // One file with a record, one without: said, not compared.
  const auto now = doc_of({with_noise("bcast", 1e-5, 0.2, 500, 2400, true)});
  c = compare_documents(old, now);
  EXPECT_TRUE(c.noise.warning.empty());
  EXPECT_TRUE(c.warnings.empty());
  text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_NE(text.find("noise: BASE not recorded; NEW 1 of 1 points noisy"),
            std::string::npos)
      << text;
  j = mpiarena::to_json(c);
  EXPECT_TRUE(j["points"][0]["noise"]["base"].is_null());
  EXPECT_EQ(j["points"][0]["noise"]["new"]["noisy"], true);
}

TEST(CompareNoise, ARegressionMeasuredWhileNoisyStillFailsAndSaysSo) {
  const auto c =
      compare_documents(doc_of({with_noise("bcast", 1e-5, 0, 2, 2400, false),
                                with_noise("raw", 1e-5, 0, 2, 2400, true)}),
                        doc_of({with_noise("bcast", 1.2e-5, 0, 2, 2400, true),
                                with_noise("raw", 1e-5, 0, 2, 2400, false)}));
  ASSERT_EQ(c.points.size(), 2u);
  const auto& bcast = c.points[0];
  EXPECT_EQ(bcast.key.method, "bcast");
  EXPECT_EQ(bcast.verdict, Outcome::regressed);
  EXPECT_TRUE(bcast.new_noise.noisy);
  EXPECT_FALSE(bcast.base_noise.noisy);
  EXPECT_NE(bcast.note.find("noisy in NEW (NEW: sample 1: steal"),
            std::string::npos)
      << bcast.note;
  EXPECT_NE(bcast.note.find("verdict stands and fails the gate"),
            std::string::npos);
  EXPECT_EQ(c.exit_code(), 1);
  EXPECT_EQ(c.points[1].verdict, Outcome::unchanged);
  EXPECT_TRUE(c.points[1].note.empty());  // unchanged: the column says it
  const nlohmann::json j = mpiarena::to_json(c);
  EXPECT_EQ(j["points"][0]["noise"]["new"]["noisy"], true);
  EXPECT_EQ(j["points"][0]["noise"]["base"]["noisy"], false);
  EXPECT_EQ(j["points"][0]["verdict"], "regressed");
  const std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  // The last two cells of a point's row: its verdict and its noise.
  auto row_end = [&](const std::string& point) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      if (line.find(point) != std::string::npos) {
        std::istringstream cells(line);
        std::vector<std::string> all;
        for (std::string cell; cells >> cell;) all.push_back(cell);
        return all[all.size() - 2] + " " + all.back();
      }
    return std::string();
  };
  EXPECT_EQ(row_end("transfer/bcast/1d "), "regressed NEW") << text;
  EXPECT_NE(text.find("result: 1 regressed (1 measured while noisy), 0 "
                      "improved"),
            std::string::npos);
  EXPECT_EQ(j["counts"]["regressed_while_noisy"], 1);
  EXPECT_EQ(row_end("transfer/raw/1d "), "unchanged BASE") << text;
  const std::string md = mpiarena::render_comparison(c, "a.json", "b.json",
                                                     mpiarena::Style::markdown);
  EXPECT_NE(md.find("| regressed | NEW |"), std::string::npos) << md;
}

// The host moved the vCPUs between the runs: every sample of BASE saw a
// core-to-core round trip of 50 ns, every sample of NEW 300 ns.
TEST(CompareNoise, APointMeasuredInTwoMachineStatesIsNotJudged) {
  auto in_state = [](const std::string& method, double median, double ns) {
    auto r = with_noise(method, median, 0, 2, 0, false);
    r.noise.core_to_core_ns.assign(r.samples_max.size(), ns);
    return r;
  };
  auto broken = in_state("raw", 1e-5, 300);
  broken.verification = "failed";
  broken.verification_message = "rank 1: element 3 is 0, expected 3";
  const auto c = compare_documents(
      doc_of({in_state("bcast", 1e-5, 50), in_state("pack", 1e-5, 50),
              in_state("raw", 1e-5, 50), in_state("gather", 1e-5, 50)}),
      doc_of({in_state("bcast", 1.3e-5, 300), in_state("pack", 1.3e-5, 90),
              broken, in_state("gather", 1e-5, 300)}));
  ASSERT_EQ(c.points.size(), 4u);
  auto point = [&](const std::string& method) -> const auto& {
    for (const auto& p : c.points)
      if (p.key.method == method) return p;
    return c.points.front();
  };
  const auto& bcast = point("bcast");
  ASSERT_EQ(bcast.key.method, "bcast");
  EXPECT_TRUE(bcast.state_changed);
  EXPECT_EQ(bcast.verdict, Outcome::noisy);
  EXPECT_NE(bcast.note.find("core-to-core round trip 50 ns in BASE, 300 ns "
                            "in NEW"),
            std::string::npos)
      << bcast.note;
  EXPECT_NE(bcast.note.find("regressed change is not judged"),
            std::string::npos);
  // 50 against 90 ns: one state (within kStateRatio), judged.
  EXPECT_FALSE(point("pack").state_changed);
  EXPECT_EQ(point("pack").verdict, Outcome::regressed);
  // A wrong transfer is a regression in any state.
  EXPECT_FALSE(point("raw").state_changed);
  EXPECT_EQ(point("raw").verdict, Outcome::regressed);
  // Unchanged in both states: nothing to explain.
  EXPECT_FALSE(point("gather").state_changed);
  EXPECT_EQ(point("gather").verdict, Outcome::unchanged);
  EXPECT_EQ(c.state_changed(), 1);
  EXPECT_EQ(c.exit_code(), 1);  // pack and raw
  // The files' medians (50 and 300 ns) differ: a warning names both.
  EXPECT_TRUE(has_warning(c,
                          "core-to-core round trip 300 against 50 ns) in "
                          "NEW"))
      << (c.warnings.empty() ? "" : c.warnings.back());
  const nlohmann::json j = mpiarena::to_json(c);
  EXPECT_EQ(j["counts"]["state_changed"], 1);
  ASSERT_EQ(j["points"][0]["method"], "bcast");
  EXPECT_EQ(j["points"][0]["state_changed"], true);
  EXPECT_EQ(j["points"][0]["noise"]["new"]["core_to_core_ns"], 300.0);
  EXPECT_EQ(j["noise"]["base"]["core_to_core_ns_median"], 50.0);
  const std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_NE(text.find("(1 measured in two machine states)"), std::string::npos)
      << text;
}

TEST(CompareThreshold, StatisticsAsDocumented) {
  EXPECT_NEAR(mpiarena::two_sided_z(0.05), 1.959963984540054, 1e-12);
  EXPECT_NEAR(mpiarena::two_sided_z(0.01), 2.5758293035489004, 1e-12);
  EXPECT_DOUBLE_EQ(mpiarena::quantile({4, 1, 3, 2}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(mpiarena::quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(mpiarena::quantile({5}, 0.75), 5);
  // 0.97 .. 1.03: quartiles 0.985 and 1.015 (type 7), IQR 0.03, median 1.
  const std::vector<double> s = {0.97, 0.98, 0.99, 1.00, 1.01, 1.02, 1.03};
  const double se = std::sqrt(std::acos(-1.0) / 2) *
                    (0.03 / 1.3489795003921634) / std::sqrt(7.0);
  EXPECT_NEAR(mpiarena::median_relative_se(s), se, 1e-12);
  EXPECT_NEAR(mpiarena::resolvable_change(s, s, 0.05),
              std::expm1(1.959963984540054 * std::sqrt(2.0) * se), 1e-12);
  EXPECT_NEAR(mpiarena::resolvable_change(s, s, 0.05), 0.0296, 1e-4);
  EXPECT_EQ(mpiarena::median_relative_se({1.0}), -1);
  EXPECT_EQ(mpiarena::resolvable_change(s, {0, 0, 0}, 0.05), -1);
}

namespace {
// 7 samples around 1e-5 spread evenly over +-`spread`.
std::vector<double> spread_by(double spread) {
  std::vector<double> out;
  for (int i = 0; i < 7; ++i) out.push_back(1e-5 * (1 + spread * (i - 3) / 3));
  return out;
}
}  // namespace

TEST(CompareThreshold, GrowsWithTheSpreadOfTheSamples) {
  double last = 0;
  for (double spread : {0.005, 0.01, 0.03, 0.1, 0.3}) {
    const auto d = doc_of({make_record("bcast", spread_by(spread))});
    const auto c = compare_documents(d, d);
    SCOPED_TRACE(spread);
    ASSERT_EQ(c.suggestion.points, 1u);
    EXPECT_GT(c.suggestion.value, last);
    EXPECT_NEAR(
        c.suggestion.value,
        mpiarena::resolvable_change(spread_by(spread), spread_by(spread), 0.05),
        1e-15);
    last = c.suggestion.value;
    // Below the threshold in use: a warning.
    EXPECT_EQ(has_warning(c, "is below"), c.suggestion.value > 0.05);
  }
  // A stricter alpha needs a larger change.
  const auto d = doc_of({make_record("bcast", spread_by(0.03))});
  EXPECT_GT(compare_documents(d, d, {0.05, 0.01}).suggestion.value,
            compare_documents(d, d, {0.05, 0.05}).suggestion.value);
}

TEST(CompareThreshold, IsThe95thPercentileOverThePoints) {
  // 20 points spread by 1% to 20%, and one with too few samples.
  std::vector<mpiarena::Record> records;
  for (int i = 1; i <= 20; ++i)
    records.push_back(
        make_record("m" + std::to_string(100 + i), spread_by(0.01 * i)));
  records.push_back(make_record("few", {1e-5, 1.1e-5, 0.9e-5}));
  const auto d = doc_of(records);
  const auto c = compare_documents(d, d);
  const auto& s = c.suggestion;
  EXPECT_EQ(s.points, 20u);
  EXPECT_EQ(s.excluded, 1u);
  // Nearest rank: the 19th smallest of 20 (ceil(0.95 * 20)).
  const double r19 =
      mpiarena::resolvable_change(spread_by(0.19), spread_by(0.19), 0.05);
  EXPECT_NEAR(s.value, r19, 1e-15);
  EXPECT_EQ(s.within, 19u);
  EXPECT_EQ(s.widest, "transfer/m120/1d/11000/np2");
  EXPECT_NEAR(s.widest_value,
              mpiarena::resolvable_change(spread_by(0.2), spread_by(0.2), 0.05),
              1e-15);
  const nlohmann::json j = mpiarena::to_json(c);
  EXPECT_NEAR(j["suggested_threshold"]["value"].get<double>(), r19, 1e-15);
  EXPECT_EQ(j["suggested_threshold"]["within"], 19);
  EXPECT_EQ(j["suggested_threshold"]["threshold_below"], true);
  EXPECT_EQ(j["points"][0]["method"], "few");  // points sort by key
  EXPECT_TRUE(j["points"][0]["resolvable_change"].is_null());
  const std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  char expected[64];
  std::snprintf(expected, sizeof expected,
                "smallest threshold these files support: %.1f%% (19 of 20",
                std::ceil(r19 * 1000) / 10);
  EXPECT_NE(text.find(expected), std::string::npos) << text;
  EXPECT_NE(text.find("1 point(s) with too few samples left out"),
            std::string::npos);
}
