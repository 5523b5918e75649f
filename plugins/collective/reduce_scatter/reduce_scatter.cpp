// reduce_scatter: MPI_Reduce_scatter (MPI_SUM) as OSU's osu_reduce_scatter
// runs it: every rank contributes the whole vector of size / 4 ints, rank
// r receives the sums of its block, the blocks' counts as the option
// "counts" says (uniform: OSU's split, the first size/4 mod p ranks one
// more). Unlike reduce_scatter_block (IMB's), whose size is the block each
// rank receives. Every rank checks its block of the sum
// (v_collectives.hpp).
// reduce_scatter_persistent: the same through MPI_Reduce_scatter_init once,
// then MPI_Start + MPI_Wait (OSU 7.3 osu_reduce_scatter_persistent).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>
#include <mpiarena/v_collectives.hpp>
#include <string>

namespace {

// MPICH 4.0's "noncommutative" algorithm (runner --algorithms) asserts a
// power-of-two communicator and equal recvcounts
// (reduce_scatter_intra_noncommutative.c) where it should refuse the call
// (MPIR_CVAR_COLLECTIVE_FALLBACK=error): the launch would abort. The
// reason to skip such a point, or "".
std::string mpich_would_abort(const mpiarena::RunContext& ctx,
                              const mpiarena::VLayout& layout) {
#ifdef MPICH_VERSION
  if (!ctx.options) return "";
  for (const auto& [name, value] : *ctx.options)
    if (name == "algorithm" && value == "noncommutative") {
      const bool pof2 = (ctx.size & (ctx.size - 1)) == 0;
      bool equal = true;
      for (int c : layout.counts) equal = equal && c == layout.counts[0];
      if (!pof2 || !equal)
        return "MPICH " MPICH_VERSION
               "'s noncommutative reduce_scatter asserts a power-of-two "
               "communicator and equal recvcounts (here " +
               std::to_string(ctx.size) + " ranks, counts " +
               (equal ? "equal" : "unequal") +
               ") and aborts the launch instead of refusing: not run";
    }
#else
  (void)ctx;
  (void)layout;
#endif
  return "";
}

class ReduceScatter : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(data_.sent.data(), data_.received.data(),
             data_.layout.counts.data(), MPI_INT, MPI_SUM, comm());
  }

 private:
  void build() override {
    const std::size_t vector = ctx().bytes / sizeof(int);
    data_.build(mpiarena::v_point(ctx(), count()), vector);
    const std::string abort = mpich_would_abort(ctx(), data_.layout);
    if (!abort.empty()) throw mpiarena::SkipPoint(abort);
  }
  void execute() override { MPIARENA_CHECK(call(MPI_Reduce_scatter)); }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::ReduceScatterData data_;
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "reduce_scatter",
      mpiarena::with_counts(mpiarena::collective_info(
          "collective", "reduce_scatter",
          "MPI_Reduce_scatter (MPI_SUM) of a vector of size/4 ints per rank "
          "(OSU's size), split over the ranks (option counts); every block "
          "checked",
          /*payload_copies=*/3)));
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<ReduceScatter>(info()),
                mpiarena::make_entry<mpiarena::Persistent<
                    ReduceScatter, mpiarena::persistent::Reduce_scatter>>(
                    mpiarena::persistent_info(info())))
