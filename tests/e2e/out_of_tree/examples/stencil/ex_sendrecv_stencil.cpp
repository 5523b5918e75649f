// Example (stencil suite): each exchange is OPBench's pack loop, one
// MPI_Sendrecv (face k to to(k), ghost k from from(k); tag k tells the two
// directions apart when both neighbours are the same rank, at 2 ranks) and
// the unpack loop. The base owns the application array, the app phase and
// the check of every ghost.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stencil_suite.hpp>
#include <vector>

namespace {

class SendrecvStencil final : public mpiarena::StencilStrategy {
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
      MPIARENA_CHECK(MPI_Sendrecv(send_.data(), icount(), MPI_UINT64_T, to(k),
                                  k, recv_.data(), icount(), MPI_UINT64_T,
                                  from(k), k, comm(), MPI_STATUS_IGNORE));
    }
    auto t = phases().scope(kUnpack);
    unpack_from(recv_.data(), k);
  }
  std::vector<std::uint64_t> send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<SendrecvStencil>(mpiarena::stencil_info(
    "ex_sendrecv_stencil",
    "example: OPBench's pack, one MPI_Sendrecv per exchange, unpack")))
