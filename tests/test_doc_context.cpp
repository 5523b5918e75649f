// The result document's typed context (doc_context.hpp): every part's
// fields are the properties the schema lists for it, a context with every
// field set is valid against the schema and comes back from its JSON
// unchanged, and a file written before a field existed still loads.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/results/doc_context.hpp"
#include "core/results/records.hpp"
#include "core/results/schema.hpp"
#include "doc_fixtures.hpp"

namespace {

using mpiarena::Context;
using nlohmann::json;

const json& context_schema() {
  return mpiarena::results_schema().at("definitions").at("context");
}

std::set<std::string> properties(const json& node) {
  std::set<std::string> out;
  for (auto it = node.at("properties").begin();
       it != node.at("properties").end(); ++it)
    out.insert(it.key());
  return out;
}

template <class T>
std::set<std::string> fields() {
  const std::vector<std::string> names = mpiarena::field_names<T>();
  return {names.begin(), names.end()};
}

// The schema nodes under the context that list properties, by their path.
void listing(const json& node, const std::string& path,
             std::set<std::string>& out) {
  if (node.is_object()) {
    if (node.contains("properties") && node.at("properties").is_object())
      out.insert(path);
    for (auto it = node.begin(); it != node.end(); ++it)
      listing(it.value(), path + "/" + it.key(), out);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      listing(node[i], path + "/" + std::to_string(i), out);
  }
}

// Every field set, with values the schema accepts.
Context full_context() {
  Context c = mpiarena_test::sample_context();
  c.label = "nightly-42";
  c.machines = 1;
  c.cpus_per_node = 4;
  c.oversubscribed = false;
  c.waiting = "poll";
  c.buffers = "separate";
  c.sub_communicator = "first_ranks_of_world";
  c.rank_counts = std::vector<int>{2};
  c.plugins = std::vector<mpiarena::PluginContext>{
      {"/p/libmpiarena_send.so", "1.2", mpiarena::kAbiVersion}};
  c.build = mpiarena::BuildContext{"GCC 12", "Release", "abc1234"};
  c.system = mpiarena::SystemContext{"Linux 6.1", "a CPU", ""};
  c.memory = mpiarena::MemoryContext{1 << 30, "MemAvailable", 1 << 20, 4096};
  c.noise = mpiarena::NoiseContext{true, 2, 0.05, 100, true, "not exposed",
                                   "not probed: --noise off"};
  c.cache = mpiarena::CacheContext{"cold", "sysfs", 1 << 20, 2 << 20};
  c.stopping = mpiarena::StoppingContext{0.01, 10, 0};
  c.interleave = mpiarena::InterleaveContext{
      true, false, 7, std::vector<std::string>{"transfer 1d small"}};
  c.mpi_thread_level = mpiarena::ThreadLevelContext{"multiple", "multiple"};
  c.clock = mpiarena::ClockContext{"hca",
                                   1,
                                   3,
                                   0.01,
                                   1e-6,
                                   {0, 1e-7},
                                   {0, 2e-7},
                                   {0, 1e-9},
                                   std::vector<double>{0, 1e-6},
                                   std::vector<double>{0, 1e-8},
                                   2.5};
  mpiarena::RankPlacement r0;
  r0.host = "node1";
  r0.cpus = "0";
  r0.bound = true;
  r0.cores = r0.packages = r0.l2 = r0.l3 = std::vector<std::string>{"0"};
  mpiarena::RankPlacement r1 = r0;
  r1.rank = 1;
  c.placement = mpiarena::PlacementContext{
      {r0, r1}, mpiarena::PairPlacement{true, false, false, false, true, true}};
  mpiarena::CollectiveContext coll;
  coll.collective = "allreduce";
  coll.variable = "coll_tuned_allreduce_algorithm";
  coll.algorithms = {{4, "ring"}};
  coll.own_choice = "ignore";
  coll.launch = {0, "ignore"};
  coll.switchable = true;
  coll.bound = "at each call";
  coll.why_none = "none";
  coll.why_fixed = "fixed";
  c.library_algorithms = mpiarena::LibraryAlgorithmsContext{
      "Open MPI", {coll}, mpiarena::SelectionTableContext{"f", "{}"},
      std::string("missing")};
  c.tuning_file = mpiarena::TuningFileContext{"v", "/t.json", "0123"};
  c.mpi_settings = mpiarena::MpiSettingsContext{
      {{"OMPI_MCA_btl", "tcp,self"}}, {{"btl", "tcp,self"}}, {"FI_MY_TOKEN"},
      std::vector<int>{1}};
  mpiarena::OptionsContext& o = c.options;
  o.methods = o.payloads = o.sizes = o.set = o.algorithms = o.plugin_dirs =
      std::vector<std::string>{"x"};
  o.min_time_s = o.point_timeout_s = o.sync_window_s = 0.5;
  o.repetitions = o.warmup = o.test_every = o.exchanges = o.window =
      o.stride = 8;
  o.max_memory = 1 << 30;
  o.verify = true;
  o.pairs = o.ranks = o.size_basis = o.receive = o.wait = o.sync = o.launch =
      std::string("w");
  o.profile = "osu";
  o.clock_sync = std::optional<std::string>("hca");
  o.builds = std::optional<mpiarena::BuildsContext>(
      mpiarena::BuildsContext{{"a"}, {"b"}});
  return c;
}

TEST(DocContext, EveryPartHasTheFieldsTheSchemaLists) {
  const json& s = context_schema();
  const json& p = s.at("properties");
  const json& algorithms = p.at("library_algorithms");
  const json& collective =
      algorithms.at("properties").at("collectives").at("items");
  const json& placement = p.at("placement").at("properties");
  std::set<std::string> checked;
  const auto expect = [&](const json& node, const std::string& path,
                          const std::set<std::string>& names) {
    EXPECT_EQ(properties(node), names) << path;
    checked.insert(path);
  };
  expect(s, "", fields<Context>());
  expect(p.at("options"), "/properties/options",
         fields<mpiarena::OptionsContext>());
  expect(p.at("options").at("properties").at("builds"),
         "/properties/options/properties/builds",
         fields<mpiarena::BuildsContext>());
  expect(p.at("plugins").at("items"), "/properties/plugins/items",
         fields<mpiarena::PluginContext>());
  expect(p.at("build"), "/properties/build", fields<mpiarena::BuildContext>());
  expect(p.at("system"), "/properties/system",
         fields<mpiarena::SystemContext>());
  expect(p.at("memory"), "/properties/memory",
         fields<mpiarena::MemoryContext>());
  expect(p.at("noise"), "/properties/noise", fields<mpiarena::NoiseContext>());
  expect(p.at("cache"), "/properties/cache", fields<mpiarena::CacheContext>());
  expect(p.at("stopping"), "/properties/stopping",
         fields<mpiarena::StoppingContext>());
  expect(p.at("interleave"), "/properties/interleave",
         fields<mpiarena::InterleaveContext>());
  expect(p.at("mpi_thread_level"), "/properties/mpi_thread_level",
         fields<mpiarena::ThreadLevelContext>());
  expect(p.at("clock"), "/properties/clock", fields<mpiarena::ClockContext>());
  expect(p.at("tuning_file"), "/properties/tuning_file",
         fields<mpiarena::TuningFileContext>());
  expect(p.at("mpi_settings"), "/properties/mpi_settings",
         fields<mpiarena::MpiSettingsContext>());
  expect(p.at("placement"), "/properties/placement",
         fields<mpiarena::PlacementContext>());
  expect(placement.at("ranks").at("items"),
         "/properties/placement/properties/ranks/items",
         fields<mpiarena::RankPlacement>());
  expect(placement.at("ranks_0_1"),
         "/properties/placement/properties/ranks_0_1",
         fields<mpiarena::PairPlacement>());
  expect(algorithms, "/properties/library_algorithms",
         fields<mpiarena::LibraryAlgorithmsContext>());
  const std::string at = "/properties/library_algorithms/properties/";
  expect(collective, at + "collectives/items",
         fields<mpiarena::CollectiveContext>());
  expect(collective.at("properties").at("algorithms").at("items"),
         at + "collectives/items/properties/algorithms/items",
         fields<mpiarena::AlgorithmChoice>());
  expect(collective.at("properties").at("launch"),
         at + "collectives/items/properties/launch",
         fields<mpiarena::AlgorithmChoice>());
  expect(algorithms.at("properties").at("selection_table"),
         at + "selection_table", fields<mpiarena::SelectionTableContext>());
  // No part of the schema's context is left unchecked.
  std::set<std::string> listed;
  listing(s, "", listed);
  EXPECT_EQ(listed, checked);
}

TEST(DocContext, AContextWithEveryFieldIsValidAndComesBack) {
  const Context c = full_context();
  const json j = c;
  // Every field is written: the fixture sets them all.
  std::set<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.insert(it.key());
  EXPECT_EQ(keys, fields<Context>());
  const json options = j.at("options");
  EXPECT_EQ(options.size(), fields<mpiarena::OptionsContext>().size());
  mpiarena::Document doc;
  doc.context = c;
  doc.complete = true;
  doc.records.push_back(mpiarena_test::make_record("send", {1e-6, 2e-6}));
  EXPECT_EQ(mpiarena::validate_results(mpiarena::to_json(doc)),
            std::vector<std::string>{});
  const Context back = j.get<Context>();
  EXPECT_EQ(back, c);
  EXPECT_EQ(json(back), j);
  EXPECT_EQ(back.label, std::optional<std::string>("nightly-42"));
  ASSERT_TRUE(back.plugins);
  EXPECT_EQ(back.plugins->front().version, "1.2");
  EXPECT_EQ(back.placement->ranks[1].rank, 1);
  EXPECT_TRUE(back.placement->ranks_0_1->share_l3);
  EXPECT_EQ(back.mpi_settings->library.at("btl"), "tcp,self");
}

TEST(DocContext, ASchemaViolationOfAFieldIsFound) {
  Context c = full_context();
  c.waiting = "spin";  // poll or sleep
  mpiarena::Document doc;
  doc.context = c;
  const auto errors = mpiarena::validate_results(mpiarena::to_json(doc));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.front().find("waiting"), std::string::npos)
      << errors.front();
  c = full_context();
  c.label = std::string(65, 'x');  // 64 characters at most
  doc.context = c;
  EXPECT_FALSE(mpiarena::validate_results(mpiarena::to_json(doc)).empty());
}

