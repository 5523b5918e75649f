/* Can one copy split over two cores reach the copy limit? (bench/copy_limit)
 * Two ranks on one node share one segment (MPI_Win_allocate_shared): the
 * root's source of SIZE bytes and the receiver's destination of SIZE
 * bytes, both pre-touched. Per trial, after a barrier:
 *   own     every rank copies SIZE bytes of its own (a source and a
 *           destination of its own in the segment): the copy limit of all
 *           ranks at once as the runner measures it; rate = ranks x SIZE /
 *           the slowest rank's time
 *   split   one copy of the root's source into the receiver's destination,
 *           the root copying the first half and the receiver the second at
 *           once; rate = SIZE / the slowest rank's time
 * Each with non-temporal stores (SSE2 _mm_stream_si128, then sfence);
 * HUGE = 1 asks for transparent huge pages on the segment (madvise
 * MADV_HUGEPAGE before it is touched). Prints per mode: mode size huge
 * trials best_Bps median_Bps, then split best / own best.
 *   mpirun -np 2 split_copy SIZE [TRIALS] [HUGE]
 * Build: mpicc -O2 -o split_copy split_copy.c */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "nt_copy.h"

int main(int argc, char** argv) {
  int rank, np;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const long size = argc > 1 ? atol(argv[1]) : 0;
  const int trials = argc > 2 ? atoi(argv[2]) : 9;
  const int huge = argc > 3 ? atoi(argv[3]) : 0;
  if (np != 2 || size < 4096 || trials < 1) {
    if (rank == 0)
      fprintf(stderr, "usage (2 ranks): split_copy SIZE [TRIALS] [HUGE]\n");
    MPI_Finalize();
    return 2;
  }
  /* Each rank's part of the segment: its source and its destination, each
     SIZE bytes rounded to 2 MiB. */
  const size_t n = (size_t)size;
  const size_t each = (n + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  char* mine = NULL;
  MPI_Win win;
  MPI_Win_allocate_shared((MPI_Aint)(2 * each + 4096), 1, info,
                          MPI_COMM_WORLD, &mine, &win);
  MPI_Info_free(&info);
  /* A segment need not start on a line (the non-temporal stores need 16
     bytes); each rank's part starts at its first page. */
#define PAGE(p) ((char*)(((uintptr_t)(p) + 4095) & ~(uintptr_t)4095))
  mine = PAGE(mine);
  if (huge) madvise(mine, 2 * each, MADV_HUGEPAGE);
  memset(mine, rank + 1, 2 * each);
  char* base[2];
  for (int r = 0; r < 2; r++) {
    MPI_Aint sz;
    int du;
    MPI_Win_shared_query(win, r, &sz, &du, &base[r]);
    base[r] = PAGE(base[r]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  char *root_src = base[0], *recv_dst = base[1] + each;
  double t[2][64];
  const int k = trials > 64 ? 64 : trials;
  for (int mode = 0; mode < 2; mode++)
    for (int i = 0; i < k + 1; i++) { /* the first trial is a warm-up */
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      if (mode == 0) {
        nt_copy(mine + each, mine, n);
      } else {
        const size_t half = n / 2 / 64 * 64;
        if (rank == 0)
          nt_copy(recv_dst, root_src, half);
        else
          nt_copy(recv_dst + half, root_src + half, n - half);
      }
      double dt = MPI_Wtime() - t0, mx = 0;
      MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (i > 0) t[mode][i - 1] = mx;
    }
  if (rank == 0) {
    double best[2];
    for (int mode = 0; mode < 2; mode++) {
      qsort(t[mode], (size_t)k, sizeof(double), cmp);
      const double bytes = mode == 0 ? 2.0 * (double)n : (double)n;
      best[mode] = bytes / t[mode][0];
      printf("%s %zu %d %d %.4e %.4e\n", mode == 0 ? "own" : "split", n,
             huge, k, best[mode], bytes / t[mode][k / 2]);
    }
    printf("split/own %.3f\n", best[1] / best[0]);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
