// other_mpi: a plugin compiled against the other MPI's mpi.h (MPICH's when
// mpiarena is built with Open MPI, Open MPI's when it is built with MPICH).
// Its types disagree with the core's (MPI_Comm is an int in MPICH, a
// pointer in Open MPI, so RunContext has another layout), so the registry
// must refuse it before creating anything. The module links no MPI library
// at all: it is built from the other MPI's headers and plugin.hpp only
// (tests/CMakeLists.txt). The strategy itself does nothing, and nothing
// should ever run it.
#include <mpi.h>

#if defined(MPIARENA_EXPECT_MPICH) && !defined(MPICH_VERSION)
#error "other_mpi.cpp must be compiled against MPICH's mpi.h here"
#elif defined(MPIARENA_EXPECT_OPEN_MPI) && !defined(OPEN_MPI)
#error "other_mpi.cpp must be compiled against Open MPI's mpi.h here"
#elif !defined(MPIARENA_EXPECT_MPICH) && !defined(MPIARENA_EXPECT_OPEN_MPI)
#error "define MPIARENA_EXPECT_MPICH or MPIARENA_EXPECT_OPEN_MPI"
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
  info.summary = std::string("test plugin compiled against ") +
                 mpiarena::kMpiImplementation + "'s mpi.h";
  info.payloads = {"1d"};
  info.min_ranks = 1;
  info.moves_data = false;
  info.payload_copies = 0;
  return info;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<OtherMpi>(other_mpi_info()))
