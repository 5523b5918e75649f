// MPI for the lifetime of a process, with plain MPI C calls: what
// boost::mpi::environment(argc, argv, /*abort_on_exception=*/false) did for
// the runner before, without Boost.MPI (Debian's is built against Open MPI
// only, so an MPICH build cannot link it; docs/mpi-implementations.md).
#pragma once

#include <mpi.h>

#include <string>

namespace mpiarena {

// Initialises MPI unless it already is (then the one that did owns it) and
// sets MPI_ERRORS_RETURN on MPI_COMM_WORLD, so that a failed call returns a
// code (checked with MPIARENA_CHECK) instead of aborting the job. With a
// thread level (MPI_THREAD_SINGLE...MPI_THREAD_MULTIPLE, runner
// --thread-level) it initialises with MPI_Init_thread at that level, else
// with MPI_Init (MPI_Query_thread then tells what the library gave). The
// destructor finalises MPI when this session initialised it and nothing
// finalised it since; it never aborts, even while an exception unwinds.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv, int thread_level = kNoThreadLevel);
  static constexpr int kNoThreadLevel = -1;
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool initialised_here_ = false;
};

// The MPI thread level named "single", "funneled", "serialized" or
// "multiple" (runner --thread-level), MpiSession::kNoThreadLevel for any
// other name; and the name of a level ("multiple"), "unknown" for none.
int thread_level_value(const std::string& name);
std::string thread_level_name(int level);
// The level the library provides (MPI_Query_thread).
int provided_thread_level();

// MPI_COMM_WORLD with its rank and size; converts to MPI_Comm for MPI calls.
class World {
 public:
  World();
  int rank() const { return rank_; }
  int size() const { return size_; }
  operator MPI_Comm() const { return MPI_COMM_WORLD; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace mpiarena
