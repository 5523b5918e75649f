// boost_datatype: ping-pong with Boost.MPI send / recv of an array of a user
// type Char (one char, serializable) that is_mpi_datatype declares an MPI
// datatype, so Boost.MPI builds a derived datatype for it (seed 001,
// "Boost.MPI (Datatypes)").
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/datatype.hpp>
#include <mpiarena/pingpong.hpp>

namespace {

struct Char {
  char c;
  template <class Archive>
  void serialize(Archive& ar, const unsigned int /*version*/) {
    ar& c;
  }
};
static_assert(sizeof(Char) == 1, "Char must overlay the byte buffer");

}  // namespace

BOOST_IS_MPI_DATATYPE(Char)
BOOST_CLASS_IMPLEMENTATION(Char, object_serializable)
BOOST_CLASS_TRACKING(Char, track_never)

namespace {

class BoostDatatype final : public mpiarena::PingPongStrategy {
  void setup() override {
    bc_ = boost::mpi::communicator(comm(), boost::mpi::comm_attach);
  }
  void teardown() override { bc_ = boost::mpi::communicator(); }
  void send(const unsigned char* data, std::size_t n, int peer) override {
    bc_.send(peer, 0, reinterpret_cast<const Char*>(data), static_cast<int>(n));
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    bc_.recv(peer, 0, reinterpret_cast<Char*>(data), static_cast<int>(n));
  }

  boost::mpi::communicator bc_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<BoostDatatype>(mpiarena::pingpong_info(
    "boost_datatype",
    "ping-pong, Boost.MPI send/recv of a user type Char made an MPI "
    "datatype by is_mpi_datatype")))
