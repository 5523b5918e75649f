// corrupt_fan_in: a congestion fan-in that is wrong on purpose. The last
// rank sends the first message of every window with its byte 3 changed;
// the others are right. The hub's check of every message as it completes
// (fan.hpp) must fail it, also when that message's receive slot is reused
// later in the window (tests/e2e/e2e_fan.py).
#include <mpiarena/fan.hpp>
#include <mpiarena/mpi_check.hpp>
#include <vector>

namespace {

class CorruptFanIn final : public mpiarena::FanStrategy {
 public:
  CorruptFanIn() : FanStrategy(mpiarena::Fan::in) {}

 private:
  void start_send(const unsigned char* data, std::size_t n, int peer,
                  MPI_Request* req) override {
    const bool first = sent_++ % window() == 0;
    if (first && n > 3 && ctx().rank == ctx().size - 1) {
      wrong_.assign(data, data + n);
      wrong_[3] ^= 0x02;
      data = wrong_.data();
    }
    MPIARENA_CHECK(
        MPI_Isend(data, static_cast<int>(n), MPI_BYTE, peer, 0, comm(), req));
  }
  void start_recv(unsigned char* data, std::size_t n, int peer,
                  MPI_Request* req) override {
    MPIARENA_CHECK(
        MPI_Irecv(data, static_cast<int>(n), MPI_BYTE, peer, 0, comm(), req));
  }
  long long sent_ = 0;
  std::vector<unsigned char> wrong_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<CorruptFanIn>(mpiarena::fan_info(
    "corrupt_fan_in",
    "test plugin: bw_fan_in whose last rank corrupts the first message of "
    "each window",
    mpiarena::Fan::in)))
