// mpiarena-startup's launches (bounded_run.hpp).
#include "runner/startup/bounded_run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <mpiarena/option_value.hpp>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace mpiarena::startup {

namespace {

using Clock = std::chrono::steady_clock;


// Reaps every child that has ended (the driver is a subreaper: the
// launch's orphans come back to it); true once `pid` is among them.
bool reap(pid_t pid, int& status) {
  bool done = false;
  for (;;) {
    int st = 0;
    const pid_t r = waitpid(-1, &st, WNOHANG);
    if (r <= 0) return done;
    if (r == pid) {
      status = st;
      done = true;
    }
  }
}

// Waits until `pid` ends or `deadline` passes (true: it ended), waking at
// once on SIGCHLD; another signal of `wake` that arrives is put in `got`.
bool wait_until(pid_t pid, Clock::time_point deadline, const sigset_t& wake,
                int& status, int& got) {
  for (;;) {
    if (reap(pid, status)) return true;
    const auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero() || got) return false;
    const auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
    const timespec ts{static_cast<time_t>(ns / 1000000000),
                      static_cast<long>(ns % 1000000000)};
    const int sig = sigtimedwait(&wake, nullptr, &ts);
    if (sig > 0 && sig != SIGCHLD) got = sig;
  }
}

// Stops the launch's whole process group: SIGTERM, then SIGKILL to what
// is left 10 s later; reaps the shell.
void stop_group(pid_t pid, const sigset_t& wake, int& status) {
  kill(-pid, SIGTERM);
  const auto grace = Clock::now() + std::chrono::seconds(10);
  int got = 0;
  const bool reaped = wait_until(pid, grace, wake, status, got);
  while (kill(-pid, 0) == 0 && Clock::now() < grace) {
    int st = 0;
    reap(-1, st);
    usleep(20000);
  }
  if (kill(-pid, 0) == 0) kill(-pid, SIGKILL);
  if (!reaped) waitpid(pid, &status, 0);
  int st = 0;
  reap(-1, st);
}

}  // namespace

Ended run_bounded(const std::string& command, const std::string& log,
                  int timeout, double& wall) {
  sigset_t wake, old;
  sigemptyset(&wake);
  sigaddset(&wake, SIGCHLD);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction now {};
    if (sigaction(sig, nullptr, &now) == 0 && now.sa_handler != SIG_IGN)
      sigaddset(&wake, sig);
  }
  sigprocmask(SIG_BLOCK, &wake, &old);
  const auto t0 = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    sigprocmask(SIG_SETMASK, &old, nullptr);
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in >= 0) dup2(in, 0);
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
    }
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  Ended e;
  if (pid < 0) {
    sigprocmask(SIG_SETMASK, &old, nullptr);
    throw std::runtime_error("cannot start /bin/sh for the launch");
  }
  setpgid(pid, pid);
  int got = 0;
  const bool ended =
      wait_until(pid, t0 + std::chrono::seconds(timeout), wake, e.status, got);
  wall = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!ended) stop_group(pid, wake, e.status);
  // A signal taken by sigtimedwait ends the run even when the launch ended.
  if (got || !ended) e.stopped_by = got ? got : SIGALRM;
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return e;
}

int launch_ranks(const std::string& launch) {
  std::istringstream words(launch);
  std::vector<std::string> w;
  for (std::string t; words >> t;) w.push_back(t);
  const std::string give = "give the rank count it starts with --np N";
  int ranks = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    std::string flag = w[i], value;
    const std::size_t eq = flag.find('=');
    if (eq != std::string::npos && flag[0] == '-') {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag != "-np" && flag != "-n" && flag != "--np" && flag != "--n" &&
        flag != "--ntasks")
      continue;
    if (eq == std::string::npos && i + 1 < w.size()) value = w[++i];
    long long v = 0;
    if (!parse_option_integer(value, v) || v < 1 || v > 1000000)
      throw std::invalid_argument("--launch '" + launch + "': " + flag +
                                  " '" + value + "' is not a rank count; " +
                                  give);
    if (ranks && ranks != v)
      throw std::invalid_argument(
          "--launch '" + launch + "' names two rank counts (" +
          std::to_string(ranks) + " and " + std::to_string(v) + "); " + give);
    ranks = static_cast<int>(v);
  }
  if (!ranks)
    throw std::invalid_argument("--launch '" + launch +
                                "' names no rank count (-np N, -n N, --np N, "
                                "--n N or --ntasks N); " +
                                give);
  return ranks;
}

}  // namespace mpiarena::startup
