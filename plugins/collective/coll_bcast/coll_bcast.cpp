// coll_bcast: MPI_Bcast of count ints from rank 0 in the collective suite's
// per-rank sense (OSU osu_bcast, IMB Bcast); every rank checks the data.
// (The transfer suite's `bcast` moves the MPI & Boost
// benchmark's 1d and 2d payloads.)
// coll_bcast_persistent: the same through MPI_Bcast_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_bcast_persistent).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>

namespace {

class Bcast : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(data_.data(), icount(), MPI_INT, root(), comm());
  }

 private:
  void build() override {
    data_.resize(count());
    poison();
  }
  void execute() override { MPIARENA_CHECK(call(MPI_Bcast)); }
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
  return mpiarena::chosen_by_library(
      "bcast", mpiarena::collective_info(
                   "collective", "coll_bcast",
                   "MPI_Bcast of count ints from rank 0 (per-rank size, as "
                   "OSU and IMB); every rank checks"));
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Bcast>(info()),
                mpiarena::make_entry<
                    mpiarena::Persistent<Bcast, mpiarena::persistent::Bcast>>(
                    mpiarena::persistent_info(info())))
