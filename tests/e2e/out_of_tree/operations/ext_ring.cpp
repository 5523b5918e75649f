// A ring exchange of MPI_Sendrecv, written from the installed SDK: each rank
// sends the size's bytes to its right neighbour and receives as many from
// its left. It is not the stencil suite's work (four exchanges, packed and
// unpacked), so it declares its own operation, "ring": in the stencil suite
// it is ranked in a table of its own, and in the exchange suite (a suite
// for exchanges of a declared pattern) with the rings only.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace {

class Ring final : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override {
    ctx_ = ctx;
    send_.resize(ctx.bytes);
    for (std::size_t i = 0; i < send_.size(); ++i)
      send_[i] = value(ctx.rank, i);
    recv_.assign(ctx.bytes, 0);
  }
  void execute() override {
    const int p = ctx_.size, n = static_cast<int>(send_.size());
    MPIARENA_CHECK(MPI_Sendrecv(send_.data(), n, MPI_BYTE, (ctx_.rank + 1) % p,
                                0, recv_.data(), n, MPI_BYTE,
                                (ctx_.rank + p - 1) % p, 0, ctx_.comm,
                                MPI_STATUS_IGNORE));
  }
  void poison() override { recv_.assign(recv_.size(), 0xff); }
  mpiarena::Verdict verify() override {
    const int left = (ctx_.rank + ctx_.size - 1) % ctx_.size;
    for (std::size_t i = 0; i < recv_.size(); ++i)
      if (recv_[i] != value(left, i))
        return {false, "byte " + std::to_string(i) + " is not rank " +
                           std::to_string(left) + "'s"};
    return {};
  }

 private:
  static unsigned char value(int rank, std::size_t i) {
    return static_cast<unsigned char>((rank * 37 + i) % 251);
  }
  mpiarena::RunContext ctx_;
  std::vector<unsigned char> send_, recv_;
};

mpiarena::StrategyInfo info(const std::string& suite,
                            const std::string& payload) {
  mpiarena::StrategyInfo i;
  i.name = "ext_ring_" + suite;
  i.suite = suite;
  i.summary = "outside: MPI_Sendrecv to the right, from the left (a ring)";
  i.payloads = {payload};
  i.payload_copies = 2;
  i.operation.name = "ring";
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Ring>(info("stencil", "1d")),
                mpiarena::make_entry<Ring>(info("exchange", "bytes")))
