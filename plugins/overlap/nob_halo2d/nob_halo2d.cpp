// The pattern of NMPM's Non-blocking Overlap Benchmark (NOB): a 2D Cartesian
// grid (MPI_Dims_create, MPI_Cart_create), MPI_Isend/MPI_Irecv of count ints to
// the left, right, bottom and top neighbours, MPI_Waitall.
//
// nob_halo2d's grid is periodic in both dimensions, so every rank has four
// neighbours and the same work at any rank count (NOB needs a square count;
// here 2 ranks are a 2 x 1 grid, 3 ranks 3 x 1, 6 ranks 3 x 2). In a
// dimension of one rank the neighbour is the rank itself, in one of two
// ranks both neighbours are the same rank: tags tell the directions apart.
// nob_halo2d_open is NMPM's own grid: open edges, no
// message where the neighbour is MPI_PROC_NULL, so a corner rank of 2 x 2
// exchanges with 2 neighbours, not 4 (docs/methods.md, "Overlap").
//   nob_halo2d       post, compute, wait
//   nob_halo2d_test  the same, with MPI_Testall after every k-th slice of
//                    the computation (runner --test-every k)
//   nob_halo2d_open  nob_halo2d on the open grid
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
  explicit Halo2d(bool test_inside = false, bool periodic = true)
      : OverlapStrategy(test_inside), periodic_(periodic) {}

 private:
  void build() override {
    const int p = periodic_ ? 1 : 0;
    int dims[2] = {0, 0}, periods[2] = {p, p};
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
      if (neighbour_[d] == MPI_PROC_NULL) continue;  // open grid's edge
      // From the neighbour in direction d comes what it sent the other way.
      requests.push_back(MPI_REQUEST_NULL);
      MPIARENA_CHECK(MPI_Irecv(recv_[d].data(), icount(), MPI_INT,
                               neighbour_[d], d ^ 1, cart_, &requests.back()));
    }
    for (int d = 0; d < kDirections; ++d) {
      if (neighbour_[d] == MPI_PROC_NULL) continue;
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
    for (int d = 0; d < kDirections; ++d) {
      if (neighbour_[d] == MPI_PROC_NULL) {  // nothing may arrive there
        if (count() > 0 && recv_[d][0] != -1)
          return {false, std::string("the ") + kName[d] +
                             " edge of the open grid received data"};
        continue;
      }
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
    }
    return {};
  }

  bool periodic_;
  MPI_Comm cart_ = MPI_COMM_NULL;
  int neighbour_[kDirections] = {};
  std::vector<int> send_[kDirections], recv_[kDirections];
};

}  // namespace

namespace {

mpiarena::StrategyInfo with_grid(mpiarena::StrategyInfo info,
                                 const char* grid) {
  info.params.emplace_back("grid", grid);
  return info;
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Halo2d>(with_grid(
        mpiarena::overlap_info(
            "nob_halo2d",
            "NMPM's NOB: MPI_Isend/MPI_Irecv of count ints to the 4 "
            "neighbours of a periodic 2D grid, computation, MPI_Waitall",
            /*payload_copies=*/8),
        "periodic")),
    mpiarena::StrategyEntry{
        with_grid(mpiarena::overlap_info(
                      "nob_halo2d_test",
                      "nob_halo2d with MPI_Testall after every k-th of 64 "
                      "slices of the computation (--test-every k): "
                      "progress inside compute",
                      /*payload_copies=*/8),
                  "periodic"),
        [] { return std::make_unique<Halo2d>(/*test_inside=*/true); }},
    mpiarena::StrategyEntry{
        with_grid(mpiarena::overlap_info(
                      "nob_halo2d_open",
                      "nob_halo2d on NMPM's open grid (MPI_PROC_NULL "
                      "edges: 2 neighbours per rank on 2 x 2)",
                      /*payload_copies=*/8),
                  "open"),
        [] {
          return std::make_unique<Halo2d>(/*test_inside=*/false,
                                          /*periodic=*/false);
        }})
