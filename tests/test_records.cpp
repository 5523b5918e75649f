// Result records to JSON and back, and validation against the results schema.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/engine/engine.hpp"
#include "core/results/records.hpp"
#include "core/results/schema.hpp"
#include "doc_fixtures.hpp"

using mpiarena::validate_results;
using nlohmann::json;

namespace {

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// Expects `doc` to be rejected with an error line naming the failing path,
// given by its components: "<root>[records][1][bytes]" (valijson) or
// "/records/1/bytes" (JSON pointer) both count. A missing or unexpected
// property is named ('colour') in an error about its parent object, so with
// `in_parent` the line must hold the parent's path and the quoted name.
void expect_invalid(const json& doc, const std::vector<std::string>& path,
                    bool in_parent = false) {
  const std::vector<std::string> errors = validate_results(doc);
  ASSERT_FALSE(errors.empty()) << "accepted:\n" << doc.dump(1);
  const std::size_t n = in_parent ? path.size() - 1 : path.size();
  std::string brackets, pointer;
  for (std::size_t i = 0; i < n; ++i)
    brackets += "[" + path[i] + "]", pointer += "/" + path[i];
  bool found = false;
  for (const std::string& e : errors) {
    const bool at = e.find(brackets) != std::string::npos ||
                    e.find(pointer) != std::string::npos;
    found = found || (at && (!in_parent || e.find("'" + path.back() + "'") !=
                                               std::string::npos));
  }
  std::string all;
  for (const std::string& p : path) all += "/" + p;
  EXPECT_TRUE(found) << "no error names " << all << ":\n" << joined(errors);
}

json valid_json() {
  return mpiarena::to_json(mpiarena_test::sample_document());
}

}  // namespace

TEST(Records, RecordToJsonLayout) {
  const auto doc = mpiarena_test::sample_document();
  const json j = mpiarena::to_json(doc.records[0]);
  EXPECT_EQ(j.at("method"), "bcast");
  EXPECT_EQ(j.at("bytes"), 11000);
  EXPECT_EQ(j.at("statistic"), "max_over_ranks_per_repetition");
  EXPECT_DOUBLE_EQ(j.at("time_s").at("median").get<double>(), 1.5e-6);
  EXPECT_EQ(j.at("samples_s").at("max").size(), 3u);
  EXPECT_DOUBLE_EQ(j.at("bandwidth_Bps").get<double>(), 11000 / 1.5e-6);
  EXPECT_EQ(j.at("verification").at("status"), "passed");
  EXPECT_EQ(j.at("plugin").at("abi"), mpiarena::kAbiVersion);
}

TEST(Records, TimeScaleAndPerRankTimesRoundTripAndValidate) {
  auto doc = mpiarena_test::sample_document();
  mpiarena::Record& r = doc.records[0];
  EXPECT_FALSE(mpiarena::to_json(r).contains("time_scale"));  // 1: omitted
  EXPECT_FALSE(mpiarena::to_json(r).contains("per_rank_s"));
  r.time_scale = 0.5;
  r.per_rank = {1.5e-6, 1.4e-6, 2e-9};
  const json j = mpiarena::to_json(r);
  EXPECT_EQ(j.at("time_scale"), 0.5);
  EXPECT_EQ(j.at("per_rank_s").size(), 3u);
  const mpiarena::Record back = mpiarena::record_from_json(j);
  EXPECT_EQ(back.time_scale, 0.5);
  EXPECT_EQ(back.per_rank, r.per_rank);
  EXPECT_EQ(joined(validate_results(mpiarena::to_json(doc))), "");
  json bad = mpiarena::to_json(doc);
  bad["records"][0]["per_rank_s"][1] = -1.0;
  expect_invalid(bad, {"records", "0", "per_rank_s", "1"});
  bad = mpiarena::to_json(doc);
  bad["records"][0]["time_scale"] = 0;
  expect_invalid(bad, {"records", "0", "time_scale"});
}

