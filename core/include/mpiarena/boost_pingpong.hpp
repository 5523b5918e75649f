// Ping-pong through Boost.MPI (seed 001): communicator::send / recv of an
// array of T laid over the byte buffer of PingPongStrategy. How Boost.MPI
// moves it depends on T's traits, which the plugin declares: as an MPI
// datatype (char, or a type marked with BOOST_IS_MPI_DATATYPE) or, for a
// type that is only serializable, element by element through a packed
// archive.
#pragma once

#include <boost/mpi/communicator.hpp>
#include <cstddef>
#include <mpiarena/pingpong.hpp>

namespace mpiarena {

template <class T>
class BoostPingPong : public PingPongStrategy {
  static_assert(sizeof(T) == 1, "T must overlay the byte buffer");

 protected:
  void setup() override {
    bc_ = boost::mpi::communicator(comm(), boost::mpi::comm_attach);
  }
  void teardown() override { bc_ = boost::mpi::communicator(); }
  void send(const unsigned char* data, std::size_t n, int peer) override {
    bc_.send(peer, 0, reinterpret_cast<const T*>(data), static_cast<int>(n));
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    bc_.recv(peer, 0, reinterpret_cast<T*>(data), static_cast<int>(n));
  }

 private:
  boost::mpi::communicator bc_;
};

}  // namespace mpiarena
