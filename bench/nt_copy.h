/* What bench/memcpy_bw.c and bench/split_copy.c share: a comparison of
   doubles for qsort, and a copy with non-temporal stores (SSE2
   _mm_stream_si128, then sfence; the destination 16-byte aligned). */
#ifndef MPIARENA_BENCH_NT_COPY_H
#define MPIARENA_BENCH_NT_COPY_H
#include <emmintrin.h>
#include <string.h>

static int cmp(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static void nt_copy(char* to, const char* from, size_t n) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m128i a = _mm_loadu_si128((const __m128i*)(from + i));
    const __m128i b = _mm_loadu_si128((const __m128i*)(from + i + 16));
    const __m128i c = _mm_loadu_si128((const __m128i*)(from + i + 32));
    const __m128i d = _mm_loadu_si128((const __m128i*)(from + i + 48));
    _mm_stream_si128((__m128i*)(to + i), a);
    _mm_stream_si128((__m128i*)(to + i + 16), b);
    _mm_stream_si128((__m128i*)(to + i + 32), c);
    _mm_stream_si128((__m128i*)(to + i + 48), d);
  }
  memcpy(to + i, from + i, n - i);
  _mm_sfence();
}
#endif