TEST(Records, WindowParamsAndMatrixRoundTripAndValidate) {
  auto doc = mpiarena_test::sample_document();
  mpiarena::Record& r = doc.records[0];
  EXPECT_FALSE(mpiarena::to_json(r).contains("window"));
  EXPECT_FALSE(mpiarena::to_json(r).contains("params"));
  r.window = 64;
  r.params = {{"op", "put"}, {"sync", "flush_local"}};
  r.matrix_row = "op";
  r.matrix_column = "sync";
  const json j = mpiarena::to_json(r);
  EXPECT_EQ(j.at("window"), 64);
  EXPECT_EQ(j.at("params").at("sync"), "flush_local");
  EXPECT_EQ(j.at("matrix"), json::parse(R"({"row": "op", "column": "sync"})"));
  const mpiarena::Record back = mpiarena::record_from_json(j);
  EXPECT_EQ(back.window, 64);
  EXPECT_EQ(back.param("op"), "put");
  EXPECT_EQ(back.param("sync"), "flush_local");
  EXPECT_EQ(back.param("none"), "");
  EXPECT_EQ(back.matrix_column, "sync");
  EXPECT_EQ(joined(validate_results(mpiarena::to_json(doc))), "");
  json bad = mpiarena::to_json(doc);
  bad["records"][0]["window"] = 0;
  expect_invalid(bad, {"records", "0", "window"});
  bad = mpiarena::to_json(doc);
  bad["records"][0]["params"]["op"] = 3;
  expect_invalid(bad, {"records", "0", "params", "op"});
  bad = mpiarena::to_json(doc);
  bad["records"][0]["matrix"].erase("column");
  expect_invalid(bad, {"records", "0", "matrix", "column"}, true);
}

// Window timing (issue 46): the record's sync round-trips and validates;
// a barrier-timed record has none; the schema bounds its figures.
TEST(Records, WindowTimingRoundTripsAndValidates) {
  auto doc = mpiarena_test::sample_document();
  mpiarena::Record& r = doc.records[0];
  EXPECT_FALSE(mpiarena::to_json(r).contains("sync"));
  r.sync.windowed = true;
  r.sync.clock = "jk";
  r.sync.window_s = 12e-6;
  r.sync.windows = 400;
  r.sync.invalid = 10;
  r.sync.grew = 1;
  r.sync.residual_s = 30e-9;
  r.definition["sync"] = "window";
  const json j = mpiarena::to_json(r);
  EXPECT_EQ(j.at("sync").at("method"), "window");
  EXPECT_DOUBLE_EQ(j.at("sync").at("invalid_fraction").get<double>(), 0.025);
  const mpiarena::Record back = mpiarena::record_from_json(j);
  EXPECT_TRUE(back.sync.windowed);
  EXPECT_EQ(back.sync.clock, "jk");
  EXPECT_EQ(back.sync.windows, 400);
  EXPECT_EQ(back.sync.invalid, 10);
  EXPECT_EQ(back.sync.grew, 1);
  EXPECT_DOUBLE_EQ(back.sync.window_s, 12e-6);
  EXPECT_EQ(back.definition.at("sync"), "window");
  EXPECT_EQ(joined(validate_results(mpiarena::to_json(doc))), "");
  json bad = mpiarena::to_json(doc);
  bad["records"][0]["sync"]["window_s"] = 0;
  expect_invalid(bad, {"records", "0", "sync", "window_s"});
  bad = mpiarena::to_json(doc);
  bad["records"][0]["sync"]["clock"] = "ntp";
  expect_invalid(bad, {"records", "0", "sync", "clock"});
  bad = mpiarena::to_json(doc);
  bad["records"][0]["sync"].erase("invalid");
  expect_invalid(bad, {"records", "0", "sync", "invalid"}, true);
}

