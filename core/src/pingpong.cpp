#include <mpiarena/payload.hpp>
#include <mpiarena/pingpong.hpp>
#include <stdexcept>
#include <string>
#include <utility>

namespace mpiarena {

StrategyInfo pingpong_info(std::string name, std::string summary,
                           int payload_copies) {
  StrategyInfo info;
  info.name = std::move(name);
  info.suite = "pingpong";
  info.summary = std::move(summary);
  info.payloads = {"bytes"};
  info.min_ranks = 2;
  info.payload_copies = payload_copies;
  info.time_scale = kOneWay;
  info.pairwise = true;
  return info;
}

unsigned char payload_byte(std::size_t index) {
  return static_cast<unsigned char>(payload_value(7, index) & 0xFF);
}

void fill_bytes(std::vector<unsigned char>& data, std::size_t offset) {
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = payload_byte(offset + i);
}

std::string check_bytes(const std::vector<unsigned char>& data,
                        std::size_t offset) {
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (data[i] != payload_byte(offset + i))
      return "byte " + std::to_string(i) + " is " + std::to_string(data[i]) +
             ", expected " + std::to_string(payload_byte(offset + i)) +
             (data[i] == kPoisonByte ? " (never written)" : "");
  }
  return {};
}

void PingPongStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  if (ctx.bytes > max_payload_bytes())
    throw std::length_error("a message of " + std::to_string(ctx.bytes) +
                            " bytes exceeds this method's limit of " +
                            std::to_string(max_payload_bytes()) + " bytes");
  if (initiator()) {
    ping_.resize(ctx.bytes);
    fill_bytes(ping_);
  }
  if (in_pair()) got_.assign(ctx.bytes, kPoisonByte);
  setup();
}

void PingPongStrategy::execute() {
  if (!in_pair()) return;
  const std::size_t n = ctx_.bytes;
  if (initiator()) {
    send(ping_.data(), n, peer());
    recv(got_.data(), n, peer());
  } else {
    recv(got_.data(), n, peer());
    send(got_.data(), n, peer());
  }
}

void PingPongStrategy::poison() {
  for (unsigned char& b : got_) b = kPoisonByte;
}

Verdict PingPongStrategy::verify() {
  if (!in_pair()) return {};
  if (got_.size() != ctx_.bytes)
    return {false, "receive buffer holds " + std::to_string(got_.size()) +
                       " bytes, expected " + std::to_string(ctx_.bytes)};
  const std::string diff = check_bytes(got_);
  if (diff.empty()) return {};
  return {false, (initiator() ? "pong " : "ping ") + diff};
}

void PingPongStrategy::release() {
  teardown();
  std::vector<unsigned char>().swap(ping_);
  std::vector<unsigned char>().swap(got_);
}

}  // namespace mpiarena
