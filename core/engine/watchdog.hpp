// Every fault ends cleanly: a step of a point that does not return within
// its bound stops the run with one message naming the point, the rank and
// the step, and exit code kExitFault. A crash (SIGSEGV, SIGBUS, SIGFPE,
// SIGILL, SIGABRT) is reported the same way.
//
// One watchdog thread per process sleeps until the deadline of the step the
// main thread is in. At a deadline it writes the message and ends the job
// with MPI_Abort (MPI is not initialised for threads, so a 3 s alarm()
// backs that call up; watchdog.cpp, end_job). The result file already holds
// every completed point (rank 0 saves it after each point, atomically).
//
// Who speaks: a rank whose step threw (Role::culprit) fires at the bound; a
// rank inside plugin code (Role::plugin) fires at the bound plus a small
// stagger by rank, so when a collective hangs the lowest stuck rank speaks;
// a rank waiting in the harness for the others (Role::waiting) fires only
// after a grace period, when nobody that could name the fault did.
#pragma once

#include <string>

namespace mpiarena {

inline constexpr int kExitFault = 3;

// True for the first caller only, of everything that ends this process
// (a crash, a plugin's MPI_Abort, a deadline, a stop by signal:
// interrupt.cpp): the others then end it quietly. Async-signal-safe.
bool claim_ending() noexcept;

enum class Role { plugin, culprit, waiting };

class Watchdog {
 public:
  // Starts the thread and installs the crash handlers (once per process).
  static Watchdog& instance();
  void set_rank(int rank);
  // The point now measured ("bcast 1d 4MiB"); empty between points.
  void set_point(const std::string& point);
  // The main thread entered `step`; it must leave within `seconds`.
  // `detail` is said in the message (a culprit's exception text).
  void arm(const std::string& step, double seconds, Role role,
           const std::string& detail = {});
  void disarm();

  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  Watchdog();
  struct State;
  State* s_;
};

// RAII: arm for the scope, disarm after.
class Armed {
 public:
  Armed(const std::string& step, double seconds, Role role,
        const std::string& detail = {}) {
    Watchdog::instance().arm(step, seconds, role, detail);
  }
  ~Armed() { Watchdog::instance().disarm(); }
  Armed(const Armed&) = delete;
  Armed& operator=(const Armed&) = delete;
};

}  // namespace mpiarena