TEST(Records, PairPlacementRoundTripsAndValidates) {
  auto doc = mpiarena_test::sample_document();
  mpiarena::Record& r = doc.records[0];
  EXPECT_FALSE(mpiarena::to_json(r).contains("pair_placement"));
  r.pairs = 1;
  r.pair_placement = "inter";
  r.pair_ranks = {{0, 2}};
  const json j = mpiarena::to_json(r);
  EXPECT_EQ(j.at("pair_placement"), "inter");
  EXPECT_EQ(j.at("pair_ranks"), json::parse("[[0, 2]]"));
  const mpiarena::Record back = mpiarena::record_from_json(j);
  EXPECT_EQ(back.pair_placement, "inter");
  EXPECT_EQ(back.pair_ranks, r.pair_ranks);
  EXPECT_EQ(joined(validate_results(mpiarena::to_json(doc))), "");
  json bad = mpiarena::to_json(doc);
  bad["records"][0]["pair_placement"] = "remote";
  expect_invalid(bad, {"records", "0", "pair_placement"});
  bad = mpiarena::to_json(doc);
  bad["records"][0]["pair_ranks"] = json::parse("[[0, 1, 2]]");
  expect_invalid(bad, {"records", "0", "pair_ranks"});
}

// Contract v4: parts, phases and metrics of a record, to JSON and back, valid.
mpiarena::Record with_parts() {
  auto doc = mpiarena_test::sample_document();
  mpiarena::Record r = doc.records[0];  // samples_max {1e-6, 1.5e-6, 2e-6}
  auto timing = [](std::vector<double> s) {
    mpiarena::PartTiming t;
    t.samples_max = t.samples_min = t.samples_avg = s;
    t.time = mpiarena::summarize(s);
    return t;
  };
  mpiarena::PartTiming comm = timing({4, 4, 8}), comp = timing({6, 6, 6}),
                       both = timing({7, 10, 9});
  comm.name = "comm";
  comp.name = "compute";
  both.name = "both";
  mpiarena::PhaseTiming app;
  static_cast<mpiarena::Timing&>(app) = timing({5, 5, 5});
  app.name = "app";
  both.phases = {app};
  for (auto* p : {&comm, &comp, &both}) p->inner_iterations = 10;
  r.parts = {comm, comp, both};
  r.headline_part = "both";
  r.samples_max = r.samples_min = r.samples_avg = both.samples_max;
  r.time = both.time;
  r.phases = both.phases;
  return r;
}

mpiarena::StrategyInfo overlap_info() {
  mpiarena::StrategyInfo info;
  info.metrics = {
      {"overlap", "%", true,
       [](const mpiarena::MetricInput& in) {
         const double tmin = std::min(in.part("comm"), in.part("compute"));
         return 100 *
                std::max(0.0, std::min(in.part("comm") + in.part("compute") -
                                           in.part("both"),
                                       tmin)) /
                tmin;
       }},
      {"app_share", "%", false, [](const mpiarena::MetricInput& in) {
         return 100 * in.phase("app") / in.part("both");
       }}};
  return info;
}

TEST(Records, MetricsAreComputedOnMediansAndPerRepetition) {
  mpiarena::Record r = with_parts();
  mpiarena::compute_metrics(r, overlap_info());
  ASSERT_EQ(r.metrics.size(), 2u);
  const mpiarena::MetricValue& m = r.metrics[0];
  EXPECT_EQ(m.name, "overlap");
  EXPECT_TRUE(m.higher_is_better);
  // Medians: comm 4, compute 6, both 9: 100 * min(1, 4) / 4.
  EXPECT_DOUBLE_EQ(m.value, 25.0);
  // Repetition i pairs sample i of every part: (4,6,7) (4,6,10) (8,6,9).
  ASSERT_EQ(m.samples.size(), 3u);
  EXPECT_DOUBLE_EQ(m.samples[0], 75.0);
  EXPECT_DOUBLE_EQ(m.samples[1], 0.0);
  EXPECT_DOUBLE_EQ(m.samples[2], 100.0 * 5 / 6);
  // Phases by their own name (headline part) and as part/phase.
  EXPECT_DOUBLE_EQ(r.metrics[1].value, 100.0 * 5 / 9);
  EXPECT_FALSE(r.metrics[1].higher_is_better);
}

TEST(Records, AMetricOnAMissingPartIsAPointError) {
  mpiarena::Record r = with_parts();
  r.parts.pop_back();
  mpiarena::StrategyInfo info = overlap_info();
  info.metrics.pop_back();
  EXPECT_THROW(mpiarena::compute_metrics(r, info), mpiarena::PointError);
}

