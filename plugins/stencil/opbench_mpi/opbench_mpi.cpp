// opbench_mpi: OPBench in its MPI mode. Per exchange: a pack
// loop copies face k into a buffer, MPI_Irecv + MPI_Isend + MPI_Waitall
// move it to the neighbour, an unpack loop copies the received buffer into
// ghost k.
#include <mpiarena/buffer.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stencil_suite.hpp>
#include <vector>

namespace {

class OpbenchMpi final : public mpiarena::StencilStrategy {
  void setup() override {
    send_.assign(count(), 0);
    recv_.assign(count(), 0);
  }
  void exchange(int k) override {
    {
      auto t = phases().scope(kPack);
      pack_into(send_.data(), k);
    }
    {
      auto t = phases().scope(kComm);
      MPI_Request r[2];
      MPIARENA_CHECK(MPI_Irecv(recv_.data(), icount(), MPI_UINT64_T, from(k), k,
                               comm(), &r[0]));
      MPIARENA_CHECK(MPI_Isend(send_.data(), icount(), MPI_UINT64_T, to(k), k,
                               comm(), &r[1]));
      MPIARENA_CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    }
    auto t = phases().scope(kUnpack);
    unpack_from(recv_.data(), k);
  }
  mpiarena::PageVector<std::uint64_t> send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<OpbenchMpi>(mpiarena::stencil_info(
    "opbench_mpi",
    "OPBench, MPI mode: pack loop, MPI_Isend/MPI_Irecv to the ring "
    "neighbours, unpack loop, per exchange")))
