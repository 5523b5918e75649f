/* Two-thread memcpy ping-pong: why one buffer per side (NetPIPE's scheme)
   costs more than a send buffer and a receive buffer (osu_latency's) when the
   two sides run on two cores. No MPI: a "message" is one memcpy, the hand-off
   a spin flag (C11 atomics, release/acquire).

   Thread A runs on CPU a, thread B on CPU b (pthread_setaffinity_np). One
   round trip is two copies, A to B then B to A; one-way time = round trip / 2.

   shared    each side has ONE buffer that receives the ping and sends the
             pong: A copies bufA into bufB, B then copies that same bufB back
             into bufA. Every copy reads lines the other core has just written
             (dirty in its cache) and writes lines the other core has read.
   separate  each side sends from a buffer it never writes and receives into
             another: A copies srcA into rcvB, B copies srcB into rcvA. No
             copy reads a line the other core wrote.

   --copy push (default): the sender copies into the receiver's buffer, then
   raises the flag. --copy pull: the sender raises the flag and the receiver
   copies from the sender's buffer into its own, as Open MPI's vader does
   with CMA (process_vm_readv by the receiver). The line states are the same
   in both: shared reads lines dirty in the other cache, separate does not.

   Placements: a,b (two CPUs, default 0,1) and, with --control, a,a: both
   threads on one CPU (they yield to each other), where no line moves between
   caches, so shared and separate should cost the same there.

   One run = one (size, placement, mode): a warm-up, then a calibration that
   doubles the round trips of a pass until a pass lasts --trial-time
   (default 2 ms: short, so that a trial seldom spans a preemption, and as
   long in both modes) and sizes a trial from the fastest round trip seen,
   then --trials trials (default 11); the run's value is the median of its
   trials. Per round, every size and placement runs both modes back to
   back, shared first in odd rounds and separate first in even ones, so both
   modes see the same state of the machine. Output: one TSV line per run
   (round, placement, mode, bytes, round trips per trial, median and minimum
   one-way time of the run in seconds).

     pingpong_threads [--rounds K] [--min-size B] [--max-size B] [--cpus a,b]
                      [--trials T] [--trial-time S] [--copy push|pull]
                      [--control]

   Build: cc -O2 -pthread -o pingpong_threads pingpong_threads.c */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

enum { SHARED = 0, SEPARATE = 1 };
static const char* mode_name[] = {"shared", "separate"};

struct side {
  unsigned char* own;  /* shared: the one buffer; separate: the receive buffer */
  unsigned char* src;  /* separate: the send buffer, never written after init */
};

struct run {
  struct side a, b;
  size_t bytes;
  int mode, pull, cpu_b, yield;
  _Atomic int stop;         /* set before the last ping: B leaves */
  _Atomic long ping, pong;  /* number of the last ping / pong sent */
};

static void die(const char* what) {
  fprintf(stderr, "pingpong_threads: %s\n", what);
  exit(2);
}

static void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  if (rc != 0) {
    fprintf(stderr, "pingpong_threads: cannot pin to CPU %d: %s\n", cpu, strerror(rc));
    exit(2);
  }
}

static void wait_for(_Atomic long* flag, long value, int yield) {
  while (atomic_load_explicit(flag, memory_order_acquire) < value) {
    if (yield) sched_yield();
    else CPU_RELAX();
  }
}

/* What a message from `from` to `to` reads and writes. */
static const unsigned char* send_buf(const struct run* r, const struct side* from) {
  return r->mode == SHARED ? from->own : from->src;
}

/* One message: push copies before the flag, pull after it. */
static void send_msg(struct run* r, struct side* from, struct side* to,
                     _Atomic long* flag, long n) {
  if (!r->pull) memcpy(to->own, send_buf(r, from), r->bytes);
  atomic_store_explicit(flag, n, memory_order_release);
}
static void recv_msg(struct run* r, struct side* from, struct side* to,
                     _Atomic long* flag, long n) {
  wait_for(flag, n, r->yield);
  if (r->pull) memcpy(to->own, send_buf(r, from), r->bytes);
}

