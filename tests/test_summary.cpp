// The summary computed from records (best method, winner changes, 1d vs 2d)
// and the memory guard's arithmetic.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/analysis/report/report.hpp"
#include "core/analysis/stats/fit.hpp"
#include "core/engine/memory.hpp"
#include "core/results/schema.hpp"
#include "doc_fixtures.hpp"

namespace {

using mpiarena_test::make_record;
using mpiarena_test::sample_context;

mpiarena::Document three_sizes() {
  mpiarena::Document doc;
  doc.context = sample_context();
  doc.complete = true;
  // 1d: a wins at 1000 and 2000 B, b wins at 4000 B.
  doc.records.push_back(make_record("a", {1e-6, 1.1e-6, 1.2e-6}, 1000));
  doc.records.push_back(make_record("b", {2e-6, 2e-6, 2e-6}, 1000));
  doc.records.push_back(make_record("a", {3e-6, 3e-6, 3e-6}, 2000));
  doc.records.push_back(make_record("b", {4e-6, 4e-6, 4e-6}, 2000));
  doc.records.push_back(make_record("a", {9e-6, 9e-6, 9e-6}, 4000));
  doc.records.push_back(make_record("b", {6e-6, 6e-6, 6e-6}, 4000));
  // 2d at 4000 B: c is 1.5x the best 1d (b).
  doc.records.push_back(make_record("c", {9e-6, 9e-6, 9e-6}, 4000, "2d"));
  return doc;
}

TEST(Summary, BestMethodWithRunnerUp) {
  const auto s = mpiarena::compute_summary(three_sizes());
  ASSERT_EQ(s["best"].size(), 4u);  // 3 sizes of 1d + 1 of 2d
  const auto& first = s["best"][0];
  EXPECT_EQ(first["payload"], "1d");
  EXPECT_EQ(first["bytes"], 1000);
  EXPECT_EQ(first["method"], "a");
  EXPECT_DOUBLE_EQ(first["median_s"].get<double>(), 1.1e-6);
  EXPECT_EQ(first["runner_up"], "b");
  EXPECT_NEAR(first["runner_up_ratio"].get<double>(), 2e-6 / 1.1e-6, 1e-12);
  const auto& alone = s["best"][3];
  EXPECT_EQ(alone["payload"], "2d");
  EXPECT_TRUE(alone["runner_up"].is_null());
}

TEST(Summary, WinnerChangesOnlyWhereTheWinnerChanges) {
  const auto s = mpiarena::compute_summary(three_sizes());
  ASSERT_EQ(s["winner_changes"].size(), 1u);
  const auto& c = s["winner_changes"][0];
  EXPECT_EQ(c["from_method"], "a");
  EXPECT_EQ(c["from_bytes"], 2000);
  EXPECT_EQ(c["to_method"], "b");
  EXPECT_EQ(c["to_bytes"], 4000);
}

TEST(Summary, OneDimensionalAgainstTwoDimensional) {
  const auto s = mpiarena::compute_summary(three_sizes());
  ASSERT_EQ(s["payload_1d_vs_2d"].size(), 1u);  // only 4000 B has both
  const auto& c = s["payload_1d_vs_2d"][0];
  EXPECT_EQ(c["best_2d"], "c");
  EXPECT_EQ(c["best_1d"], "b");
  EXPECT_NEAR(c["ratio_2d_over_1d"].get<double>(), 1.5, 1e-12);
}

TEST(Summary, FailedVerificationNeverWins) {
  mpiarena::Document doc = three_sizes();
  doc.records[0].verification = "failed";  // a at 1000 B, the fastest
  const auto s = mpiarena::compute_summary(doc);
  EXPECT_EQ(s["best"][0]["method"], "b");
  EXPECT_TRUE(s["best"][0]["runner_up"].is_null());
}

TEST(Summary, DocumentWithSummaryValidatesAndRoundTrips) {
  mpiarena::Document doc = three_sizes();
  doc.summary = mpiarena::compute_summary(doc);
  const auto j = mpiarena::to_json(doc);
  EXPECT_TRUE(mpiarena::validate_results(j).empty());
  EXPECT_EQ(mpiarena::to_json(mpiarena::document_from_json(j)), j);
  auto broken = j;
  broken["summary"]["best"][0].erase("method");
  EXPECT_FALSE(mpiarena::validate_results(broken).empty());
}

TEST(Summary, RenderedTablesNameTheWinners) {
  const auto s = mpiarena::compute_summary(three_sizes());
  const std::string text = mpiarena::render_summary(s);
  EXPECT_NE(text.find("a up to 2000 B (2.00 kB), b from 4000 B (4.00 kB)"),
            std::string::npos)
      << text;
  const std::string md = mpiarena::render_summary(s, mpiarena::Style::markdown);
  EXPECT_NE(md.find("| transfer | 2 | 4000 B (4.00 kB) | c |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 1.50 |"), std::string::npos) << md;
}

TEST(Summary, FitsOfExtremeTimesAreComputedNotNaN) {
  // Times near the largest double: their sums overflow in a plain least
  // squares, which gave a NaN latency and R^2 ("-nan s" in the table).
  mpiarena::Document doc;
  doc.context = sample_context();
  doc.complete = true;
  doc.records.push_back(make_record("huge", {1e308, 1e308, 1e308}, 1000));
  doc.records.push_back(make_record("huge", {1.2e308, 1.2e308, 1.2e308}, 2000));
  doc.records.push_back(make_record("huge", {1.4e308, 1.4e308, 1.4e308}, 4000));
  doc.summary = mpiarena::compute_summary(doc);
  const auto& fits = doc.summary["fits"];
  ASSERT_EQ(fits.size(), 1u) << fits.dump();
  const double latency = fits[0]["latency_s"].get<double>();
  EXPECT_NEAR(latency / 1e308, 0.9, 1e-9);
  EXPECT_NEAR(fits[0]["r2"].get<double>(), 27.0 / 28, 1e-9);
  // B = 1 / slope = 7.78e-305 B/s: tiny, but a number.
  EXPECT_NEAR(fits[0]["bandwidth_Bps"].get<double>() * 1e304, 0.7778, 1e-4);
  EXPECT_TRUE(mpiarena::validate_results(mpiarena::to_json(doc)).empty());
  const std::string text = mpiarena::render_summary(doc.summary);
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  EXPECT_NE(text.find("9.000e+307 s"), std::string::npos) << text;
}

TEST(Summary, FitThatOverflowsIsLeftOut) {
  // The intercept itself is beyond the largest double: no model, no entry
  // (the schema wants numbers, and NaN or infinity is none).
  mpiarena::Document doc;
  doc.context = sample_context();
  doc.complete = true;
  // A straight line through these meets n = 0 at 2.4e308.
  doc.records.push_back(make_record("over", {1.7e308, 1.7e308, 1.7e308}, 1000));
  doc.records.push_back(make_record("over", {1e308, 1e308, 1e308}, 2000));
  doc.records.push_back(make_record("over", {3e307, 3e307, 3e307}, 3000));
  doc.records.push_back(make_record("fine", {1e-6, 1e-6, 1e-6}, 1000));
  doc.records.push_back(make_record("fine", {2e-6, 2e-6, 2e-6}, 2000));
  doc.records.push_back(make_record("fine", {3e-6, 3e-6, 3e-6}, 3000));
  doc.summary = mpiarena::compute_summary(doc);
  ASSERT_EQ(doc.summary["fits"].size(), 1u) << doc.summary["fits"].dump();
  EXPECT_EQ(doc.summary["fits"][0]["method"], "fine");
  for (const auto& f : doc.summary["fits"]) {
    EXPECT_TRUE(std::isfinite(f["latency_s"].get<double>())) << f.dump();
    EXPECT_TRUE(std::isfinite(f["r2"].get<double>())) << f.dump();
  }
  EXPECT_TRUE(mpiarena::validate_results(mpiarena::to_json(doc)).empty())
      << doc.summary.dump();
  EXPECT_EQ(mpiarena::render_summary(doc.summary).find("nan"),
            std::string::npos);
}

TEST(Summary, ScalingLeavesOrdinaryFitsExactlyAsTheyWere) {
  // a: L + n / B within a few percent (a fit that holds).
  mpiarena::Document doc;
  doc.context = sample_context();
  doc.complete = true;
  doc.records.push_back(make_record("a", {1.5e-6, 1.6e-6, 1.7e-6}, 1000));
  doc.records.push_back(make_record("a", {2.4e-6, 2.5e-6, 2.6e-6}, 2000));
  doc.records.push_back(make_record("a", {4.6e-6, 4.6e-6, 4.6e-6}, 4000));
  const auto s = mpiarena::compute_summary(doc);
  std::vector<double> x, y;
  for (const auto& r : doc.records)
    if (r.method == "a") {
      x.push_back(static_cast<double>(r.payload_bytes));
      y.push_back(r.time.median);
    }
  const auto f = mpiarena::fit_latency_bandwidth(x, y);
  ASSERT_TRUE(f.ok);
  bool found = false;
  for (const auto& fit : s["fits"])
    if (fit["method"] == "a") {
      found = true;
      EXPECT_EQ(fit["latency_s"].get<double>(), f.latency_s);
      EXPECT_EQ(fit["bandwidth_Bps"].get<double>(), f.bandwidth_Bps);
      EXPECT_EQ(fit["r2"].get<double>(), f.r2);
    }
  EXPECT_TRUE(found) << s["fits"].dump();
}

TEST(MemoryGuard, FitsUnderTheShareOfAvailableMemory) {
  // 4 ranks x 2 copies x 1 GB = 8 GB; 80% of 10 GB = 8 GB: fits exactly.
  EXPECT_EQ(mpiarena::memory_problem(1000000000, 2, 4, 10000000000), "");
  const std::string why =
      mpiarena::memory_problem(1000000000, 2, 4, 9000000000);
  EXPECT_NE(why.find("8.00 GB"), std::string::npos) << why;
  EXPECT_NE(why.find("4 ranks x 2 payload copies x 1.00 GB"), std::string::npos)
      << why;
  EXPECT_NE(why.find("9.00 GB available"), std::string::npos) << why;
}

TEST(MemoryGuard, UnknownMemoryOrNoCopiesNeverSkips) {
  EXPECT_EQ(mpiarena::memory_problem(1000000000, 2, 4, 0), "");
  EXPECT_EQ(mpiarena::memory_problem(1000000000, 0, 4, 1000), "");
}

// A fake machine under a temporary directory: /proc/meminfo, the
// process's cgroup and the mount table, and the cgroup files.
class FakeMachine {
 public:
  FakeMachine() {
    root_ = std::filesystem::temp_directory_path() /
            ("mpiarena-memory-" + std::to_string(::getpid()) + "-" +
             std::to_string(counter_++));
    write("proc/meminfo",
          "MemTotal: 25000000 kB\nMemAvailable: 24000000 kB\n");
  }
  ~FakeMachine() { std::filesystem::remove_all(root_); }
  void write(const std::string& path, const std::string& text) {
    const std::filesystem::path p = root_ / path;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  std::string root() const { return root_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path root_;
};

constexpr std::size_t kGiB = std::size_t(1) << 30;

TEST(MemoryGuard, TakesTheCgroupV1LimitLessItsUsage) {
  FakeMachine m;
  m.write("proc/self/cgroup",
          "7:cpu,cpuacct:/slurm/job1\n5:memory:/slurm/job1\n");
  m.write("proc/self/mountinfo",
          "25 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
          "40 30 0:35 / /sys/fs/cgroup/memory rw,nosuid shared:9 - cgroup "
          "cgroup rw,memory\n");
  const std::string job = "sys/fs/cgroup/memory/slurm/job1/";
  m.write(job + "memory.limit_in_bytes", std::to_string(6 * kGiB) + "\n");
  m.write(job + "memory.usage_in_bytes", std::to_string(kGiB) + "\n");
  m.write(job + "memory.stat",
          "cache 600000000\ntotal_inactive_file " +
              std::to_string(kGiB / 2) + "\n");
  // No limit above the job: v1's "unlimited".
  m.write("sys/fs/cgroup/memory/slurm/memory.limit_in_bytes",
          "9223372036854771712\n");
  m.write("sys/fs/cgroup/memory/slurm/memory.usage_in_bytes", "1\n");
  const mpiarena::MemoryBudget b = mpiarena::memory_budget(0, m.root());
  EXPECT_EQ(b.bytes, 6 * kGiB - kGiB / 2);
  EXPECT_NE(b.source.find("cgroup v1 memory limit of "
                          "/sys/fs/cgroup/memory/slurm/job1:"),
            std::string::npos)
      << b.source;
  EXPECT_EQ(b.source.find(m.root()), std::string::npos) << b.source;
  // --max-memory below it wins, and says so.
  const mpiarena::MemoryBudget capped =
      mpiarena::memory_budget(kGiB, m.root());
  EXPECT_EQ(capped.bytes, kGiB);
  EXPECT_EQ(capped.source, "--max-memory");
}

TEST(MemoryGuard, TakesTheTightestCgroupV2LimitUpTheTree) {
  FakeMachine m;
  m.write("proc/self/cgroup", "0::/ci/job\n");
  m.write("proc/self/mountinfo",
          "30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n");
  m.write("sys/fs/cgroup/ci/job/memory.max", "max\n");
  m.write("sys/fs/cgroup/ci/job/memory.current", "100\n");
  m.write("sys/fs/cgroup/ci/memory.max", std::to_string(2 * kGiB) + "\n");
  m.write("sys/fs/cgroup/ci/memory.current", std::to_string(kGiB) + "\n");
  m.write("sys/fs/cgroup/ci/memory.stat", "anon 5\ninactive_file 0\n");
  const mpiarena::MemoryBudget b = mpiarena::memory_budget(0, m.root());
  EXPECT_EQ(b.bytes, kGiB);
  EXPECT_NE(b.source.find("cgroup v2 memory limit of /sys/fs/cgroup/ci:"),
            std::string::npos)
      << b.source;
}

TEST(MemoryGuard, WithoutACgroupLimitTakesMemAvailable) {
  FakeMachine m;
  m.write("proc/self/cgroup", "0::/\n");
  m.write("proc/self/mountinfo",
          "30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n");
  const mpiarena::MemoryBudget b = mpiarena::memory_budget(0, m.root());
  EXPECT_EQ(b.bytes, std::size_t(24000000) * 1024);
  EXPECT_EQ(b.source, "MemAvailable of /proc/meminfo");
  // A reason names where its figure came from.
  const std::string why =
      mpiarena::memory_problem(kGiB, 2, 4, kGiB, "cgroup v2 /x");
  EXPECT_NE(why.find("available (cgroup v2 /x)"), std::string::npos) << why;
}

TEST(MemoryGuard, ReadsTheMachinesAvailableMemory) {
  // /proc/meminfo exists on the Linux machines this project targets.
  EXPECT_GT(mpiarena::available_memory_bytes(), 1000000u);
}

}  // namespace
