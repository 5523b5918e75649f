// Methods ranked by the operation they declare (StrategyInfo::operation):
// the everyday collectives that declare one operation and semantics rank
// together, a semantic option's other value apart, and a method of an
// alternatives suite that declares another operation is a table of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/html/report_html.hpp"
#include "core/analysis/report/report.hpp"
#include "core/analysis/report/summary.hpp"
#include "core/results/records.hpp"
#include "doc_fixtures.hpp"

using mpiarena_test::make_record;

namespace {

const mpiarena::Semantics kSum{{"datatype", "int"}, {"op", "sum"}};

mpiarena::Record coll(const std::string& method, double t,
                      const std::string& op = "",
                      const mpiarena::Semantics& semantics = {}) {
  mpiarena::Record r = make_record(method, {t, t, t}, 4096);
  r.suite = "collective";
  r.ranks = 4;
  r.operation = op;
  r.semantics = semantics;
  return r;
}

// The text of a report from its first line holding `title` up to the next
// table's title (a line ending in "ranks" or holding " ranks / ").
std::string section(const std::string& out, const std::string& title) {
  const std::size_t at = out.find(title);
  if (at == std::string::npos) return "";
  const std::size_t next = out.find("\ncollective / ", at + title.size());
  const std::size_t next2 = out.find("\nstencil / ", at + title.size());
  return out.substr(at, std::min(next, next2) - at);
}

}  // namespace

TEST(Operations, SemanticsTakeTheSemanticOptionsValues) {
  mpiarena::Operation op;
  op.name = "allreduce";
  op.semantics = {{"op", "sum"}, {"datatype", "int"}};
  op.options = {"op"};
  const mpiarena::Semantics max =
      mpiarena::point_semantics(op, {{"chunks", "4"}, {"op", "max"}});
  ASSERT_EQ(max.size(), 2u);
  EXPECT_EQ(max[0], (std::pair<std::string, std::string>{"datatype", "int"}));
  EXPECT_EQ(max[1], (std::pair<std::string, std::string>{"op", "max"}));
  EXPECT_EQ(mpiarena::operation_text("allreduce", max),
            "allreduce(datatype=int, op=max)");
  // An option the operation does not name stays out of it.
  EXPECT_EQ(mpiarena::point_semantics(op, {{"chunks", "4"}}), kSum);
  EXPECT_EQ(mpiarena::operation_text("ring", {}), "ring");
}

TEST(Operations, RecordsCarryTheirOperationThroughJson) {
  mpiarena::Record r = coll("allreduce", 1e-6, "allreduce", kSum);
  const nlohmann::json j = mpiarena::to_json(r);
  ASSERT_TRUE(j.contains("operation")) << j.dump();
  EXPECT_EQ(j["operation"]["name"], "allreduce");
  EXPECT_EQ(j["operation"]["semantics"]["op"], "sum");
  const mpiarena::Record back = mpiarena::record_from_json(j);
  EXPECT_EQ(back.operation, "allreduce");
  EXPECT_EQ(back.semantics, kSum);
  EXPECT_EQ(mpiarena::operation_text(back), "allreduce(datatype=int, op=sum)");
  // The suite's own work: no field.
  EXPECT_FALSE(mpiarena::to_json(coll("x", 1e-6)).contains("operation"));
}

