// A bcast through MPI_Ibcast + MPI_Wait, written from the installed SDK and
// declared as the library's MPI_Bcast (collective_operation("bcast"): ints
// from root 0), so that it ranks with coll_bcast.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Ibcast final : public mpiarena::CollectiveStrategy {
  void build() override {
    data_.resize(count());
    poison();
  }
  void execute() override {
    MPI_Request request;
    MPIARENA_CHECK(MPI_Ibcast(data_.data(), icount(), MPI_INT, root(), comm(),
                              &request));
    MPIARENA_CHECK(MPI_Wait(&request, MPI_STATUS_IGNORE));
  }
  void poison() override {
    for (std::size_t i = 0; i < data_.size(); ++i)
      data_[i] = is_root() ? mpiarena::distribution_value(i) : -1;
  }
  mpiarena::Verdict verify() override {
    return mpiarena::check_ints(
        data_, [](std::size_t i) { return mpiarena::distribution_value(i); },
        "broadcast");
  }
  mpiarena::Ints data_;
};

mpiarena::StrategyInfo info() {
  mpiarena::StrategyInfo i = mpiarena::collective_info(
      "collective", "ext_bcast_ibcast", "outside: MPI_Ibcast + MPI_Wait");
  i.operation = mpiarena::collective_operation("bcast");
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Ibcast>(info()))
