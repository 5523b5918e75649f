// scan, exscan: MPI_Scan and MPI_Exscan (MPI_SUM) of count ints per rank
// (IMB's Scan and Exscan; OSU has none): rank r checks the sums of the
// partials of ranks 0..r (scan) or 0..r-1 (exscan; rank 0's result is
// undefined, not checked) against their closed form (v_collectives.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

template <bool Inclusive>
class Prefix final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_ = own_partials();
    poison();
  }
  void execute() override {
    MPIARENA_CHECK((Inclusive ? MPI_Scan : MPI_Exscan)(
        send_.data(), recv_.data(), icount(), MPI_INT, MPI_SUM, comm()));
  }
  void poison() override { recv_.assign(count(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_prefix_sums(recv_, rank(), ranks(), Inclusive);
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Prefix<true>>(mpiarena::chosen_by_library(
        "scan", mpiarena::collective_info(
                    "collective", "scan",
                    "MPI_Scan (MPI_SUM) of count ints per rank; every rank "
                    "checks its prefix sums"))),
    mpiarena::make_entry<Prefix<false>>(mpiarena::chosen_by_library(
        "exscan", mpiarena::collective_info(
                      "collective", "exscan",
                      "MPI_Exscan (MPI_SUM) of count ints per rank; every "
                      "rank but 0 checks its exclusive prefix sums"))))