static void* thread_b(void* arg) {
  struct run* r = arg;
  pin(r->cpu_b);
  for (long i = 1;; ++i) {
    wait_for(&r->ping, i, r->yield);
    if (atomic_load_explicit(&r->stop, memory_order_acquire)) break;
    recv_msg(r, &r->a, &r->b, &r->ping, i);  /* pull: the copy */
    send_msg(r, &r->b, &r->a, &r->pong, i);
  }
  return NULL;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void* x, const void* y) {
  double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

static unsigned char* buffer(size_t bytes, int fill) {
  void* p = NULL;
  if (posix_memalign(&p, 16384, bytes) != 0) die("out of memory");
  memset(p, fill, bytes);
  return p;
}

/* A's side of `iters` round trips; returns the seconds they took. */
static double round_trips(struct run* r, long* n, long iters) {
  double t0 = now();
  for (long i = 0; i < iters; ++i) {
    ++*n;
    send_msg(r, &r->a, &r->b, &r->ping, *n);
    recv_msg(r, &r->b, &r->a, &r->pong, *n);
  }
  return now() - t0;
}

/* One run; fills the round trips per trial and the median and minimum
   one-way time over the trials. */
static void one_run(int mode, int pull, int cpu_a, int cpu_b, size_t bytes,
                    int trials, double trial_time, long* iters, double* median,
                    double* best) {
  struct run r;
  memset(&r, 0, sizeof r);
  r.bytes = bytes;
  r.mode = mode;
  r.pull = pull;
  r.cpu_b = cpu_b;
  r.yield = cpu_a == cpu_b;
  r.a.own = buffer(bytes, 1);
  r.b.own = buffer(bytes, 2);
  r.a.src = buffer(bytes, 3);
  r.b.src = buffer(bytes, 4);
  atomic_init(&r.stop, 0);
  atomic_init(&r.ping, 0);
  atomic_init(&r.pong, 0);
  pin(cpu_a);
  pthread_t tb;
  if (pthread_create(&tb, NULL, thread_b, &r) != 0) die("pthread_create failed");
  long n = 0, k1 = 1;
  round_trips(&r, &n, 2);  /* warm-up: every buffer touched by its copier */
  /* Calibration: double until a pass lasts trial_time, then size a trial
     from the fastest round trip seen, so that a pass slowed by a preemption
     does not stop the doubling early with a trial far too short. */
  double fastest = 1e30, took;
  do {
    took = round_trips(&r, &n, k1);
    if (took / (double)k1 < fastest) fastest = took / (double)k1;
    k1 *= 2;
  } while (took < trial_time && k1 <= (1L << 20));
  k1 = (long)(trial_time / fastest) + 1;
  if (k1 > (1L << 20)) k1 = 1L << 20;
  *iters = k1;
  double* t = calloc((size_t)trials, sizeof *t);
  for (int k = 0; k < trials; ++k)
    t[k] = round_trips(&r, &n, k1) / (2.0 * (double)k1);
  atomic_store_explicit(&r.stop, 1, memory_order_release);
  atomic_store_explicit(&r.ping, LONG_MAX, memory_order_release);
  pthread_join(tb, NULL);
  qsort(t, (size_t)trials, sizeof *t, cmp_double);
  *median = trials % 2 ? t[trials / 2] : (t[trials / 2 - 1] + t[trials / 2]) / 2;
  *best = t[0];
  free(t);
  free(r.a.own);
  free(r.b.own);
  free(r.a.src);
  free(r.b.src);
}

static size_t parse_size(const char* s) {
  char* end;
  double v = strtod(s, &end);
  if (end == s || v <= 0) die("bad size (e.g. 4096, 4KiB, 4MiB)");
  if (!strcmp(end, "KiB") || !strcmp(end, "K")) v *= 1024;
  else if (!strcmp(end, "MiB") || !strcmp(end, "M")) v *= 1024 * 1024;
  else if (*end && strcmp(end, "B")) die("bad size unit (B, KiB, MiB)");
  return (size_t)v;
}

static void usage(FILE* f) {
  fprintf(f,
          "usage: pingpong_threads [--rounds K] [--min-size B] [--max-size B] "
          "[--cpus a,b] [--trials T] [--trial-time S] [--copy push|pull] "
          "[--control]\n"
          "  sizes double from --min-size (4KiB) to --max-size (4MiB); default "
          "--rounds 20 --trials 11 --trial-time 0.002 --cpus 0,1 --copy push\n");
}

int main(int argc, char** argv) {
  int rounds = 20, trials = 11, cpu_a = 0, cpu_b = 1, pull = 0, control = 0;
  double trial_time = 0.002;
  size_t lo = 4096, hi = 4 << 20;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--control")) {
      control = 1;
      continue;
    }
    if (!v) {
      usage(stderr);
      die("missing value or unknown option");
    }
    if (!strcmp(a, "--rounds")) rounds = atoi(v);
    else if (!strcmp(a, "--trials")) trials = atoi(v);
    else if (!strcmp(a, "--trial-time")) trial_time = atof(v);
    else if (!strcmp(a, "--min-size")) lo = parse_size(v);
    else if (!strcmp(a, "--max-size")) hi = parse_size(v);
    else if (!strcmp(a, "--cpus")) {
      if (sscanf(v, "%d,%d", &cpu_a, &cpu_b) != 2) die("--cpus a,b");
    } else if (!strcmp(a, "--copy")) {
      if (!strcmp(v, "pull")) pull = 1;
      else if (strcmp(v, "push")) die("--copy push|pull");
    } else {
      usage(stderr);
      fprintf(stderr, "pingpong_threads: unknown option '%s'\n", a);
      return 2;
    }
    ++i;
  }
  if (rounds < 1 || trials < 1 || lo > hi || !(trial_time > 0))
    die("need --rounds >= 1, --trials >= 1, --trial-time > 0, min size <= max size");
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpu_a < 0 || cpu_b < 0 || cpu_a >= ncpu || cpu_b >= ncpu) die("a CPU of --cpus is not online");
  int places[2][2] = {{cpu_a, cpu_b}, {cpu_a, cpu_a}};
  int nplaces = control && cpu_a != cpu_b ? 2 : 1;
  printf("# pingpong_threads: copy %s, %d trials of >= %g s, CPUs %d,%d%s; one-way time = round trip / 2\n",
         pull ? "pull" : "push", trials, trial_time, cpu_a, cpu_b,
         nplaces == 2 ? " and control on one CPU" : "");
  printf("round\tcpus\tmode\tbytes\titers\tmedian_s\tmin_s\n");
  fflush(stdout);
  for (int round = 1; round <= rounds; ++round) {
    for (size_t bytes = lo; bytes <= hi; bytes *= 2) {
      for (int p = 0; p < nplaces; ++p) {
        for (int k = 0; k < 2; ++k) {
          int mode = round % 2 ? k : 1 - k;  /* shared first in odd rounds */
          double med, best;
          long iters;
          one_run(mode, pull, places[p][0], places[p][1], bytes, trials, trial_time,
                  &iters, &med, &best);
          printf("%d\t%d,%d\t%s\t%zu\t%ld\t%.9e\t%.9e\n", round, places[p][0],
                 places[p][1], mode_name[mode], bytes, iters, med, best);
        }
      }
      fflush(stdout);
    }
  }
  return 0;
}
