#include <algorithm>
#include <mpiarena/mpi_check.hpp>
#include <vector>

namespace mpiarena {

void throw_mpi_error(int code, const char* call, const char* file, int line) {
  // MPICH 4.0 writes an error stack past MPI_MAX_ERROR_STRING (a forced
  // collective algorithm that does not apply: runner --algorithms): room to
  // spare.
  std::vector<char> text(16 * MPI_MAX_ERROR_STRING, '\0');
  int len = 0;
  if (MPI_Error_string(code, text.data(), &len) != MPI_SUCCESS) len = 0;
  len = std::min(len, MPI_MAX_ERROR_STRING);
  throw MpiError(
      std::string(file) + ":" + std::to_string(line) + ": " + call +
      " failed: " + std::string(text.data(), static_cast<std::size_t>(len)));
}

MPI_Win create_int_window(int* base, std::size_t count, MPI_Comm comm) {
  MPI_Win win = MPI_WIN_NULL;
  const int rc =
      MPI_Win_create(base, static_cast<MPI_Aint>(count * sizeof(int)),
                     sizeof(int), MPI_INFO_NULL, comm, &win);
  if (rc == MPI_SUCCESS) return win;
  try {
    throw_mpi_error(rc, "MPI_Win_create", __FILE__, __LINE__);
  } catch (const MpiError& e) {
#if defined(OPEN_MPI)
    throw MpiError(std::string(e.what()) +
                   " (with ranks on several nodes over TCP, Open MPI 4.1's "
                   "default one-sided component osc/rdma cannot make a "
                   "window: select another with 'mpirun --mca osc ucx' or "
                   "'--mca osc pt2pt'; docs/clusters.md)");
#else
    throw;
#endif
  }
}

}  // namespace mpiarena
