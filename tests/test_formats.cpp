// CSV and Google Benchmark JSON exports of a result document.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/analysis/compare/compare_text.hpp"
#include "core/results/formats.hpp"
#include "core/results/mpi_settings.hpp"
#include "core/results/printable.hpp"
#include "doc_fixtures.hpp"

using mpiarena_test::make_record;

namespace {

// An RFC 4180 reader: quoted fields may hold commas, doubled quotes and line
// breaks. Returns rows of fields; fails the test on malformed input.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false, was_quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      EXPECT_TRUE(field.empty()) << "quote inside an unquoted field";
      quoted = was_quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
      was_quoted = false;
    } else if (c == '\n') {
      rows.back().push_back(field);
      field.clear();
      was_quoted = false;
      rows.emplace_back();
    } else {
      EXPECT_FALSE(was_quoted) << "text after a closing quote";
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quoted field";
  EXPECT_TRUE(field.empty() && rows.back().empty()) << "no final line end";
  rows.pop_back();
  return rows;
}

}  // namespace

TEST(Csv, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(mpiarena::csv_field("bcast"), "bcast");
  EXPECT_EQ(mpiarena::csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(mpiarena::csv_field("say \"x\""), "\"say \"\"x\"\"\"");
  EXPECT_EQ(mpiarena::csv_field("two\nlines"), "\"two\nlines\"");
}

TEST(Csv, OneRowPerRecordWithAHeaderThatParsesBack) {
  mpiarena::Document doc = mpiarena_test::sample_document();
  doc.records[3].verification_message =
      "rank 1: row 4, element 3 is \"5\",\nexpected 7";
  const auto rows = parse_csv(mpiarena::to_csv(doc));
  ASSERT_EQ(rows.size(), doc.records.size() + 1);
  EXPECT_EQ(rows[0], mpiarena::csv_columns());
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < rows[0].size(); ++i) col[rows[0][i]] = i;
  for (std::size_t i = 0; i < doc.records.size(); ++i) {
    const mpiarena::Record& r = doc.records[i];
    const auto& row = rows[i + 1];
    SCOPED_TRACE(r.method);
    ASSERT_EQ(row.size(), rows[0].size());
    EXPECT_EQ(row[col["method"]], r.method);
    EXPECT_EQ(row[col["payload"]], r.payload);
    EXPECT_EQ(std::stoull(row[col["bytes"]]), r.bytes);
    EXPECT_EQ(std::stoi(row[col["repetitions"]]), r.repetitions);
    // Numbers read back exactly.
    EXPECT_EQ(std::stod(row[col["median_s"]]), r.time.median);
    EXPECT_EQ(std::stod(row[col["stddev_s"]]), r.time.stddev);
    EXPECT_EQ(std::stod(row[col["cv"]]), r.time.cv);
    if (r.moves_data)
      EXPECT_EQ(std::stod(row[col["bandwidth_Bps"]]), r.bandwidth);
    else
      EXPECT_EQ(row[col["bandwidth_Bps"]], "");
    EXPECT_EQ(row[col["verification"]], r.verification);
    EXPECT_EQ(row[col["verification_message"]], r.verification_message);
  }
}

TEST(Csv, PercentilesReadBackAndAreEmptyWhereAbsent) {
  mpiarena::Document doc;
  std::vector<double> samples;
  for (int i = 1; i <= 20; ++i) samples.push_back(i * 1.5e-7);
  doc.records.push_back(make_record("twenty", samples));
  doc.records.push_back(make_record("one", {2e-6}));
  const auto rows = parse_csv(mpiarena::to_csv(doc));
  ASSERT_EQ(rows.size(), 3u);
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < rows[0].size(); ++i) col[rows[0][i]] = i;
  ASSERT_TRUE(col.count("p50_s") && col.count("p95_s") && col.count("p99_s"));
  // 20 samples: p50 the 10th, p95 the 19th, no p99; one sample: none.
  EXPECT_EQ(std::stod(rows[1][col["p50_s"]]), samples[9]);
  EXPECT_EQ(std::stod(rows[1][col["p95_s"]]), samples[18]);
  EXPECT_EQ(rows[1][col["p99_s"]], "");
  for (const char* c : {"p50_s", "p95_s", "p99_s"})
    EXPECT_EQ(rows[2][col[c]], "");
}

