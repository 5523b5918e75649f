// runner compare: which points are the same point (pairs, nodes, cold cache,
// buffers, payloads), what differs between the files (context, missing
// points, older files) and what the JSON and the rendering say.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compare_fixtures.hpp"
#include "core/analysis/compare/compare.hpp"
#include "core/analysis/compare/compare_text.hpp"
#include "core/results/formats.hpp"
#include "doc_fixtures.hpp"

using compare_test::around;
using compare_test::doc_of;
using compare_test::only_point;
using mpiarena::compare_documents;
using mpiarena::Outcome;
using mpiarena_test::make_record;

TEST(Compare, OnePairAndAllPairsAreDifferentPoints) {
  auto one = make_record("mpi_bytes", around(1e-6));
  one.suite = "pingpong";
  one.pairs = 1;
  auto all = one;
  all.pairs = 2;
  const auto c = compare_documents(doc_of({one}), doc_of({all}));
  EXPECT_TRUE(c.points.empty());
  ASSERT_EQ(c.only_base.size(), 1u);
  ASSERT_EQ(c.only_new.size(), 1u);
  const std::string name = mpiarena::point_name(c.only_new[0].key);
  EXPECT_EQ(name.substr(name.size() - 7), "/2pairs") << name;
  EXPECT_EQ(c.exit_code(), 2);
  // The same pairs on both sides: compared.
  EXPECT_EQ(compare_documents(doc_of({all}), doc_of({all})).points.size(), 1u);
  // A record written before `pairs` existed (0) is the one-pair point.
  auto old_style = one;
  old_style.pairs = 0;
  EXPECT_EQ(compare_documents(doc_of({old_style}), doc_of({one})).points.size(),
            1u);
}

TEST(Compare, APairAcrossNodesIsNeverMatchedWithOneWithinANode) {
  auto intra = make_record("mpi_bytes", around(1e-6));
  intra.suite = "pingpong";
  intra.pairs = 1;
  intra.pair_placement = "intra";
  intra.pair_ranks = {{0, 1}};
  auto inter = intra;
  inter.pair_placement = "inter";
  inter.pair_ranks = {{0, 2}};
  const auto c = compare_documents(doc_of({intra}), doc_of({inter}));
  EXPECT_TRUE(c.points.empty());
  ASSERT_EQ(c.only_new.size(), 1u);
  const std::string name = mpiarena::point_name(c.only_new[0].key);
  EXPECT_EQ(name.substr(name.size() - 6), "/inter") << name;
  EXPECT_EQ(c.exit_code(), 2);
  EXPECT_EQ(compare_documents(doc_of({inter}), doc_of({inter})).points.size(),
            1u);
  // A record written before pair_placement existed ran on one node: intra.
  auto old_style = intra;
  old_style.pair_placement.clear();
  old_style.pair_ranks.clear();
  EXPECT_EQ(
      compare_documents(doc_of({old_style}), doc_of({intra})).points.size(),
      1u);
}

