#include <cstdint>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>
#include <stdexcept>
#include <utility>

namespace mpiarena {

StrategyInfo transfer_info(std::string name, std::string summary,
                           std::vector<std::string> payloads,
                           int payload_copies) {
  StrategyInfo info;
  info.name = std::move(name);
  info.suite = "transfer";
  info.summary = std::move(summary);
  info.payloads = std::move(payloads);
  info.min_ranks = 2;
  info.payload_copies = payload_copies;
  return info;
}

void TransferStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  count_ = flat_count(ctx.bytes);
  base_ = rows_base(ctx.bytes);
  const std::size_t bytes = payload_bytes(ctx.payload, ctx.bytes);
  if (bytes > max_payload_bytes())
    throw SkipPoint(
        "a " + ctx.payload + " payload of " + std::to_string(bytes) +
        " bytes exceeds this method's limit of " +
        std::to_string(max_payload_bytes()) + " bytes (MPI counts are int)");
  if (is_2d()) {
    if (is_root())
      rows_ = make_rows(base_);
    else
      rows_.clear();
  } else if (shared_payload()) {
    int* mine = open_shared(count_ * sizeof(int));
    if (is_root())
      fill_flat(mine, count_);
    else
      poison_flat(mine, count_);
  } else {
    if (is_root()) {
      flat_ = make_flat(count_);
    } else {
      flat_.assign(count_, kPoison);
    }
  }
  setup();
}

int* TransferStrategy::open_shared(std::size_t bytes) {
  MPI_Comm node = MPI_COMM_NULL;
  MPIARENA_CHECK(MPI_Comm_split_type(comm(), MPI_COMM_TYPE_SHARED, ctx_.rank,
                                     MPI_INFO_NULL, &node));
  int node_size = 0;
  MPIARENA_CHECK(MPI_Comm_size(node, &node_size));
  MPIARENA_CHECK(MPI_Comm_free(&node));
  if (node_size != ctx_.size)
    throw SkipPoint(
        "the ranks span several nodes; a payload in shared memory needs "
        "every rank on one node");
  // Each rank's part on pages of its own (a part need not start on one).
  const std::size_t page = 4096;
  const std::size_t part = (bytes + page - 1) / page * page + page;
  MPI_Info info = MPI_INFO_NULL;
  MPIARENA_CHECK(MPI_Info_create(&info));
  MPIARENA_CHECK(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
  void* base = nullptr;
  const int rc =
      MPI_Win_allocate_shared(static_cast<MPI_Aint>(part), 1, info, comm(),
                              &base, &shared_win_);
  MPIARENA_CHECK(MPI_Info_free(&info));
  MPIARENA_CHECK(rc);
  peers_.assign(static_cast<std::size_t>(ctx_.size), nullptr);
  for (int r = 0; r < ctx_.size; ++r) {
    MPI_Aint size = 0;
    int unit = 0;
    void* p = nullptr;
    MPIARENA_CHECK(MPI_Win_shared_query(shared_win_, r, &size, &unit, &p));
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    peers_[static_cast<std::size_t>(r)] =
        reinterpret_cast<int*>((at + page - 1) / page * page);
  }
  return peers_[static_cast<std::size_t>(ctx_.rank)];
}

int* TransferStrategy::peer_flat(int rank) const {
  return peers_.empty() ? nullptr : peers_.at(static_cast<std::size_t>(rank));
}

namespace {
constexpr int kTagReady = 71, kTagDone = 72;
}  // namespace

void TransferStrategy::handshake_ready() {
  char none = 0;
  if (!is_root()) {
    MPIARENA_CHECK(MPI_Send(&none, 0, MPI_BYTE, root(), kTagReady, comm()));
    return;
  }
  for (int r = 0; r < ctx_.size; ++r)
    if (r != root())
      MPIARENA_CHECK(MPI_Recv(&none, 0, MPI_BYTE, r, kTagReady, comm(),
                              MPI_STATUS_IGNORE));
}

void TransferStrategy::handshake_done() {
  char none = 0;
  if (!is_root()) {
    MPIARENA_CHECK(MPI_Recv(&none, 0, MPI_BYTE, root(), kTagDone, comm(),
                            MPI_STATUS_IGNORE));
    return;
  }
  for (int r = 0; r < ctx_.size; ++r)
    if (r != root())
      MPIARENA_CHECK(MPI_Send(&none, 0, MPI_BYTE, r, kTagDone, comm()));
}

void TransferStrategy::close_shared() {
  if (shared_win_ == MPI_WIN_NULL) return;
  peers_.clear();
  MPIARENA_CHECK(MPI_Win_free(&shared_win_));
}

void TransferStrategy::poison() {
  if (is_root()) return;
  if (is_2d())
    rows_.clear();
  else if (!peers_.empty())
    poison_flat(peer_flat(ctx_.rank), count_);
  else
    poison_flat(flat_);
}

Verdict TransferStrategy::verify() {
  const std::string diff =
      is_2d()           ? check_rows(rows_, base_)
      : peers_.empty() ? check_flat(flat_, count_)
                       : check_flat(peer_flat(ctx_.rank), count_);
  if (diff.empty()) return {};
  return {false, (is_root() ? "root's own " : "") + diff};
}

void TransferStrategy::release() {
  teardown();
  Flat().swap(flat_);
  Rows().swap(rows_);
  close_shared();
}

std::vector<int> TransferStrategy::root_row_sizes() const {
  std::vector<int> sizes;
  sizes.reserve(rows_.size());
  for (const auto& row : rows_) sizes.push_back(static_cast<int>(row.size()));
  return sizes;
}

void TransferStrategy::shape_rows(const std::vector<int>& sizes) {
  if (ctx_.receive_fresh)
    Rows().swap(rows_);  // as the MPI & Boost benchmark's new recv_vec
  rows_.resize(sizes.size());
  for (std::size_t r = 0; r < sizes.size(); ++r)
    rows_[r].resize(static_cast<std::size_t>(sizes[r]));
}

Rows& TransferStrategy::receive_rows() {
  if (ctx_.receive_fresh) Rows().swap(rows_);
  return rows_;
}

void TransferStrategy::bcast_shape() {
  int nrows = is_root() ? static_cast<int>(rows_.size()) : 0;
  MPIARENA_CHECK(MPI_Bcast(&nrows, 1, MPI_INT, root(), comm()));
  std::vector<int> sizes =
      is_root() ? root_row_sizes() : std::vector<int>(nrows);
  MPIARENA_CHECK(MPI_Bcast(sizes.data(), nrows, MPI_INT, root(), comm()));
  if (!is_root()) shape_rows(sizes);
}

}  // namespace mpiarena
