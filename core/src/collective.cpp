#include "collective.hpp"

#include <mpiarena/mpi_check.hpp>

namespace mpiarena {

std::string bcast_string(std::string text, int root, MPI_Comm comm) {
  int len = static_cast<int>(text.size());
  MPIARENA_CHECK(MPI_Bcast(&len, 1, MPI_INT, root, comm));
  text.resize(static_cast<std::size_t>(len));
  MPIARENA_CHECK(MPI_Bcast(text.data(), len, MPI_CHAR, root, comm));
  return text;
}

std::pair<int, std::string> first_failure(bool failed, std::string message,
                                          MPI_Comm comm, int rank) {
  const int mine = failed ? rank : kNobody;
  int first = kNobody;
  MPIARENA_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == kNobody) return {first, {}};
  return {first, bcast_string(std::move(message), first, comm)};
}

}  // namespace mpiarena
