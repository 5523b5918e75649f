// serial_overlap: an overlap method that cannot overlap on purpose. Its
// post() starts an MPI_Iallreduce and waits for it at once, so the "both"
// part is communication then computation, serialised: the overlap metric
// must come out near 0% (tests/e2e/e2e_overlap.py).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/overlap_suite.hpp>
#include <vector>

namespace {

class SerialOverlap final : public mpiarena::OverlapStrategy {
  void build() override {
    send_ = mpiarena::partials_of(rank(), ranks(), count());
    recv_.assign(count(), -1);
  }
  void post(std::vector<MPI_Request>&) override {
    MPI_Request r = MPI_REQUEST_NULL;
    MPIARENA_CHECK(MPI_Iallreduce(send_.data(), recv_.data(), icount(), MPI_INT,
                                  MPI_SUM, comm(), &r));
    MPIARENA_CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));  // no overlap left
  }
  void reset() override { recv_.assign(recv_.size(), -1); }
  mpiarena::Verdict check() override {
    return mpiarena::check_sums(recv_, ranks());
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<SerialOverlap>(mpiarena::overlap_info(
    "serial_overlap",
    "test plugin: MPI_Iallreduce waited for inside post(): serialised, "
    "overlap must be about 0%")))
