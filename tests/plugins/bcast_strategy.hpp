// A correct transfer shared by the test plugins: 1d, one MPI_Bcast of the
// buffer; 2d, bcast_shape() then one MPI_Bcast per row.
#pragma once

#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace mpiarena_test {

class BcastStrategy : public mpiarena::TransferStrategy {
 protected:
  void execute() override {
    if (!is_2d()) {
      bcast(flat());
      return;
    }
    bcast_shape();
    for (auto& row : rows()) bcast(row);
  }

  void bcast(std::vector<int>& v) {
    MPIARENA_CHECK(MPI_Bcast(v.data(), static_cast<int>(v.size()), MPI_INT,
                             root(), comm()));
  }
};

}  // namespace mpiarena_test