TEST(Records, PartsPhasesMetricsRoundTripAndValidate) {
  auto doc = mpiarena_test::sample_document();
  doc.records[0] = with_parts();
  doc.records[0].plugin_version = "probe-1.0";
  mpiarena::compute_metrics(doc.records[0], overlap_info());
  const json j = mpiarena::to_json(doc.records[0]);
  EXPECT_EQ(j.at("parts").size(), 3u);
  EXPECT_EQ(j.at("headline_part"), "both");
  EXPECT_EQ(j.at("phases_s").at(0).at("name"), "app");
  EXPECT_EQ(j.at("metrics").at(0).at("better"), "higher");
  EXPECT_EQ(j.at("metrics").at(1).at("better"), "lower");
  EXPECT_EQ(j.at("plugin").at("version"), "probe-1.0");
  const mpiarena::Record back = mpiarena::record_from_json(j);
  EXPECT_EQ(mpiarena::to_json(back), j);
  EXPECT_EQ(joined(validate_results(mpiarena::to_json(doc))), "");
  json bad = mpiarena::to_json(doc);
  bad["records"][0]["metrics"][0]["better"] = "sideways";
  expect_invalid(bad, {"records", "0", "metrics", "0", "better"});
}

TEST(Records, NoPayloadMeansNullBandwidth) {
  const auto doc = mpiarena_test::sample_document();
  ASSERT_FALSE(doc.records[2].moves_data);
  const json j = mpiarena::to_json(doc.records[2]);
  EXPECT_TRUE(j.at("bandwidth_Bps").is_null());
  const mpiarena::Record back = mpiarena::record_from_json(j);
  EXPECT_FALSE(back.moves_data);
  EXPECT_TRUE(
      mpiarena::record_from_json(mpiarena::to_json(doc.records[0])).moves_data);
}

TEST(Records, DocumentRoundTrip) {
  const mpiarena::Document doc = mpiarena_test::sample_document();
  const json j = mpiarena::to_json(doc);
  EXPECT_EQ(j.at("schema_version"), mpiarena::kSchemaVersion);
  const mpiarena::Document back = mpiarena::document_from_json(j);
  EXPECT_EQ(mpiarena::to_json(back), j);
  // Through text as well, as a reader of the file sees it.
  EXPECT_EQ(
      mpiarena::to_json(mpiarena::document_from_json(json::parse(j.dump()))),
      j);
  // Field by field for what the JSON equality cannot see on its own.
  ASSERT_EQ(back.records.size(), doc.records.size());
  ASSERT_EQ(back.skipped.size(), doc.skipped.size());
  EXPECT_TRUE(back.complete);
  EXPECT_EQ(back.context, doc.context);
  for (std::size_t i = 0; i < doc.records.size(); ++i) {
    EXPECT_EQ(back.records[i].samples_max, doc.records[i].samples_max);
    EXPECT_EQ(back.records[i].samples_avg, doc.records[i].samples_avg);
    EXPECT_EQ(back.records[i].time.n, doc.records[i].samples_max.size());
    EXPECT_EQ(back.records[i].moves_data, doc.records[i].moves_data);
    EXPECT_EQ(back.records[i].verification_message,
              doc.records[i].verification_message);
  }
  EXPECT_EQ(back.skipped[1].reason, "payload exceeds INT_MAX ints");
  EXPECT_EQ(back.skipped[1].bytes, 440000000u);
}

TEST(Records, FromJsonThrowsOnMissingOrMistypedField) {
  json r = mpiarena::to_json(mpiarena_test::sample_document().records[0]);
  json missing = r;
  missing.erase("ranks");
  EXPECT_THROW(mpiarena::record_from_json(missing), json::exception);
  json mistyped = r;
  mistyped["bytes"] = "11000";
  EXPECT_THROW(mpiarena::record_from_json(mistyped), json::exception);
}

TEST(Schema, IsCompiledIn) {
  const json& schema = mpiarena::results_schema();
  EXPECT_TRUE(schema.contains("definitions"));
  EXPECT_EQ(schema.at("properties").at("schema_version").at("const"),
            mpiarena::kSchemaVersion);
}

TEST(Schema, AcceptsAGeneratedDocument) {
  EXPECT_EQ(joined(validate_results(valid_json())), "");
  mpiarena::Document empty;
  empty.context = mpiarena_test::sample_context();
  EXPECT_EQ(joined(validate_results(mpiarena::to_json(empty))), "");
}

