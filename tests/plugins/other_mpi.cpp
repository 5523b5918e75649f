// other_mpi: a plugin compiled against another MPI's mpi.h (MPICH's, while
// mpiarena is built with Open MPI). Its types disagree with the core's
// (MPI_Comm is an int in MPICH, a pointer in Open MPI, so RunContext has
// another layout), so the registry must refuse it before creating anything.
// The module links no MPI library at all: it is built from MPICH's headers
// and plugin.hpp only (tests/CMakeLists.txt). The strategy itself does
// nothing, and nothing should ever run it.
#include <mpi.h>

#if !defined(MPICH_VERSION)
#error "other_mpi.cpp must be compiled against MPICH's mpi.h"
#endif

#include <mpiarena/plugin.hpp>

namespace {

class OtherMpi final : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext&) override {}
  void execute() override {}
  void poison() override {}
  mpiarena::Verdict verify() override { return {true, ""}; }
};

mpiarena::StrategyInfo other_mpi_info() {
  mpiarena::StrategyInfo info;
  info.name = "other_mpi";
  info.suite = "harness";
  info.summary = "test plugin compiled against MPICH's mpi.h (" MPICH_VERSION ")";
  info.payloads = {"1d"};
  info.min_ranks = 1;
  info.moves_data = false;
  info.payload_copies = 0;
  return info;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<OtherMpi>(other_mpi_info()))
