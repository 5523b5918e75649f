/* What OSU's barrier loop leaves out of a barrier's time.
   osu_barrier (OSU 7.4) reads MPI_Wtime before and after every barrier and
   sums the intervals: the barriers run back to back, but the second clock
   read and the next iteration's first fall outside the timed intervals,
   while the rank may be waiting for the other anyway. mpiarena times a loop
   of barriers as a whole. This program runs both:
     osu   OSU's loop: the sum of the per-barrier intervals / iterations;
     bare  the same barriers timed as one loop / iterations (ours);
     setup the bare loop after the MPI set-up the runner makes: the barrier
           on a communicator split from MPI_COMM_WORLD and duplicated, with
           MPI_ERRORS_RETURN, a shared-memory window open (the core probe's)
           and an MPI_Ibarrier done first (the sleeping barrier's).
   Usage: barrier_between ITERS SKIP osu|bare|setup
   Rank 0 prints the rank average (s). bench/reference runs it.
   Build: mpicc -O3 -o barrier_between barrier_between.c */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  int rank, np;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (argc != 4 || atoi(argv[1]) < 1 || atoi(argv[2]) < 0 ||
      (strcmp(argv[3], "osu") && strcmp(argv[3], "bare") &&
       strcmp(argv[3], "setup"))) {
    if (rank == 0)
      fprintf(stderr, "usage: barrier_between ITERS SKIP osu|bare|setup\n");
    MPI_Finalize();
    return 2;
  }
  const int iters = atoi(argv[1]), skip = atoi(argv[2]);
  MPI_Comm c = MPI_COMM_WORLD, split = MPI_COMM_NULL, node = MPI_COMM_NULL;
  MPI_Win win = MPI_WIN_NULL;
  if (!strcmp(argv[3], "setup")) {
    void* base = NULL;
    MPI_Request q;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split);
    MPI_Comm_dup(split, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                        MPI_INFO_NULL, &node);
    MPI_Win_allocate_shared(4096, 1, MPI_INFO_NULL, node, &base, &win);
    MPI_Ibarrier(c, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
  }
  double timer = 0, sum = 0;
  if (!strcmp(argv[3], "osu")) {
    for (int i = 0; i < iters + skip; i++) {
      const double t0 = MPI_Wtime();
      MPI_Barrier(MPI_COMM_WORLD);
      const double t1 = MPI_Wtime();
      if (i >= skip) timer += t1 - t0;
    }
  } else {
    for (int i = 0; i < skip; i++) MPI_Barrier(c);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) MPI_Barrier(c);
    timer = MPI_Wtime() - t0;
  }
  timer /= iters;
  MPI_Reduce(&timer, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%.6e\n", sum / np);
  if (win != MPI_WIN_NULL) MPI_Win_free(&win);
  if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
  if (c != MPI_COMM_WORLD) MPI_Comm_free(&c);
  if (split != MPI_COMM_NULL) MPI_Comm_free(&split);
  MPI_Finalize();
  return 0;
}
