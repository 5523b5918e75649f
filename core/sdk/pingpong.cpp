#include <algorithm>
#include <cstring>
#include <mpiarena/payload.hpp>
#include <mpiarena/pingpong.hpp>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/sdk/suite_info.hpp"

namespace mpiarena {

StrategyInfo pingpong_info(std::string name, std::string summary,
                           int payload_copies) {
  StrategyInfo info = bytes_method_info(std::move(name), "pingpong",
                                        std::move(summary), payload_copies);
  info.time_scale = kOneWay;
  info.pairwise = true;
  return info;
}

unsigned char payload_byte(std::size_t index) {
  return static_cast<unsigned char>(payload_value(7, index) & 0xFF);
}

void fill_bytes(unsigned char* data, std::size_t n, std::size_t offset) {
  for (std::size_t i = 0; i < n; ++i) data[i] = payload_byte(offset + i);
}

std::string check_bytes(const unsigned char* data, std::size_t n,
                        std::size_t offset) {
  for (std::size_t i = 0; i < n; ++i) {
    if (data[i] != payload_byte(offset + i))
      return "byte " + std::to_string(i) + " is " + std::to_string(data[i]) +
             ", expected " + std::to_string(payload_byte(offset + i)) +
             (data[i] == kPoisonByte ? " (never written)" : "");
  }
  return {};
}

void AlignedBytes::allocate(std::size_t n) {
  reset();
  if (n == 0) return;
  // aligned_alloc wants a multiple of the alignment.
  const std::size_t rounded =
      (n + kBufferAlign - 1) / kBufferAlign * kBufferAlign;
  p_.reset(
      static_cast<unsigned char*>(std::aligned_alloc(kBufferAlign, rounded)));
  if (!p_) throw std::bad_alloc();
  n_ = n;
}

void AlignedBytes::reset() {
  p_.reset();
  n_ = 0;
}

namespace {

std::size_t round_up(std::size_t n, std::size_t unit) {
  return (n + unit - 1) / unit * unit;
}

}  // namespace

PingPongBuffers::Layout PingPongBuffers::layout(std::size_t bytes,
                                                bool separate, bool cold,
                                                std::size_t cache_set_bytes,
                                                std::size_t min_slots) {
  Layout l;
  if (bytes == 0) return l;
  min_slots = std::max<std::size_t>(min_slots, 1);
  const std::size_t kinds = separate ? 2 : 1;
  if (!cold) {
    l.stride = round_up(bytes, kBufferAlign);
    l.slots = min_slots;
    l.send_slots = separate ? 1 : l.slots;
  } else {
    l.stride = round_up(bytes, bytes < 4096 ? 64 : 4096);
    const std::size_t fill = round_up(cache_set_bytes, kinds * l.stride) /
                             (kinds * l.stride);  // slots of each kind
    l.slots = std::max({fill, min_slots, separate ? std::size_t(1) : 2});
    l.send_slots = l.slots;
  }
  l.bytes = (separate ? l.send_slots + l.slots : l.slots) * l.stride;
  return l;
}

void PingPongBuffers::allocate(const RunContext& ctx, std::size_t min_slots) {
  reset();
  separate_ = ctx.separate_buffers;
  bytes_ = ctx.bytes;
  layout_ = layout(ctx.bytes, separate_, ctx.cache_cold, ctx.cache_set_bytes,
                   min_slots);
  if (bytes_ == 0) return;
  region_.allocate(layout_.bytes);
  if (separate_ || pair_initiator(ctx)) {
    fill_bytes(send(0), bytes_);
    for (std::size_t k = 1; k < layout_.send_slots; ++k)
      std::memcpy(send(k), send(0), bytes_);
  } else {
    std::memset(send(0), kPoisonByte, layout_.slots * layout_.stride);
  }
  if (separate_)
    std::memset(recv(0), kPoisonByte, layout_.slots * layout_.stride);
}

void PingPongBuffers::reset() {
  region_.reset();
  layout_ = Layout{};
  bytes_ = 0;
}

std::string PingPongBuffers::check_send() const {
  if (!separate_ || bytes_ == 0) return {};
  const unsigned char* first = region_.data();
  const std::string where = layout_.send_slots > 1 ? "send buffer slot " : "";
  std::string diff = check_bytes(first, bytes_);
  if (!diff.empty())
    return (where.empty() ? "send buffer " : where + "0 ") + diff;
  for (std::size_t k = 1; k < layout_.send_slots; ++k) {
    const unsigned char* slot = first + k * layout_.stride;
    if (std::memcmp(slot, first, bytes_) != 0)
      return where + std::to_string(k) + " " + check_bytes(slot, bytes_);
  }
  return {};
}

void PingPongStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  slot_ = last_ = 0;
  poisoned_ = poison_pong_ = false;
  if (ctx.bytes > max_payload_bytes())
    throw SkipPoint("a message of " + std::to_string(ctx.bytes) +
                    " bytes exceeds this method's limit of " +
                    std::to_string(max_payload_bytes()) + " bytes");
  if (in_pair()) bufs_.allocate(ctx);
  setup();
}

void PingPongStrategy::send(const unsigned char*, std::size_t, int) {
  throw std::logic_error(
      "a ping-pong method overrides send() and recv(), or round_trip()");
}

void PingPongStrategy::recv(unsigned char*, std::size_t, int) {
  throw std::logic_error(
      "a ping-pong method overrides send() and recv(), or round_trip()");
}

void PingPongStrategy::round_trip(const unsigned char* out, unsigned char* in,
                                  std::size_t n, int peer, bool initiator) {
  if (initiator) {
    send(out, n, peer);
    if (poison_pong_ && n > 0) std::memset(in, kPoisonByte, n);
    recv(in, n, peer);
  } else {
    recv(in, n, peer);
    send(out, n, peer);
  }
}

void PingPongStrategy::execute() {
  if (!in_pair()) return;
  const std::size_t n = ctx_.bytes;
  const std::size_t k = slot_;
  unsigned char* sbuf = bufs_.send(k);
  unsigned char* rbuf = bufs_.recv(k);
  round_trip(sbuf, rbuf, n, peer(), initiator());
  last_ = k;
  slot_ = bufs_.next(k);
}

// The receive slot of the next round trip gets the poison. Under shared the
// initiator's slot is also its send slot: it gets the ping now and the
// poison between the send and the receive (execute()).
void PingPongStrategy::poison() {
  if (!in_pair()) return;
  poisoned_ = true;
  const std::size_t n = ctx_.bytes;
  if (n == 0) return;
  if (!bufs_.separate() && initiator()) {
    fill_bytes(bufs_.send(slot_), n);  // the ping to send
    poison_pong_ = true;
  } else {
    std::memset(bufs_.recv(slot_), kPoisonByte, n);
  }
}

Verdict PingPongStrategy::verify() {
  if (!in_pair()) return {};
  const bool poisoned = poisoned_;
  poisoned_ = poison_pong_ = false;
  if (!poisoned)
    return {false, "verify() without poison(): the round trip was not checked"};
  std::string diff = check_bytes(bufs_.recv(last_), ctx_.bytes);
  if (!diff.empty()) return {false, (initiator() ? "pong " : "ping ") + diff};
  diff = bufs_.check_send();
  if (!diff.empty()) return {false, diff};
  return {};
}

void PingPongStrategy::release() {
  teardown();
  bufs_.reset();
  poisoned_ = poison_pong_ = false;
}

}  // namespace mpiarena
