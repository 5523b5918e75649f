// runner compare: the noise of the two files, the points measured while
// noisy or in two machine states, and the smallest threshold the files
// support.
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
using compare_test::has_warning;
using mpiarena::compare_documents;
using mpiarena::Outcome;
using mpiarena_test::make_record;

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
  over.context.noise.emplace();
  over.context.noise->preemption_counts = false;
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
  base.context.cpus_per_node = 4;
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
  EXPECT_NE(text.find("1 point(s) with too few samples, or no positive "
                      "median, left out"),
            std::string::npos);
}
