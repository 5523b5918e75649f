/* What runs between two timed collectives moves a small collective's time.
   OSU's blocking-collective loop (t_start, op, t_stop, MPI_Barrier, repeat)
   in two forms that differ only in what comes before the barrier:
     plain    the loop as OSU runs it (one communicator);
     harness  the steps mpiarena's harness runs between two one-operation
              samples (core/engine/timed_run.cpp): an 8-double MAX allreduce, a
              1-double SUM allreduce and a 1-double allgather on a second
              communicator, then the barrier on it; the operation on a
              duplicate of MPI_COMM_WORLD, as a plugin's;
     untouched as plain, but the send buffer is never written: as
              osu_allgatherv's and osu_allgatherv_persistent's (OSU 7.4
              calls set_buffer on it only in the branch where its
              allocation failed), whose pages Linux then maps to its one
              shared zero page when MPI reads them.
     parts    for a non-blocking OP: harness, and after each timed
              operation the two other parts of mpiarena's overlap sample
              (core/engine/point_run.cpp runs a sample's parts in turn):
              "compute", a busy loop as long as the operation's mean so
              far, and "both", post, that busy loop, wait; each part then
              the harness steps.
   Usage: coll_between OP BYTES ITERS SKIP plain|harness|untouched|parts
   OP: allreduce reduce allgather alltoall bcast gather scatter iallreduce
   ibcast, and with OSU's equal counts (counts=uniform) allgatherv
   alltoallv gatherv scatterv igather iscatter iallgatherv ialltoallv
   igatherv iscatterv ireduce_scatter alltoallw ialltoallw, and the
   neighbourhood collectives on OSU's graph (a periodic ring: the rank
   before and the rank after, from 3 ranks on) neighbor_allgather
   neighbor_alltoall neighbor_allgatherv neighbor_alltoallv
   neighbor_alltoallw and their i-forms (MPI_INT, MPI_SUM, root 0; a
   non-blocking one is posted and waited for, OSU's pure communication;
   ireduce_scatter splits BYTES over the ranks as osu_ireduce_scatter).
   Under an MPI 4 library (MPICH 4; Open MPI 4.1 has none) also the
   persistent allgatherv_persistent, gatherv_persistent and
   reduce_scatter_persistent, as OSU's: initialised once, then MPI_Start
   and MPI_Wait per operation.
   Rank 0 prints the mean over iterations of the rank average (s), then
   each rank's mean. bench/reference runs it.
   Build: mpicc -O3 -o coll_between coll_between.c */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Equal counts and displacements (OSU's), ireduce_scatter's split, the
   byte displacements and types of the w-forms. */
static int *cnt, *dsp, *split, *bdsp;
static MPI_Datatype* types;
/* The neighbourhood collectives' graph: a ring, as OSU's (dim 1, radius 1).
   Their counts and displacements are the first two of cnt/dsp/bdsp. */
static MPI_Comm graph = MPI_COMM_NULL;

static int neighbor_op(const char* op, int* s, int* r, int n,
                       MPI_Request* q) {
  const int nonblocking = op[0] == 'i';
  const char* o = op + nonblocking + strlen("neighbor_");
  MPI_Aint w[2] = {0, (MPI_Aint)n * (MPI_Aint)sizeof(int)};
  if (!strcmp(o, "allgather"))
    return nonblocking ? MPI_Ineighbor_allgather(s, n, MPI_INT, r, n, MPI_INT,
                                                 graph, q)
                       : MPI_Neighbor_allgather(s, n, MPI_INT, r, n, MPI_INT,
                                                graph);
  if (!strcmp(o, "alltoall"))
    return nonblocking ? MPI_Ineighbor_alltoall(s, n, MPI_INT, r, n, MPI_INT,
                                                graph, q)
                       : MPI_Neighbor_alltoall(s, n, MPI_INT, r, n, MPI_INT,
                                               graph);
  if (!strcmp(o, "allgatherv"))
    return nonblocking
               ? MPI_Ineighbor_allgatherv(s, n, MPI_INT, r, cnt, dsp, MPI_INT,
                                          graph, q)
               : MPI_Neighbor_allgatherv(s, n, MPI_INT, r, cnt, dsp, MPI_INT,
                                         graph);
  if (!strcmp(o, "alltoallv"))
    return nonblocking ? MPI_Ineighbor_alltoallv(s, cnt, dsp, MPI_INT, r, cnt,
                                                 dsp, MPI_INT, graph, q)
                       : MPI_Neighbor_alltoallv(s, cnt, dsp, MPI_INT, r, cnt,
                                                dsp, MPI_INT, graph);
  return nonblocking ? MPI_Ineighbor_alltoallw(s, cnt, w, types, r, cnt, w,
                                               types, graph, q)
                     : MPI_Neighbor_alltoallw(s, cnt, w, types, r, cnt, w,
                                              types, graph);
}

#if MPI_VERSION >= 4
/* A persistent collective's request, made at its first operation. */
static MPI_Request persistent = MPI_REQUEST_NULL;

static void persistent_once(const char* op, int* s, int* r, int n,
                            MPI_Comm c) {
  if (persistent == MPI_REQUEST_NULL) {
    if (!strcmp(op, "allgatherv_persistent"))
      MPI_Allgatherv_init(s, n, MPI_INT, r, cnt, dsp, MPI_INT, c,
                          MPI_INFO_NULL, &persistent);
    else if (!strcmp(op, "gatherv_persistent"))
      MPI_Gatherv_init(s, n, MPI_INT, r, cnt, dsp, MPI_INT, 0, c,
                       MPI_INFO_NULL, &persistent);
    else
      MPI_Reduce_scatter_init(s, r, split, MPI_INT, MPI_SUM, c, MPI_INFO_NULL,
                              &persistent);
  }
  MPI_Start(&persistent);
  MPI_Wait(&persistent, MPI_STATUS_IGNORE);
}
#endif

/* Posts OP (a blocking one runs to its end; *q stays MPI_REQUEST_NULL). */
static void op_post(const char* op, int* s, int* r, int n, MPI_Comm c,
                    MPI_Request* qp) {
  MPI_Request q = MPI_REQUEST_NULL;
#if MPI_VERSION >= 4
  if (strstr(op, "_persistent")) {
    persistent_once(op, s, r, n, c);
    *qp = q;
    return;
  }
#endif
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
  else if (!strcmp(op, "alltoallw"))
    MPI_Alltoallw(s, cnt, bdsp, types, r, cnt, bdsp, types, c);
  else if (!strcmp(op, "ialltoallw"))
    MPI_Ialltoallw(s, cnt, bdsp, types, r, cnt, bdsp, types, c, &q);
  else if (strstr(op, "neighbor_"))
    neighbor_op(op, s, r, n, &q);
  else /* ireduce_scatter */
    MPI_Ireduce_scatter(s, r, split, MPI_INT, MPI_SUM, c, &q);
  *qp = q;
}

static void op_once(const char* op, int* s, int* r, int n, MPI_Comm c) {
  MPI_Request q;
  op_post(op, s, r, n, c, &q);
  if (q != MPI_REQUEST_NULL) MPI_Wait(&q, MPI_STATUS_IGNORE);
}

/* The steps mpiarena's harness runs after a sample, on its communicator. */
static void harness_steps(MPI_Comm h, double one) {
  double mx[8], rmx[8], sum1, all[1024];
  mx[0] = one;
  for (int k = 1; k < 8; k++) mx[k] = -k;
  MPI_Allreduce(mx, rmx, 8, MPI_DOUBLE, MPI_MAX, h);
  MPI_Allreduce(&one, &sum1, 1, MPI_DOUBLE, MPI_SUM, h);
  MPI_Allgather(&one, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, h);
  MPI_Barrier(h);
}

/* A busy loop of `seconds`: the overlap suite's computation. */
static void spin(double seconds) {
  const double end = MPI_Wtime() + seconds;
  while (MPI_Wtime() < end) {
  }
}

int main(int argc, char** argv) {
  static const char* ops[] = {
      "allreduce",  "reduce",    "allgather",  "alltoall",   "bcast",
      "gather",     "scatter",   "iallreduce", "ibcast",     "allgatherv",
      "alltoallv",  "gatherv",   "scatterv",   "igather",    "iscatter",
      "iallgatherv", "ialltoallv", "igatherv", "iscatterv", "ireduce_scatter",
      "alltoallw", "ialltoallw", "neighbor_allgather", "neighbor_alltoall",
      "neighbor_allgatherv", "neighbor_alltoallv", "neighbor_alltoallw",
      "ineighbor_allgather", "ineighbor_alltoall", "ineighbor_allgatherv",
      "ineighbor_alltoallv", "ineighbor_alltoallw",
#if MPI_VERSION >= 4
      "allgatherv_persistent", "gatherv_persistent",
      "reduce_scatter_persistent",
#endif
  };
  const int nops = (int)(sizeof ops / sizeof ops[0]);
  int rank, np, known = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (int k = 0; argc == 6 && k < nops; ++k)
    known |= !strcmp(argv[1], ops[k]);
  const int parts = argc == 6 && !strcmp(argv[5], "parts");
  if (!known ||
      (strcmp(argv[5], "plain") && strcmp(argv[5], "harness") &&
       strcmp(argv[5], "untouched") && !parts) ||
      (parts && argv[1][0] != 'i') ||
      atol(argv[2]) < 0 || atoi(argv[3]) < 1 || atoi(argv[4]) < 0) {
    if (rank == 0)
      fprintf(stderr,
              "usage: coll_between OP BYTES ITERS SKIP "
              "plain|harness|untouched|parts (parts: a non-blocking OP)\n"
              "OP: allreduce reduce allgather alltoall bcast gather scatter "
              "iallreduce ibcast allgatherv alltoallv gatherv scatterv "
              "igather iscatter iallgatherv ialltoallv igatherv iscatterv "
              "ireduce_scatter alltoallw ialltoallw [i]neighbor_allgather "
              "[i]neighbor_alltoall [i]neighbor_allgatherv "
              "[i]neighbor_alltoallv [i]neighbor_alltoallw"
#if MPI_VERSION >= 4
              " allgatherv_persistent gatherv_persistent "
              "reduce_scatter_persistent"
#endif
              "\n");
    MPI_Finalize();
    return 2;
  }
  const char* op = argv[1];
  const int iters = atoi(argv[3]), skip = atoi(argv[4]);
  const int harness = !strcmp(argv[5], "harness") || parts;
  int n = (int)(atol(argv[2]) / (long)sizeof(int));
  if (n < 1) n = 1;
  cnt = malloc(sizeof(int) * (size_t)np);
  dsp = malloc(sizeof(int) * (size_t)np);
  split = malloc(sizeof(int) * (size_t)np);
  bdsp = malloc(sizeof(int) * (size_t)np);
  types = malloc(sizeof(MPI_Datatype) * (size_t)np);
  if (!cnt || !dsp || !split || !bdsp || !types) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < np; k++)
    cnt[k] = n, dsp[k] = k * n, split[k] = n / np + (k < n % np),
    bdsp[k] = k * n * (int)sizeof(int), types[k] = MPI_INT;
  MPI_Comm c = MPI_COMM_WORLD, h = MPI_COMM_NULL;
  if (harness)
    MPI_Comm_dup(MPI_COMM_WORLD, &c), MPI_Comm_dup(MPI_COMM_WORLD, &h);
  if (strstr(op, "neighbor_")) { /* OSU's ring, on the operation's comm */
    if (np < 3) {
      if (rank == 0) fprintf(stderr, "coll_between: %s needs 3 ranks\n", op);
      MPI_Finalize();
      return 2;
    }
    int nb[2] = {(rank + np - 1) % np, (rank + 1) % np}, wt[2] = {1, 1};
    MPI_Dist_graph_create_adjacent(c, 2, nb, wt, 2, nb, wt, MPI_INFO_NULL, 0,
                                   &graph);
  }
  const size_t len = (size_t)n * (size_t)np * sizeof(int);
  void *sv = NULL, *rv = NULL;
  if (posix_memalign(&sv, 4096, len) || posix_memalign(&rv, 4096, len))
    MPI_Abort(MPI_COMM_WORLD, 1);
  int *s = sv, *r = rv;
  if (strcmp(argv[5], "untouched")) memset(s, 1, len);
  memset(r, 0, len);
  double timer = 0, all[1024];
  if (np > 1024) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Barrier(c);
  for (int i = 0; i < iters + skip; i++) {
    const double t0 = MPI_Wtime();
    op_once(op, s, r, n, c);
    const double t1 = MPI_Wtime();
    if (harness)
      harness_steps(h, t1 - t0);
    else
      MPI_Barrier(c);
    if (i >= skip) timer += t1 - t0;
    if (parts) { /* the sample's "compute" and "both" parts */
      const double t = i > skip ? timer / (i - skip + 1) : t1 - t0;
      spin(t);
      harness_steps(h, t);
      MPI_Request q;
      op_post(op, s, r, n, c, &q);
      spin(t);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      harness_steps(h, t);
    }
  }
  double mean = timer / iters, total = 0;
  MPI_Reduce(&mean, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Gather(&mean, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("%.6e", total / np);
    for (int k = 0; k < np; k++) printf(" %.6e", all[k]);
    printf("\n");
  }
  if (graph != MPI_COMM_NULL) MPI_Comm_free(&graph);
#if MPI_VERSION >= 4
  if (persistent != MPI_REQUEST_NULL) MPI_Request_free(&persistent);
#endif
  free(s), free(r), free(cnt), free(dsp), free(split), free(bdsp), free(types);
  MPI_Finalize();
  return 0;
}
