// boost_bytes: ping-pong with Boost.MPI communicator::send / recv of an
// array of char (seed 001, "Boost.MPI"): char is an MPI datatype, so
// Boost.MPI sends the array as MPI_CHAR, with no serialization.
#include <boost/mpi/communicator.hpp>
#include <mpiarena/pingpong.hpp>

namespace {

class BoostBytes final : public mpiarena::PingPongStrategy {
  void setup() override {
    bc_ = boost::mpi::communicator(comm(), boost::mpi::comm_attach);
  }
  void teardown() override { bc_ = boost::mpi::communicator(); }
  void send(const unsigned char* data, std::size_t n, int peer) override {
    bc_.send(peer, 0, reinterpret_cast<const char*>(data), static_cast<int>(n));
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    bc_.recv(peer, 0, reinterpret_cast<char*>(data), static_cast<int>(n));
  }

  boost::mpi::communicator bc_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<BoostBytes>(mpiarena::pingpong_info(
    "boost_bytes",
    "ping-pong, Boost.MPI communicator::send/recv of a char array")))
