/* What OSU's one-sided latency loop adds to a put, get or accumulate.
   osu_put_latency, osu_get_latency and osu_acc_latency (OSU 7.4, -s flush,
   the default) time a loop of "op; MPI_Win_flush" under MPI_Win_lock(SHARED)
   on a window from MPI_Win_allocate, and read MPI_Wtime twice inside every
   iteration (t_graph_start, t_graph_end: executed whether or not -G or tail
   latencies are asked for). This program runs that loop in two forms:
     osu   as OSU does, the two MPI_Wtime calls in every iteration;
     bare  the same loop without them (what mpiarena times).
   Usage: rma_between OP BYTES ITERS SKIP osu|bare
   OP: put get acc (MPI_CHAR; acc: MPI_SUM). 2 ranks: rank 0 is the origin,
   rank 1 the target. Rank 0 prints the time per operation (s).
   bench/reference runs it. Build: mpicc -O3 -o rma_between rma_between.c */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  int rank, np;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const int ok_op =
      argc == 6 && (!strcmp(argv[1], "put") || !strcmp(argv[1], "get") ||
                    !strcmp(argv[1], "acc"));
  if (!ok_op || np != 2 || atol(argv[2]) < 1 || atoi(argv[3]) < 1 ||
      atoi(argv[4]) < 0 ||
      (strcmp(argv[5], "osu") && strcmp(argv[5], "bare"))) {
    if (rank == 0)
      fprintf(stderr,
              "usage (2 ranks): rma_between put|get|acc BYTES ITERS SKIP "
              "osu|bare\n");
    MPI_Finalize();
    return 2;
  }
  const char* op = argv[1];
  const int n = atoi(argv[2]), iters = atoi(argv[3]), skip = atoi(argv[4]);
  const int pair = !strcmp(argv[5], "osu");
  char* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(n, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  char* local = malloc((size_t)n);
  if (!local) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(local, 1, (size_t)n), memset(base, 0, (size_t)n);
  double t_start = 0, t_end = 0, g0 = 0, g1 = 0, graph = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    for (int i = 0; i < skip + iters; i++) {
      if (i == skip) t_start = MPI_Wtime();
      if (pair && i >= skip) g0 = MPI_Wtime();
      if (!strcmp(op, "put"))
        MPI_Put(local, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
      else if (!strcmp(op, "get"))
        MPI_Get(local, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
      else
        MPI_Accumulate(local, n, MPI_CHAR, 1, 0, n, MPI_CHAR, MPI_SUM, win);
      MPI_Win_flush(1, win);
      if (pair && i >= skip) g1 = MPI_Wtime(), graph += g1 - g0;
    }
    t_end = MPI_Wtime();
    MPI_Win_unlock(1, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* graph keeps the pair's result alive, as OSU's tail-latency array does */
  if (rank == 0) printf("%.6e %.3e\n", (t_end - t_start) / iters, graph);
  MPI_Win_free(&win);
  free(local);
  MPI_Finalize();
  return 0;
}
