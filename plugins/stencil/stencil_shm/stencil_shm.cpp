// stencil_shm: OPBench's ownership passing (HMPI/OPI) from standard MPI-3.
// Every rank exposes one region per exchange in a shared-memory window
// (MPI_Win_allocate_shared); pack writes face k straight into the
// neighbour's region k, so the copy between cores happens in pack; comm is
// a flag hand-off (MPI_Win_sync, a zero-byte MPI_Sendrecv, MPI_Win_sync);
// unpack copies the region into ghost k.
//
// Why a region is never overwritten while its owner still reads it: the
// exchanges alternate right and left, so before a rank writes a
// neighbour's region k again it has received that neighbour's flag of a
// later exchange, sent after the neighbour unpacked region k (hence an
// even number of exchanges).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stencil_suite.hpp>
#include <string>
#include <vector>

namespace {

class StencilShm final : public mpiarena::StencilStrategy {
  void setup() override {
    MPIARENA_CHECK(MPI_Comm_split_type(comm(), MPI_COMM_TYPE_SHARED, rank(),
                                       MPI_INFO_NULL, &node_));
    int node_size = 0;
    MPIARENA_CHECK(MPI_Comm_size(node_, &node_size));
    if (node_size != ranks())
      throw mpiarena::SkipPoint(
          "stencil_shm needs every rank on one node (shared memory); " +
          std::to_string(node_size) + " of " + std::to_string(ranks()) +
          " share this one");
    const MPI_Aint bytes =
        static_cast<MPI_Aint>(static_cast<std::size_t>(exchanges()) * count() *
                              sizeof(std::uint64_t));
    std::uint64_t* mine = nullptr;
    MPIARENA_CHECK(MPI_Win_allocate_shared(bytes, sizeof(std::uint64_t),
                                           MPI_INFO_NULL, node_, &mine, &win_));
    regions_.assign(static_cast<std::size_t>(ranks()), nullptr);
    for (int r = 0; r < ranks(); ++r) {
      MPI_Aint size = 0;
      int disp = 0;
      void* base = nullptr;
      MPIARENA_CHECK(MPI_Win_shared_query(win_, r, &size, &disp, &base));
      regions_[static_cast<std::size_t>(r)] = static_cast<std::uint64_t*>(base);
    }
    MPIARENA_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_));
  }
  void teardown() override {
    if (win_ != MPI_WIN_NULL) {
      MPI_Win_unlock_all(win_);
      MPI_Win_free(&win_);
    }
    if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
  }
  std::uint64_t* region_of(int r, int k) {
    return regions_[static_cast<std::size_t>(r)] +
           static_cast<std::size_t>(k) * count();
  }
  void exchange(int k) override {
    {
      auto t = phases().scope(kPack);
      pack_into(region_of(to(k), k), k);
    }
    {
      auto t = phases().scope(kComm);
      MPIARENA_CHECK(MPI_Win_sync(win_));
      MPIARENA_CHECK(MPI_Sendrecv(nullptr, 0, MPI_BYTE, to(k), k, nullptr, 0,
                                  MPI_BYTE, from(k), k, comm(),
                                  MPI_STATUS_IGNORE));
      MPIARENA_CHECK(MPI_Win_sync(win_));
    }
    auto t = phases().scope(kUnpack);
    unpack_from(region_of(rank(), k), k);
  }
  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  std::vector<std::uint64_t*> regions_;
};

mpiarena::StrategyInfo shm_info() {
  mpiarena::StrategyInfo info = mpiarena::stencil_info(
      "stencil_shm",
      "ownership passing from MPI-3 (OPBench's OPI mode): pack writes into the "
      "neighbour's MPI_Win_allocate_shared region, comm is a flag hand-off",
      /*extra_copies=*/4);
  info.single_node = true;
  return info;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<StencilShm>(shm_info()))
