/* LD_PRELOAD clock for bench/noise: wraps MPI_Barrier through the MPI
   profiling interface (PMPI) and notes CLOCK_MONOTONIC at every call. The
   runner calls MPI_Barrier once per sample (the barrier that starts it,
   core/engine/timed_run.cpp), so the interval between two consecutive barriers
   of a rank is one whole sample cycle: noise probe start (with --noise on),
   barrier, timed loop, noise probe stop, the reductions and the engine's
   bookkeeping. With thousands of samples per launch the few barriers of
   prepare and verification do not move the median interval.

   At MPI_Finalize each rank writes one JSON line to $BARRIER_CLOCK_OUT.rankN
   (nothing when the variable is unset): barrier count, and the median,
   quartiles and minimum of the intervals in seconds.

   Build: mpicc -O2 -shared -fPIC -o libbarrier_clock.so barrier_clock.c */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_STAMPS (1 << 21)
static double* stamps;
static long nstamps;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int MPI_Barrier(MPI_Comm comm) {
  if (!stamps) stamps = malloc(MAX_STAMPS * sizeof *stamps);
  if (stamps && nstamps < MAX_STAMPS) stamps[nstamps++] = now();
  return PMPI_Barrier(comm);
}

static int cmp(const void* x, const void* y) {
  double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

static double quantile(const double* v, long n, double q) {
  double pos = q * (double)(n - 1);
  long i = (long)pos;
  double f = pos - (double)i;
  return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

int MPI_Finalize(void) {
  const char* out = getenv("BARRIER_CLOCK_OUT");
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (out && stamps && nstamps > 2) {
    long n = nstamps - 1;
    double* d = malloc((size_t)n * sizeof *d);
    for (long i = 0; i < n; ++i) d[i] = stamps[i + 1] - stamps[i];
    qsort(d, (size_t)n, sizeof *d, cmp);
    char path[4096];
    snprintf(path, sizeof path, "%s.rank%d", out, rank);
    FILE* f = fopen(path, "w");
    if (f) {
      fprintf(f,
              "{\"rank\": %d, \"barriers\": %ld, \"median_s\": %.9e, "
              "\"p25_s\": %.9e, \"p75_s\": %.9e, \"min_s\": %.9e}\n",
              rank, nstamps, quantile(d, n, 0.5), quantile(d, n, 0.25),
              quantile(d, n, 0.75), d[0]);
      fclose(f);
    }
    free(d);
  }
  return PMPI_Finalize();
}
