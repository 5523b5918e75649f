// An allreduce of MPI_Reduce_scatter_block and MPI_Allgather, written from
// the installed SDK: declared (mockup_info) as the operation "allreduce"
// on ints with MPI_SUM, so that the report ranks it with the library's
// allreduce. Its option op=sum|max changes what it computes: the option
// enters the semantics (operation.options), and op=max ranks apart.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class AllreduceRsb final : public mpiarena::CollectiveStrategy {
  void build() override {
    max_ = ctx().option("op") == "max";
    const std::size_t padded = block() * static_cast<std::size_t>(ranks());
    send_ = own_partials();
    send_.resize(padded, 0);
    mine_.assign(block(), 0);
    recv_.assign(padded, -1);
  }
  void execute() override {
    const int n = static_cast<int>(block());
    MPIARENA_CHECK(MPI_Reduce_scatter_block(send_.data(), mine_.data(), n,
                                            MPI_INT, max_ ? MPI_MAX : MPI_SUM,
                                            comm()));
    MPIARENA_CHECK(MPI_Allgather(mine_.data(), n, MPI_INT, recv_.data(), n,
                                 MPI_INT, comm()));
  }
  void poison() override { recv_.assign(recv_.size(), -1); }
  mpiarena::Verdict verify() override {
    mpiarena::Ints got(recv_.begin(), recv_.begin() + count());
    if (!max_) return mpiarena::check_sums(got, ranks());
    const int p = ranks();  // the last rank's partial is the largest
    return mpiarena::check_ints(
        got,
        [p](std::size_t i) { return mpiarena::partial_value(p - 1, p, i); },
        "maximum");
  }
  bool max_ = false;
  mpiarena::Ints send_, mine_, recv_;
};

mpiarena::StrategyInfo info() {
  mpiarena::StrategyInfo i = mpiarena::mockup_info(
      "allreduce", "rsb_allgather", "ext_allreduce_rsb",
      "outside: MPI_Reduce_scatter_block + MPI_Allgather (option op)",
      /*payload_copies=*/4);
  i.options = {mpiarena::OptionInfo::choice("op", "sum", {"sum", "max"},
                                            "the reduction: MPI_SUM, MPI_MAX")};
  i.operation.options = {"op"};  // op=max is another operation
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<AllreduceRsb>(info()))
