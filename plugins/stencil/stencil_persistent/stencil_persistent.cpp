// stencil_persistent: OPBench's pack and unpack loops with persistent
// requests, one send and one receive per exchange created once
// (MPI_Send_init, MPI_Recv_init) and started each time (MPI_Startall).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stencil_suite.hpp>
#include <vector>

namespace {

class StencilPersistent final : public mpiarena::StencilStrategy {
  void setup() override {
    const std::size_t e = static_cast<std::size_t>(exchanges());
    send_.assign(e, std::vector<std::uint64_t>(count()));
    recv_.assign(e, std::vector<std::uint64_t>(count()));
    requests_.assign(2 * e, MPI_REQUEST_NULL);
    for (int k = 0; k < exchanges(); ++k) {
      MPIARENA_CHECK(MPI_Recv_init(recv_[k].data(), icount(), MPI_UINT64_T,
                                   from(k), k, comm(), &requests_[2 * k]));
      MPIARENA_CHECK(MPI_Send_init(send_[k].data(), icount(), MPI_UINT64_T,
                                   to(k), k, comm(), &requests_[2 * k + 1]));
    }
  }
  void teardown() override {
    for (MPI_Request& r : requests_)
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }
  void exchange(int k) override {
    {
      auto t = phases().scope(kPack);
      pack_into(send_[k].data(), k);
    }
    {
      auto t = phases().scope(kComm);
      MPIARENA_CHECK(MPI_Startall(2, &requests_[2 * k]));
      MPIARENA_CHECK(MPI_Waitall(2, &requests_[2 * k], MPI_STATUSES_IGNORE));
    }
    auto t = phases().scope(kUnpack);
    unpack_from(recv_[k].data(), k);
  }
  std::vector<std::vector<std::uint64_t>> send_, recv_;
  std::vector<MPI_Request> requests_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<StencilPersistent>(mpiarena::stencil_info(
    "stencil_persistent",
    "OPBench's pack and unpack loops, persistent requests per exchange "
    "(MPI_Send_init, MPI_Recv_init, MPI_Startall)",
    /*extra_copies=*/8)))
