#include "core/engine/collective.hpp"

#include <mpiarena/mpi_check.hpp>
#include <numeric>

namespace mpiarena {

std::string bcast_string(std::string text, int root, MPI_Comm comm) {
  int len = static_cast<int>(text.size());
  MPIARENA_CHECK(MPI_Bcast(&len, 1, MPI_INT, root, comm));
  text.resize(static_cast<std::size_t>(len));
  MPIARENA_CHECK(MPI_Bcast(text.data(), len, MPI_CHAR, root, comm));
  return text;
}

std::vector<std::string> bcast_strings(std::vector<std::string> items,
                                       int root, MPI_Comm comm) {
  int count = static_cast<int>(items.size());
  MPIARENA_CHECK(MPI_Bcast(&count, 1, MPI_INT, root, comm));
  std::vector<int> lengths(static_cast<std::size_t>(count));
  std::string all;
  int rank = 0;
  MPIARENA_CHECK(MPI_Comm_rank(comm, &rank));
  if (rank == root) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      lengths[i] = static_cast<int>(items[i].size());
      all += items[i];
    }
  }
  MPIARENA_CHECK(MPI_Bcast(lengths.data(), count, MPI_INT, root, comm));
  all.resize(static_cast<std::size_t>(
      std::accumulate(lengths.begin(), lengths.end(), 0)));
  MPIARENA_CHECK(MPI_Bcast(all.data(), static_cast<int>(all.size()), MPI_CHAR,
                           root, comm));
  items.assign(static_cast<std::size_t>(count), {});
  std::size_t at = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    items[i] = all.substr(at, static_cast<std::size_t>(lengths[i]));
    at += static_cast<std::size_t>(lengths[i]);
  }
  return items;
}

std::vector<std::string> gather_strings(const std::string& mine, int root,
                                        MPI_Comm comm) {
  int rank = 0, size = 1;
  MPIARENA_CHECK(MPI_Comm_rank(comm, &rank));
  MPIARENA_CHECK(MPI_Comm_size(comm, &size));
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(rank == root ? static_cast<std::size_t>(size) : 0);
  MPIARENA_CHECK(
      MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, comm));
  std::vector<int> offsets(lengths.size());
  std::string all;
  if (rank == root) {
    std::exclusive_scan(lengths.begin(), lengths.end(), offsets.begin(), 0);
    all.resize(static_cast<std::size_t>(
        std::accumulate(lengths.begin(), lengths.end(), 0)));
  }
  MPIARENA_CHECK(MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(),
                             lengths.data(), offsets.data(), MPI_CHAR, root,
                             comm));
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lengths.size(); ++r)
    out.push_back(all.substr(static_cast<std::size_t>(offsets[r]),
                             static_cast<std::size_t>(lengths[r])));
  return out;
}

std::pair<int, std::string> first_failure(bool failed, std::string message,
                                          MPI_Comm comm, int rank) {
  const int mine = failed ? rank : kNobody;
  int first = kNobody;
  MPIARENA_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == kNobody) return {first, {}};
  return {first, bcast_string(std::move(message), first, comm)};
}

}  // namespace mpiarena
