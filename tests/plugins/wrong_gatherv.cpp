// wrong_gatherv: a gatherv that is wrong on purpose. The ranks send their
// varied counts, but the root receives them at uniform displacements
// (rank r's block at r x the largest count, as if every count were that
// one: the blocks never overlap, as MPI requires), into a buffer large
// enough for that, then copies its start to the checked array: the blocks
// after the first sit in the wrong places
// and the verification of the v-collectives must fail, naming the
// misplaced block (tests/e2e/e2e_vcoll.py). With counts=uniform the two
// layouts agree and it passes.
#include <algorithm>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/v_collectives.hpp>
#include <vector>

namespace {

class WrongGatherv final : public mpiarena::CollectiveStrategy {
  void build() override {
    data_.build(mpiarena::v_point(ctx(), count()), is_root());
    const auto p = static_cast<std::size_t>(ranks());
    const auto& counts = data_.layout.counts;
    const auto largest = static_cast<std::size_t>(
        *std::max_element(counts.begin(), counts.end()));
    uniform_displs_.resize(p);
    for (std::size_t r = 0; r < p; ++r)
      uniform_displs_[r] = static_cast<int>(r * largest);
    if (is_root()) wide_.assign(std::max(p * largest, data_.layout.total), -1);
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Gatherv(data_.sent.data(), data_.sendcount(), MPI_INT,
                               wide_.data(), data_.layout.counts.data(),
                               uniform_displs_.data(), MPI_INT, root(),
                               comm()));
    if (is_root())
      std::copy(wide_.begin(), wide_.begin() + data_.gathered.size(),
                data_.gathered.begin());
  }
  void poison() override {
    data_.reset();
    wide_.assign(wide_.size(), -1);
  }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::GathervData data_;
  mpiarena::Ints wide_;
  std::vector<int> uniform_displs_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<WrongGatherv>(
    mpiarena::with_counts(mpiarena::collective_info(
        "collective", "wrong_gatherv",
        "test plugin: MPI_Gatherv whose root uses uniform displacements while "
        "the counts vary"))))