TEST(Schema, RejectsMissingRecords) {
  json doc = valid_json();
  doc.erase("records");
  expect_invalid(doc, {"records"}, /*in_parent=*/true);
}

TEST(Schema, RejectsAnotherSchemaVersion) {
  json doc = valid_json();
  doc["schema_version"] = 2;
  expect_invalid(doc, {"schema_version"});
}

TEST(Schema, RejectsNegativeBytes) {
  json doc = valid_json();
  doc["records"][1]["bytes"] = -1;
  expect_invalid(doc, {"records", "1", "bytes"});
}

TEST(Schema, RejectsAnUnknownVerificationStatus) {
  json doc = valid_json();
  doc["records"][0]["verification"]["status"] = "maybe";
  expect_invalid(doc, {"records", "0", "verification", "status"});
}

TEST(Schema, RejectsAnUnknownRecordProperty) {
  json doc = valid_json();
  doc["records"][3]["colour"] = "blue";
  expect_invalid(doc, {"records", "3", "colour"}, /*in_parent=*/true);
}

TEST(Schema, RejectsAStringForANumber) {
  json doc = valid_json();
  doc["records"][0]["time_s"]["median"] = "1.5e-6";
  expect_invalid(doc, {"records", "0", "time_s", "median"});
}

TEST(Schema, RejectsEmptySamples) {
  json doc = valid_json();
  doc["records"][2]["samples_s"]["min"] = json::array();
  expect_invalid(doc, {"records", "2", "samples_s", "min"});
}

TEST(Schema, RejectsOtherBrokenDocuments) {
  json doc = valid_json();
  doc["skipped"][0]["reason"] = "";
  expect_invalid(doc, {"skipped", "0", "reason"});
  doc = valid_json();
  doc["records"][0]["bandwidth_Bps"] = -5.0;
  expect_invalid(doc, {"records", "0", "bandwidth_Bps"});
  doc = valid_json();
  doc["context"].erase("hosts");
  expect_invalid(doc, {"context", "hosts"}, /*in_parent=*/true);
  doc = valid_json();
  doc["records"][0]["inner_iterations"] = 0;
  expect_invalid(doc, {"records", "0", "inner_iterations"});
  doc = valid_json();
  doc["extra"] = 1;
  expect_invalid(doc, {"extra"}, /*in_parent=*/true);
  EXPECT_FALSE(validate_results(json::array()).empty());
}

namespace {

// A record of `n` samples 1..n us, shuffled (its percentiles name ranks).
mpiarena::Record record_of(int n) {
  std::vector<double> samples;
  for (int i = 1; i <= n; ++i) samples.push_back(i * 1e-6);
  std::reverse(samples.begin(), samples.end());
  std::rotate(samples.begin(), samples.begin() + n / 3, samples.end());
  return mpiarena_test::make_record("bcast", samples);
}

json document_of(const mpiarena::Record& r) {
  mpiarena::Document d;
  d.context = mpiarena_test::sample_context();
  d.records.push_back(r);
  return mpiarena::to_json(d);
}

// Whether some line of `errors` holds `text`.
bool names(const std::vector<std::string>& errors, const std::string& text) {
  return std::any_of(errors.begin(), errors.end(), [&](const std::string& e) {
    return e.find(text) != std::string::npos;
  });
}

}  // namespace

TEST(Percentiles, WrittenWhereTheSamplesAllowAndRoundTrip) {
  const json full = document_of(record_of(200));
  const json& t = full["records"][0]["time_s"];
  EXPECT_DOUBLE_EQ(t.at("p50").get<double>(), 100e-6);
  EXPECT_DOUBLE_EQ(t.at("p95").get<double>(), 190e-6);
  EXPECT_DOUBLE_EQ(t.at("p99").get<double>(), 198e-6);
  EXPECT_EQ(joined(validate_results(full)), "");
  const mpiarena::Record back = mpiarena::record_from_json(full["records"][0]);
  ASSERT_TRUE(back.time.percentiles[2]);
  EXPECT_EQ(*back.time.percentiles[2], t.at("p99").get<double>());
  // 20 samples: p50 and p95; 7 (the default -r): p50 only; 1: none.
  const json twenty = document_of(record_of(20))["records"][0]["time_s"];
  EXPECT_TRUE(twenty.contains("p95"));
  EXPECT_FALSE(twenty.contains("p99"));
  const json seven = document_of(record_of(7))["records"][0]["time_s"];
  EXPECT_TRUE(seven.contains("p50"));
  EXPECT_FALSE(seven.contains("p95"));
  const json one = document_of(record_of(1))["records"][0]["time_s"];
  EXPECT_FALSE(one.contains("p50"));
}

