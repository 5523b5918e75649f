// alltoall: MPI_Alltoall, count ints from every rank to every rank (OSU
// osu_alltoall, IMB Alltoall); each rank checks what every sender meant
// for it.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Alltoall final : public mpiarena::CollectiveStrategy {
  void build() override {
    const std::size_t n = count();
    send_.resize(n * static_cast<std::size_t>(ranks()));
    for (std::size_t j = 0; j < send_.size(); ++j)
      send_[j] = mpiarena::pair_value(rank(), static_cast<int>(j / n), ranks(),
                                      j % n);
    poison();
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Alltoall(send_.data(), icount(), MPI_INT, recv_.data(),
                                icount(), MPI_INT, comm()));
  }
  void poison() override { recv_.assign(send_.size(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_ints(
        recv_,
        [&](std::size_t j) {
          return mpiarena::pair_value(static_cast<int>(j / count()), rank(),
                                      ranks(), j % count());
        },
        "received");
  }
  std::vector<int> send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Alltoall>(mpiarena::collective_info(
    "collective", "alltoall",
    "MPI_Alltoall of count ints from every rank to every rank; each block "
    "checked",
    /*payload_copies=*/16)))
