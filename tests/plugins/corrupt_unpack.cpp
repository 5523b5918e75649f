// corrupt_unpack: OPBench's MPI mode with an unpack loop that is wrong on
// purpose (it skips the last element of every ghost): the stencil suite's
// verification must fail it (tests/e2e/e2e_stencil.py).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stencil_suite.hpp>
#include <vector>

namespace {

class CorruptUnpack final : public mpiarena::StencilStrategy {
  void setup() override {
    send_.assign(count(), 0);
    recv_.assign(count(), 0);
  }
  void exchange(int k) override {
    pack_into(send_.data(), k);
    MPI_Request r[2];
    MPIARENA_CHECK(MPI_Irecv(recv_.data(), icount(), MPI_UINT64_T, from(k), k,
                             comm(), &r[0]));
    MPIARENA_CHECK(MPI_Isend(send_.data(), icount(), MPI_UINT64_T, to(k), k,
                             comm(), &r[1]));
    MPIARENA_CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    std::uint64_t* g = ghost(k);
    for (std::size_t i = 0; i + 1 < count(); ++i) g[i * step()] = recv_[i];
  }
  std::vector<std::uint64_t> send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<CorruptUnpack>(mpiarena::stencil_info(
    "corrupt_unpack",
    "test plugin: OPBench whose unpack loop skips each ghost's last element")))
