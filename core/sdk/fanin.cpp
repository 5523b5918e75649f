#include <mpiarena/fanin.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/sdk/suite_info.hpp"

namespace mpiarena {

StrategyInfo fanin_info(std::string name, std::string summary,
                        int payload_copies, int payload_copies_per_rank) {
  StrategyInfo info = bytes_method_info(std::move(name), "fanin",
                                        std::move(summary), payload_copies);
  info.payload_copies_per_rank = payload_copies_per_rank;
  return info;
}

namespace {
// Payload stream of a client: offset by its rank.
std::size_t offset_of(int client) {
  return static_cast<std::size_t>(client) * 131;
}
}  // namespace

void FanInStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  if (ctx.bytes > static_cast<std::size_t>(INT_MAX))
    throw SkipPoint("a message of " + std::to_string(ctx.bytes) +
                            " bytes exceeds the int count of MPI_BYTE");
  if (ctx.rank == 0) {
    slots_.assign(static_cast<std::size_t>(ctx.size),
                  std::vector<unsigned char>(ctx.bytes, kPoisonByte));
    slots_[0].clear();
  } else {
    mine_.resize(ctx.bytes);
    fill_bytes(mine_, offset_of(ctx.rank));
  }
  setup();
}

void FanInStrategy::execute() {
  if (ctx_.rank == 0)
    root_receive(slots_);
  else
    client_send(mine_.data(), mine_.size());
}

void FanInStrategy::root_receive(
    std::vector<std::vector<unsigned char>>& slots) {
  for (int c = 1; c < ctx_.size; ++c)
    MPIARENA_CHECK(MPI_Recv(slots[c].data(), static_cast<int>(ctx_.bytes),
                            MPI_BYTE, c, kTagData, ctx_.comm,
                            MPI_STATUS_IGNORE));
}

void FanInStrategy::poison() {
  for (auto& slot : slots_)
    for (unsigned char& b : slot) b = kPoisonByte;
}

Verdict FanInStrategy::verify() {
  for (int c = 1; c < static_cast<int>(slots_.size()); ++c) {
    const std::string diff = check_bytes(slots_[c], offset_of(c));
    if (!diff.empty())
      return {false, "message of client " + std::to_string(c) + ": " + diff};
  }
  return {};
}

void FanInStrategy::release() {
  teardown();
  std::vector<unsigned char>().swap(mine_);
  std::vector<std::vector<unsigned char>>().swap(slots_);
}

}  // namespace mpiarena
