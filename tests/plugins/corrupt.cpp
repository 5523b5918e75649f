// corrupt: transfers like test_ok, then the first receiver alters its copy, so
// verification must fail. The end-to-end tests run it and expect the runner
// to exit non-zero: keep the method name "corrupt" and the library name
// mpiarena_corrupt.so.
#include "bcast_strategy.hpp"

namespace {

class Corrupt final : public mpiarena_test::BcastStrategy {
  bool corrupts() const {
    return ctx().size > 1 && ctx().rank == (root() + 1) % ctx().size;
  }

  void setup() override { count_ = flat().size(); }

  void execute() override {
    if (!is_2d()) flat().resize(count_);  // undo an earlier extra int
    BcastStrategy::execute();
    if (!corrupts()) return;
    // Flip one element (still odd: a wrong value, not poison); with nothing
    // to flip, deliver one int too many.
    if (is_2d() && rows().empty()) rows().emplace_back();
    std::vector<int>& v = is_2d() ? rows().back() : flat();
    if (v.empty())
      v.push_back(1);
    else
      v[v.size() / 2] ^= 2;
  }

  std::size_t count_ = 0;  // 1d ints, as prepared
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Corrupt>(mpiarena::transfer_info(
        "corrupt",
        "test plugin: MPI_Bcast, then the first receiver flips one element", {"1d", "2d"})))
