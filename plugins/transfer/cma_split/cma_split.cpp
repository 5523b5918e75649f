// cma_split: one copy of every byte through Linux cross-memory attach
// (process_vm_readv / process_vm_writev), split in halves so that two cores
// copy at once (docs/transfer-methods.md, "cma_split"). 1d only.
//
// Setup (untimed): every rank must share the root's node (MPI_Comm_split_type
// SHARED); the ranks exchange their process ids and the address of their
// buffer (flat(), which keeps its address for the life of the point). A
// probe reads one int of the root's buffer from every receiver: where the
// kernel refuses (ptrace scope, a container's seccomp), every rank skips
// the point with the reason.
//
// One operation: each receiver sends the root a zero-byte "ready" and reads
// the FIRST half of the root's buffer into its own (process_vm_readv); the
// root waits for every receiver's ready, writes the SECOND half of its
// buffer into each receiver's (process_vm_writev), then sends each a
// zero-byte "done"; a receiver's operation ends when its read is complete
// and the root's done arrived. With one receiver the two halves are copied
// at the same time by the receiver's core and the root's: each byte is
// copied once, from the root's memory to the receiver's, and each core
// copies half of them. The ready message keeps the root from writing into
// a receiver's buffer before the receiver started the operation (the
// engine poisons the buffer between operations before verification).
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Peer {
  std::int64_t pid = 0;
  std::uint64_t addr = 0;
};

// Moves n bytes between this process's `local` and process `pid`'s
// `remote`, looping over partial transfers: read (true) or write.
void cross_copy(bool read, pid_t pid, void* local, std::uint64_t remote,
                std::size_t n) {
  auto* l = static_cast<unsigned char*>(local);
  while (n > 0) {
    iovec mine{l, n};
    iovec theirs{reinterpret_cast<void*>(remote), n};
    const ssize_t got = read ? process_vm_readv(pid, &mine, 1, &theirs, 1, 0)
                             : process_vm_writev(pid, &mine, 1, &theirs, 1, 0);
    if (got <= 0)
      throw std::runtime_error(std::string("cma_split: process_vm_") +
                               (read ? "readv" : "writev") + " of " +
                               std::to_string(n) + " bytes failed: " +
                               std::strerror(errno));
    l += got;
    remote += static_cast<std::uint64_t>(got);
    n -= static_cast<std::size_t>(got);
  }
}

class CmaSplit final : public mpiarena::TransferStrategy {
  void setup() override {
    MPI_Comm node = MPI_COMM_NULL;
    MPIARENA_CHECK(MPI_Comm_split_type(comm(), MPI_COMM_TYPE_SHARED,
                                       ctx().rank, MPI_INFO_NULL, &node));
    int node_size = 0;
    MPIARENA_CHECK(MPI_Comm_size(node, &node_size));
    MPIARENA_CHECK(MPI_Comm_free(&node));
    if (node_size != ctx().size)
      throw mpiarena::SkipPoint(
          "cma_split: the ranks span several nodes; cross-memory attach "
          "needs every rank on one node");
    Peer me{static_cast<std::int64_t>(getpid()),
            reinterpret_cast<std::uint64_t>(flat().data())};
    peers_.assign(static_cast<std::size_t>(ctx().size), Peer{});
    MPIARENA_CHECK(MPI_Allgather(&me, sizeof me, MPI_BYTE, peers_.data(),
                                 sizeof me, MPI_BYTE, comm()));
    // The probe: can a receiver read the root's memory?
    int ok = 1;
    std::string why;
    if (!is_root() && !flat().empty()) {
      int probe = 0;
      iovec mine{&probe, sizeof probe};
      iovec theirs{reinterpret_cast<void*>(peers_[root()].addr),
                   sizeof probe};
      if (process_vm_readv(static_cast<pid_t>(peers_[root()].pid), &mine, 1,
                           &theirs, 1, 0) != static_cast<ssize_t>(sizeof probe))
        ok = 0;
    }
    MPIARENA_CHECK(
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm()));
    if (!ok)
      throw mpiarena::SkipPoint(
          "cma_split: the kernel refuses cross-memory attach between the "
          "ranks (process_vm_readv; ptrace scope or a seccomp filter)");
  }

  void execute() override {
    const std::size_t bytes = flat().size() * sizeof(int);
    const std::size_t half = bytes / 2 / sizeof(int) * sizeof(int);
    handshake_ready();
    if (is_root()) {
      auto* second = reinterpret_cast<unsigned char*>(flat().data()) + half;
      for (int r = 0; r < ctx().size; ++r)
        if (r != root())
          cross_copy(false, static_cast<pid_t>(peers_[r].pid), second,
                     peers_[r].addr + half, bytes - half);
    } else {
      cross_copy(true, static_cast<pid_t>(peers_[root()].pid), flat().data(),
                 peers_[root()].addr, half);
    }
    handshake_done();
  }

  std::vector<Peer> peers_;
};

// One copy per receiver, made half by the receiver and half by the root.
mpiarena::StrategyInfo cma_split_info() {
  mpiarena::StrategyInfo info = mpiarena::with_copies(
      mpiarena::transfer_info(
          "cma_split",
          "One copy by cross-memory attach, split in halves: each receiver "
          "reads the first half of the root's buffer (process_vm_readv) "
          "while the root writes the second half into it "
          "(process_vm_writev); zero-byte messages for ready and done (1d)",
          {"1d"}),
      1, false);
  info.single_node = true;  // one node's processes
  return info;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<CmaSplit>(cma_split_info()))
