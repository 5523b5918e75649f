// The handler of a run stopped from outside (interrupt.hpp).
#include "core/engine/interrupt.hpp"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "core/engine/signal_safe.hpp"
#include "core/engine/watchdog.hpp"
#include "core/results/file_io.hpp"

namespace mpiarena {

namespace {

volatile sig_atomic_t g_speaker = 0;

void say(const char* text) { write_stderr(text); }

// The summary, published whole: a handler reads the buffer the pointer
// names; a buffer is freed two updates after it was replaced, long after
// any handler could have started on it.
std::atomic<const std::string*> g_summary{nullptr};
const std::string* g_retired = nullptr;

void write_stdout(const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(STDOUT_FILENO, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

extern "C" void on_interrupt(int sig) {
  // Async-signal-safe only: unlink, write, _exit.
  fileio::remove_remembered();
  // This process is already ending (its own fault, said once): quietly.
  if (!claim_ending()) ::_exit(kExitFault);
  if (g_speaker) {
    if (const std::string* summary = g_summary.load()) write_stdout(*summary);
    // Under mpirun, Ctrl-C and the end of a job another rank aborted both
    // reach the ranks as SIGTERM.
    say("runner: stopped by ");
    say(sig == SIGINT    ? "SIGINT"
        : sig == SIGTERM ? "SIGTERM (Ctrl-C on the launcher, or the launcher "
                           "ending the job)"
                         : "SIGHUP");
    say(": the results file (-o) keeps every point written before it, "
        "complete: false; exit ");
    const char digits[] = {static_cast<char>('0' + (128 + sig) / 100),
                           static_cast<char>('0' + (128 + sig) / 10 % 10),
                           static_cast<char>('0' + (128 + sig) % 10), '\n', 0};
    say(digits);
  } else {
    // The launcher sends the signal to every rank, and kills the others
    // at once when one exits: a rank 0 that is not on a CPU at that moment
    // (more ranks than cores) would die before its handler ran. The other
    // ranks leave it half a second.
    const timespec pause{0, 500 * 1000 * 1000};
    ::nanosleep(&pause, nullptr);
  }
  ::_exit(128 + sig);
}

}  // namespace

void set_interrupt_summary(const std::string& text) {
  const std::string* fresh = text.empty() ? nullptr : new std::string(text);
  delete g_retired;
  g_retired = g_summary.exchange(fresh);
}

void install_interrupt_handler(bool speaker) {
  g_speaker = speaker ? 1 : 0;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    sigaddset(&sa.sa_mask, sig);
  }
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

}  // namespace mpiarena
