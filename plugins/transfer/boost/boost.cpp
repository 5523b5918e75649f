// boost: Boost.MPI transfer of the object (the MPI & Boost
// benchmark's "Boost MPI"). 2d, as that benchmark: the root sends the rows to
// each receiver with communicator::send, which serializes them
// (Boost.Serialization) every time; receivers recv into their rows. 1d, as its
// "Boost MPI 1D": boost::mpi::broadcast of the std::vector<int> (saved as one
// array).
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/vector.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class Boost final : public mpiarena::TransferStrategy {
  // The payload travels as bytes with one int count (room left for headers).
  std::size_t max_payload_bytes() const override { return kIntBytes; }

  void setup() override {
    bc_ = boost::mpi::communicator(comm(), boost::mpi::comm_attach);
  }

  void teardown() override { bc_ = boost::mpi::communicator(); }

  void execute() override {
    if (!is_2d()) {
      boost::mpi::broadcast(bc_, flat(), root());
    } else if (is_root()) {
      for (int dest = 0; dest < ctx().size; ++dest)
        if (dest != root()) bc_.send(dest, 0, rows());
    } else {
      bc_.recv(root(), 0, receive_rows());
    }
  }

  boost::mpi::communicator bc_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Boost>(mpiarena::transfer_info(
    "boost",
    "boost::mpi::broadcast of the std::vector<int> (1d); communicator::send "
    "of the rows, "
    "serialized by Boost.Serialization, from the root to each receiver (2d)",
    {"1d", "2d"}, 3)))
