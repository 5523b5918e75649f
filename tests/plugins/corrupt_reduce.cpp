// corrupt_reduce: a combination that is wrong on purpose. MPI_Reduce with
// MPI_SUM, then the root adds 1 to its middle element: the verification of
// the combination suite must fail it (tests/e2e/e2e_collective.py).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class CorruptReduce final : public mpiarena::CombinationStrategy {
  void execute() override {
    MPIARENA_CHECK(MPI_Reduce(partial().data(),
                              is_root() ? result().data() : nullptr, icount(),
                              MPI_INT, MPI_SUM, root(), comm()));
    if (is_root() && !result().empty()) result()[result().size() / 2] += 1;
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<CorruptReduce>(mpiarena::collective_info(
    "combination", "corrupt_reduce",
    "test plugin: MPI_Reduce, then the root adds 1 to one element")))
