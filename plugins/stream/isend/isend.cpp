// Streaming bandwidth with MPI_Isend / MPI_Irecv (OSU osu_bw, osu_bibw).
// isend_bw: one way, W sends answered by one acknowledgement; isend_bibw:
// both ranks of a pair stream at once (stream.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stream.hpp>

namespace {

class Isend : public mpiarena::StreamStrategy {
 public:
  explicit Isend(bool bidirectional) : StreamStrategy(bidirectional) {}

 private:
  void start_send(const unsigned char* data, std::size_t n, int peer, int,
                  MPI_Request* req) override {
    MPIARENA_CHECK(
        MPI_Isend(data, static_cast<int>(n), MPI_BYTE, peer, 100, comm(), req));
  }
  void start_recv(unsigned char* data, std::size_t n, int peer, int,
                  MPI_Request* req) override {
    MPIARENA_CHECK(
        MPI_Irecv(data, static_cast<int>(n), MPI_BYTE, peer, 100, comm(), req));
  }
};

struct OneWay final : Isend {
  OneWay() : Isend(false) {}
};
struct BothWays final : Isend {
  BothWays() : Isend(true) {}
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<OneWay>(mpiarena::stream_info(
        "isend_bw",
        "osu_bw: W MPI_Isend in flight, MPI_Waitall, 4-byte acknowledgement",
        false)),
    mpiarena::make_entry<BothWays>(mpiarena::stream_info(
        "isend_bibw",
        "osu_bibw: both ranks post W MPI_Irecv then W MPI_Isend, MPI_Waitall",
        true)))
