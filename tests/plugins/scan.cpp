// test_scan: MPI_Scan (MPI_SUM) of count ints per rank, its collective
// "scan" named for runner --algorithms (issue 44: library_collective takes
// every collective the running library exposes an algorithm variable for,
// not a closed list). Rank r checks the prefix sums over ranks 0..r.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Scan final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_ = own_partials();
    recv_.assign(count(), -1);
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Scan(send_.data(), recv_.data(), icount(), MPI_INT,
                            MPI_SUM, comm()));
  }
  void poison() override { recv_.assign(count(), -1); }
  mpiarena::Verdict verify() override {
    const int me = ctx().rank, ranks = ctx().size;
    return mpiarena::check_ints(
        recv_,
        [me, ranks](std::size_t i) {
          long long sum = 0;
          for (int r = 0; r <= me; ++r)
            sum += mpiarena::partial_value(r, ranks, i);
          return sum;
        },
        "prefix sum");
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Scan>(mpiarena::chosen_by_library(
    "scan", mpiarena::collective_info(
                "collective", "test_scan",
                "test plugin: MPI_Scan (MPI_SUM), its algorithm the "
                "library's (runner --algorithms)"))))