TEST(Csv, TheRunsColumnsComeLastAndTellTwoRunsApart) {
  mpiarena::Document first = mpiarena_test::sample_document();
  mpiarena::Document second = first;
  first.context.build = mpiarena::BuildContext{"GCC 12", "Release", "abc1234"};
  first.context.hosts = {"node1", "node2"};
  first.context.label = "nightly, 42";
  first.context.mpi_library =
      "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4";
  first.context.mpi_settings = mpiarena::MpiSettingsContext{
      {{"OMPI_MCA_btl", "tcp,self"}}, {}, {}, {}};
  second.context.start_time = "2024-01-03T00:00:00Z";
  second.context.mpi_library = "MPICH Version:\t4.0.2\nMPICH Release date:";
  const std::string a = mpiarena::to_csv(first), b = mpiarena::to_csv(second);
  auto rows = parse_csv(a);
  const auto more = parse_csv(b);
  rows.insert(rows.end(), more.begin() + 1, more.end());
  const std::vector<std::string>& header = rows[0];
  const std::vector<std::string> run = {"start_time",  "git_revision",
                                        "hosts",       "mpi_library",
                                        "mpi_settings", "label"};
  ASSERT_GE(header.size(), run.size());
  EXPECT_EQ(std::vector<std::string>(header.end() - 6, header.end()), run);
  EXPECT_EQ(header[23], "p99_s");  // the earlier columns stay where they were
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  const std::size_t n = first.records.size();
  ASSERT_EQ(rows.size(), 2 * n + 1);
  const auto& one = rows[1];
  const auto& two = rows[n + 1];
  ASSERT_EQ(one.size(), header.size());
  EXPECT_EQ(one[col["start_time"]], "2024-01-02T03:04:05Z");
  EXPECT_EQ(one[col["git_revision"]], "abc1234");
  EXPECT_EQ(one[col["hosts"]], "node1;node2");
  EXPECT_EQ(one[col["mpi_library"]], "Open MPI v4.1.4");
  EXPECT_EQ(one[col["mpi_settings"]],
            mpiarena::settings_digest(first.context));
  EXPECT_EQ(one[col["label"]], "nightly, 42");  // quoted, read back
  EXPECT_NE(a.find(",\"nightly, 42\"\n"), std::string::npos);
  EXPECT_EQ(two[col["start_time"]], "2024-01-03T00:00:00Z");
  EXPECT_EQ(two[col["git_revision"]], "");
  EXPECT_EQ(two[col["mpi_library"]], "MPICH Version: 4.0.2");
  // The same from a context made printable (runner report's).
  second.context.mpi_library = "MPICH Version:\\x094.0.2\\x0AMPICH Release";
  EXPECT_EQ(parse_csv(mpiarena::to_csv(second))[1][col["mpi_library"]],
            "MPICH Version: 4.0.2");
  EXPECT_EQ(two[col["mpi_settings"]], "");
  EXPECT_EQ(two[col["label"]], "");
  EXPECT_NE(one[col["start_time"]] + one[col["label"]],
            two[col["start_time"]] + two[col["label"]]);
}

TEST(Gbench, HasTheFieldsCompareDotPyReads) {
  mpiarena::Document doc = mpiarena_test::sample_document();
  doc.records.push_back(make_record("bcast", {2e-6}, 110000));  // 1 sample
  const nlohmann::json g = mpiarena::to_gbench(doc);
  ASSERT_TRUE(g.contains("context"));
  EXPECT_EQ(g["context"]["date"], "2024-01-02T03:04:05Z");
  EXPECT_EQ(g["context"]["host_name"], "node1");
  EXPECT_EQ(g["context"]["executable"], "mpiarena");
  EXPECT_EQ(g["context"]["json_schema_version"], 1);
  EXPECT_EQ(g["context"]["mpiarena"]["mpi_library"], "Open MPI v4.1.4");
  const nlohmann::json& b = g["benchmarks"];
  // 4 records x 3 samples + 4 aggregates each, then 1 sample, no aggregates.
  ASSERT_EQ(b.size(), 4u * (3 + 4) + 1);

  // bcast 1d small: the first record.
  const mpiarena::Record& r = doc.records[0];
  const std::string name = "transfer/bcast/1d/11000/np2";
  for (std::size_t i = 0; i < 3; ++i) {
    const nlohmann::json& row = b[i];
    EXPECT_EQ(row["name"], name);
    EXPECT_EQ(row["run_name"], name);
    EXPECT_EQ(row["run_type"], "iteration");
    EXPECT_EQ(row["repetitions"], 3);
    EXPECT_EQ(row["repetition_index"], i);
    EXPECT_EQ(row["threads"], 1);
    EXPECT_EQ(row["iterations"], r.inner_iterations);
    EXPECT_EQ(row["time_unit"], "ns");
    EXPECT_DOUBLE_EQ(row["real_time"].get<double>(), r.samples_max[i] * 1e9);
    EXPECT_EQ(row["cpu_time"], row["real_time"]);
    EXPECT_DOUBLE_EQ(row["bytes_per_second"].get<double>(),
                     r.payload_bytes / r.samples_max[i]);
    EXPECT_EQ(row["family_index"], 0);
    EXPECT_EQ(row["per_family_instance_index"], 0);
    EXPECT_FALSE(row.contains("aggregate_name"));
  }
  const std::vector<std::pair<std::string, double>> aggs = {
      {"mean", r.time.mean * 1e9},
      {"median", r.time.median * 1e9},
      {"stddev", r.time.stddev * 1e9},
      {"cv", r.time.cv}};
  for (std::size_t i = 0; i < aggs.size(); ++i) {
    const nlohmann::json& row = b[3 + i];
    EXPECT_EQ(row["name"], name + "_" + aggs[i].first);
    EXPECT_EQ(row["run_name"], name);
    EXPECT_EQ(row["run_type"], "aggregate");
    EXPECT_EQ(row["aggregate_name"], aggs[i].first);
    EXPECT_EQ(row["aggregate_unit"],
              aggs[i].first == "cv" ? "percentage" : "time");
    EXPECT_DOUBLE_EQ(row["real_time"].get<double>(), aggs[i].second);
    EXPECT_EQ(row["cpu_time"], row["real_time"]);
    EXPECT_EQ(row["time_unit"], "ns");
  }

  std::set<std::string> names;
  std::map<int, std::set<std::string>> families;
  for (const nlohmann::json& row : b) {
    for (const char* field :
         {"name", "run_type", "real_time", "cpu_time", "time_unit",
          "family_index", "per_family_instance_index"})
      EXPECT_TRUE(row.contains(field)) << row.dump() << " lacks " << field;
    names.insert(row["run_name"]);
    families[row["family_index"]].insert(row["run_name"]);
  }
  // Families are (suite, method, payload); bcast 1d has two sizes.
  EXPECT_EQ(names.size(), 5u);
  EXPECT_EQ(families[0],
            (std::set<std::string>{name, "transfer/bcast/1d/110000/np2"}));
  EXPECT_EQ(b.back()["per_family_instance_index"], 1);
  EXPECT_EQ(b.back()["run_type"], "iteration");
  // The null method moves no payload; the corrupt one failed verification.
  for (const nlohmann::json& row : b) {
    if (row["run_name"] == "transfer/null/1d/11000/np2") {
      EXPECT_FALSE(row.contains("bytes_per_second"));
    }
    if (row["run_name"] == "transfer/corrupt/2d/11000/np2" &&
        row["run_type"] == "iteration") {
      EXPECT_EQ(row["error_occurred"], true);
      EXPECT_NE(row["error_message"].get<std::string>().find("row 4"),
                std::string::npos);
    }
  }
}

