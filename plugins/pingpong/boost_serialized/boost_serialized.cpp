// boost_serialized: ping-pong with Boost.MPI send / recv of an array of a
// user type Char (one char) that is serializable but NOT an MPI datatype:
// Boost.MPI packs every element through Boost.Serialization into a packed
// archive (Boost.MPI's NetPIPE comparison, "Boost.MPI (Serialized)",
// the worst case).
#include <boost/serialization/array.hpp>
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

BOOST_CLASS_IMPLEMENTATION(Char, object_serializable)
BOOST_CLASS_TRACKING(Char, track_never)

namespace {

class BoostSerialized final : public mpiarena::BoostPingPong<Char> {
  // The packed archive holds the bytes plus a header, with an int size.
  std::size_t max_payload_bytes() const override { return INT_MAX - 4096; }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<BoostSerialized>(mpiarena::pingpong_info(
    "boost_serialized",
    "ping-pong, Boost.MPI send/recv of a serializable Char that is not an "
    "MPI datatype (one serialization call per byte)",
    /*payload_copies=*/3)))
