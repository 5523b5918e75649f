// shm_split: one copy of every byte, from the root's payload straight into
// each receiver's, between payloads that live in one shared-memory segment
// of the node (docs/transfer-methods.md, "shm_split"). 1d only.
//
// The transfer base holds every rank's payload in the segment
// (shared_payload(); peer_flat(r) is rank r's payload, flat() is empty),
// as an application keeps data it shares on a node in an MPI shared-memory
// window. One
// operation: each receiver sends the root a zero-byte "ready" and copies
// the LAST part of the root's payload into its own; the root waits for
// every receiver's ready, copies the FIRST part of its payload into each
// receiver's, then sends each a zero-byte "done"; a receiver's operation
// ends when its copy is complete and the root's done arrived. The root's
// part is 1 / (receivers + 1) of the payload (a half with one receiver),
// so that the root, which copies it once per receiver, and each receiver
// copy the same number of bytes, at once, on their own cores. Copies of
// 32 MiB and more use non-temporal stores (the payload will not stay in
// cache), smaller ones memcpy. The ready message keeps the root from
// writing into a receiver's payload before the receiver started the
// operation (the engine poisons it between operations to verify it); the
// store fence before done, and done's MPI ordering, make the root's part
// visible before the receiver's operation ends.
#include <cstddef>
#include <cstring>
#include <mpiarena/stream_copy.hpp>
#include <mpiarena/transfer.hpp>

namespace {

constexpr std::size_t kNonTemporalFrom = std::size_t{32} << 20;
constexpr std::size_t kLine = 64;

void plain(unsigned char* to, const unsigned char* from, std::size_t n) {
  std::memcpy(to, from, n);
}

class ShmSplit final : public mpiarena::TransferStrategy {
  bool shared_payload() const override { return true; }

  std::size_t bytes() const {
    return mpiarena::flat_count(ctx().bytes) * sizeof(int);
  }

  void setup() override {
    const std::size_t bytes = this->bytes();
    copy_ = bytes >= kNonTemporalFrom ? mpiarena::pick_stream_copy() : plain;
    // The root's part: 1 / (receivers + 1), on a cache line.
    root_part_ = bytes / static_cast<std::size_t>(ctx().size) / kLine * kLine;
  }

  void execute() override {
    const std::size_t bytes = this->bytes();
    handshake_ready();
    if (is_root()) {
      const auto* mine =
          reinterpret_cast<const unsigned char*>(peer_flat(root()));
      for (int r = 0; r < ctx().size; ++r)
        if (r != root())
          copy_(reinterpret_cast<unsigned char*>(peer_flat(r)), mine,
                root_part_);
    } else {
      copy_(reinterpret_cast<unsigned char*>(peer_flat(ctx().rank)) +
                root_part_,
            reinterpret_cast<const unsigned char*>(peer_flat(root())) +
                root_part_,
            bytes - root_part_);
    }
    mpiarena::stream_fence();
    handshake_done();
  }

  mpiarena::CopyFn copy_ = plain;
  std::size_t root_part_ = 0;
};

// One copy per receiver, made in parts by the receiver and the root at once.
mpiarena::StrategyInfo shm_split_info() {
  mpiarena::StrategyInfo info = mpiarena::with_copies(
      mpiarena::transfer_info(
          "shm_split",
          "One copy between payloads in a shared-memory segment, split: "
          "each receiver copies the last part of the root's payload into "
          "its own while the root copies the first part into it (a half "
          "with one receiver); zero-byte messages for ready and done (1d)",
          {"1d"}),
      1, false);
  info.single_node = true;  // one node's shared memory
  return info;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<ShmSplit>(shm_split_info()))
