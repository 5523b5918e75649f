// bw_fan_in, bw_fan_out: OSU 7.4's congestion bandwidth tests
// (osu_bw_fan_in, osu_bw_fan_out): windows of MPI_Isend / MPI_Irecv between
// rank 0 and every other rank at once (fan.hpp); every message checked by
// its receiver.
#include <mpiarena/fan.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class IsendFan : public mpiarena::FanStrategy {
 public:
  explicit IsendFan(mpiarena::Fan direction) : FanStrategy(direction) {}

 private:
  void start_send(const unsigned char* data, std::size_t n, int peer,
                  MPI_Request* req) override {
    MPIARENA_CHECK(
        MPI_Isend(data, static_cast<int>(n), MPI_BYTE, peer, 0, comm(), req));
  }
  void start_recv(unsigned char* data, std::size_t n, int peer,
                  MPI_Request* req) override {
    MPIARENA_CHECK(
        MPI_Irecv(data, static_cast<int>(n), MPI_BYTE, peer, 0, comm(), req));
  }
};

struct FanIn final : IsendFan {
  FanIn() : IsendFan(mpiarena::Fan::in) {}
};
struct FanOut final : IsendFan {
  FanOut() : IsendFan(mpiarena::Fan::out) {}
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<FanIn>(mpiarena::fan_info(
        "bw_fan_in",
        "every rank > 0 streams windows of MPI_Isend to rank 0 at once "
        "(osu_bw_fan_in); rank 0 checks every message",
        mpiarena::Fan::in)),
    mpiarena::make_entry<FanOut>(mpiarena::fan_info(
        "bw_fan_out",
        "rank 0 streams windows of MPI_Isend to every other rank at once "
        "(osu_bw_fan_out); every rank checks every message",
        mpiarena::Fan::out)))
