/* Where the stencil's arrays lie moves its pack and unpack times.
   Seed 004's OPBench (MPI mode) times, per exchange, a pack loop, an
   MPI_Irecv + MPI_Send + MPI_Wait to the ring neighbour and an unpack loop,
   after an "app" pass over the array; it packs from and unpacks into the
   same region (app[0..n*stride)), so the unpack writes lines the pack just
   read. mpiarena's stencil suite (core/sdk/stencil_suite.cpp) gives every
   exchange k its own face and its own ghost region (2 x exchanges regions),
   so each unpack writes lines no phase of this exchange touched. This
   program runs OPBench's loop (timed phases, the barrier after the pack,
   the app pass) with either layout, nothing else changed:
     opbench  one region for every exchange, packed from and unpacked into;
     ours     face k and ghost k for exchange k, the app pass over the faces.
   Usage: stencil_between BYTES EXCHANGES STRIDE_BYTES ITERS opbench|ours
   Rank 0 prints the rank average of pack, comm and unpack per exchange (s).
   2 ranks (the ring of OPBench's MPI mode). bench/reference runs it.
   Build: mpicc -O3 -fno-tree-loop-distribute-patterns -o stencil_between
   stencil_between.c (OPBench is built -O3; without the flag GCC turns the
   contiguous loops into memcpy calls, which OPBench's are not). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The pack and unpack loops. GCC vectorises OPBench's loops (and ours,
   core/sdk/stencil_suite.cpp) behind a run-time check for a stride of one
   element; written plainly here it left both scalar, 1.5x slower than
   either at 1 MiB. So the check is explicit. */
static void copy_in(uint64_t* restrict dst, const uint64_t* restrict src,
                    size_t n, size_t step) {
  if (step == 1)
    for (size_t j = 0; j < n; j++) dst[j] = src[j];
  else
    for (size_t j = 0; j < n; j++) dst[j] = src[j * step];
}

static void copy_out(uint64_t* restrict dst, const uint64_t* restrict src,
                     size_t n, size_t step) {
  if (step == 1)
    for (size_t j = 0; j < n; j++) dst[j] = src[j];
  else
    for (size_t j = 0; j < n; j++) dst[j * step] = src[j];
}

static uint64_t* region(uint64_t* app, int ours, int k, size_t span) {
  return ours ? app + (size_t)k * span : app;
}

int main(int argc, char** argv) {
  int rank, np;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (argc != 6 || np != 2 || atol(argv[1]) < 8 || atoi(argv[2]) < 1 ||
      atoi(argv[3]) < 8 || atoi(argv[4]) < 1 ||
      (strcmp(argv[5], "opbench") && strcmp(argv[5], "ours"))) {
    if (rank == 0)
      fprintf(stderr,
              "usage (2 ranks): stencil_between BYTES EXCHANGES STRIDE_BYTES "
              "ITERS opbench|ours\n");
    MPI_Finalize();
    return 2;
  }
  const size_t n = (size_t)atol(argv[1]) / 8, step = (size_t)atoi(argv[3]) / 8;
  const int ex = atoi(argv[2]), iters = atoi(argv[4]);
  const int ours = !strcmp(argv[5], "ours");
  const int peer = 1 - rank;
  const size_t span = n * step; /* one face or ghost */
  const size_t len = ours ? 2 * (size_t)ex * span : 2 * span;
  uint64_t *app = NULL, *sbuf = NULL, *rbuf = NULL;
  if (posix_memalign((void**)&app, 64, len * 8) ||
      posix_memalign((void**)&sbuf, 64, n * 8) ||
      posix_memalign((void**)&rbuf, 64, n * 8))
    MPI_Abort(MPI_COMM_WORLD, 1);
  memset(app, 0, len * 8), memset(sbuf, 0, n * 8), memset(rbuf, 0, n * 8);
  double t[3] = {0, 0, 0};
  for (int it = -100; it < iters; it++) { /* 100 priming runs, as OPBench */
    /* the app pass: OPBench's whole array; ours, the faces */
    for (int k = 0; k < (ours ? ex : 1); k++) {
      uint64_t* f = region(app, ours, 2 * k, span);
      const size_t m = ours ? span : 2 * span;
      for (size_t j = 0; j < m; j++) f[j] += 1 + (uint64_t)it;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < ex; k++) {
      const uint64_t* f = region(app, ours, 2 * k, span);
      uint64_t* g = region(app, ours, 2 * k + 1, span);
      double a = MPI_Wtime();
      copy_in(sbuf, f, n, step);
      double b = MPI_Wtime();
      MPI_Barrier(MPI_COMM_WORLD);
      double c = MPI_Wtime();
      MPI_Request r;
      MPI_Irecv(rbuf, (int)n, MPI_UINT64_T, peer, rank, MPI_COMM_WORLD, &r);
      MPI_Send(sbuf, (int)n, MPI_UINT64_T, peer, peer, MPI_COMM_WORLD);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      double d = MPI_Wtime();
      if (!ours) g = app; /* OPBench unpacks into the region it packed */
      copy_out(g, rbuf, n, step);
      double e = MPI_Wtime();
      if (it >= 0) t[0] += b - a, t[1] += d - c, t[2] += e - d;
    }
  }
  double sum[3];
  for (int q = 0; q < 3; q++) t[q] /= (double)iters * ex;
  MPI_Reduce(t, sum, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%.6e %.6e %.6e\n", sum[0] / 2, sum[1] / 2, sum[2] / 2);
  free(app), free(sbuf), free(rbuf);
  MPI_Finalize();
  return 0;
}
