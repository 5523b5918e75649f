// The handler of a run stopped from outside (interrupt.hpp).
#include "interrupt.hpp"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

#include "file_io.hpp"

namespace mpiarena {

namespace {

volatile sig_atomic_t g_speaker = 0;

void say(const char* text) {
  std::size_t n = std::strlen(text);
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<std::size_t>(w);
  }
}

extern "C" void on_interrupt(int sig) {
  // Async-signal-safe only: unlink, write, _exit.
  fileio::remove_remembered();
  if (g_speaker) {
    say("runner: interrupted by ");
    say(sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP");
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
