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

mpiarena::StrategyInfo null_info() {
  mpiarena::StrategyInfo info;
  info.name = "null";
  info.suite = "harness";
  info.summary = "Does nothing: the harness overhead of one timed operation";
  info.payloads = {"1d"};
  info.min_ranks = 1;
  info.moves_data = false;
  info.payload_copies = 0;
  return info;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Null>(null_info()))