// A context as an early version wrote it: the required fields, options
// under names no field has, none of the later parts.
TEST(DocContext, AnOlderFileLoadsAndIsWrittenBackAsItWas) {
  const json old = {{"start_time", "2023-05-01T00:00:00Z"},
                    {"hosts", {"a"}},
                    {"ranks", 2},
                    {"nodes", 1},
                    {"mpi_library", "Open MPI v4.1.2"},
                    {"mpi_version", "3.1"},
                    {"runner_version", "0.0.9"},
                    {"plugin_abi", 1},
                    {"command_line", {"runner"}},
                    {"options", {{"min_time", 0.005}, {"repetitions", 5}}},
                    {"producer", {{"name", "elsewhere"}}}};
  const Context c = old.get<Context>();
  EXPECT_EQ(c.ranks, 2);
  EXPECT_EQ(c.options.repetitions, std::optional<int>(5));
  EXPECT_FALSE(c.label);
  EXPECT_FALSE(c.noise);
  EXPECT_FALSE(c.tuning_file);
  EXPECT_FALSE(c.mpi_settings);
  EXPECT_FALSE(c.options.sync);
  EXPECT_EQ(c.options.extra, json({{"min_time", 0.005}}));
  EXPECT_EQ(c.extra, json({{"producer", {{"name", "elsewhere"}}}}));
  EXPECT_EQ(json(c), old);  // nothing added, nothing lost
}

