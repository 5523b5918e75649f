#include "watchdog.hpp"

#include <mpi.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

namespace mpiarena {

namespace {

using Clock = std::chrono::steady_clock;

// What a crash handler writes, formatted in advance (a handler may only
// make async-signal-safe calls).
char g_crash_prefix[512] = "runner: error: ";
char g_crash_step[256] = "";

void write_all(const char* text) {
  std::size_t n = std::strlen(text);
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Ends the whole job now. MPI_Abort makes mpirun (or srun) end every rank
// at once; after _exit alone, mpirun takes a second or more, in which the
// other ranks' own watchdogs would speak too. MPI_Abort is called from the
// watchdog thread or a crash handler, where MPI does not promise it works:
// alarm() ends this process anyway if it does not return in 3 s. First a
// pause of 0.2 s (under the 0.5 s between two ranks' watchdogs), so that
// the launcher forwards the message just written before the abort tears
// the job down: MPICH's Hydra, its proxy starved of CPU by busy-polling
// ranks, was seen to drop a rank's last lines about once in 30 faults.
[[noreturn]] void end_job() {
  const timespec pause{0, 200 * 1000 * 1000};
  ::nanosleep(&pause, nullptr);  // async-signal-safe, as is all of this
  ::alarm(3);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, kExitFault);
  ::_exit(kExitFault);
}

extern "C" void on_crash(int sig) {
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
  end_job();
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
                "plugin speaks, the others may be waiting for it";
      text += "; stopping the run (exit 3)\n";
      write_all(text.c_str());
      end_job();
    }
  }).detach();
}

void Watchdog::set_rank(int rank) {
  std::lock_guard<std::mutex> lock(s_->m);
  s_->rank = rank;
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
  std::snprintf(g_crash_step, sizeof g_crash_step, " between steps");
}

}  // namespace mpiarena
