// null: an operation that does nothing, to measure the harness overhead of
// one timed operation (ReproMPI's empty operation). Moves no data.
#include <mpiarena/plugin.hpp>

namespace {

class Null final : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext&) override {}
  void execute() override {}
  void poison() override {}
  mpiarena::Verdict verify() override { return {true, "nothing moved"}; }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Null>(
    {"null",
     "harness",
     "Does nothing: the harness overhead of one timed operation",
     {"1d"},
     1,
     /*moves_data=*/false,
     /*payload_copies=*/0}))
