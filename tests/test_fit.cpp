// The latency-bandwidth fit on synthetic data with a known L and B, and the
// fit section of the summary.
#include <gtest/gtest.h>

#include "doc_fixtures.hpp"
#include "fit.hpp"
#include "report.hpp"

namespace {

TEST(Fit, RecoversExactLatencyAndBandwidth) {
  const double L = 1.5e-6, B = 4e9;
  std::vector<double> n, t;
  for (double b : {0.0, 1.0, 64.0, 4096.0, 65536.0, 1048576.0, 4194304.0}) {
    n.push_back(b);
    t.push_back(L + b / B);
  }
  const auto f = mpiarena::fit_latency_bandwidth(n, t);
  ASSERT_TRUE(f.ok);
  EXPECT_EQ(f.points, 7u);
  EXPECT_NEAR(f.latency_s, L, 1e-12);
  EXPECT_NEAR(f.bandwidth_Bps / B, 1.0, 1e-9);
  EXPECT_NEAR(f.r2, 1.0, 1e-12);
}

TEST(Fit, NoiseLowersRSquared) {
  const double L = 2e-6, B = 1e9;
  std::vector<double> n, t;
  for (int i = 0; i < 8; ++i) {
    const double b = 1000.0 * (i + 1);
    n.push_back(b);
    t.push_back(L + b / B + ((i % 2) ? 5e-7 : -5e-7));
  }
  const auto f = mpiarena::fit_latency_bandwidth(n, t);
  ASSERT_TRUE(f.ok);
  EXPECT_LT(f.r2, 1.0);
  EXPECT_GT(f.r2, 0.5);
  EXPECT_NEAR(f.bandwidth_Bps / B, 1.0, 0.1);
}

TEST(Fit, DegenerateInputs) {
  EXPECT_FALSE(mpiarena::fit_latency_bandwidth({1.0}, {1e-6}).ok);
  EXPECT_FALSE(mpiarena::fit_latency_bandwidth({8.0, 8.0}, {1e-6, 2e-6}).ok);
  // Time falling with size: no positive bandwidth.
  const auto f =
      mpiarena::fit_latency_bandwidth({1.0, 2.0, 3.0}, {3e-6, 2e-6, 1e-6});
  ASSERT_TRUE(f.ok);
  EXPECT_EQ(f.bandwidth_Bps, 0.0);
}

TEST(Fit, SummaryFitsEachMethodWithThreeSizes) {
  using mpiarena_test::make_record;
  mpiarena::Document doc;
  doc.context = mpiarena_test::sample_context();
  doc.complete = true;
  const double L = 1e-6, B = 2e9;
  for (std::size_t b : {1000u, 2000u, 4000u, 8000u}) {
    const double t = L + static_cast<double>(b) / B;
    doc.records.push_back(make_record("a", {t, t, t}, b));
  }
  doc.records.push_back(make_record("b", {1e-6, 1e-6, 1e-6}, 1000));
  const auto s = mpiarena::compute_summary(doc);
  ASSERT_EQ(s["fits"].size(), 1u);  // b has one size only
  const auto& f = s["fits"][0];
  EXPECT_EQ(f["method"], "a");
  EXPECT_EQ(f["points"], 4);
  EXPECT_NEAR(f["latency_s"].get<double>(), L, 1e-12);
  EXPECT_NEAR(f["bandwidth_Bps"].get<double>() / B, 1.0, 1e-9);
  const std::string text = mpiarena::render_summary(s);
  EXPECT_NE(text.find("L + n / B"), std::string::npos);
  EXPECT_NE(text.find("2.00 GB/s"), std::string::npos) << text;
  EXPECT_EQ(text.find("L < 0"), std::string::npos) << text;
}

TEST(Fit, ANegativeInterceptIsFlaggedNotCalledALatency) {
  using mpiarena_test::make_record;
  mpiarena::Document doc;
  doc.context = mpiarena_test::sample_context();
  doc.complete = true;
  // Convex in n (bandwidth rising with size): the line's intercept is < 0.
  for (std::size_t b : {1000u, 10000u, 100000u}) {
    const double t = 1e-12 * static_cast<double>(b) * static_cast<double>(b);
    doc.records.push_back(make_record("convex", {t, t, t}, b));
  }
  const auto s = mpiarena::compute_summary(doc);
  ASSERT_EQ(s["fits"].size(), 1u);
  EXPECT_LT(s["fits"][0]["latency_s"].get<double>(), 0);
  const std::string text = mpiarena::render_summary(s);
  EXPECT_NE(text.find(" *"), std::string::npos) << text;
  EXPECT_NE(text.find("* L < 0"), std::string::npos) << text;
}

}  // namespace
