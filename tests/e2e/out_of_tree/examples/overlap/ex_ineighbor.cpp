// Example (overlap suite): MPI_Ineighbor_alltoall on a periodic 1D
// Cartesian ring, count ints to each neighbour, overlapped with the base's
// computation. Block j of each buffer is the j-th neighbour the topology
// lists: the left (negative direction), then the right. The values depend
// on the sender only, so a message from the wrong neighbour fails at 3
// ranks and more; at 2 ranks both neighbours are the same rank (the two
// messages then pair by their order: stencil_suite.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/overlap_suite.hpp>
#include <string>
#include <vector>

namespace {

int value(int sender, std::size_t i) {
  return sender * 7919 + static_cast<int>(i % 7919);
}

class Ineighbor final : public mpiarena::OverlapStrategy {
  void build() override {
    int dims[1] = {ranks()}, periods[1] = {1};
    MPIARENA_CHECK(MPI_Cart_create(comm(), 1, dims, periods, 0, &ring_));
    MPIARENA_CHECK(MPI_Cart_shift(ring_, 0, 1, &left_, &right_));
    send_.resize(2 * count());
    for (std::size_t i = 0; i < send_.size(); ++i)
      send_[i] = value(rank(), i % count());
    reset();
  }
  void teardown() override {
    if (ring_ != MPI_COMM_NULL) MPI_Comm_free(&ring_);
  }
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Ineighbor_alltoall(send_.data(), icount(), MPI_INT,
                                          recv_.data(), icount(), MPI_INT,
                                          ring_, &requests.back()));
  }
  void reset() override { recv_.assign(2 * count(), -1); }
  mpiarena::Verdict check() override {
    for (std::size_t i = 0; i < count(); ++i) {
      if (recv_[i] != value(left_, i))
        return {false, "from the left, element " + std::to_string(i)};
      if (recv_[count() + i] != value(right_, i))
        return {false, "from the right, element " + std::to_string(i)};
    }
    return {};
  }
  MPI_Comm ring_ = MPI_COMM_NULL;
  int left_ = 0, right_ = 0;
  std::vector<int> send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Ineighbor>(mpiarena::overlap_info(
    "ex_ineighbor",
    "example: MPI_Ineighbor_alltoall on a periodic ring, overlapped")))
