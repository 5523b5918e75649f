/* What runs between two timed collectives moves a small collective's time.
   OSU's blocking-collective loop (t_start, op, t_stop, MPI_Barrier, repeat)
   in two forms that differ only in what comes before the barrier:
     plain    the loop as OSU runs it (one communicator);
     harness  the steps mpiarena's harness runs between two one-operation
              samples (core/engine/timed_run.cpp): an 8-double MAX allreduce, a
              1-double SUM allreduce and a 1-double allgather on a second
              communicator, then the barrier on it; the operation on a
              duplicate of MPI_COMM_WORLD, as a plugin's.
   Usage: coll_between OP BYTES ITERS SKIP plain|harness
   OP: allreduce reduce allgather alltoall bcast gather scatter iallreduce
   ibcast, and with OSU's equal counts (counts=uniform) allgatherv
   alltoallv gatherv scatterv igather iscatter iallgatherv ialltoallv
   igatherv iscatterv ireduce_scatter (MPI_INT, MPI_SUM, root 0; a
   non-blocking one is posted and waited for, OSU's pure communication;
   ireduce_scatter splits BYTES over the ranks as osu_ireduce_scatter).
   Rank 0 prints the mean over iterations of the rank average (s), then
   each rank's mean. bench/reference runs it.
   Build: mpicc -O3 -o coll_between coll_between.c */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Equal counts and displacements (OSU's), and ireduce_scatter's split. */
static int *cnt, *dsp, *split;

static void op_once(const char* op, int* s, int* r, int n, MPI_Comm c) {
  MPI_Request q = MPI_REQUEST_NULL;
  if (!strcmp(op, "allreduce"))
    MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, c);
  else if (!strcmp(op, "reduce"))
    MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, 0, c);
  else if (!strcmp(op, "allgather"))
    MPI_Allgather(s, n, MPI_INT, r, n, MPI_INT, c);
  else if (!strcmp(op, "alltoall"))
    MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, c);
  else if (!strcmp(op, "bcast"))
    MPI_Bcast(s, n, MPI_INT, 0, c);
  else if (!strcmp(op, "gather"))
    MPI_Gather(s, n, MPI_INT, r, n, MPI_INT, 0, c);
  else if (!strcmp(op, "scatter"))
    MPI_Scatter(s, n, MPI_INT, r, n, MPI_INT, 0, c);
  else if (!strcmp(op, "allgatherv"))
    MPI_Allgatherv(s, n, MPI_INT, r, cnt, dsp, MPI_INT, c);
  else if (!strcmp(op, "alltoallv"))
    MPI_Alltoallv(s, cnt, dsp, MPI_INT, r, cnt, dsp, MPI_INT, c);
  else if (!strcmp(op, "gatherv"))
    MPI_Gatherv(s, n, MPI_INT, r, cnt, dsp, MPI_INT, 0, c);
  else if (!strcmp(op, "scatterv"))
    MPI_Scatterv(s, cnt, dsp, MPI_INT, r, n, MPI_INT, 0, c);
  else if (!strcmp(op, "iallreduce"))
    MPI_Iallreduce(s, r, n, MPI_INT, MPI_SUM, c, &q);
  else if (!strcmp(op, "ibcast"))
    MPI_Ibcast(s, n, MPI_INT, 0, c, &q);
  else if (!strcmp(op, "igather"))
    MPI_Igather(s, n, MPI_INT, r, n, MPI_INT, 0, c, &q);
  else if (!strcmp(op, "iscatter"))
    MPI_Iscatter(s, n, MPI_INT, r, n, MPI_INT, 0, c, &q);
  else if (!strcmp(op, "iallgatherv"))
    MPI_Iallgatherv(s, n, MPI_INT, r, cnt, dsp, MPI_INT, c, &q);
  else if (!strcmp(op, "ialltoallv"))
    MPI_Ialltoallv(s, cnt, dsp, MPI_INT, r, cnt, dsp, MPI_INT, c, &q);
  else if (!strcmp(op, "igatherv"))
    MPI_Igatherv(s, n, MPI_INT, r, cnt, dsp, MPI_INT, 0, c, &q);
  else if (!strcmp(op, "iscatterv"))
    MPI_Iscatterv(s, cnt, dsp, MPI_INT, r, n, MPI_INT, 0, c, &q);
  else /* ireduce_scatter */
    MPI_Ireduce_scatter(s, r, split, MPI_INT, MPI_SUM, c, &q);
  if (q != MPI_REQUEST_NULL) MPI_Wait(&q, MPI_STATUS_IGNORE);
}

