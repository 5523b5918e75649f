#include "core/engine/mpi_session.hpp"

#include <mpiarena/mpi_check.hpp>

namespace mpiarena {

MpiSession::MpiSession(int& argc, char**& argv, int thread_level) {
  int initialised = 0;
  MPIARENA_CHECK(MPI_Initialized(&initialised));
  if (!initialised) {
    int provided = 0;
    if (thread_level == kNoThreadLevel)
      MPIARENA_CHECK(MPI_Init(&argc, &argv));
    else
      MPIARENA_CHECK(MPI_Init_thread(&argc, &argv, thread_level, &provided));
    initialised_here_ = true;
  }
  MPIARENA_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
}

MpiSession::~MpiSession() {
  if (!initialised_here_) return;
  int finalised = 0;
  if (MPI_Finalized(&finalised) == MPI_SUCCESS && !finalised) MPI_Finalize();
}

int thread_level_value(const std::string& name) {
  if (name == "single") return MPI_THREAD_SINGLE;
  if (name == "funneled") return MPI_THREAD_FUNNELED;
  if (name == "serialized") return MPI_THREAD_SERIALIZED;
  if (name == "multiple") return MPI_THREAD_MULTIPLE;
  return MpiSession::kNoThreadLevel;
}

std::string thread_level_name(int level) {
  if (level == MPI_THREAD_SINGLE) return "single";
  if (level == MPI_THREAD_FUNNELED) return "funneled";
  if (level == MPI_THREAD_SERIALIZED) return "serialized";
  if (level == MPI_THREAD_MULTIPLE) return "multiple";
  return "unknown";
}

int provided_thread_level() {
  int provided = MPI_THREAD_SINGLE;
  MPIARENA_CHECK(MPI_Query_thread(&provided));
  return provided;
}

World::World() {
  MPIARENA_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank_));
  MPIARENA_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size_));
}

}  // namespace mpiarena
