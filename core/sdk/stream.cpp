// The stream suite's base (stream.hpp).
#include <algorithm>
#include <cstring>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stream.hpp>
#include <string>
#include <utility>

#include "core/sdk/suite_info.hpp"

namespace mpiarena {

StrategyInfo stream_info(std::string name, std::string summary,
                         bool bidirectional) {
  StrategyInfo info =
      bytes_method_info(std::move(name), "stream", std::move(summary), 1);
  info.pairwise = true;
  info.windowed = true;
  info.time_scale = bidirectional ? 0.5 : 1.0;
  info.params = {{"direction", bidirectional ? "bidirectional" : "one_way"}};
  MetricInfo rate;
  rate.name = "msg_rate";
  rate.unit = "msg/s";
  rate.compute = [](const MetricInput& in) { return in.pairs / in.part(""); };
  info.metrics = {rate};
  return info;
}

int stream_recv_slots(std::size_t bytes, int window) {
  const std::size_t stride = (bytes + 63) / 64 * 64;
  if (stride == 0 ||
      stride * static_cast<std::size_t>(window) <= kStreamRecvBytes)
    return window;
  const std::size_t fit = std::max<std::size_t>(2, kStreamRecvBytes / stride);
  return static_cast<int>(std::min<std::size_t>(fit, window));
}

void StreamStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  nslots_ = in_pair() && receiver() ? stream_recv_slots(bytes(), window()) : 0;
  if (in_pair() && bytes() > 0) {
    if (sender()) {
      send_.allocate(bytes());
      fill_bytes(send_.data(), bytes());
    }
    if (receiver()) {
      stride_ = (bytes() + 63) / 64 * 64;
      slots_.allocate(stride_ * static_cast<std::size_t>(nslots_));
      std::memset(slots_.data(), kPoisonByte, slots_.size());
    }
  }
  recv_reqs_.assign(static_cast<std::size_t>(nslots_), MPI_REQUEST_NULL);
  send_reqs_.assign(static_cast<std::size_t>(window()), MPI_REQUEST_NULL);
  setup();
}

void StreamStrategy::execute() {
  if (!in_pair()) return;
  const int w = window();
  const std::size_t n = bytes();
  for (int k = 0; k < nslots_; ++k)
    start_recv(recv_slot(k), n, peer(), k, &recv_reqs_[k]);
  if (sender())
    for (int k = 0; k < w; ++k)
      start_send(send_buffer(), n, peer(), k, &send_reqs_[k]);
  // Fewer slots than messages: each completed receive frees its slot for
  // the next message of the window.
  for (int next = nslots_; receiver() && next < w; ++next) {
    int k = MPI_UNDEFINED;
    MPIARENA_CHECK(
        MPI_Waitany(nslots_, recv_reqs_.data(), &k, MPI_STATUS_IGNORE));
    start_recv(recv_slot(k), n, peer(), k, &recv_reqs_[k]);
  }
  MPIARENA_CHECK(MPI_Waitall(nslots_, recv_reqs_.data(), MPI_STATUSES_IGNORE));
  if (sender())
    MPIARENA_CHECK(MPI_Waitall(w, send_reqs_.data(), MPI_STATUSES_IGNORE));
  if (bidirectional_) return;
  if (pair_initiator(ctx_))
    MPIARENA_CHECK(MPI_Recv(&ack_, 1, MPI_INT, peer(), kStreamAckTag, comm(),
                            MPI_STATUS_IGNORE));
  else
    MPIARENA_CHECK(MPI_Send(&ack_, 1, MPI_INT, peer(), kStreamAckTag, comm()));
}

void StreamStrategy::poison() {
  if (slots_.size()) std::memset(slots_.data(), kPoisonByte, slots_.size());
}

Verdict StreamStrategy::verify() {
  if (!in_pair()) return {};
  for (int k = 0; bytes() > 0 && k < nslots_; ++k)
    if (std::string e = check_bytes(recv_slot(k), bytes()); !e.empty())
      return {false, "receive slot " + std::to_string(k) + " of " +
                         std::to_string(nslots_) + ": " + e};
  if (sender() && bytes() > 0)
    if (std::string e = check_bytes(send_buffer(), bytes()); !e.empty())
      return {false, "the send buffer changed: " + e};
  return {};
}

void StreamStrategy::release() {
  teardown();
  send_.reset();
  slots_.reset();
}

}  // namespace mpiarena