int main(int argc, char** argv) {
  static const char* ops[] = {
      "allreduce",  "reduce",    "allgather",  "alltoall",   "bcast",
      "gather",     "scatter",   "iallreduce", "ibcast",     "allgatherv",
      "alltoallv",  "gatherv",   "scatterv",   "igather",    "iscatter",
      "iallgatherv", "ialltoallv", "igatherv", "iscatterv", "ireduce_scatter"};
  const int nops = (int)(sizeof ops / sizeof ops[0]);
  int rank, np, known = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (int k = 0; argc == 6 && k < nops; ++k)
    known |= !strcmp(argv[1], ops[k]);
  if (!known || (strcmp(argv[5], "plain") && strcmp(argv[5], "harness")) ||
      atol(argv[2]) < 0 || atoi(argv[3]) < 1 || atoi(argv[4]) < 0) {
    if (rank == 0)
      fprintf(stderr,
              "usage: coll_between OP BYTES ITERS SKIP plain|harness\n"
              "OP: allreduce reduce allgather alltoall bcast gather scatter "
              "iallreduce ibcast allgatherv alltoallv gatherv scatterv "
              "igather iscatter iallgatherv ialltoallv igatherv iscatterv "
              "ireduce_scatter\n");
    MPI_Finalize();
    return 2;
  }
  const char* op = argv[1];
  const int iters = atoi(argv[3]), skip = atoi(argv[4]);
  const int harness = !strcmp(argv[5], "harness");
  int n = (int)(atol(argv[2]) / (long)sizeof(int));
  if (n < 1) n = 1;
  cnt = malloc(sizeof(int) * (size_t)np);
  dsp = malloc(sizeof(int) * (size_t)np);
  split = malloc(sizeof(int) * (size_t)np);
  if (!cnt || !dsp || !split) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < np; k++)
    cnt[k] = n, dsp[k] = k * n, split[k] = n / np + (k < n % np);
  MPI_Comm c = MPI_COMM_WORLD, h = MPI_COMM_NULL;
  if (harness)
    MPI_Comm_dup(MPI_COMM_WORLD, &c), MPI_Comm_dup(MPI_COMM_WORLD, &h);
  const size_t len = (size_t)n * (size_t)np * sizeof(int);
  void *sv = NULL, *rv = NULL;
  if (posix_memalign(&sv, 4096, len) || posix_memalign(&rv, 4096, len))
    MPI_Abort(MPI_COMM_WORLD, 1);
  int *s = sv, *r = rv;
  memset(s, 1, len), memset(r, 0, len);
  double timer = 0, mx[8], rmx[8], one, sum1, all[1024];
  if (np > 1024) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Barrier(c);
  for (int i = 0; i < iters + skip; i++) {
    const double t0 = MPI_Wtime();
    op_once(op, s, r, n, c);
    const double t1 = MPI_Wtime();
    if (harness) {
      one = mx[0] = t1 - t0;
      for (int k = 1; k < 8; k++) mx[k] = -k;
      MPI_Allreduce(mx, rmx, 8, MPI_DOUBLE, MPI_MAX, h);
      MPI_Allreduce(&one, &sum1, 1, MPI_DOUBLE, MPI_SUM, h);
      MPI_Allgather(&one, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, h);
      MPI_Barrier(h);
    } else {
      MPI_Barrier(c);
    }
    if (i >= skip) timer += t1 - t0;
  }
  double mean = timer / iters, total = 0;
  MPI_Reduce(&mean, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Gather(&mean, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("%.6e", total / np);
    for (int k = 0; k < np; k++) printf(" %.6e", all[k]);
    printf("\n");
  }
  free(s), free(r), free(cnt), free(dsp), free(split);
  MPI_Finalize();
  return 0;
}