TEST(Grid, RendersTextAndMarkdown) {
  const std::vector<std::vector<std::string>> rows = {{"bcast", "1.5 us"},
                                                      {"boost_packed", "2 us"}};
  EXPECT_EQ(
      mpiarena::render_grid({"method", ">time"}, rows, mpiarena::Style::text),
      "   method          time\n"
      "   bcast         1.5 us\n"
      "   boost_packed    2 us\n");
  EXPECT_EQ(mpiarena::render_grid({"method", ">time"}, rows,
                                  mpiarena::Style::markdown),
            "| method | time |\n|---|---:|\n| bcast | 1.5 us |\n"
            "| boost_packed | 2 us |\n");
}

TEST(Comparison, ExtremeChangesStayShort) {
  mpiarena::Document base, now;
  base.records.push_back(make_record("m", {1e-3, 1e-3, 1e-3, 1e-3, 1e-3}));
  now.records.push_back(make_record("m", {1e300, 1e300, 1e300, 1e300, 1e300}));
  const mpiarena::Comparison c = mpiarena::compare_documents(base, now);
  const std::string text = mpiarena::render_comparison(
      c, "base.json", "new.json", mpiarena::Style::text);
  // +1e305 %: scientific notation, not 306 digits cut at a buffer's end.
  EXPECT_NE(text.find("+1.00e+305%"), std::string::npos) << text;
  EXPECT_NE(text.find("1.000e+300 s"), std::string::npos) << text;
  std::size_t run = 0, longest = 0;
  for (char ch : text) {
    run = ch >= '0' && ch <= '9' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  EXPECT_LE(longest, 8u) << text;
}

// Text from a result file made safe to print (printable.hpp, issue 27 D3).
TEST(Printable, SpellsOutControlsNoncharactersAndBadBytes) {
  using mpiarena::printable;
  EXPECT_EQ(printable("bcast"), "bcast");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x86\x92"), "caf\xc3\xa9 \xe2\x86\x92");
  EXPECT_EQ(printable("a\x1b[31mb"), "a\\x1B[31mb");
  EXPECT_EQ(printable(std::string("n\0l", 3)), "n\\x00l");
  EXPECT_EQ(printable("t\tn\nd\x7f"), "t\\x09n\\x0Ad\\x7F");
  EXPECT_EQ(printable("\xc2\x85"), "\\u0085");  // C1 NEL
  EXPECT_EQ(printable("\xef\xbf\xbe\xef\xbf\xbf"), "\\uFFFE\\uFFFF");
  EXPECT_EQ(printable("\xff\xc3"), "\\xFF\\xC3");           // not UTF-8, cut
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xED\\xA0\\x80");  // a surrogate
  EXPECT_EQ(printable("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
}

TEST(Printable, ReachesEveryStringAndKeyOfADocument) {
  nlohmann::json doc = {{"a\x1b", {"x", "y\x07", 3}}, {"b", {{"c", "\x01"}}}};
  EXPECT_EQ(mpiarena::make_printable(doc), 3u);  // a key, two values
  EXPECT_EQ(doc.dump(), R"({"a\\x1B":["x","y\\x07",3],"b":{"c":"\\x01"}})");
}
