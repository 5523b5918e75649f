// gather: MPI_Gather of count ints per rank to rank 0 (OSU osu_gather, IMB
// Gather); the root checks every block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Gather final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_ = own_partials();
    poison();
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Gather(send_.data(), icount(), MPI_INT,
                              is_root() ? recv_.data() : nullptr, icount(),
                              MPI_INT, root(), comm()));
  }
  void poison() override {
    if (is_root())
      recv_.assign(count() * static_cast<std::size_t>(ranks()), -1);
  }
  mpiarena::Verdict verify() override { return check_gathered(recv_); }
  mpiarena::Ints send_, recv_;  // recv_: root only
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Gather>(mpiarena::chosen_by_library(
    "gather",
    mpiarena::collective_info(
        "collective", "gather",
        "MPI_Gather of count ints per rank to rank 0; the root checks every "
        "block",
        /*payload_copies=*/9))))
