// boost_datatype: ping-pong with Boost.MPI send / recv of an array of a user
// type Char (one char, serializable) that is_mpi_datatype declares an MPI
// datatype, so Boost.MPI builds a derived datatype for it (Boost.MPI's
// NetPIPE comparison, "Boost.MPI (Datatypes)").
#include <boost/mpi/datatype.hpp>
#include <mpiarena/boost_pingpong.hpp>

namespace {

struct Char {
  char c;
  template <class Archive>
  void serialize(Archive& ar, const unsigned int /*version*/) {
    ar& c;
  }
};

}  // namespace

BOOST_IS_MPI_DATATYPE(Char)
BOOST_CLASS_IMPLEMENTATION(Char, object_serializable)
BOOST_CLASS_TRACKING(Char, track_never)

MPIARENA_PLUGIN(
    mpiarena::make_entry<mpiarena::BoostPingPong<Char>>(mpiarena::pingpong_info(
        "boost_datatype",
        "ping-pong, Boost.MPI send/recv of a user type Char made an MPI "
        "datatype by is_mpi_datatype")))
