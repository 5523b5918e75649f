// Seed 002's Non-blocking Overlap Benchmark pattern: a 2D Cartesian grid
// (MPI_Dims_create, MPI_Cart_create), MPI_Isend/MPI_Irecv of count ints to
// the left, right, bottom and top neighbours, MPI_Waitall.
//
// The grid is periodic in both dimensions, so every rank has four
// neighbours and the same work at any rank count (NOB needs a square count;
// here 2 ranks are a 2 x 1 grid, 3 ranks 3 x 1, 6 ranks 3 x 2). In a
// dimension of one rank the neighbour is the rank itself, in one of two
// ranks both neighbours are the same rank: tags tell the directions apart.
//   nob_halo2d       post, compute, wait
//   nob_halo2d_test  the same, with MPI_Testall after every k-th slice of
//                    the computation (runner --test-every k)
#include <memory>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/overlap_suite.hpp>
#include <string>
#include <vector>

namespace {

// Directions: 0 -x, 1 +x, 2 -y, 3 +y; opposite(d) = d ^ 1.
constexpr int kDirections = 4;

// What rank `from` sends in direction `dir`, element i.
int halo_value(int from, int dir, std::size_t i) {
  // Below INT_MAX for any rank: a rank's few neighbours differ in it.
  return static_cast<int>(i % 65521) * 8 + dir + 1 + (from % 2000) * 1048576;
}

class Halo2d final : public mpiarena::OverlapStrategy {
 public:
  using OverlapStrategy::OverlapStrategy;

 private:
  void build() override {
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPIARENA_CHECK(MPI_Dims_create(ranks(), 2, dims));
    MPIARENA_CHECK(
        MPI_Cart_create(comm(), 2, dims, periods, /*reorder=*/0, &cart_));
    for (int dim = 0; dim < 2; ++dim)
      MPIARENA_CHECK(MPI_Cart_shift(cart_, dim, 1, &neighbour_[2 * dim],
                                    &neighbour_[2 * dim + 1]));
    for (int d = 0; d < kDirections; ++d) {
      send_[d].resize(count());
      for (std::size_t i = 0; i < count(); ++i)
        send_[d][i] = halo_value(rank(), d, i);
      recv_[d].assign(count(), -1);
    }
  }
  void teardown() override {
    if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
  }
  void post(std::vector<MPI_Request>& requests) override {
    for (int d = 0; d < kDirections; ++d) {
      // From the neighbour in direction d comes what it sent the other way.
      requests.push_back(MPI_REQUEST_NULL);
      MPIARENA_CHECK(MPI_Irecv(recv_[d].data(), icount(), MPI_INT,
                               neighbour_[d], d ^ 1, cart_, &requests.back()));
    }
    for (int d = 0; d < kDirections; ++d) {
      requests.push_back(MPI_REQUEST_NULL);
      MPIARENA_CHECK(MPI_Isend(send_[d].data(), icount(), MPI_INT,
                               neighbour_[d], d, cart_, &requests.back()));
    }
  }
  void reset() override {
    for (auto& r : recv_) r.assign(r.size(), -1);
  }
  mpiarena::Verdict check() override {
    static const char* kName[] = {"left", "right", "bottom", "top"};
    for (int d = 0; d < kDirections; ++d)
      for (std::size_t i = 0; i < count(); ++i) {
        const int want = halo_value(neighbour_[d], d ^ 1, i);
        if (recv_[d][i] != want)
          return {false, std::string("halo from the ") + kName[d] +
                             " neighbour (rank " +
                             std::to_string(neighbour_[d]) + "), element " +
                             std::to_string(i) + " is " +
                             std::to_string(recv_[d][i]) + ", expected " +
                             std::to_string(want)};
      }
    return {};
  }

  MPI_Comm cart_ = MPI_COMM_NULL;
  int neighbour_[kDirections] = {};
  std::vector<int> send_[kDirections], recv_[kDirections];
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Halo2d>(mpiarena::overlap_info(
        "nob_halo2d",
        "seed 002's NOB: MPI_Isend/MPI_Irecv of count ints to the 4 "
        "neighbours of a periodic 2D grid, computation, MPI_Waitall",
        /*payload_copies=*/8)),
    mpiarena::StrategyEntry{
        mpiarena::overlap_info(
            "nob_halo2d_test",
            "nob_halo2d with MPI_Testall after every k-th of 64 slices of "
            "the computation (--test-every k): progress inside compute",
            /*payload_copies=*/8),
        [] { return std::make_unique<Halo2d>(/*test_inside=*/true); }})
