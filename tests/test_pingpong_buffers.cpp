// The message buffers of the ping-pong suite (PingPongBuffers,
// pingpong.hpp): the layouts of --buffers separate / shared under --cache
// hot / cold, their memory bound, what allocate() puts in them, and the
// check that a send buffer was never written; and the stream suite's count
// of receive slots. No MPI call is made.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <mpiarena/pingpong.hpp>
#include <mpiarena/stream.hpp>
#include <set>
#include <string>

#include "core/engine/memory.hpp"

using mpiarena::PingPongBuffers;

namespace {

constexpr std::size_t kSet = std::size_t(1) << 20;  // a small cache set

mpiarena::RunContext context(std::size_t bytes, bool separate, bool cold,
                             int rank = 0) {
  mpiarena::RunContext ctx;
  ctx.rank = rank;
  ctx.size = 2;
  ctx.bytes = bytes;
  ctx.separate_buffers = separate;
  ctx.cache_cold = cold;
  ctx.cache_set_bytes = kSet;
  return ctx;
}

bool all_poison(const unsigned char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] != mpiarena::kPoisonByte) return false;
  return true;
}

}  // namespace

TEST(PingPongBuffers, HotIsOneSlotOfEachAlignedTo16KiB) {
  const auto sep = PingPongBuffers::layout(1000, true, false, kSet);
  EXPECT_EQ(sep.slots, 1u);
  EXPECT_EQ(sep.stride, mpiarena::kBufferAlign);
  EXPECT_EQ(sep.bytes, 2 * mpiarena::kBufferAlign);  // send + receive
  const auto shared = PingPongBuffers::layout(1000, false, false, kSet);
  EXPECT_EQ(shared.slots, 1u);
  EXPECT_EQ(shared.bytes, mpiarena::kBufferAlign);  // one buffer
  // A method that pre-posts its next receive asks for 2 slots: 2 receive
  // slots and still one send buffer (separate), or 2 slots (shared).
  const auto two = PingPongBuffers::layout(1000, true, false, kSet, 2);
  EXPECT_EQ(two.slots, 2u);
  EXPECT_EQ(two.send_slots, 1u);
  EXPECT_EQ(two.bytes, 3 * mpiarena::kBufferAlign);
  const auto two_shared = PingPongBuffers::layout(1000, false, false, kSet, 2);
  EXPECT_EQ(two_shared.slots, 2u);
  EXPECT_EQ(two_shared.bytes, 2 * mpiarena::kBufferAlign);
  EXPECT_EQ(PingPongBuffers::layout(0, true, true, kSet).bytes, 0u);
  PingPongBuffers b;
  b.allocate(context(1000, true, false), 2);
  EXPECT_EQ(b.send(0), b.send(1));  // one send buffer
  EXPECT_NE(b.recv(0), b.recv(1));
  EXPECT_NE(b.recv(0), b.send(0));
  EXPECT_NE(b.recv(1), b.send(0));
  EXPECT_TRUE(all_poison(b.recv(1), 1000));
  EXPECT_EQ(b.check_send(), "");
}

TEST(PingPongBuffers, ColdSlotsRoundTo64BOr4KiBAndFillTheCacheSet) {
  for (bool separate : {true, false}) {
    const std::size_t kinds = separate ? 2 : 1;
    for (std::size_t n :
         {1ul, 63ul, 64ul, 1000ul, 4095ul, 4096ul, 5000ul, 65536ul, 100000ul}) {
      const auto l = PingPongBuffers::layout(n, separate, true, kSet);
      const std::size_t unit = n < 4096 ? 64 : 4096;
      EXPECT_EQ(l.stride % unit, 0u) << n;
      EXPECT_GE(l.stride, n);
      EXPECT_LT(l.stride, n + unit);
      EXPECT_EQ(l.send_slots, l.slots);
      EXPECT_EQ(l.bytes, kinds * l.slots * l.stride);
      EXPECT_GE(l.bytes, kSet) << n;                     // the whole set
      EXPECT_LT(l.bytes, kSet + kinds * l.stride) << n;  // not much more
      EXPECT_GE(kinds * l.slots, 2u) << n;
    }
  }
}

TEST(PingPongBuffers, ColdRingStaysWithinWhatTheMemoryGuardCounts) {
  // The guard counts cache_set_bytes + payload_copies x bytes, and a
  // ping-pong method declares at least 2 copies. Rounding a slot adds
  // under 4 KiB to each of the 2 extra slots.
  for (bool separate : {true, false})
    for (std::size_t n = 1; n <= 4 * kSet; n = n * 3 + 1) {
      const auto l = PingPongBuffers::layout(n, separate, true, kSet);
      EXPECT_LE(l.bytes, kSet + 2 * n + 2 * 4096) << n << " " << separate;
    }
  // pingpong_rsend (2 slots of each, 4 copies declared).
  for (std::size_t n = 1; n <= 4 * kSet; n = n * 3 + 1)
    EXPECT_LE(PingPongBuffers::layout(n, true, true, kSet, 2).bytes,
              kSet + 4 * n + 4 * 4096)
        << n;
}

