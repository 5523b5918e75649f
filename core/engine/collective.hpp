// Agreement helpers: every rank must take the same decision, or a later
// collective deadlocks.
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

inline constexpr int kNobody = 1 << 30;

// The lowest rank whose `failed` is true, and its message, the same on every
// rank of `comm`; {kNobody, ""} when no rank failed.
std::pair<int, std::string> first_failure(bool failed, std::string message,
                                          MPI_Comm comm, int rank);

// `text` as rank `root` has it, on every rank.
std::string bcast_string(std::string text, int root, MPI_Comm comm);

// `items` as rank `root` has them, on every rank.
std::vector<std::string> bcast_strings(std::vector<std::string> items,
                                       int root, MPI_Comm comm);

// Every rank's `mine`, in rank order, on rank `root`; empty elsewhere.
std::vector<std::string> gather_strings(const std::string& mine, int root,
                                        MPI_Comm comm);

}  // namespace mpiarena
