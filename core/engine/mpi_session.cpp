#include "mpi_session.hpp"

#include <mpiarena/mpi_check.hpp>

namespace mpiarena {

MpiSession::MpiSession(int& argc, char**& argv) {
  int initialised = 0;
  MPIARENA_CHECK(MPI_Initialized(&initialised));
  if (!initialised) {
    MPIARENA_CHECK(MPI_Init(&argc, &argv));
    initialised_here_ = true;
  }
  MPIARENA_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
}

MpiSession::~MpiSession() {
  if (!initialised_here_) return;
  int finalised = 0;
  if (MPI_Finalized(&finalised) == MPI_SUCCESS && !finalised) MPI_Finalize();
}

World::World() {
  MPIARENA_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank_));
  MPIARENA_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size_));
}

}  // namespace mpiarena
