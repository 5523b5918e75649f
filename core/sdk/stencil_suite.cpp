// The stencil suite's base (stencil_suite.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stencil_suite.hpp>
#include <string>
#include <utility>

namespace mpiarena {

StrategyInfo stencil_info(std::string name, std::string summary,
                          int extra_copies) {
  StrategyInfo info;
  info.name = std::move(name);
  info.suite = "stencil";
  info.summary = std::move(summary);
  info.payloads = {"1d"};
  info.min_ranks = 2;
  info.payload_copies = kStencilArrayCopies + extra_copies;
  info.phases = {"pack", "comm", "unpack", "app"};
  return info;
}

std::uint64_t stencil_initial(int rank, int face, std::size_t i) {
  return (static_cast<std::uint64_t>(rank + 1) << 40) +
         (static_cast<std::uint64_t>(face) << 32) +
         static_cast<std::uint64_t>(i & 0xffffffffu);
}

std::uint64_t stencil_after_app(std::uint64_t v) { return v * 3 + 1; }

void StencilStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  if (ctx.bytes % sizeof(std::uint64_t) != 0)
    throw SkipPoint("the stencil moves 8-byte elements: " +
                    std::to_string(ctx.bytes) + " B is not a multiple of 8");
  exchanges_ = ctx.exchanges;
  step_ = ctx.stride / sizeof(std::uint64_t);
  n_ = ctx.bytes / sizeof(std::uint64_t);
  left_ = (ctx.rank + ctx.size - 1) % ctx.size;
  right_ = (ctx.rank + 1) % ctx.size;
  app_.assign(2 * static_cast<std::size_t>(exchanges_) * n_ * step_, 0);
  poison();
  setup();
}

// The loops read n_ and step_ into locals first: a store through a
// uint64_t* may alias the size_t members, so with the members in the loop
// the compiler reloads both and multiplies on every element and cannot
// vectorise (pack and unpack were 3-5x OPBench's own loops).
// Written as OPBench writes them: a memcpy for the contiguous case was
// 10x slower at 64 KiB on this VM (glibc's rep movsb between two
// page-aligned buffers), docs/results/reference.md.
void StencilStrategy::pack_into(std::uint64_t* buffer, int k) {
  const std::uint64_t* f = face(k);
  const std::size_t n = n_, step = step_;
  for (std::size_t i = 0; i < n; ++i) buffer[i] = f[i * step];
}

void StencilStrategy::unpack_from(const std::uint64_t* buffer, int k) {
  std::uint64_t* g = ghost(k);
  const std::size_t n = n_, step = step_;
  for (std::size_t i = 0; i < n; ++i) g[i * step] = buffer[i];
}

void StencilStrategy::execute() {
  PhaseTimer& t = *ctx_.phases;
  t.mark(kApp);
  const std::size_t n = n_, step = step_;
  for (int k = 0; k < exchanges_; ++k) {
    std::uint64_t* f = face(k);
    // stencil_after_app, written out so that the loop vectorises.
    for (std::size_t i = 0; i < n; ++i) f[i * step] = f[i * step] * 3 + 1;
  }
  t.stop();
  for (int k = 0; k < exchanges_; ++k) exchange(k);
  t.stop();
}

void StencilStrategy::poison() {
  for (int k = 0; k < exchanges_; ++k) {
    std::uint64_t* f = face(k);
    std::uint64_t* g = ghost(k);
    for (std::size_t i = 0; i < n_; ++i) {
      f[i * step_] = stencil_initial(ctx_.rank, k, i);
      g[i * step_] = ~std::uint64_t{0};
    }
  }
}

Verdict StencilStrategy::verify() {
  for (int k = 0; k < exchanges_; ++k) {
    const std::uint64_t* g = ghost(k);
    for (std::size_t i = 0; i < n_; ++i) {
      const std::uint64_t want =
          stencil_after_app(stencil_initial(from(k), k, i));
      if (g[i * step_] != want)
        return {
            false,
            "ghost " + std::to_string(k) + " (from rank " +
                std::to_string(from(k)) + ") element " + std::to_string(i) +
                " is " + std::to_string(g[i * step_]) + ", expected " +
                std::to_string(want) +
                (g[i * step_] == ~std::uint64_t{0} ? " (never written)" : "")};
    }
  }
  return {};
}

}  // namespace mpiarena