TEST(DocContext, NullIsKeptApartFromAbsent) {
  json j = json(mpiarena_test::sample_context());
  j["tuning_file"] = nullptr;
  j["options"]["clock_sync"] = nullptr;
  const Context c = j.get<Context>();
  ASSERT_TRUE(c.tuning_file);
  EXPECT_FALSE(*c.tuning_file);
  ASSERT_TRUE(c.options.clock_sync);
  EXPECT_FALSE(*c.options.clock_sync);
  EXPECT_EQ(json(c), j);
}

TEST(DocContext, AMistypedFieldThrows) {
  json j = json(mpiarena_test::sample_context());
  j["ranks"] = "two";
  EXPECT_THROW(j.get<Context>(), json::exception);
  j = json(mpiarena_test::sample_context());
  j["noise"] = {{"recorded", "yes"}};
  EXPECT_THROW(j.get<Context>(), json::exception);
  j = json(mpiarena_test::sample_context());
  j["placement"] = 3;
  EXPECT_THROW(j.get<Context>(), json::exception);
  j = json(mpiarena_test::sample_context());
  j["mpi_settings"] = {{"environment", {{"UCX_TLS", 1}}}};
  EXPECT_THROW(j.get<Context>(), json::exception);
}

TEST(DocContext, MpiSettingsOfAnotherShapeAreInvalid) {
  Context c = full_context();
  mpiarena::Document doc;
  doc.context = c;
  json j = mpiarena::to_json(doc);
  j["context"]["mpi_settings"]["environment"]["UCX_TLS"] = 1;
  EXPECT_FALSE(mpiarena::validate_results(j).empty());
  j = mpiarena::to_json(doc);
  j["context"]["mpi_settings"]["values"] = json::object();
  EXPECT_FALSE(mpiarena::validate_results(j).empty());
  j = mpiarena::to_json(doc);
  j["context"]["mpi_settings"].erase("withheld");
  EXPECT_FALSE(mpiarena::validate_results(j).empty());
}

}  // namespace
