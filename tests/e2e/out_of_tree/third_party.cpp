// A method written outside the mpiarena tree: MPI_Ibcast of the 1d buffer,
// or of the shape then each row (2d).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class ThirdParty final : public mpiarena::TransferStrategy {
 public:
  void execute() override {
    if (!is_2d()) {
      bcast(flat());
      return;
    }
    bcast_shape();
    for (auto& row : rows()) bcast(row);
  }

 private:
  void bcast(std::vector<int>& data) {
    MPI_Request request;
    MPIARENA_CHECK(MPI_Ibcast(data.data(), static_cast<int>(data.size()),
                              MPI_INT, root(), comm(), &request));
    MPIARENA_CHECK(MPI_Wait(&request, MPI_STATUS_IGNORE));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<ThirdParty>(mpiarena::transfer_info(
        "third_party",
        "out-of-tree test plugin: MPI_Ibcast + MPI_Wait", {"1d", "2d"})))
