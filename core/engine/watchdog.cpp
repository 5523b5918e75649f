#include "core/engine/watchdog.hpp"

#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "core/engine/signal_safe.hpp"

namespace mpiarena {

namespace {

using Clock = std::chrono::steady_clock;

// What a crash handler writes, formatted in advance (a handler may only
// make async-signal-safe calls).
char g_crash_prefix[512] = "runner: error: ";
char g_crash_step[256] = "";

void write_all(const char* text) { write_stderr(text); }

// Set by the first of a crash, a plugin's MPI_Abort or a watchdog's
// deadline: whatever comes after (the abort crashing on a corrupted heap, a
// second signal, the alarm) ends the process quietly with kExitFault.
std::atomic<int> g_ending{0};
// Whether the main thread is inside a step (armed): exit() there is a
// plugin's.
std::atomic<bool> g_armed{false};

extern "C" void on_late_signal(int) { ::_exit(kExitFault); }

}  // namespace

bool claim_ending() noexcept { return g_ending.exchange(1) == 0; }

namespace {

// Every fatal signal and the alarm end the process quietly from now on.
void quiet_signals() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_late_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM})
    sigaction(sig, &sa, nullptr);
}

// Nothing more of this process reaches stderr: after a crash, what MPI and
// the C library would print (a heap check's "malloc(): corrupted...") only
// contradicts the one message already written.
void silence_stderr() {
  const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
  }
}

// Ends the whole job now. MPI_Abort makes mpirun (or srun) end every rank
// at once; after _exit alone, mpirun takes a second or more, in which the
// other ranks' own watchdogs would speak too. MPI_Abort is called from the
// watchdog thread or a crash handler, where MPI does not promise it works
// (it allocates, and a plugin may have corrupted the heap): a fault in it,
// or the alarm 3 s later, ends this process with kExitFault (quiet_signals).
// First a pause of 0.2 s (under the 0.5 s between two ranks' watchdogs), so
// that the launcher forwards the message just written before the abort
// tears the job down: MPICH's Hydra, its proxy starved of CPU by
// busy-polling ranks, was seen to drop a rank's last lines about once in 30
// faults. The core calls PMPI_Abort: MPI_Abort is a plugin's (below).
[[noreturn]] void end_job() {
  quiet_signals();
  const timespec pause{0, 200 * 1000 * 1000};
  ::nanosleep(&pause, nullptr);  // async-signal-safe, as is all of this
  ::alarm(3);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) PMPI_Abort(MPI_COMM_WORLD, kExitFault);
  ::_exit(kExitFault);
}

extern "C" void on_crash(int sig) {
  if (g_ending.exchange(1) != 0) ::_exit(kExitFault);
  const char* name = sig == SIGSEGV   ? "SIGSEGV (segmentation fault)"
                     : sig == SIGBUS  ? "SIGBUS (bus error)"
                     : sig == SIGFPE  ? "SIGFPE (arithmetic fault)"
                     : sig == SIGILL  ? "SIGILL (illegal instruction)"
                     : sig == SIGABRT ? "SIGABRT (abort)"
                                      : "a fatal signal";
  write_all(g_crash_prefix);
  write_all("crashed with ");
  write_all(name);
  write_all(g_crash_step);
  write_all("; stopping the run (exit 3)\n");
  silence_stderr();
  end_job();
}

// A plugin's exit() inside a step: the run did not complete, whatever the
// status it gave.
void on_exit_in_step() {
  if (!g_armed.load() || g_ending.exchange(1) != 0) return;
  write_all(g_crash_prefix);
  write_all("the plugin called exit()");
  write_all(g_crash_step);
  write_all("; the run did not complete (exit 3)\n");
  // Through MPI_Abort as a crash is: the launcher then ends the other ranks
  // at once and passes exit 3 on (MPICH's Hydra reports 9, their kill
  // signal, for a rank that merely exits).
  end_job();
}

