// latency_mp: OSU 7.4's osu_latency_mp, a ping-pong between two MPI
// processes that have forked child processes.
//
// "Multi-process" in osu_latency_mp is fork(): after MPI_Init rank 0 forks
// its sender children (-t S:R, S; default 2) and rank 1 its receiver
// children, the children sleep (2 s) and exit without calling MPI, and the
// two parents run osu_latency's ping-pong (MPI_Send/MPI_Recv, tag 1 both
// ways). What it measures is the latency of processes that have forked
// (copy-on-write pages, a library's fork handling), not several MPI
// processes per side. OSU 7.4's receiver forks as many children as its
// option field for threads holds, which osu_latency_mp never sets: it
// forks none, whatever -t says; receiver_processes defaults to that 0.
//
// Here setup() forks the children (untimed) on the pair's two ranks; each
// child calls nothing but prctl(), getppid(), pause() and _exit()
// (async-signal-safe: the parent may have threads) and lives until
// teardown() kills (SIGKILL) and reaps it, or until its parent dies
// (PR_SET_PDEATHSIG), rather than 2 s. (A pipe whose end the child awaits
// would not do: the children of a method prepared beside it, as
// --interleave does, inherit its write end.) The ping-pong is
// the base's (MPI_Send/MPI_Recv of MPI_BYTE, tag 1), verified as every
// ping-pong method's. Unlike OSU, no MPI_Barrier precedes each round trip
// (OSU's is outside its timer; here one would be timed).
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kTag = 1;

class LatencyMp final : public mpiarena::PingPongStrategy {
  void setup() override {
    if (!in_pair()) return;
    const long long n = ctx().option_int(initiator() ? "sender_processes"
                                                     : "receiver_processes");
    const pid_t parent = ::getpid();
    for (long long c = 0; c < n; ++c) {
      const pid_t pid = ::fork();
      if (pid < 0) {
        const int e = errno;
        teardown();
        throw std::runtime_error(std::string("fork: ") + std::strerror(e));
      }
      if (pid == 0) {  // the child: idle until killed, or its parent dies
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(0);
        for (;;) ::pause();
      }
      children_.push_back(pid);
    }
  }
  void teardown() override {
    for (pid_t pid : children_) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    children_.clear();
  }
  void send(const unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(
        MPI_Send(data, static_cast<int>(n), MPI_BYTE, peer, kTag, comm()));
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(MPI_Recv(data, static_cast<int>(n), MPI_BYTE, peer, kTag,
                            comm(), MPI_STATUS_IGNORE));
  }

  std::vector<pid_t> children_;
};

mpiarena::StrategyInfo info() {
  using mpiarena::OptionInfo;
  mpiarena::StrategyInfo i = mpiarena::pingpong_info(
      "latency_mp",
      "osu_latency_mp: ping-pong between processes that forked idle "
      "children (MPI_Send/MPI_Recv)");
  i.options = {
      OptionInfo::integer("sender_processes", "2", 0, 127,
                          "children the initiator forks (osu_latency_mp -t "
                          "S:R, S)"),
      OptionInfo::integer("receiver_processes", "0", 0, 127,
                          "children the responder forks (osu_latency_mp -t "
                          "S:R, R; OSU 7.4's receiver forks none)")};
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<LatencyMp>(info()))
