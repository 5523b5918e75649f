// Example (collective suite) with an option of its own: MPI_Allreduce
// (MPI_SUM) of count ints per rank in `chunks` calls, one per slice.
//   runner -m ex_allreduce_chunks --set ex_allreduce_chunks.chunks=1,4,16
// measures one point per value; records say the value, compare never
// matches two values.
#include <algorithm>
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class AllreduceChunks final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_ = own_partials();
    recv_.assign(count(), -1);
    chunks_ = static_cast<std::size_t>(ctx().option_int("chunks"));
  }
  void execute() override {
    const std::size_t n = count(), per = (n + chunks_ - 1) / chunks_;
    for (std::size_t from = 0; from < n; from += per) {
      const int len = static_cast<int>(std::min(per, n - from));
      MPIARENA_CHECK(MPI_Allreduce(send_.data() + from, recv_.data() + from,
                                   len, MPI_INT, MPI_SUM, comm()));
    }
  }
  void poison() override { recv_.assign(count(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_sums(recv_, ranks());
  }
  mpiarena::Ints send_, recv_;
  std::size_t chunks_ = 1;
};

mpiarena::StrategyInfo info() {
  mpiarena::StrategyInfo i = mpiarena::collective_info(
      "collective", "ex_allreduce_chunks",
      "example: MPI_Allreduce (MPI_SUM) in chunks (option chunks)");
  // Each option by its named constructor (OptionInfo::integer, ::number,
  // ::choice): name, default, range or choices, one line of help.
  i.options = {mpiarena::OptionInfo::integer(
      "chunks", "1", 1, 64,
      "MPI_Allreduce calls per operation, one per slice")};
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<AllreduceChunks>(info()))
