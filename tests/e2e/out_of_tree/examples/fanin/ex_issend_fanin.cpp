// Example (fan-in suite): every client sends its message to rank 0 with
// MPI_Issend + MPI_Wait; the base's root receives them in rank order and
// checks each.
#include <mpiarena/fanin.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class IssendFanIn final : public mpiarena::FanInStrategy {
  void client_send(const unsigned char* data, std::size_t n) override {
    MPI_Request r;
    MPIARENA_CHECK(MPI_Issend(data, static_cast<int>(n), MPI_BYTE, 0, kTagData,
                              comm(), &r));
    MPIARENA_CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<IssendFanIn>(mpiarena::fanin_info(
    "ex_issend_fanin", "example: fan-in to rank 0 with MPI_Issend")))
