// boost_packed: explicit Boost.MPI archives (the MPI & Boost
// benchmark's "Boost Packed MPI").
// The root serializes into a packed_oarchive every operation; Boost 1.81's
// broadcast of a packed archive sends it from the root to each receiver
// (size, then bytes), which reads it back through a packed_iarchive.
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/packed_iarchive.hpp>
#include <boost/mpi/packed_oarchive.hpp>
#include <boost/serialization/vector.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class BoostPacked final : public mpiarena::TransferStrategy {
  // The payload travels as bytes with one int count (room left for headers).
  std::size_t max_payload_bytes() const override { return kIntBytes; }

  void setup() override {
    bc_ = boost::mpi::communicator(comm(), boost::mpi::comm_attach);
  }

  void teardown() override { bc_ = boost::mpi::communicator(); }

  void execute() override {
    if (is_root()) {
      boost::mpi::packed_oarchive out(bc_);
      if (is_2d())
        out << rows();
      else
        out << flat();
      boost::mpi::broadcast(bc_, out, root());
    } else {
      boost::mpi::packed_iarchive in(bc_);
      boost::mpi::broadcast(bc_, in, root());
      if (is_2d())
        in >> receive_rows();
      else
        in >> flat();
    }
  }

  boost::mpi::communicator bc_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<BoostPacked>(mpiarena::transfer_info(
    "boost_packed",
    "Root serializes into a boost::mpi::packed_oarchive each operation, "
    "boost::mpi::broadcast "
    "of the archive (root sends to each receiver), receivers read a "
    "packed_iarchive",
    {"1d", "2d"}, 3)))
