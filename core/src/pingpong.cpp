#include <cstring>
#include <mpiarena/payload.hpp>
#include <mpiarena/pingpong.hpp>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "suite_info.hpp"

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

void PingPongStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  if (ctx.bytes > max_payload_bytes())
    throw SkipPoint("a message of " + std::to_string(ctx.bytes) +
                            " bytes exceeds this method's limit of " +
                            std::to_string(max_payload_bytes()) + " bytes");
  if (in_pair()) {
    buf_.allocate(ctx.bytes);
    if (initiator())
      fill_bytes(buf_.data(), buf_.size());
    else if (buf_.size() > 0)
      std::memset(buf_.data(), kPoisonByte, buf_.size());
  }
  setup();
}

void PingPongStrategy::execute() {
  if (!in_pair()) return;
  const std::size_t n = ctx_.bytes;
  unsigned char* buf = buf_.data();
  if (initiator()) {
    send(buf, n, peer());
    if (poison_pong_ && n > 0) std::memset(buf, kPoisonByte, n);
    recv(buf, n, peer());
  } else {
    recv(buf, n, peer());
    send(buf, n, peer());
  }
}

void PingPongStrategy::poison() {
  if (!in_pair()) return;
  if (initiator()) {
    fill_bytes(buf_.data(), buf_.size());  // the ping to send
    poison_pong_ = true;
  } else if (buf_.size() > 0) {
    std::memset(buf_.data(), kPoisonByte, buf_.size());
  }
}

Verdict PingPongStrategy::verify() {
  if (!in_pair()) return {};
  const bool checked_pong = poison_pong_;
  poison_pong_ = false;
  if (initiator() && !checked_pong)
    return {false, "verify() without poison(): the pong was not checked"};
  if (buf_.size() != ctx_.bytes)
    return {false, "receive buffer holds " + std::to_string(buf_.size()) +
                       " bytes, expected " + std::to_string(ctx_.bytes)};
  const std::string diff = check_bytes(buf_.data(), buf_.size());
  if (diff.empty()) return {};
  return {false, (initiator() ? "pong " : "ping ") + diff};
}

void PingPongStrategy::release() {
  teardown();
  buf_.reset();
  poison_pong_ = false;
}

}  // namespace mpiarena
