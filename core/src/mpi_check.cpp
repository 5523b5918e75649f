#include <mpiarena/mpi_check.hpp>

namespace mpiarena {

void throw_mpi_error(int code, const char* call, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING] = {0};
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) len = 0;
  throw MpiError(
      std::string(file) + ":" + std::to_string(line) + ": " + call +
      " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

}  // namespace mpiarena
