// Copy and wait primitives: a pause for spin loops and a memcpy with
// non-temporal stores (AVX2 or SSE2 on x86-64, plain memcpy elsewhere),
// which writes the destination's lines without reading them first: for a
// payload that will not stay in cache (the shm method's receivers) and for
// the copy limit the runner measures (core/engine/copy_probe.cpp). After a
// batch of stream copies, stream_fence() orders their stores.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace mpiarena {

inline void cpu_relax() {
#if defined(__x86_64__)
  _mm_pause();
#else
  std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

// memcpy with non-temporal stores to `to`; plain memcpy where there are none.
#if defined(__x86_64__)
__attribute__((target("avx2"))) inline void stream_copy_avx2(
    unsigned char* to, const unsigned char* from, std::size_t k) {
  const std::size_t head =
      std::min(k, (32 - reinterpret_cast<std::uintptr_t>(to) % 32) % 32);
  std::memcpy(to, from, head);
  to += head;
  from += head;
  k -= head;
  const std::size_t blocks = k / 128;
  for (std::size_t i = 0; i < blocks; ++i) {
    const auto* s = reinterpret_cast<const __m256i*>(from + 128 * i);
    auto* d = reinterpret_cast<__m256i*>(to + 128 * i);
    const __m256i a = _mm256_loadu_si256(s), b = _mm256_loadu_si256(s + 1),
                  c = _mm256_loadu_si256(s + 2), e = _mm256_loadu_si256(s + 3);
    _mm256_stream_si256(d, a);
    _mm256_stream_si256(d + 1, b);
    _mm256_stream_si256(d + 2, c);
    _mm256_stream_si256(d + 3, e);
  }
  std::memcpy(to + 128 * blocks, from + 128 * blocks, k - 128 * blocks);
}

inline void stream_copy_sse2(unsigned char* to, const unsigned char* from,
                             std::size_t k) {
  const std::size_t head =
      std::min(k, (16 - reinterpret_cast<std::uintptr_t>(to) % 16) % 16);
  std::memcpy(to, from, head);
  to += head;
  from += head;
  k -= head;
  const std::size_t blocks = k / 64;
  for (std::size_t i = 0; i < blocks; ++i) {
    const auto* s = reinterpret_cast<const __m128i*>(from + 64 * i);
    auto* d = reinterpret_cast<__m128i*>(to + 64 * i);
    const __m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1),
                  c = _mm_loadu_si128(s + 2), e = _mm_loadu_si128(s + 3);
    _mm_stream_si128(d, a);
    _mm_stream_si128(d + 1, b);
    _mm_stream_si128(d + 2, c);
    _mm_stream_si128(d + 3, e);
  }
  std::memcpy(to + 64 * blocks, from + 64 * blocks, k - 64 * blocks);
}

using CopyFn = void (*)(unsigned char*, const unsigned char*, std::size_t);
inline CopyFn pick_stream_copy() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? stream_copy_avx2 : stream_copy_sse2;
}
inline void stream_fence() { _mm_sfence(); }
#else
using CopyFn = void (*)(unsigned char*, const unsigned char*, std::size_t);
inline void plain_copy(unsigned char* to, const unsigned char* from,
                       std::size_t k) {
  std::memcpy(to, from, k);
}
inline CopyFn pick_stream_copy() { return plain_copy; }
inline void stream_fence() {}
#endif

}  // namespace mpiarena
