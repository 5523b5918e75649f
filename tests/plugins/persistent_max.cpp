// allreduce_max_persistent: a persistent collective that is wrong on purpose.
// MPI_Allreduce_init (MPIX_ under Open MPI 4.1) with MPI_MAX where the
// check expects the sum: the verification after MPI_Start + MPI_Wait must
// fail it (tests/e2e/e2e_mpi4.py).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/persistent.hpp>

namespace {

class MaxAllreduce : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(send_.data(), recv_.data(), icount(), MPI_INT, MPI_MAX, comm());
  }

 private:
  void build() override {
    send_ = own_partials();
    recv_.assign(count(), -1);
  }
  void execute() override {}  // only the persistent twin is registered
  void poison() override { recv_.assign(count(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_sums(recv_, ranks());
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<mpiarena::Persistent<
                    MaxAllreduce, mpiarena::persistent::Allreduce>>(
    mpiarena::persistent_info(mpiarena::collective_info(
        "collective", "allreduce_max",
        "test plugin: persistent allreduce with MPI_MAX, checked as a sum"))))
