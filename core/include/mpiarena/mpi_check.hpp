// Checked MPI calls. The runner sets MPI_ERRORS_RETURN on MPI_COMM_WORLD (as
// boost::mpi::environment did), and the core hands plugins a communicator
// with the same handler, so an unchecked return code would fail silently.
// Wrap every raw MPI call in MPIARENA_CHECK.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace mpiarena {

class MpiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws MpiError naming the call, file, line and MPI_Error_string.
[[noreturn]] void throw_mpi_error(int code, const char* call, const char* file,
                                  int line);

// MPI_Win_create over `count` ints at `base` on `comm` (displacement unit:
// one int), collective over `comm`. A failure throws MpiError; from Open
// MPI, the message adds what makes windows work across nodes over TCP
// (Open MPI 4.1's default osc/rdma needs an RDMA network: docs/clusters.md).
MPI_Win create_int_window(int* base, std::size_t count, MPI_Comm comm);

}  // namespace mpiarena

#define MPIARENA_CHECK(call)                                                \
  do {                                                                      \
    const int mpiarena_rc_ = (call);                                        \
    if (mpiarena_rc_ != MPI_SUCCESS)                                        \
      ::mpiarena::throw_mpi_error(mpiarena_rc_, #call, __FILE__, __LINE__); \
  } while (0)