// --relative: a whole group moving together is the machine, not the
// methods; a method that moved more than its group still regressed.
TEST(Compare, RelativeJudgesEachPointAgainstItsGroupsShift) {
  std::vector<mpiarena::Record> base, now;
  for (const char* m : {"bcast", "raw", "datatype", "pack"}) {
    base.push_back(make_record(m, around(1e-5)));
    now.push_back(
        make_record(m, around(std::string(m) == "pack" ? 1.5e-5 : 1.2e-5)));
  }
  const auto plain = compare_documents(doc_of(base), doc_of(now));
  EXPECT_EQ(plain.count(mpiarena::Outcome::regressed), 4);
  EXPECT_TRUE(plain.shifts.empty());
  mpiarena::CompareOptions relative;
  relative.relative = true;
  const auto c = compare_documents(doc_of(base), doc_of(now), relative);
  ASSERT_EQ(c.shifts.size(), 1u);
  EXPECT_EQ(c.shifts[0].points, 4);
  // The median of 1.2, 1.2, 1.2, 1.5 (with the samples' jitter).
  EXPECT_NEAR(c.shifts[0].shift, 1.2, 0.001);
  EXPECT_EQ(c.shifts[0].group.find("transfer/1d/"), 0u) << c.shifts[0].group;
  EXPECT_EQ(c.count(mpiarena::Outcome::regressed), 1);  // pack: 1.5 / 1.2
  for (const auto& p : c.points) {
    EXPECT_EQ(p.verdict == mpiarena::Outcome::regressed, p.key.method == "pack")
        << p.key.method;
    EXPECT_NE(p.note.find("group's shift of +20.0%"), std::string::npos)
        << p.note;
  }
  EXPECT_TRUE(std::any_of(
      c.warnings.begin(), c.warnings.end(), [](const std::string& w) {
        return w.find("moved together by +20.0%") != std::string::npos;
      }));
  EXPECT_TRUE(mpiarena::to_json(c)["relative"].get<bool>());
  EXPECT_EQ(mpiarena::to_json(c)["group_shifts"].size(), 1u);
  // A group of two is too small to tell the machine from the methods.
  base.resize(2);
  now.resize(2);
  const auto small = compare_documents(doc_of(base), doc_of(now), relative);
  EXPECT_TRUE(small.shifts.empty());
  EXPECT_EQ(small.count(mpiarena::Outcome::regressed), 2);
}

TEST(Compare, ColdCacheAndSeparateBuffersAreOtherPoints) {
  auto hot = make_record("mpi_bytes", around(1e-6));
  hot.suite = "pingpong";
  hot.cache = "hot";
  hot.buffers = "shared";
  auto cold = hot;
  cold.cache = "cold";
  auto separate = hot;
  separate.buffers = "separate";
  for (const auto& other : {cold, separate}) {
    const auto c = compare_documents(doc_of({hot}), doc_of({other}));
    EXPECT_TRUE(c.points.empty());
    ASSERT_EQ(c.only_new.size(), 1u);
  }
  EXPECT_EQ(compare_documents(doc_of({cold}), doc_of({cold})).points.size(),
            1u);
  // Older files: hot, and one buffer per rank (NetPIPE's scheme).
  auto old_style = hot;
  old_style.cache.clear();
  old_style.buffers.clear();
  EXPECT_EQ(compare_documents(doc_of({old_style}), doc_of({hot})).points.size(),
            1u);
}

TEST(Compare, FieldsAnOlderFileLacksDoNotWarn) {
  auto base = doc_of({make_record("bcast", around(1e-5))});
  auto now = doc_of({make_record("bcast", around(1e-5))});
  now.context.oversubscribed = false;
  now.context.waiting = "poll";
  now.context.options.wait = "auto";
  EXPECT_TRUE(compare_documents(base, now).warnings.empty())
      << compare_documents(base, now).warnings.front();
}

TEST(Compare, OversubscribedAgainstNotWarns) {
  auto base = doc_of({make_record("bcast", around(1e-5))});
  auto now = doc_of({make_record("bcast", around(1e-5))});
  base.context.oversubscribed = false;
  base.context.waiting = "poll";
  now.context.oversubscribed = true;
  now.context.waiting = "sleep";
  const auto c = compare_documents(base, now);
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_EQ(
      c.warnings[0],
      "context differs: oversubscribed is 'false' in BASE, 'true' in NEW");
  EXPECT_EQ(c.warnings[1],
            "context differs: waiting is 'poll' in BASE, 'sleep' in NEW");
}

TEST(Compare, FailedVerificationInNewIsARegression) {
  auto bad = make_record("bcast", around(1e-5));
  bad.verification = "failed";
  bad.verification_message = "rank 1: element 3 is 5, expected 7";
  const auto c = compare_documents(doc_of({make_record("bcast", around(1e-5))}),
                                   doc_of({bad}));
  EXPECT_EQ(only_point(c).verdict, Outcome::regressed);
  EXPECT_NE(c.points[0].note.find("verification failed in NEW"),
            std::string::npos);
  EXPECT_EQ(c.exit_code(), 1);
}

