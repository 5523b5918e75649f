// knobs: a transfer with options of its own (contract v8), for the plugin
// options tests (tests/e2e/e2e_options.py). 1d only: MPI_Bcast of the
// buffer in segments of `segment` bytes; `order` forward or backward over
// the segments; `pace` a number it records in its log (it only checks that
// the runner hands over the value it was given).
#include <algorithm>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class Knobs final : public mpiarena::TransferStrategy {
 protected:
  void setup() override {
    segment_ = static_cast<std::size_t>(ctx().option_int("segment"));
    backward_ = ctx().option("order") == "backward";
    const double pace = ctx().option_number("pace");
    // What the runner handed over, for the test to read (rank 0, once).
    if (ctx().rank == 0 && ctx().log)
      ctx().log->info("knobs: segment=" + ctx().option("segment") + " order=" +
                      ctx().option("order") + " pace=" + ctx().option("pace"));
    if (!(pace >= 0 && pace <= 2))
      throw std::runtime_error("pace out of range: " + ctx().option("pace"));
  }
  void execute() override {
    std::vector<int>& v = flat();
    const std::size_t ints = std::max<std::size_t>(1, segment_ / sizeof(int));
    const std::size_t n = (v.size() + ints - 1) / ints;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t s = backward_ ? n - 1 - k : k;
      const std::size_t from = s * ints;
      const std::size_t count = std::min(ints, v.size() - from);
      MPIARENA_CHECK(MPI_Bcast(v.data() + from, static_cast<int>(count),
                               MPI_INT, root(), comm()));
    }
  }

 private:
  std::size_t segment_ = 4096;
  bool backward_ = false;
};

mpiarena::StrategyInfo info() {
  mpiarena::StrategyInfo i = mpiarena::transfer_info(
      "knobs", "test plugin: MPI_Bcast in segments (options of its own)",
      {"1d"});
  using mpiarena::OptionInfo;
  i.options = {
      OptionInfo::integer("segment", "4096", 64, 1 << 20,
                          "bytes per MPI_Bcast"),
      OptionInfo::choice("order", "forward", {"forward", "backward"},
                         "the order of the segments"),
      OptionInfo::number("pace", "1.5", 0, 2, "a number, handed over")};
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Knobs>(info()))
