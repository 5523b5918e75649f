// The congestion suite's base (fan.hpp).
#include <climits>
#include <cstring>
#include <mpiarena/fan.hpp>
#include <mpiarena/mpi_check.hpp>
#include <string>
#include <utility>

#include "core/sdk/suite_info.hpp"

namespace mpiarena {

StrategyInfo fan_info(std::string name, std::string summary, Fan direction) {
  StrategyInfo info =
      bytes_method_info(std::move(name), "congestion", std::move(summary), 1);
  info.windowed = true;
  // Fan-out: the hub holds one send buffer per peer.
  if (direction == Fan::out) info.payload_copies_per_rank = 1;
  info.params = {{"direction", direction == Fan::in ? "fan_in" : "fan_out"}};
  MetricInfo bw;
  bw.name = "aggregate_bw";
  bw.unit = "MB/s";
  // OSU's figure: size x window x streams / time of a window, in 10^6 B/s;
  // part("") is that time over the window.
  bw.compute = [](const MetricInput& in) {
    const double t = in.part("");
    return t > 0 ? static_cast<double>(in.bytes) * (in.ranks - 1) / t / 1e6
                 : 0.0;
  };
  info.metrics = {bw};
  return info;
}

std::size_t fan_offset(int from, int to) {
  return static_cast<std::size_t>(from) * 131 +
         static_cast<std::size_t>(to) * 17;
}

void FanStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  if (ctx.bytes > static_cast<std::size_t>(INT_MAX))
    throw SkipPoint("a message of " + std::to_string(ctx.bytes) +
                    " bytes exceeds the int count of MPI_BYTE");
  peers_.clear();
  if (hub())
    for (int r = 1; r < ctx.size; ++r) peers_.push_back(r);
  else
    peers_.push_back(0);
  sends_ = hub() == (direction_ == Fan::out);
  const int messages = window() * static_cast<int>(peers_.size());
  out_.clear();
  out_.resize(sends_ ? peers_.size() : 0);
  for (std::size_t i = 0; i < out_.size() && bytes() > 0; ++i) {
    out_[i].allocate(bytes());
    fill_bytes(out_[i].data(), bytes(), fan_offset(ctx.rank, peers_[i]));
  }
  nslots_ = sends_ ? 0 : stream_recv_slots(bytes(), messages);
  stride_ = (bytes() + 63) / 64 * 64;
  if (nslots_ > 0 && bytes() > 0) {
    slots_.allocate(stride_ * static_cast<std::size_t>(nslots_));
    std::memset(slots_.data(), kPoisonByte, slots_.size());
  }
  in_slot_.assign(static_cast<std::size_t>(nslots_), -1);
  reqs_.assign(static_cast<std::size_t>(sends_ ? messages : nslots_),
               MPI_REQUEST_NULL);
  setup();
}

void FanStrategy::execute() {
  if (sends_) {
    const std::size_t np = peers_.size();
    for (std::size_t m = 0; m < reqs_.size(); ++m)
      start_send(out_.empty() || bytes() == 0 ? nullptr : out_[m % np].data(),
                 bytes(), peers_[m % np], &reqs_[m]);
    MPIARENA_CHECK(MPI_Waitall(static_cast<int>(reqs_.size()), reqs_.data(),
                               MPI_STATUSES_IGNORE));
  } else {
    receive_window();
  }
  acknowledge();
  checking_ = false;
}

// Every message of the window, through the slots: message m comes from
// peers_[m % peers], window slot m / peers.
void FanStrategy::receive_window() {
  const int np = static_cast<int>(peers_.size());
  const int messages = window() * np;
  int next = 0;
  for (; next < nslots_ && next < messages; ++next) {
    in_slot_[next] = next;
    start_recv(slot(next), bytes(), peers_[next % np], &reqs_[next]);
  }
  for (; next < messages; ++next) {
    int k = MPI_UNDEFINED;
    MPIARENA_CHECK(MPI_Waitany(nslots_, reqs_.data(), &k, MPI_STATUS_IGNORE));
    check_slot(k);
    in_slot_[k] = next;
    start_recv(slot(k), bytes(), peers_[next % np], &reqs_[k]);
  }
  MPIARENA_CHECK(MPI_Waitall(nslots_, reqs_.data(), MPI_STATUSES_IGNORE));
  for (int k = 0; k < nslots_; ++k) check_slot(k);
}

void FanStrategy::check_slot(int k) {
  const int m = in_slot_[k];
  if (!checking_ || m < 0) return;
  in_slot_[k] = -1;
  ++checked_;
  const int np = static_cast<int>(peers_.size());
  const int from = peers_[m % np];
  const std::string e =
      check_bytes(slot(k), bytes(), fan_offset(from, ctx_.rank));
  if (!e.empty() && verdict_.ok)
    verdict_ = {false, "message " + std::to_string(m / np) +
                           " of the window "
                           "from rank " +
                           std::to_string(from) + ": " + e};
}

// The receiver acknowledges each of its senders once it has the window
// (OSU's 1-byte reply, here an int), the sender waits for it.
void FanStrategy::acknowledge() {
  for (int peer : peers_) {
    if (sends_)
      MPIARENA_CHECK(MPI_Recv(&ack_, 1, MPI_INT, peer, kStreamAckTag, comm(),
                              MPI_STATUS_IGNORE));
    else
      MPIARENA_CHECK(MPI_Send(&ack_, 1, MPI_INT, peer, kStreamAckTag, comm()));
  }
}

void FanStrategy::poison() {
  if (slots_.size()) std::memset(slots_.data(), kPoisonByte, slots_.size());
  checking_ = true;
  checked_ = 0;
  verdict_ = {};
}

Verdict FanStrategy::verify() {
  if (!verdict_.ok) return verdict_;
  const int expected = sends_ ? 0 : window() * static_cast<int>(peers_.size());
  if (checked_ != expected)
    return {false, std::to_string(checked_) + " of the " +
                       std::to_string(expected) +
                       " messages of the window were checked"};
  for (std::size_t i = 0; i < out_.size() && bytes() > 0; ++i)
    if (std::string e = check_bytes(out_[i].data(), bytes(),
                                    fan_offset(ctx_.rank, peers_[i]));
        !e.empty())
      return {false, "the send buffer to rank " + std::to_string(peers_[i]) +
                         " changed: " + e};
  return {};
}

void FanStrategy::release() {
  teardown();
  out_.clear();
  slots_.reset();
}

}  // namespace mpiarena