TEST(Compare, MethodsWithoutPayloadCompareTimeOnly) {
  auto base = make_record("null", around(2e-7));
  auto now = make_record("null", around(3e-7));
  base.moves_data = now.moves_data = false;
  const auto c = compare_documents(doc_of({base}), doc_of({now}));
  ASSERT_EQ(only_point(c).metrics.size(), 1u);
  EXPECT_EQ(c.points[0].verdict, Outcome::regressed);
}

TEST(Compare, NothingInCommonWarnsAndExitsTwo) {
  const auto c =
      compare_documents(doc_of({make_record("bcast", around(1e-5))}),
                        doc_of({make_record("bcast", around(1e-5), 110000)}));
  EXPECT_TRUE(c.points.empty());
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("no point is in both files"), std::string::npos);
  EXPECT_EQ(c.exit_code(), 2);  // a gate that compared nothing must not pass
  EXPECT_EQ(mpiarena::to_json(c)["exit_code"], 2);
  EXPECT_EQ(mpiarena::to_json(c)["regressed"], false);
}

TEST(Compare, JsonAndRenderingSayWhatIsBetter) {
  const auto c = compare_documents(doc_of({make_record("bcast", around(1e-5)),
                                           make_record("raw", around(1e-5))}),
                                   doc_of({make_record("bcast", around(1.2e-5)),
                                           make_record("raw", around(1e-5))}));
  const nlohmann::json j = mpiarena::to_json(c);
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["counts"]["regressed"], 1);
  EXPECT_EQ(j["counts"]["unchanged"], 1);
  const nlohmann::json& p = j["points"][0];
  EXPECT_EQ(p["name"], "transfer/bcast/1d/11000/np2");
  EXPECT_EQ(p["verdict"], "regressed");
  EXPECT_EQ(p["test"], "exact");
  EXPECT_EQ(p["metrics"][0]["better"], "lower");
  EXPECT_EQ(p["metrics"][1]["better"], "higher");
  const std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_NE(text.find("lower is better"), std::string::npos);
  EXPECT_NE(text.find("higher is better"), std::string::npos);
  EXPECT_NE(text.find("+20.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("regressed"), std::string::npos);
  EXPECT_NE(text.find("result: 1 regressed, 0 improved, 1 unchanged"),
            std::string::npos);
  const std::string md = mpiarena::render_comparison(c, "a.json", "b.json",
                                                     mpiarena::Style::markdown);
  EXPECT_NE(md.find("| transfer/bcast/1d | small |"), std::string::npos) << md;
}

TEST(Compare, MpiSettingsThatDifferAreInTheHeaderAndTheJson) {
  auto base = doc_of({make_record("bcast", around(1e-5))});
  auto now = doc_of({make_record("bcast", around(1e-5))});
  base.context.mpi_settings = mpiarena::MpiSettingsContext{
      {}, {{"btl", "self,vader"}}, {}, {}};
  now.context.mpi_settings = mpiarena::MpiSettingsContext{
      {{"OMPI_MCA_btl", "tcp,self"}}, {{"btl", "tcp,self"}}, {}, {}};
  const auto c = compare_documents(base, now);
  const std::string text =
      mpiarena::render_comparison(c, "a.json", "b.json", mpiarena::Style::text);
  EXPECT_NE(text.find("MPI settings differ: OMPI_MCA_btl (unset) -> "
                      "tcp,self; library.btl self,vader -> tcp,self\n"),
            std::string::npos)
      << text;
  const nlohmann::json j = mpiarena::to_json(c)["mpi_settings"];
  EXPECT_TRUE(j["differ"].get<bool>());
  EXPECT_EQ(j["changes"][0]["name"], "OMPI_MCA_btl");
  EXPECT_TRUE(j["changes"][0]["base"].is_null());
  // The same settings, or a file without them: no line.
  const auto same = compare_documents(now, now);
  EXPECT_FALSE(mpiarena::to_json(same)["mpi_settings"]["differ"].get<bool>());
  EXPECT_EQ(mpiarena::render_comparison(same, "a", "b", mpiarena::Style::text)
                .find("MPI settings differ"),
            std::string::npos);
  base.context.mpi_settings.reset();
  EXPECT_TRUE(compare_documents(base, now).settings.empty());
}
