// The topologies of the neighbourhood collectives (neighbor_suite.hpp).
#include <algorithm>
#include <cstddef>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/neighbor_suite.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

namespace {

std::string grid_of(const std::vector<int>& dims) {
  std::string out;
  for (int d : dims) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

// A periodic grid over `comm` in `ndims` dimensions (MPI_Dims_create), no
// reordering: ranks keep their numbers.
MPI_Comm periodic_grid(MPI_Comm comm, int ndims, std::vector<int>& dims) {
  int size = 0;
  MPIARENA_CHECK(MPI_Comm_size(comm, &size));
  dims.assign(static_cast<std::size_t>(ndims), 0);
  std::vector<int> periods(dims.size(), 1);
  MPIARENA_CHECK(MPI_Dims_create(size, ndims, dims.data()));
  MPI_Comm grid = MPI_COMM_NULL;
  MPIARENA_CHECK(
      MPI_Cart_create(comm, ndims, dims.data(), periods.data(), 0, &grid));
  return grid;
}

// OSU's neighbours of `rank` on `grid`: one per non-zero displacement in
// -r..r per dimension, the last dimension fastest (omb_neighborhood_create).
std::vector<int> moore_neighbors(MPI_Comm grid, int ndims, int rank, int r) {
  const std::size_t d = static_cast<std::size_t>(ndims);
  std::vector<int> at(d), disp(d, -r), there(d), out;
  MPIARENA_CHECK(MPI_Cart_coords(grid, rank, ndims, at.data()));
  for (;;) {
    if (std::any_of(disp.begin(), disp.end(), [](int v) { return v != 0; })) {
      for (std::size_t i = 0; i < d; ++i) there[i] = at[i] + disp[i];
      int other = 0;
      MPIARENA_CHECK(MPI_Cart_rank(grid, there.data(), &other));
      out.push_back(other);
    }
    std::size_t i = d;
    while (i > 0 && disp[i - 1] == r) disp[--i] = -r;
    if (i == 0) return out;
    ++disp[i - 1];
  }
}

// The face neighbours of `rank` on a Cartesian `grid`, per dimension below
// then above (what MPI_Cart_shift gives that rank).
std::vector<int> face_neighbors(MPI_Comm grid, int ndims, int rank) {
  std::vector<int> at(static_cast<std::size_t>(ndims)), out;
  MPIARENA_CHECK(MPI_Cart_coords(grid, rank, ndims, at.data()));
  for (std::size_t i = 0; i < at.size(); ++i)
    for (int step : {-1, 1}) {
      std::vector<int> there = at;
      there[i] += step;
      int other = 0;
      MPIARENA_CHECK(MPI_Cart_rank(grid, there.data(), &other));
      out.push_back(other);
    }
  return out;
}

// The block of the sender's send buffer that lands in this rank's receive
// block j when the edges between two ranks are matched in list order (a
// graph's rule, MPI-4.1 §8.6: the k-th edge to a rank with the k-th edge
// from it), or in reverse order (`reverse`: the k-th with the last-but-k).
// `theirs_of(s)`: rank s's destinations.
template <class Lists>
std::vector<int> matched_slots(int rank, const std::vector<int>& sources,
                               bool reverse, Lists theirs_of) {
  std::vector<int> slots;
  for (std::size_t j = 0; j < sources.size(); ++j) {
    const int s = sources[j];
    auto nth =
        std::count(sources.begin(), sources.begin() + static_cast<long>(j), s);
    const std::vector<int> theirs = theirs_of(s);
    if (reverse) nth = std::count(theirs.begin(), theirs.end(), rank) - 1 - nth;
    int slot = -1;
    for (std::size_t k = 0, seen = 0; k < theirs.size() && slot < 0; ++k)
      if (theirs[k] == rank && static_cast<long>(seen++) == nth)
        slot = static_cast<int>(k);
    slots.push_back(slot);
  }
  return slots;
}

Neighborhood osu_graph(const RunContext& ctx, int ndims, int radius) {
  Neighborhood h;
  h.topology = "osu";
  MPI_Comm grid = periodic_grid(ctx.comm, ndims, h.dims);
  const int min_dim = *std::min_element(h.dims.begin(), h.dims.end());
  if (radius >= min_dim) {
    MPIARENA_CHECK(MPI_Comm_free(&grid));
    throw SkipPoint(
        "topology osu: radius " + std::to_string(radius) +
        " reaches round a dimension of " + std::to_string(min_dim) +
        " rank(s) of the " + grid_of(h.dims) +
        " grid, so a rank would be its own neighbour (OSU refuses a radius "
        "above " +
        std::to_string((min_dim - 1) / 2) +
        " here): use a smaller radius or dim, or more ranks");
  }
  const std::vector<int> mine = moore_neighbors(grid, ndims, ctx.rank, radius);
  const std::vector<int> weights(mine.size(), 1);
  const int degree = static_cast<int>(mine.size());
  MPIARENA_CHECK(MPI_Dist_graph_create_adjacent(
      ctx.comm, degree, mine.data(), weights.data(), degree, mine.data(),
      weights.data(), MPI_INFO_NULL, 0, &h.comm));
  // The lists as MPI gives them back: the order the collectives use.
  int in = 0, out = 0, weighted = 0;
  MPIARENA_CHECK(MPI_Dist_graph_neighbors_count(h.comm, &in, &out, &weighted));
  h.sources.assign(static_cast<std::size_t>(in), -1);
  h.destinations.assign(static_cast<std::size_t>(out), -1);
  std::vector<int> in_w(h.sources.size() + 1), out_w(h.destinations.size() + 1);
  MPIARENA_CHECK(MPI_Dist_graph_neighbors(h.comm, in, h.sources.data(),
                                          in_w.data(), out,
                                          h.destinations.data(), out_w.data()));
  for (bool reverse : {false, true})
    h.matched_slot[reverse] = matched_slots(
        ctx.rank, h.sources, reverse,
        [&](int r) { return moore_neighbors(grid, ndims, r, radius); });
  h.source_slot = h.matched_slot[0];
  MPIARENA_CHECK(MPI_Comm_free(&grid));
  return h;
}

Neighborhood cart_grid(const RunContext& ctx, int ndims) {
  Neighborhood h;
  h.topology = "cart";
  h.comm = periodic_grid(ctx.comm, ndims, h.dims);
  for (int i = 0; i < ndims; ++i) {
    int below = MPI_PROC_NULL, above = MPI_PROC_NULL;
    MPIARENA_CHECK(MPI_Cart_shift(h.comm, i, 1, &below, &above));
    for (int r : {below, above}) {
      h.sources.push_back(r);
      h.destinations.push_back(r);
    }
    // What a rank sends up arrives from below, and the other way round.
    h.source_slot.push_back(2 * i + 1);
    h.source_slot.push_back(2 * i);
  }
  for (bool reverse : {false, true})
    h.matched_slot[reverse] =
        matched_slots(ctx.rank, h.sources, reverse,
                      [&](int r) { return face_neighbors(h.comm, ndims, r); });
  return h;
}

}  // namespace

bool Neighborhood::repeated() const {
  for (std::size_t j = 0; j < sources.size(); ++j)
    if (std::count(sources.begin(), sources.end(), sources[j]) > 1) return true;
  return false;
}

std::string Neighborhood::describe() const {
  return topology + " " + grid_of(dims) + " grid, " + std::to_string(degree()) +
         " neighbours";
}

Neighborhood make_neighborhood(const RunContext& ctx) {
  const std::string topology = ctx.option("topology");
  const long long dim = ctx.option_int("dim");
  const long long radius = ctx.option_int("radius");
  if (topology == "cart") {
    if (radius != 1)
      throw SkipPoint(
          "topology cart: MPI's Cartesian neighbours are the 2 dim face "
          "neighbours at distance 1, radius " +
          std::to_string(radius) + " applies to topology osu only");
    return cart_grid(ctx, dim > 0 ? static_cast<int>(dim) : 2);
  }
  return osu_graph(ctx, dim > 0 ? static_cast<int>(dim) : 1,
                   static_cast<int>(radius));
}

void free_neighborhood(Neighborhood& hood) {
  if (hood.comm != MPI_COMM_NULL) MPIARENA_CHECK(MPI_Comm_free(&hood.comm));
  hood = Neighborhood{};
}

std::vector<OptionInfo> neighbor_options(NeighborOp op) {
  std::vector<OptionInfo> out{
      OptionInfo::choice(
          "topology", "osu", {"osu", "cart"},
          "osu: OSU 7.4's graph (a periodic grid's Moore neighbourhood of "
          "radius r, MPI_Dist_graph_create_adjacent); cart: MPI_Cart_create, "
          "the 2 dim face neighbours"),
      OptionInfo::integer("dim", "0", 0, 6,
                          "grid dimensions (MPI_Dims_create); 0: the "
                          "topology's default, 1 for osu (OSU's), 2 for cart"),
      OptionInfo::integer("radius", "1", 1, 8,
                          "topology osu: neighbourhood radius (OSU's rad, 1); "
                          "cart takes 1 only")};
  if (op == NeighborOp::allgatherv || op == NeighborOp::alltoallv ||
      op == NeighborOp::alltoallw)
    out.push_back(counts_option());
  return out;
}

StrategyInfo neighbor_info(NeighborOp op, std::string call, std::string name,
                           std::string summary) {
  const bool gather =
      op == NeighborOp::allgather || op == NeighborOp::allgatherv;
  StrategyInfo info = collective_info("collective", std::move(name),
                                      std::move(summary), gather ? 10 : 18);
  info.params.emplace_back("collective", std::move(call));
  info.options = neighbor_options(op);
  return info;
}

StrategyInfo ineighbor_info(NeighborOp op, std::string name,
                            std::string summary) {
  const bool gather =
      op == NeighborOp::allgather || op == NeighborOp::allgatherv;
  StrategyInfo info =
      overlap_info(std::move(name), std::move(summary), gather ? 10 : 18);
  info.options = neighbor_options(op);
  return info;
}

}  // namespace mpiarena
