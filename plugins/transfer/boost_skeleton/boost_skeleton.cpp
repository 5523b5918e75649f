// boost_skeleton: Boost.MPI skeleton/content. The skeleton (the shape: vector
// length, or row count and row sizes) is broadcast ONCE in setup() and shapes
// the receivers' data; get_content() then builds, once, an MPI datatype
// addressing every element. Each operation broadcasts only that content.
// Assumes the shape does not change between operations (the case of repeated
// ghost exchanges), so poison() keeps the receivers' shape and only
// overwrites their elements: reallocating would invalidate the content's
// absolute addresses.
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/skeleton_and_content.hpp>
#include <boost/serialization/vector.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class BoostSkeleton final : public mpiarena::TransferStrategy {
  void setup() override {
    bc_ = boost::mpi::communicator(comm(), boost::mpi::comm_attach);
    if (is_2d()) {
      boost::mpi::broadcast(bc_, boost::mpi::skeleton(rows()), root());
      content_ = boost::mpi::get_content(rows());
    } else {
      boost::mpi::broadcast(bc_, boost::mpi::skeleton(flat()), root());
      content_ = boost::mpi::get_content(flat());
    }
  }

  void teardown() override {
    content_ = boost::mpi::content();
    bc_ = boost::mpi::communicator();
  }

  void execute() override { boost::mpi::broadcast(bc_, content_, root()); }

  // The shape travels only in setup(): keep it, poison the elements.
  void poison() override {
    if (is_root()) return;
    if (is_2d())
      mpiarena::poison_rows(rows());
    else
      mpiarena::poison_flat(flat());
  }

  boost::mpi::communicator bc_;
  boost::mpi::content content_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<BoostSkeleton>(mpiarena::transfer_info(
        "boost_skeleton",
        "boost::mpi::broadcast of the content (an MPI datatype over every element,"
     " built once) only; the skeleton (shape) is broadcast once in setup, so "
     "it assumes the shape is unchanged between operations (repeated ghost "
     "exchanges)", {"1d", "2d"})))
