// The machine's state over time (bench/machine_states): two threads pinned
// to CPUs 0 and 1 bounce one cache line (spin on a shared counter), and
// every `interval` seconds for `seconds` seconds this prints
// "<seconds since start> <round trip ns>", the round trip being the minimum
// over 8 batches of 1000 trips (a preemption spoils a batch, not the
// reading). The runner's probe (core/engine/core_probe.cpp) takes the same
// figure between two ranks through MPI shared memory.
//   cc -O2 -pthread bench/core_to_core.c -o core_to_core
//   ./core_to_core 180 0.5
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(64) _Atomic long line;
static _Atomic int stop;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
    fprintf(stderr, "core_to_core: cannot pin to CPU %d\n", cpu);
    exit(2);
  }
}

// Answers every odd value with the next even one until told to stop.
static void* partner(void* unused) {
  (void)unused;
  pin(1);
  long v = 1;
  while (!atomic_load(&stop)) {
    if (atomic_load_explicit(&line, memory_order_acquire) == v) {
      atomic_store_explicit(&line, v + 1, memory_order_release);
      v += 2;
    }
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: core_to_core SECONDS INTERVAL\n");
    return 2;
  }
  const double seconds = atof(argv[1]), interval = atof(argv[2]);
  pin(0);
  pthread_t thread;
  pthread_create(&thread, NULL, partner, NULL);
  long v = 0;
  const double start = now();
  for (double next = start; now() - start < seconds; next += interval) {
    double best = 1e30;
    for (int b = 0; b < 8; ++b) {
      const double t0 = now();
      for (int i = 0; i < 1000; ++i, v += 2) {
        atomic_store_explicit(&line, v + 1, memory_order_release);
        while (atomic_load_explicit(&line, memory_order_acquire) != v + 2) {
        }
      }
      const double trip = (now() - t0) / 1000;
      if (trip < best) best = trip;
    }
    printf("%.2f %.1f\n", now() - start, best * 1e9);
    fflush(stdout);
    while (now() < next + interval) {
    }
  }
  atomic_store(&stop, 1);
  pthread_join(thread, NULL);
  return 0;
}
