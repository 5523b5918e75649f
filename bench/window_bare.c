/* Window timing with nothing around it (issue 46): where does a small
   collective's time under mpiarena's --sync window differ from ReproMPI's?
   Every rank of one node reads the same CLOCK_MONOTONIC, so no clock
   synchronization is needed: rank 0 picks t0, operation k starts on every
   rank when the clock reads t0 + k W (each rank spins until then), its
   time is the latest exit minus that start, and a window some rank reached
   late or left after its end is invalid (ReproMPI's rule, mpiarena's).
   Usage: window_bare OP BYTES REPS WINDOW_US [dup] [thread] [wtime]
     OP     reduce | bcast | allreduce | alltoall (MPI_INT, MPI_SUM, root 0)
     dup    the operation on a duplicate of MPI_COMM_WORLD (a plugin's)
     thread one more thread per rank asleep on a condition variable, as
            mpiarena's watchdog
     wtime  spin and read the exit on MPI_Wtime (plus the rank's offset to
            CLOCK_MONOTONIC, measured once) instead of CLOCK_MONOTONIC
   Rank 0 prints the median over valid windows of the max over ranks (s)
   and the invalid fraction. bench/sync bare runs it.
   Build: mpicc -O3 -o window_bare window_bare.c -lpthread */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int use_wtime;
static double wtime_offset; /* MPI_Wtime - CLOCK_MONOTONIC on this rank */

static double mono(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The shared clock, read either way. */
static double now(void) {
  return use_wtime ? MPI_Wtime() - wtime_offset : mono();
}

static void op_once(const char* op, int* s, int* r, int n, MPI_Comm c) {
  if (!strcmp(op, "reduce"))
    MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, 0, c);
  else if (!strcmp(op, "bcast"))
    MPI_Bcast(s, n, MPI_INT, 0, c);
  else if (!strcmp(op, "allreduce"))
    MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, c);
  else if (!strcmp(op, "alltoall"))
    MPI_Alltoall(s, n / 2 > 0 ? n / 2 : 1, MPI_INT, r, n / 2 > 0 ? n / 2 : 1,
                 MPI_INT, c);
  else {
    fprintf(stderr, "window_bare: unknown OP %s\n", op);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static int done;

static void* sleeper(void* arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  while (!done) pthread_cond_wait(&wake, &lock);
  pthread_mutex_unlock(&lock);
  return NULL;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc < 5) {
    fprintf(stderr, "usage: window_bare OP BYTES REPS WINDOW_US [dup] "
                    "[thread] [wtime]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char* op = argv[1];
  const int n = atoi(argv[2]) / (int)sizeof(int) > 0
                    ? atoi(argv[2]) / (int)sizeof(int) : 1;
  const int reps = atoi(argv[3]);
  const double w = atof(argv[4]) * 1e-6;
  int dup = 0, thread = 0;
  for (int i = 5; i < argc; ++i) {
    dup |= !strcmp(argv[i], "dup");
    thread |= !strcmp(argv[i], "thread");
    use_wtime |= !strcmp(argv[i], "wtime");
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm c = MPI_COMM_WORLD;
  if (dup) MPI_Comm_dup(MPI_COMM_WORLD, &c);
  pthread_t t;
  if (thread) pthread_create(&t, NULL, sleeper, NULL);
  if (use_wtime) { /* the pair of reads around the quickest mono() */
    double span = 1e9;
    for (int i = 0; i < 50; ++i) {
      const double a = MPI_Wtime(), m = mono(), b = MPI_Wtime();
      if (b - a < span) span = b - a, wtime_offset = (a + b) / 2 - m;
    }
  }
  int* s = calloc((size_t)n * (size_t)size, sizeof(int));
  int* r = calloc((size_t)n * (size_t)size, sizeof(int));
  double* took = calloc((size_t)reps, sizeof(double));
  double* bad = calloc((size_t)reps, sizeof(double));
  for (int k = 0; k < 20; ++k) op_once(op, s, r, n, c); /* warm-up */
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now() + 1e-3;
  MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int k = 0; k < reps; ++k) {
    const double start = t0 + k * w;
    if (now() > start) bad[k] = 1;
    while (now() < start) {
    }
    op_once(op, s, r, n, c);
    const double exit = now();
    took[k] = exit - start;
    if (exit > start + w) bad[k] = 1;
  }
  MPI_Allreduce(MPI_IN_PLACE, took, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, bad, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int valid = 0;
  for (int k = 0; k < reps; ++k)
    if (bad[k] == 0) took[valid++] = took[k];
  qsort(took, (size_t)valid, sizeof(double), by_value);
  if (rank == 0)
    printf("%.9g %.4f\n", valid ? took[valid / 2] : 0.0,
           1.0 - (double)valid / reps);
  if (thread) {
    pthread_mutex_lock(&lock);
    done = 1;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
  }
  if (dup) MPI_Comm_free(&c);
  free(s), free(r), free(took), free(bad);
  MPI_Finalize();
  return 0;
}
