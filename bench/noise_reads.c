/* What the calls of the runner's noise record cost, one by one (bench/noise):
   pread of /proc/stat's first 255 bytes (the steal time; rank 0 of a node
   makes it twice per sample) and getrusage(RUSAGE_SELF) (the involuntary
   context switches; every rank, twice per sample), as core/engine/noise.cpp
   makes them. Prints one JSON line: per call, the median over 21 batches of
   the mean time of a call in a batch of 2000 calls.

   Build: cc -O2 -o noise_reads noise_reads.c */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum { BATCHES = 21, CALLS = 2000 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void* x, const void* y) {
  double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

static volatile long sink;

static double median_batch(int which, int fd) {
  double t[BATCHES];
  char buf[256];
  struct rusage ru;
  for (int b = 0; b < BATCHES; ++b) {
    double t0 = now();
    for (int i = 0; i < CALLS; ++i) {
      if (which == 0) {
        sink += pread(fd, buf, sizeof buf - 1, 0);
      } else {
        getrusage(RUSAGE_SELF, &ru);
        sink += ru.ru_nivcsw;
      }
    }
    t[b] = (now() - t0) / CALLS;
  }
  qsort(t, BATCHES, sizeof t[0], cmp);
  return t[BATCHES / 2];
}

int main(void) {
  int fd = open("/proc/stat", O_RDONLY);
  if (fd < 0) {
    perror("noise_reads: /proc/stat");
    return 2;
  }
  double stat = median_batch(0, fd), rus = median_batch(1, fd);
  printf("{\"proc_stat_pread_s\": %.9e, \"getrusage_s\": %.9e}\n", stat, rus);
  close(fd);
  return 0;
}
