// mpiarena-startup's launches (driver.cpp): a shell command run whole
// under a bound, its process group stopped when the bound passes or a
// signal ends the run, and the rank count a launch line names.
#pragma once

#include <string>

namespace mpiarena::startup {

// How a launch ended: its shell's wait status, or the signal that stopped
// it (SIGALRM standing for --launch-timeout).
struct Ended {
  int status = 0;
  int stopped_by = 0;
};

// Runs `command` through /bin/sh -c in a process group of its own, its
// output to `log`, stdin from /dev/null, for at most `timeout` seconds
// (then the whole group is stopped). SIGINT, SIGTERM or SIGHUP sent to
// the driver meanwhile (unless it ignores them) stops the group too.
// `wall`: from the fork to the shell's end. Throws std::runtime_error when
// the shell cannot be started.
Ended run_bounded(const std::string& command, const std::string& log,
                  int timeout, double& wall);

// The rank count a launch line names: the integer after its -np, -n, --np,
// --n or --ntasks (or joined with '='); throws std::invalid_argument when
// it names none, two different ones, or one that is not a count.
int launch_ranks(const std::string& launch);

}  // namespace mpiarena::startup
