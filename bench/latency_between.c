/* What a barrier before every round trip adds to a ping-pong.
   osu_latency_mp (OSU 7.4) puts an MPI_Barrier before each round trip and
   starts rank 0's timer after it: the round trip then includes the ranks'
   skew at the barrier's exit (rank 1 may still be leaving it when rank 0's
   message arrives). mpiarena's latency_mp times round trips back to back.
   This program runs the ping-pong in both forms, nothing else changed:
     osu   barrier; t0; send; recv; t1 (rank 1: barrier; recv; send), as
           osu_latency_mp's loop;
     bare  the same round trips back to back, one timer around them all.
   Usage: latency_between BYTES ITERS SKIP osu|bare
   2 ranks. Rank 0 prints the one-way latency (half a round trip, s), as
   OSU reports it. bench/reference runs it.
   Build: mpicc -O3 -o latency_between latency_between.c */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void trip(int rank, char* s, char* r, int n) {
  if (rank == 0) {
    MPI_Send(s, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
    MPI_Recv(r, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(r, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(s, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
  }
}

int main(int argc, char** argv) {
  int rank, np;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (argc != 5 || np != 2 || atol(argv[1]) < 0 || atoi(argv[2]) < 1 ||
      atoi(argv[3]) < 0 ||
      (strcmp(argv[4], "osu") && strcmp(argv[4], "bare"))) {
    if (rank == 0)
      fprintf(stderr, "usage (2 ranks): latency_between BYTES ITERS SKIP "
                      "osu|bare\n");
    MPI_Finalize();
    return 2;
  }
  const int n = atoi(argv[1]), iters = atoi(argv[2]), skip = atoi(argv[3]);
  const int osu = !strcmp(argv[4], "osu");
  char *s = malloc((size_t)n + 1), *r = malloc((size_t)n + 1);
  if (!s || !r) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(s, 'a', (size_t)n + 1), memset(r, 'b', (size_t)n + 1);
  double total = 0, t0 = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < iters + skip; i++) {
    if (osu) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t = MPI_Wtime();
      trip(rank, s, r, n);
      if (i >= skip) total += MPI_Wtime() - t;
    } else {
      if (i == skip) t0 = MPI_Wtime();
      trip(rank, s, r, n);
    }
  }
  if (!osu) total = MPI_Wtime() - t0;
  if (rank == 0) printf("%.6e\n", total / (2.0 * iters));
  free(s), free(r);
  MPI_Finalize();
  return 0;
}