// `v` in decimal, async-signal-safe.
void write_int(int v) {
  char buf[16];
  int n = 0;
  unsigned u = v < 0 ? 0u - static_cast<unsigned>(v) : static_cast<unsigned>(v);
  do {
    buf[sizeof buf - 2 - n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u && n < 11);
  if (v < 0) buf[sizeof buf - 2 - n++] = '-';
  buf[sizeof buf - 1] = 0;
  write_all(buf + sizeof buf - 1 - n);
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

}  // namespace

struct Watchdog::State {
  std::mutex m;
  std::condition_variable cv;
  int rank = 0;
  std::string point;
  bool armed = false;
  std::string step, detail;
  double bound = 0;
  Role role = Role::plugin;
  Clock::time_point deadline;
  Clock::time_point sleeping_until = Clock::time_point::max();
};

Watchdog& Watchdog::instance() {
  static Watchdog* w = new Watchdog();  // never destroyed: the thread lives
  return *w;                            // as long as the process
}

Watchdog::Watchdog() : s_(new State) {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_crash;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    sigaction(sig, &sa, nullptr);
  std::atexit(on_exit_in_step);
  std::thread([s = s_] {
    std::unique_lock<std::mutex> lock(s->m);
    for (;;) {
      // Armed: wake at the deadline or within half a second, whichever
      // comes first (arm() then never has to wake the thread, which
      // would take a core from a timed loop: deadlines are met to 0.5 s).
      const Clock::time_point until =
          s->armed ? std::min(s->deadline,
                              Clock::now() + std::chrono::milliseconds(500))
                   : Clock::time_point::max();
      s->sleeping_until = until;
      if (until == Clock::time_point::max())
        s->cv.wait(lock);
      else
        s->cv.wait_until(lock, until);
      if (!s->armed || Clock::now() < s->deadline) continue;
      std::string text = "runner: error: ";
      if (!s->point.empty()) text += s->point + ": ";
      text += "rank " + std::to_string(s->rank) + ": ";
      if (s->role == Role::culprit)
        text += s->step + " failed (" + s->detail +
                ") and the other ranks did not reach the agreement within " +
                seconds_text(s->bound) + " (they are stuck in the plugin)";
      else if (s->role == Role::waiting)
        text += "waited more than " + seconds_text(s->bound) + " in " +
                s->step + " for ranks that never arrived";
      else
        text += s->step + " did not return within " + seconds_text(s->bound) +
                " (--point-timeout); the lowest rank still inside the "
                "step speaks, the others may be waiting for it";
      text += "; stopping the run (exit 3)\n";
      if (g_ending.exchange(1) != 0) ::_exit(kExitFault);
      write_all(text.c_str());
      end_job();
    }
  }).detach();
}

void Watchdog::set_rank(int rank) {
  std::lock_guard<std::mutex> lock(s_->m);
  s_->rank = rank;
  std::snprintf(g_crash_prefix, sizeof g_crash_prefix,
                "runner: error: rank %d: ", rank);
}

void Watchdog::set_point(const std::string& point) {
  std::lock_guard<std::mutex> lock(s_->m);
  s_->point = point;
}

void Watchdog::arm(const std::string& step, double seconds, Role role,
                   const std::string& detail) {
  // A culprit speaks at the bound; ranks inside the plugin 2 s later,
  // staggered by 0.5 s a rank (the first 8 ranks), so the lowest stuck rank
  // speaks and mpirun ends the others before they do (the culprit's
  // MPI_Abort comes 0.2 s after its message, and mpirun may take most of a
  // second to end the ranks of an oversubscribed node: with 1 s, a stuck
  // rank 0 spoke too in 1 of 4 runs of the 3-rank fault matrix); waiting
  // ranks only 10 s after the bound, when nobody else could name the fault.
  double extra = 0;
  if (role == Role::plugin) extra = 2.0 + 0.5 * std::min(s_->rank, 8);
  if (role == Role::waiting) extra = 10.0;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(seconds + extra));
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(s_->m);
    s_->armed = true;
    s_->step = step;
    s_->detail = detail;
    s_->bound = seconds;
    s_->role = role;
    s_->deadline = deadline;
    g_armed = true;
    // Wake the thread only when it sleeps with no deadline at all.
    wake = s_->sleeping_until == Clock::time_point::max();
    std::snprintf(g_crash_prefix, sizeof g_crash_prefix,
                  "runner: error: %s%srank %d: ", s_->point.c_str(),
                  s_->point.empty() ? "" : ": ", s_->rank);
    std::snprintf(g_crash_step, sizeof g_crash_step, " in %s", step.c_str());
  }
  if (wake) s_->cv.notify_one();
}

void Watchdog::disarm() {
  std::lock_guard<std::mutex> lock(s_->m);
  s_->armed = false;
  g_armed = false;
  std::snprintf(g_crash_step, sizeof g_crash_step, " between steps");
}

}  // namespace mpiarena

// A plugin's MPI_Abort, found before the MPI library's (libmpiarena comes
// first in the runner's libraries; the core itself calls PMPI_Abort): the
// run did not complete, so it never ends with the plugin's code 0 (which
// mpirun would pass on as success). One message naming the rank and the
// step, then the job ends with kExitFault.
extern "C" int MPI_Abort(MPI_Comm comm, int errorcode) {
  using namespace mpiarena;
  if (g_ending.exchange(1) == 0) {
    write_all(g_crash_prefix);
    write_all("the plugin called MPI_Abort with error code ");
    write_int(errorcode);
    write_all(g_crash_step);
    write_all("; the run did not complete, stopping it (exit 3)\n");
    const timespec pause{0, 200 * 1000 * 1000};
    ::nanosleep(&pause, nullptr);  // the launcher forwards the line first
  }
  return PMPI_Abort(comm, kExitFault);
}
