// Ping-pong through Boost.MPI (Boost.MPI's own NetPIPE comparison,
// docs/methods.md "pingpong"): communicator::send / recv of an
// array of T laid over the byte buffer of PingPongStrategy. How Boost.MPI
// moves it depends on T's traits, which the plugin declares: as an MPI
// datatype (char, or a type marked with BOOST_IS_MPI_DATATYPE) or, for a
// type that is only serializable, element by element through a packed
// archive.
//
// Boost.MPI is not part of what mpiarena::plugin links: a plugin that
// includes this header links Boost::mpi and Boost::serialization itself.
#pragma once

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/detail/mpi_datatype_cache.hpp>
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
  // Boost.MPI keeps the datatypes it builds (an is_mpi_datatype T's) in a
  // cache that only boost::mpi::environment's destructor frees before
  // MPI_Finalize; the runner has no environment (it uses the MPI C API),
  // so they are freed here, and the next strategy builds them again.
  void teardown() override {
    bc_ = boost::mpi::communicator();
    boost::mpi::detail::mpi_datatype_cache().clear();
  }
  // A 0-byte message has no buffer (data is null), but Boost.MPI's array
  // send / recv dereference the pointer to get the MPI datatype
  // (get_mpi_datatype<T>(*values), communicator.hpp), which is undefined
  // behaviour on null: hand them a valid element instead; count 0 moves
  // nothing.
  void send(const unsigned char* data, std::size_t n, int peer) override {
    const T* values = n == 0 ? &empty_ : reinterpret_cast<const T*>(data);
    bc_.send(peer, 0, values, static_cast<int>(n));
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    T* values = n == 0 ? &empty_ : reinterpret_cast<T*>(data);
    bc_.recv(peer, 0, values, static_cast<int>(n));
  }

 private:
  boost::mpi::communicator bc_;
  T empty_{};  // what a 0-byte message points at
};

}  // namespace mpiarena
