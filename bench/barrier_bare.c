/* Bare MPI_Barrier loop timed as the runner times a point: iterations doubled
   until a sample lasts 5 ms, 7 samples of the slowest rank's time per barrier;
   rank 0 prints the median (s) and the iterations. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static int cmp(const void* a, const void* b) { return (*(double*)a > *(double*)b) - (*(double*)a < *(double*)b); }
static double sample(long n) {
  double t, worst;
  MPI_Barrier(MPI_COMM_WORLD), t = MPI_Wtime();
  for (long i = 0; i < n; ++i) MPI_Barrier(MPI_COMM_WORLD);
  t = MPI_Wtime() - t, MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}
int main(int argc, char** argv) {
  double s[7]; long n = 1; int rank;
  MPI_Init(&argc, &argv), MPI_Comm_rank(MPI_COMM_WORLD, &rank), MPI_Barrier(MPI_COMM_WORLD);
  while (sample(n) < 0.005) n *= 2;
  for (int r = 0; r < 7; ++r) s[r] = sample(n) / n;
  qsort(s, 7, sizeof s[0], cmp);
  if (rank == 0) printf("%.9e %ld\n", s[3], n);
  return MPI_Finalize();
}
