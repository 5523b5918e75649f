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
  } else {
    if (is_root()) {
      flat_ = make_flat(count_);
    } else {
      flat_.assign(count_, kPoison);
    }
  }
  setup();
}

void TransferStrategy::poison() {
  if (is_root()) return;
  if (is_2d())
    rows_.clear();
  else
    poison_flat(flat_);
}

Verdict TransferStrategy::verify() {
  const std::string diff =
      is_2d() ? check_rows(rows_, base_) : check_flat(flat_, count_);
  if (diff.empty()) return {};
  return {false, (is_root() ? "root's own " : "") + diff};
}

void TransferStrategy::release() {
  teardown();
  Flat().swap(flat_);
  Rows().swap(rows_);
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
