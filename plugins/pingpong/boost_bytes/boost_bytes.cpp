// boost_bytes: ping-pong with Boost.MPI communicator::send / recv of an
// array of char (Boost.MPI's NetPIPE comparison, "Boost.MPI"): char is an MPI
// datatype, so Boost.MPI sends the array as MPI_CHAR, with no serialization.
#include <mpiarena/boost_pingpong.hpp>

MPIARENA_PLUGIN(
    mpiarena::make_entry<mpiarena::BoostPingPong<char>>(mpiarena::pingpong_info(
        "boost_bytes",
        "ping-pong, Boost.MPI communicator::send/recv of a char array")))
