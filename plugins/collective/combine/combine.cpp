// Combination, the second collective study of the course exercise "Week 4
// - MPI Communications" (vector_scatter_reduce.c, vector_scatter_gather.c):
// every rank holds count partial results and the
// root needs their element-wise sum.
//   combine_p2p            the others MPI_Send, root MPI_Recvs and adds
//   combine_gather         MPI_Gather to the root, root adds
//   combine_reduce         MPI_Reduce with MPI_SUM
//   combine_reduce_custom  MPI_Reduce with a user MPI_Op (commutative sum,
//                          created in setup, freed in teardown)
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <vector>

namespace {

using mpiarena::CombinationStrategy;

void add_into(mpiarena::Ints& sum, const int* part, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) sum[i] += part[i];
}

class P2p final : public CombinationStrategy {
  void setup() override {
    if (is_root()) incoming_.resize(count());
  }
  void execute() override {
    if (!is_root()) {
      MPIARENA_CHECK(
          MPI_Send(partial().data(), icount(), MPI_INT, root(), 0, comm()));
      return;
    }
    result() = partial();
    for (int r = 0; r < ranks(); ++r) {
      if (r == root()) continue;
      MPIARENA_CHECK(MPI_Recv(incoming_.data(), icount(), MPI_INT, r, 0, comm(),
                              MPI_STATUS_IGNORE));
      add_into(result(), incoming_.data(), count());
    }
  }
  mpiarena::Ints incoming_;
};

class Gather final : public CombinationStrategy {
  void setup() override {
    if (is_root()) all_.resize(count() * static_cast<std::size_t>(ranks()));
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Gather(partial().data(), icount(), MPI_INT,
                              is_root() ? all_.data() : nullptr, icount(),
                              MPI_INT, root(), comm()));
    if (!is_root()) return;
    result().assign(count(), 0);
    for (int r = 0; r < ranks(); ++r)
      add_into(result(), all_.data() + r * count(), count());
  }
  mpiarena::Ints all_;  // root: every rank's partials
};

class Reduce : public CombinationStrategy {
 protected:
  void execute() override {
    MPIARENA_CHECK(MPI_Reduce(partial().data(),
                              is_root() ? result().data() : nullptr, icount(),
                              MPI_INT, op(), root(), comm()));
  }
  virtual MPI_Op op() const { return MPI_SUM; }
};

extern "C" void int_sum(void* in, void* inout, int* len, MPI_Datatype*) {
  const int* a = static_cast<const int*>(in);
  int* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[i] += a[i];
}

class ReduceCustom final : public Reduce {
  void setup() override {
    MPIARENA_CHECK(MPI_Op_create(&int_sum, /*commute=*/1, &op_));
  }
  void teardown() override {
    if (op_ != MPI_OP_NULL) MPIARENA_CHECK(MPI_Op_free(&op_));
  }
  MPI_Op op() const override { return op_; }
  MPI_Op op_ = MPI_OP_NULL;
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<P2p>(mpiarena::collective_info(
        "combination", "combine_p2p",
        "every rank MPI_Sends its partials to the root, which MPI_Recvs and "
        "adds them (Week 4 MPI exercise)",
        /*payload_copies=*/3)),
    mpiarena::make_entry<Gather>(mpiarena::collective_info(
        "combination", "combine_gather",
        "MPI_Gather of every rank's partials to the root, which adds them "
        "(Week 4 MPI exercise)",
        /*payload_copies=*/2, /*payload_copies_per_rank=*/1)),
    mpiarena::make_entry<Reduce>(mpiarena::collective_info(
        "combination", "combine_reduce",
        "MPI_Reduce with MPI_SUM to the root (Week 4 MPI exercise)")),
    mpiarena::make_entry<ReduceCustom>(mpiarena::collective_info(
        "combination", "combine_reduce_custom",
        "MPI_Reduce with a user-defined commutative MPI_Op (MPI_Op_create) "
        "to the root (Week 4 MPI exercise)")))
