// MPI-4 persistent collectives (OSU 7.3's
// c/mpi/collective/persistent/osu_*_persistent.c): the call is initialised
// once (MPI_<Coll>_init, in setup(), untimed), each execute() is MPI_Start +
// MPI_Wait, and the request is freed in teardown().
//
// Which library has which call is written here, once:
//   MPI-4 (MPI_VERSION >= 4: MPICH 4.0):   MPI_<Coll>_init
//   Open MPI 4.1 (MPI-3.1): MPIX_<Coll>_init of its "pcollreq" extension
//     (<mpi-ext.h>, OMPI_HAVE_MPI_EXT_PCOLLREQ); Open MPI serves them from
//     coll/libnbc, not coll/tuned;
//   neither: every point of a persistent method is skipped (SkipPoint) with
//     the library's name and the call it lacks.
//
// A persistent twin reuses its blocking method whole (payload, poison(),
// verify()): the blocking class (not final) writes its call's arguments
// once, in a public member template
//     template <class Call> int call(Call&& c) {
//       return c(send_.data(), recv_.data(), icount(), MPI_INT, MPI_SUM,
//                comm());
//     }
// and its execute() is MPIARENA_CHECK(call(MPI_Allreduce)). The twin is
//     mpiarena::Persistent<Allreduce, mpiarena::persistent::Allreduce>
// whose setup() gives the same arguments, plus MPI_INFO_NULL and its
// request, to the init call. Its entry: persistent_info(blocking info).
// Adding the twin of another collective is two lines in its plugin file
// (docs/writing-a-plugin.md, "A persistent twin").
// The blocking class's poison() must rewrite its buffers in place (never
// reallocate them): the request holds their addresses.
#pragma once

#include <mpi.h>

#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include <mpiarena/mpi_check.hpp>
#include <mpiarena/plugin.hpp>
#include <string>
#include <utility>

#if MPI_VERSION >= 4
#define MPIARENA_PERSISTENT_PREFIX "MPI_"
#define MPIARENA_PERSISTENT_CALL(Coll) MPI_##Coll##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define MPIARENA_PERSISTENT_PREFIX "MPIX_"
#define MPIARENA_PERSISTENT_CALL(Coll) MPIX_##Coll##_init
#else
#define MPIARENA_PERSISTENT_PREFIX "MPI_"  // each point skipped
#endif

namespace mpiarena {

// The reason a persistent point is skipped under a library that has
// neither MPI_<call> nor MPIX_<call> (`call` as "Allreduce_init").
std::string persistent_missing(const std::string& call);

// StrategyInfo of the persistent twin of a blocking collective method:
// name + "_persistent", the same suite, payload, sizes and options; the
// summary says it is persistent. --algorithms does not apply: the
// libraries serve persistent collectives from other code than the one
// their blocking algorithm variables steer (Open MPI: coll/libnbc; MPICH:
// its nonblocking schedules), so library_collective is cleared and the
// param "collective" becomes "persistent" (the report's guideline view
// does not take the twin for the library's blocking choice).
StrategyInfo persistent_info(StrategyInfo blocking);

// Why the running library's init call `name` ("MPI_Gather_init") cannot be
// measured, or empty: MPICH 4.0's persistent allgather, gather and scatter
// deliver wrong data (gather: pmodels/mpich#7078, the root's own block
// never copied; allgather and scatter: only the first MPI_Start delivers;
// scatter at 3 ranks fails in MPI_Wait). Their points are skipped with it.
std::string persistent_known_broken(const std::string& name);

namespace persistent {

// One functor per MPI-4 blocking collective: its init call under the
// running library, or a SkipPoint naming what is missing.
#ifdef MPIARENA_PERSISTENT_CALL
#define MPIARENA_PERSISTENT_INIT(Coll)                                 \
  struct Coll {                                                        \
    static constexpr const char* name =                                \
        MPIARENA_PERSISTENT_PREFIX #Coll "_init";                      \
    template <class... Args>                                           \
    int operator()(Args&&... a) const {                                \
      return MPIARENA_PERSISTENT_CALL(Coll)(std::forward<Args>(a)...); \
    }                                                                  \
  };
#else
#define MPIARENA_PERSISTENT_INIT(Coll)                    \
  struct Coll {                                           \
    static constexpr const char* name =                   \
        MPIARENA_PERSISTENT_PREFIX #Coll "_init";         \
    template <class... Args>                              \
    int operator()(Args&&...) const {                     \
      throw SkipPoint(persistent_missing(#Coll "_init")); \
    }                                                     \
  };
#endif
MPIARENA_PERSISTENT_INIT(Allgather)
MPIARENA_PERSISTENT_INIT(Allgatherv)
MPIARENA_PERSISTENT_INIT(Allreduce)
MPIARENA_PERSISTENT_INIT(Alltoall)
MPIARENA_PERSISTENT_INIT(Alltoallv)
MPIARENA_PERSISTENT_INIT(Alltoallw)
MPIARENA_PERSISTENT_INIT(Barrier)
MPIARENA_PERSISTENT_INIT(Bcast)
MPIARENA_PERSISTENT_INIT(Exscan)
MPIARENA_PERSISTENT_INIT(Gather)
MPIARENA_PERSISTENT_INIT(Gatherv)
MPIARENA_PERSISTENT_INIT(Reduce)
MPIARENA_PERSISTENT_INIT(Reduce_scatter)
MPIARENA_PERSISTENT_INIT(Reduce_scatter_block)
MPIARENA_PERSISTENT_INIT(Scan)
MPIARENA_PERSISTENT_INIT(Scatter)
MPIARENA_PERSISTENT_INIT(Scatterv)
#undef MPIARENA_PERSISTENT_INIT

}  // namespace persistent

// The persistent twin of `Blocking` (a CollectiveStrategy with call()),
// initialised by `Init` (a persistent:: functor).
template <class Blocking, class Init>
class Persistent final : public Blocking {
  void setup() override {
    Blocking::setup();
    const std::string broken = persistent_known_broken(Init::name);
    if (!broken.empty()) throw SkipPoint(broken);
    const int rc = this->call([this](auto&&... args) {
      return Init{}(std::forward<decltype(args)>(args)..., MPI_INFO_NULL,
                    &request_);
    });
    if (rc != MPI_SUCCESS) throw_mpi_error(rc, Init::name, __FILE__, __LINE__);
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Start(&request_));
    MPIARENA_CHECK(MPI_Wait(&request_, MPI_STATUS_IGNORE));
  }
  void teardown() override {
    if (request_ != MPI_REQUEST_NULL) MPI_Request_free(&request_);
    Blocking::teardown();
  }
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace mpiarena
