// bad_info: a plugin whose StrategyInfo has one bad field, chosen at build
// time by BAD_FIELD (one module per case, see tests/CMakeLists.txt). The
// registry must refuse it with one sentence naming the file and the field.
#include <cmath>
#include <mpiarena/plugin.hpp>

namespace {

class Unused final : public mpiarena::Strategy {
  void prepare(const mpiarena::RunContext&) override {}
  void execute() override {}
  void poison() override {}
  mpiarena::Verdict verify() override { return {}; }
};

mpiarena::StrategyInfo good() {
  mpiarena::StrategyInfo i;
  i.name = "bad_info";
  i.suite = "harness";
  i.summary = "test plugin with one bad StrategyInfo field";
  i.payloads = {"1d"};
  return i;
}

[[maybe_unused]] mpiarena::StrategyInfo bad() {
  mpiarena::StrategyInfo i = good();
#if BAD_FIELD == 1
  i.name = "Bad-Name";
#elif BAD_FIELD == 2
  i.name = std::string(33, 'x');
#elif BAD_FIELD == 3
  i.suite = "nosuchsuite";
#elif BAD_FIELD == 4
  i.payloads = {"3d"};
#elif BAD_FIELD == 5
  i.time_scale = std::nan("");
#elif BAD_FIELD == 6
  i.time_scale = 0;
#elif BAD_FIELD == 7
  i.min_ranks = 0;
#elif BAD_FIELD == 8
  i.phases = {"pack", "pack"};
#elif BAD_FIELD == 9
  i.parts = {"comm"};
  i.headline = "both";
#elif BAD_FIELD == 10
  i.metrics = {
      {"overlap", "", true, [](const mpiarena::MetricInput&) { return 0.0; }}};
#elif BAD_FIELD == 12
  i.params = {{"op", "Put!"}};
#elif BAD_FIELD == 13
  i.params = {{"op", "put"}, {"sync", "fence"}};
  i.matrix_row = "op";
  i.matrix_column = "window";
#elif BAD_FIELD == 14
  i.params = {{"op", "put"}};
  i.matrix_row = "op";
#elif BAD_FIELD == 15  // an option whose default it does not accept
  i.options = {{"segment",
                mpiarena::OptionInfo::Type::integer,
                "0",
                1,
                64,
                {},
                "bytes"}};
#elif BAD_FIELD == 16  // a choice without choices
  i.options = {
      {"algo", mpiarena::OptionInfo::Type::choice, "ring", 0, 0, {}, ""}};
#elif BAD_FIELD == 18  // a library_collective that is not a name
  i.library_collective = "All-Reduce!";
#elif BAD_FIELD == 19  // a negative count of copies per rank
  i.payload_copies_per_rank = -1;
#elif BAD_FIELD == 20  // the exchange suite without a pattern
  i.suite = "exchange";
  i.payloads = {"bytes"};
#elif BAD_FIELD == 21  // a semantic option the method does not declare
  i.operation.name = "allreduce";
  i.operation.options = {"op"};
#elif BAD_FIELD == 22  // semantics without an operation
  i.operation.semantics = {{"op", "sum"}};
#elif BAD_FIELD == 17  // an option named as a param
  i.params = {{"op", "put"}};
  i.options = {
      {"op", mpiarena::OptionInfo::Type::choice, "a", 0, 0, {"a", "b"}, ""}};
#endif
  return i;
}

}  // namespace

#if BAD_FIELD == 11
// The same name declared twice in one plugin.
MPIARENA_PLUGIN(mpiarena::make_entry<Unused>(good()),
                mpiarena::make_entry<Unused>(good()))
#else
MPIARENA_PLUGIN(mpiarena::make_entry<Unused>(bad()))
#endif
