/* The copy limit taken apart (bench/copy_limit): how fast this machine
 * moves SIZE bytes through memory, by kind of access, on every rank of the
 * launch at once (-np 1: one core; -np 2: two, each its own buffers; the
 * rate is the aggregate: ranks x SIZE / the slowest rank's time).
 *
 *   mpirun -np R memcpy_bw SIZE [TRIALS]
 *
 * Prints one line per mode: mode size ranks trials best_Bps median_Bps.
 *   fresh    memcpy into a destination never touched (its page faults
 *            inside the copy; one trial: the first copy)
 *   memcpy   memcpy between pre-touched buffers (glibc: non-temporal
 *            stores only above glibc.cpu.x86_non_temporal_threshold)
 *   nt       our own copy with non-temporal stores (SSE2 _mm_stream_si128,
 *            then sfence), pre-touched buffers
 *   chunked  memcpy of the source in 32 KiB pieces, each into the same
 *            32 KiB buffer and from it to the destination: two copies
 *            through a cache-resident fragment, as a FIFO's sender and
 *            receiver make them, on one core (rate: SIZE / time)
 *   read     the source read (a sum of its 64-bit words)
 *   write    the destination written (memset)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nt_copy.h"

enum { kFrag = 32 * 1024 };
static char frag[kFrag] __attribute__((aligned(64)));

static void chunked(char* to, const char* from, size_t n) {
  for (size_t i = 0; i < n; i += kFrag) {
    const size_t k = n - i < kFrag ? n - i : kFrag;
    memcpy(frag, from + i, k);
    __asm__ volatile("" : : "r"(frag) : "memory");
    memcpy(to + i, frag, k);
  }
}

static volatile uint64_t sink;

static void one(const char* mode, char* to, const char* from, size_t n) {
  if (!strcmp(mode, "memcpy") || !strcmp(mode, "fresh")) {
    memcpy(to, from, n);
  } else if (!strcmp(mode, "nt")) {
    nt_copy(to, from, n);
  } else if (!strcmp(mode, "chunked")) {
    chunked(to, from, n);
  } else if (!strcmp(mode, "read")) {
    const uint64_t* p = (const uint64_t*)from;
    uint64_t s = 0;
    for (size_t i = 0; i < n / 8; ++i) s += p[i];
    sink = s;
  } else {
    memset(to, 7, n);
  }
  __asm__ volatile("" : : "r"(to) : "memory");
}

/* TRIALS timed runs of `mode` on every rank after a barrier each; the
 * aggregate rate of each trial from the slowest rank's time. */
static void measure(const char* mode, char* to, const char* from, size_t n,
                    int trials, int rank, int ranks) {
  double* bw = malloc(sizeof(double) * (size_t)trials);
  for (int k = 0; k < trials; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    one(mode, to, from, n);
    t = MPI_Wtime() - t;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    bw[k] = (double)n * ranks / t;
  }
  qsort(bw, (size_t)trials, sizeof(double), cmp);
  if (rank == 0)
    printf("%s %zu %d %d %.6e %.6e\n", mode, n, ranks, trials,
           bw[trials - 1], bw[trials / 2]);
  fflush(stdout);
  free(bw);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: memcpy_bw SIZE [TRIALS]\n");
    MPI_Finalize();
    return 2;
  }
  const size_t n = strtoull(argv[1], NULL, 10);
  const int trials = argc > 2 ? atoi(argv[2]) : 7;
  char *from = NULL, *to = NULL;
  if (posix_memalign((void**)&from, 4096, n) ||
      posix_memalign((void**)&to, 4096, n))
    MPI_Abort(MPI_COMM_WORLD, 1);
  memset(from, 0x5a, n);
  measure("fresh", to, from, n, 1, rank, ranks); /* to's pages fault here */
  memcpy(to, from, n);                            /* warm */
  const char* modes[] = {"memcpy", "nt", "chunked", "read", "write"};
  for (int m = 0; m < 5; ++m) measure(modes[m], to, from, n, trials, rank,
                                      ranks);
  free(to);
  free(from);
  MPI_Finalize();
  return 0;
}