TEST(PingPongBuffers, AMessageAboveHalfTheSetGetsOneSlotOfEach) {
  // Separate: one send and one receive slot already exceed the set.
  const auto sep = PingPongBuffers::layout(kSet / 2 + 1, true, true, kSet);
  EXPECT_EQ(sep.slots, 1u);
  EXPECT_GE(sep.bytes, kSet);
  // Shared: still 2 slots, so consecutive round trips never share one.
  const auto shared = PingPongBuffers::layout(kSet + 1, false, true, kSet);
  EXPECT_EQ(shared.slots, 2u);
  // Just below: 2 of each.
  EXPECT_EQ(PingPongBuffers::layout(kSet / 4, true, true, kSet).slots, 2u);
}

TEST(PingPongBuffers, SeparateSendSlotsHoldThePayloadReceiveSlotsThePoison) {
  for (int rank : {0, 1}) {
    PingPongBuffers b;
    b.allocate(context(1000, true, true, rank));
    ASSERT_GT(b.slots(), 1u);
    EXPECT_GE(b.allocated_bytes(), kSet);
    std::set<const unsigned char*> sends, recvs;
    for (std::size_t k = 0; k < b.slots(); ++k) {
      EXPECT_EQ(mpiarena::check_bytes(b.send(k), 1000), "") << k;
      EXPECT_TRUE(all_poison(b.recv(k), 1000)) << k;
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.send(k)) % 64, 0u);
      sends.insert(b.send(k));
      recvs.insert(b.recv(k));
    }
    EXPECT_EQ(sends.size(), b.slots());
    EXPECT_EQ(recvs.size(), b.slots());
    for (const unsigned char* p : sends) EXPECT_EQ(recvs.count(p), 0u);
    EXPECT_EQ(b.next(b.slots() - 1), 0u);
    EXPECT_EQ(b.check_send(), "");
  }
}

TEST(PingPongBuffers, SharedSlotsAreBothAndOnlyTheInitiatorsHoldThePing) {
  PingPongBuffers init, resp;
  init.allocate(context(1000, false, true, 0));
  resp.allocate(context(1000, false, true, 1));
  ASSERT_GE(init.slots(), 2u);
  for (std::size_t k = 0; k < init.slots(); ++k) {
    EXPECT_EQ(init.send(k), init.recv(k));
    EXPECT_EQ(mpiarena::check_bytes(init.send(k), 1000), "") << k;
    EXPECT_TRUE(all_poison(resp.recv(k), 1000)) << k;
  }
  init.send(1)[0] ^= 0x02;
  EXPECT_EQ(init.check_send(), "");  // nothing to check under shared
}

TEST(PingPongBuffers, AWrittenSendSlotIsNamed) {
  PingPongBuffers hot;
  hot.allocate(context(4096, true, false));
  hot.send(0)[7] = 0x11;
  EXPECT_EQ(hot.check_send().rfind("send buffer byte 7 is 17, expected ", 0),
            0u)
      << hot.check_send();
  PingPongBuffers cold;
  cold.allocate(context(4096, true, true));
  ASSERT_GT(cold.slots(), 3u);
  cold.send(3)[5] = mpiarena::kPoisonByte;
  EXPECT_EQ(cold.check_send().rfind("send buffer slot 3 byte 5 is 240", 0), 0u)
      << cold.check_send();
}

TEST(PingPongBuffers, ZeroBytesHaveNoBuffer) {
  PingPongBuffers b;
  b.allocate(context(0, true, true));
  EXPECT_EQ(b.send(0), nullptr);
  EXPECT_EQ(b.recv(0), nullptr);
  EXPECT_EQ(b.allocated_bytes(), 0u);
  EXPECT_EQ(b.next(0), 0u);
  EXPECT_EQ(b.check_send(), "");
}

TEST(PingPongBuffers, TheMachinesCacheSetExceedsItsLastLevelCache) {
  const std::size_t llc = mpiarena::last_level_cache_bytes();
  const std::size_t set = mpiarena::cold_set_bytes(llc);
  if (llc > 0) {
    EXPECT_EQ(set, 2 * llc);
  }
  EXPECT_GT(set, llc);
  EXPECT_GE(PingPongBuffers::layout(65536, true, true, set).bytes, set);
}

// The stream suite's receive slots (stream.hpp, "Buffers"): one per message
// while the window fits in kStreamRecvBytes, else as many as fit, at least 2,
// never more than the window.
TEST(StreamRecvSlots, OnePerMessageUpToTheBoundThenAsManyAsFitAtLeastTwo) {
  using mpiarena::kStreamRecvBytes;
  using mpiarena::stream_recv_slots;
  EXPECT_EQ(stream_recv_slots(0, 64), 64);
  EXPECT_EQ(stream_recv_slots(1024, 64), 64);
  EXPECT_EQ(stream_recv_slots(kStreamRecvBytes / 64, 64), 64);
  EXPECT_EQ(stream_recv_slots(kStreamRecvBytes / 64 + 1, 64), 63);
  EXPECT_EQ(stream_recv_slots(std::size_t{1} << 20, 64), 8);
  EXPECT_EQ(stream_recv_slots(std::size_t{4} << 20, 64), 2);
  EXPECT_EQ(stream_recv_slots(std::size_t{64} << 20, 64), 2);
  EXPECT_EQ(stream_recv_slots(std::size_t{64} << 20, 1), 1);
  EXPECT_EQ(stream_recv_slots(std::size_t{1} << 20, 3), 3);
  for (std::size_t b : {std::size_t{100000}, std::size_t{3} << 20})
    EXPECT_LE(stream_recv_slots(b, 1024) * ((b + 63) / 64 * 64),
              kStreamRecvBytes);
}
