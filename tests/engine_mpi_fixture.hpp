// The fixture of the engine tests under MPI with 2 ranks (test_engine*_mpi.cpp,
// one binary, ctest runs it through mpirun): the test plugins loaded by the
// registry, helpers that compare a value across the ranks, and a strategy
// that records what the engine calls.
//
// Every test calls the collective measure_point() on every rank before
// checking anything, so a failed check never leaves a rank behind in a
// collective.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <mpiarena/pingpong.hpp>
#include <mpiarena/sizes.hpp>
#include <mpiarena/transfer.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/engine/collective.hpp"
#include "core/engine/engine.hpp"
#include "core/engine/memory.hpp"
#include "core/engine/mpi_session.hpp"
#include "core/engine/noise.hpp"
#include "core/engine/registry.hpp"

namespace engine_test {

using mpiarena::MeasureOptions;
using mpiarena::Record;

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// True on every rank when `v` is the same on every rank.
template <class T>
inline bool same_everywhere(T v) {
  long long mine = static_cast<long long>(v), lo = 0, hi = 0;
  MPI_Allreduce(&mine, &lo, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &hi, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

inline bool same_everywhere(const std::string& s) {
  std::string root = s;
  int len = static_cast<int>(s.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
  root.resize(static_cast<std::size_t>(len));
  MPI_Bcast(root.data(), len, MPI_CHAR, 0, MPI_COMM_WORLD);
  return same_everywhere(static_cast<int>(root == s)) && root == s;
}

class Engine : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = new mpiarena::Registry();
    for (const char* f : {"/mpiarena_test_ok.so", "/mpiarena_corrupt.so"}) {
      const auto r = registry_->load_file(std::string(TEST_PLUGIN_DIR) + f);
      if (r.status != mpiarena::LoadStatus::loaded)
        std::fprintf(stderr, "cannot load a test plugin: %s\n",
                     r.message.c_str());
    }
  }
  static void TearDownTestSuite() {
    delete registry_;
    registry_ = nullptr;
  }

  void SetUp() override {
    MPIARENA_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm_));
    MPIARENA_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
    MPIARENA_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &harness_));
    options_.min_time = 0.002;
    options_.repetitions = 3;
    options_.warmup = 1;
  }
  void TearDown() override {
    MPI_Comm_free(&comm_);
    MPI_Comm_free(&harness_);
  }

  mpiarena::RunContext context(const std::string& payload, std::size_t bytes,
                               int root = 0) const {
    mpiarena::RunContext ctx;
    ctx.comm = comm_;
    MPI_Comm_rank(comm_, &ctx.rank);
    MPI_Comm_size(comm_, &ctx.size);
    ctx.root = root;
    ctx.payload = payload;
    ctx.bytes = bytes;
    return ctx;
  }

  // Measures one point of a plugin method (aborts the job if it is missing:
  // every rank would fail the same way).
  Record measure(const std::string& method, const std::string& payload,
                 std::size_t bytes, int root = 0) {
    const mpiarena::LoadedStrategy* s = registry_->find(method);
    if (!s) {
      std::fprintf(stderr, "method %s not loaded\n", method.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    auto strategy = s->entry.create();
    return mpiarena::measure_point(*strategy, context(payload, bytes, root),
                                   options_, harness_);
  }

  void expect_consistent(const Record& rec, const std::string& payload,
                         std::size_t bytes) {
    // Collective checks first: an ASSERT below returns early on one rank only.
    // What decides control flow is the same on every rank.
    EXPECT_TRUE(same_everywhere(rec.inner_iterations));
    EXPECT_TRUE(same_everywhere(rec.verification));
    EXPECT_TRUE(same_everywhere(rec.verification_message));
    EXPECT_EQ(rec.payload, payload);
    EXPECT_EQ(rec.bytes, bytes);
    EXPECT_EQ(rec.payload_bytes, mpiarena::payload_bytes(payload, bytes));
    EXPECT_EQ(rec.ranks, 2);
    EXPECT_EQ(rec.repetitions, options_.repetitions);
    EXPECT_EQ(rec.warmup, options_.warmup);
    EXPECT_GE(rec.inner_iterations, 1);
    ASSERT_EQ(rec.samples_max.size(),
              static_cast<std::size_t>(options_.repetitions));
    ASSERT_EQ(rec.samples_min.size(), rec.samples_max.size());
    ASSERT_EQ(rec.samples_avg.size(), rec.samples_max.size());
    for (std::size_t i = 0; i < rec.samples_max.size(); ++i) {
      EXPECT_GT(rec.samples_max[i], 0) << i;
      EXPECT_LE(rec.samples_min[i], rec.samples_avg[i] * (1 + 1e-12)) << i;
      EXPECT_LE(rec.samples_avg[i], rec.samples_max[i] * (1 + 1e-12)) << i;
    }
    const auto expected = mpiarena::summarize(rec.samples_max);
    EXPECT_DOUBLE_EQ(rec.time.median, expected.median);
    EXPECT_DOUBLE_EQ(rec.time.min, expected.min);
    EXPECT_EQ(rec.time.n, rec.samples_max.size());
    // Calibrated: one sample of inner_iterations operations is about min_time.
    EXPECT_GE(rec.time.max * static_cast<double>(rec.inner_iterations),
              0.3 * options_.min_time);
    if (rec.payload_bytes > 0)
      EXPECT_DOUBLE_EQ(rec.bandwidth, rec.payload_bytes / rec.time.median);
    else
      EXPECT_EQ(rec.bandwidth, 0);
  }

  inline static mpiarena::Registry* registry_ = nullptr;
  MPI_Comm comm_ = MPI_COMM_NULL, harness_ = MPI_COMM_NULL;
  MeasureOptions options_;
};

// A strategy that records the engine's calls; execute() is a real
// collective on ctx.comm, so unequal counts across ranks would hang or show.
class Recorder : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override {
    calls.push_back("prepare");
    comm = ctx.comm;
    if (ctx.rank == fail_prepare_on) throw std::runtime_error("out of tea");
  }
  void execute() override {
    ++executes;
    if (calls.back() != "execute") calls.push_back("execute");
    MPIARENA_CHECK(MPI_Barrier(comm));
  }
  void poison() override { calls.push_back("poison"); }
  mpiarena::Verdict verify() override {
    calls.push_back("verify");
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == fail_verify_on) throw std::runtime_error("verifier crashed");
    return {};
  }
  void release() override { calls.push_back("release"); }

  std::vector<std::string> calls;
  long long executes = 0;
  int fail_prepare_on = -1, fail_verify_on = -1;
  MPI_Comm comm = MPI_COMM_NULL;
};

}  // namespace engine_test