// The collective suite: two or more methods of one operation form a ranked
// group; a method alone with its operation, or with none, joins the
// different operations side by side.
TEST(Operations, CollectivesOfOneOperationFormARankedGroup) {
  mpiarena::Document doc;
  doc.records.push_back(coll("allreduce", 2e-6, "allreduce", kSum));
  doc.records.push_back(coll("allreduce_as_rsb_allgather", 3e-6, "allreduce",
                             kSum));
  doc.records.push_back(coll("ext_allreduce[op=max]", 1e-6, "allreduce",
                             {{"datatype", "int"}, {"op", "max"}}));
  doc.records.push_back(coll("alltoall", 5e-6));
  const auto groups = mpiarena::ranked_groups(doc, false);
  ASSERT_EQ(groups.size(), 2u);
  const mpiarena::GroupKey ranked{"collective", "1d", 4, 4096,
                                  "allreduce(datatype=int, op=sum)"};
  const mpiarena::GroupKey side{"collective", "1d", 4, 4096, ""};
  ASSERT_EQ(groups.count(ranked), 1u);
  EXPECT_TRUE(mpiarena::group_ranked(ranked));
  EXPECT_FALSE(mpiarena::group_ranked(side));
  const auto& recs = groups.at(ranked);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0]->method, "allreduce");  // the faster first
  EXPECT_EQ(recs[1]->method, "allreduce_as_rsb_allgather");
  ASSERT_EQ(groups.at(side).size(), 2u);  // op=max and alltoall

  // The text: a ranked table for the allreduce, op=max among the rest.
  const std::string out = mpiarena::render_table(doc);
  const std::string sum =
      section(out, "collective / 1d / 4096 B (4 KiB) per rank / 4 ranks / "
                   "allreduce(datatype=int, op=sum)");
  ASSERT_FALSE(sum.empty()) << out;
  EXPECT_EQ(sum.find("not ranked"), std::string::npos) << sum;
  EXPECT_NE(sum.find("x best"), std::string::npos) << sum;
  EXPECT_NE(sum.find("allreduce_as_rsb_allgather"), std::string::npos);
  EXPECT_EQ(sum.find("op=max"), std::string::npos) << sum;
  const std::string rest = section(
      out, "collective / 1d / 4096 B (4 KiB) per rank / 4 ranks (different "
           "operations, not ranked)");
  ASSERT_FALSE(rest.empty()) << out;
  EXPECT_NE(rest.find("ext_allreduce[op=max]"), std::string::npos) << rest;
  EXPECT_EQ(rest.find("allreduce_as_rsb_allgather"), std::string::npos);

  // The summary: a winner of the allreduce, with its operation; none of
  // the rest.
  const nlohmann::json s = mpiarena::compute_summary(doc);
  ASSERT_EQ(s["best"].size(), 1u) << s.dump();
  EXPECT_EQ(s["best"][0]["method"], "allreduce");
  EXPECT_EQ(s["best"][0]["runner_up"], "allreduce_as_rsb_allgather");
  EXPECT_EQ(s["best"][0]["operation"], "allreduce(datatype=int, op=sum)");
  const std::string best = mpiarena::render_best(s, mpiarena::Style::text);
  EXPECT_NE(best.find("collective / allreduce(datatype=int, op=sum)"),
            std::string::npos)
      << best;

  // The page says which methods it ranked, and shows their winner.
  const std::string page = mpiarena::render_html(doc, s, "r.json");
  EXPECT_NE(page.find("Ranked apart by the operation they declare: "
                      "allreduce(datatype=int, op=sum)."),
            std::string::npos);
  EXPECT_NE(page.find("collective / allreduce(datatype=int, op=sum)"),
            std::string::npos);
  EXPECT_EQ(page.find("op=max)"), std::string::npos);
}

// A suite whose methods compete (the stencil): a method that declares
// another operation (a ring) is ranked in a table of its own, not first
// among methods that do four times its work.
TEST(Operations, AnotherOperationInACompetingSuiteIsATableOfItsOwn) {
  mpiarena::Document doc;
  for (const char* m : {"sendrecv_halo", "isend_halo"}) {
    mpiarena::Record r = make_record(m, {4e-6, 4e-6, 4e-6}, 4096);
    r.suite = "stencil";
    doc.records.push_back(r);
  }
  doc.records[1].time.median = 5e-6;
  mpiarena::Record ring = make_record("ring", {1e-6, 1e-6, 1e-6}, 4096);
  ring.suite = "stencil";
  ring.operation = "ring";
  doc.records.push_back(ring);
  const auto groups = mpiarena::ranked_groups(doc, false);
  ASSERT_EQ(groups.size(), 2u);
  const mpiarena::GroupKey own{"stencil", "1d", 2, 4096, "ring"};
  ASSERT_EQ(groups.count(own), 1u);
  EXPECT_EQ(groups.at(own).size(), 1u);
  EXPECT_EQ(groups.at({"stencil", "1d", 2, 4096, ""}).front()->method,
            "sendrecv_halo");
  const nlohmann::json s = mpiarena::compute_summary(doc);
  ASSERT_EQ(s["best"].size(), 2u) << s.dump();
  for (const nlohmann::json& b : s["best"])
    EXPECT_NE(b["method"], b.contains("operation") ? "sendrecv_halo" : "ring");
  const std::string out = mpiarena::render_table(doc);
  const std::string halo =
      section(out, "stencil / 1d / 4096 B (4 KiB) / 2 ranks\n");
  ASSERT_FALSE(halo.empty()) << out;
  EXPECT_EQ(halo.find(" ring "), std::string::npos) << halo;
  EXPECT_NE(out.find("stencil / 1d / 4096 B (4 KiB) / 2 ranks / ring"),
            std::string::npos)
      << out;
}
