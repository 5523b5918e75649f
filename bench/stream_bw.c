/* A streaming-bandwidth reference in the manner of OSU's osu_bw (our own
 * code, written from OSU's published method, not copied): rank 0 posts a
 * window of W non-blocking sends of one buffer, rank 1 a window of W
 * receives into one buffer; rank 1 answers the window with a 1-byte
 * acknowledgement. Bandwidth = W x size / time per window. Used by
 * bench/shm_vs_stream as the two-copy stream that mpiarena's `shm` transfer
 * is compared with (Open MPI with --mca btl_vader_single_copy_mechanism
 * none copies through its shared-memory FIFOs: two copies, as `shm`).
 *
 *   mpirun -np 2 stream_bw SIZE [WINDOW [MIN_TIME_S [TRIALS]]]
 *
 * Prints one line: size window windows_per_trial best_Bps median_Bps. Each
 * trial runs enough windows to last MIN_TIME_S (default 0.2 s); the first
 * window is a warm-up.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static void window(char* buf, size_t size, int w, int rank, MPI_Request* req) {
  char ack = 0;
  if (rank == 0) {
    for (int i = 0; i < w; ++i)
      MPI_Isend(buf, (int)size, MPI_CHAR, 1, 100, MPI_COMM_WORLD, &req[i]);
    MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
    MPI_Recv(&ack, 1, MPI_CHAR, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    for (int i = 0; i < w; ++i)
      MPI_Irecv(buf, (int)size, MPI_CHAR, 0, 100, MPI_COMM_WORLD, &req[i]);
    MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
    MPI_Send(&ack, 1, MPI_CHAR, 0, 101, MPI_COMM_WORLD);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: stream_bw SIZE [WINDOW [MIN_TIME_S [TRIALS]]]\n");
    MPI_Finalize();
    return 2;
  }
  const size_t size = strtoull(argv[1], NULL, 10);
  const int w = argc > 2 ? atoi(argv[2]) : 64;
  const double min_time = argc > 3 ? atof(argv[3]) : 0.2;
  const int trials = argc > 4 ? atoi(argv[4]) : 5;
  char* buf = malloc(size ? size : 1);
  memset(buf, rank + 1, size);
  MPI_Request* req = malloc(sizeof(MPI_Request) * (size_t)w);
  window(buf, size, w, rank, req); /* warm-up */
  /* Windows per trial: from one timed window, agreed by rank 0. */
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  window(buf, size, w, rank, req);
  t = MPI_Wtime() - t;
  int n = t > 0 ? (int)(min_time / t) + 1 : 1;
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double* bw = malloc(sizeof(double) * (size_t)trials);
  for (int k = 0; k < trials; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < n; ++i) window(buf, size, w, rank, req);
    const double dt = MPI_Wtime() - t0;
    bw[k] = (double)size * w * n / dt;
  }
  qsort(bw, (size_t)trials, sizeof(double), cmp);
  if (rank == 0)
    printf("%zu %d %d %.6e %.6e\n", size, w, n, bw[trials - 1],
           bw[trials / 2]);
  free(bw);
  free(req);
  free(buf);
  MPI_Finalize();
  return 0;
}