TEST(Percentiles, OldRecordsWithoutThemValidateAndLoad) {
  json doc = document_of(record_of(200));
  for (const char* p : {"p50", "p95", "p99"})
    doc["records"][0]["time_s"].erase(p);
  EXPECT_EQ(joined(validate_results(doc)), "");
  const mpiarena::Document back = mpiarena::document_from_json(doc);
  EXPECT_FALSE(back.records[0].time.percentiles[0]);
  EXPECT_FALSE(back.records[0].time.percentiles[2]);
}

TEST(Percentiles, ValidateRefusesAPercentileItsSamplesContradict) {
  json doc = document_of(record_of(200));
  doc["records"][0]["time_s"]["p95"] = 150e-6;  // a sample, not the 190th
  const auto wrong = validate_results(doc);
  EXPECT_TRUE(names(wrong, "[records][0][time_s][p95]: ")) << joined(wrong);
  EXPECT_TRUE(names(wrong, "contradicts its 200 samples")) << joined(wrong);
}

TEST(Percentiles, ValidateRefusesOneForTooFewSamples) {
  json doc = document_of(record_of(19));
  doc["records"][0]["time_s"]["p95"] = 19e-6;
  const auto errors = validate_results(doc);
  EXPECT_TRUE(names(errors, "[time_s][p95]: ")) << joined(errors);
  EXPECT_TRUE(names(errors, "19 samples; p95 needs at least 20"))
      << joined(errors);
}

TEST(Percentiles, ValidateRefusesThemOutOfOrderOrOutsideMinMax) {
  json doc = document_of(record_of(200));
  json& t = doc["records"][0]["time_s"];
  t["p99"] = t["p50"].get<double>() / 2;
  const auto errors = validate_results(doc);
  EXPECT_TRUE(names(errors, "[time_s][p99]: ")) << joined(errors);
  EXPECT_TRUE(names(errors, "is below p95")) << joined(errors);
  // The order holds whatever the samples say: one above max.
  doc = document_of(record_of(200));
  doc["records"][0]["time_s"]["p99"] = 1.0;
  EXPECT_TRUE(names(validate_results(doc), "is above max"));
  doc = document_of(record_of(200));
  doc["records"][0]["time_s"]["p50"] = 0.0;
  EXPECT_TRUE(names(validate_results(doc), "is below min"));
  // The schema: a number of seconds.
  doc = document_of(record_of(200));
  doc["records"][0]["time_s"]["p50"] = -1.0;
  expect_invalid(doc, {"records", "0", "time_s", "p50"});
  doc = document_of(record_of(200));
  doc["records"][0]["time_s"]["p90"] = 1e-4;  // not one mpiarena writes
  expect_invalid(doc, {"records", "0", "time_s", "p90"}, true);
}

TEST(Percentiles, PhasesAndPartsHaveThemToo) {
  mpiarena::Record r = record_of(100);
  mpiarena::PhaseTiming ph;
  ph.name = "comm";
  ph.samples_max = ph.samples_min = ph.samples_avg = r.samples_max;
  ph.time = mpiarena::summarize(ph.samples_max);
  r.phases.push_back(ph);
  json doc = document_of(r);
  EXPECT_TRUE(doc["records"][0]["phases_s"][0]["time_s"].contains("p99"));
  EXPECT_EQ(joined(validate_results(doc)), "");
  doc["records"][0]["phases_s"][0]["time_s"]["p99"] = 42e-6;
  EXPECT_TRUE(names(validate_results(doc), "[phases_s][0][time_s][p99]: "));
}
