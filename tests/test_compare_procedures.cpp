// The procedures of runner compare (issue 29): the incomplete beta and
// Welch's t test on log launch medians against closed forms, Holm's
// correction, runner ab's documents split by build, and the launches of a
// side merged into one observation each.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/compare/compare_procedures.hpp"
#include "core/analysis/compare/merge.hpp"
#include "core/results/doc_dir.hpp"
#include "doc_fixtures.hpp"

using mpiarena::compare_documents;
using mpiarena::CompareOptions;
using mpiarena::Document;
using mpiarena::Outcome;
using mpiarena::Procedure;
using mpiarena::Record;
using mpiarena_test::make_record;

TEST(IncompleteBeta, MatchesClosedForms) {
  for (double x : {0.01, 0.2, 0.5, 0.77, 0.99}) {
    EXPECT_NEAR(mpiarena::incomplete_beta(1, 1, x), x, 1e-12);
    EXPECT_NEAR(mpiarena::incomplete_beta(3, 1, x), std::pow(x, 3), 1e-12);
    EXPECT_NEAR(mpiarena::incomplete_beta(1, 4, x), 1 - std::pow(1 - x, 4),
                1e-12);
  }
  EXPECT_EQ(mpiarena::incomplete_beta(2, 3, 0), 0);
  EXPECT_EQ(mpiarena::incomplete_beta(2, 3, 1), 1);
}

// Outside a distribution's domain Boost.Math has no value to give: each
// function says so by name instead of returning one (inference.hpp).
TEST(Distributions, OutsideTheDomainIsAnErrorNotAValue) {
  EXPECT_THROW(mpiarena::incomplete_beta(2, 3, 1.5), std::domain_error);
  EXPECT_THROW(mpiarena::incomplete_beta(0, 3, 0.5), std::domain_error);
  EXPECT_THROW(mpiarena::student_t_two_sided_p(2, 0), std::domain_error);
  EXPECT_THROW(mpiarena::student_t_two_sided_p(NAN, 3), std::domain_error);
  EXPECT_THROW(mpiarena::two_sided_z(0), std::domain_error);
  EXPECT_THROW(mpiarena::two_sided_z(1.5), std::domain_error);
  try {
    mpiarena::student_t_two_sided_p(2, -1);
    ADD_FAILURE() << "no error for -1 degrees of freedom";
  } catch (const std::domain_error& e) {
    EXPECT_NE(std::string(e.what()).find("student_t_two_sided_p"),
              std::string::npos)
        << e.what();
  }
  // The edges of the domain are values: z of 1 is 0, an infinite df the
  // normal.
  EXPECT_EQ(mpiarena::two_sided_z(1), 0);
  EXPECT_NEAR(mpiarena::student_t_two_sided_p(1.959963985, INFINITY), 0.05,
              1e-9);
}

// Two values a side with the same spread: Welch's degrees of freedom are 2,
// where the two-sided p of t is 1 - |t| / sqrt(t^2 + 2).
TEST(WelchLogP, MatchesTheTDistributionWithTwoDegreesOfFreedom) {
  const double a = 0.1;
  for (double d : {0.0, 0.05, 0.2, -0.3}) {
    const std::vector<double> x = {1, std::exp(a)},
                              y = {std::exp(d), std::exp(d + a)};
    const double t = d / (a / std::sqrt(2.0));
    EXPECT_NEAR(mpiarena::welch_log_p(x, y),
                1 - std::fabs(t) / std::sqrt(t * t + 2), 1e-9)
        << "d = " << d;
  }
  // No spread: equal means are p 1, different ones p 0; too few values: 1.
  EXPECT_EQ(mpiarena::welch_log_p({2, 2}, {2, 2}), 1);
  EXPECT_EQ(mpiarena::welch_log_p({2, 2}, {3, 3}), 0);
  EXPECT_EQ(mpiarena::welch_log_p({2}, {3, 3}), 1);
}

namespace {

std::vector<double> around(double median, double spread = 0.01) {
  std::vector<double> v;
  for (int i = 0; i < 7; ++i) v.push_back(median * (1 + spread * (i - 3) / 3));
  return v;
}

}  // namespace

// Seven points a side: one clearly slower (all seven samples above: p =
// 0.00058, 0.0041 after Holm over 7 tests), one slower with overlapping
// samples (p = 0.019: regressed alone, too noisy after the correction).
TEST(Holm, KeepsTheClearRegressionAndDropsTheMarginalOne) {
  Document base, now;
  base.context = now.context = mpiarena_test::sample_context();
  base.complete = now.complete = true;
  for (int i = 0; i < 5; ++i) {
    const std::string m = "m" + std::to_string(i);
    base.records.push_back(make_record(m, around(10e-6)));
    now.records.push_back(make_record(m, around(10e-6)));
  }
  base.records.push_back(make_record("clear", around(10e-6)));
  now.records.push_back(make_record("clear", around(13e-6)));
  base.records.push_back(make_record("marginal", around(10e-6, 0.2)));
  now.records.push_back(make_record("marginal", around(12.5e-6, 0.2)));
  CompareOptions o;
  auto verdict = [](const mpiarena::Comparison& c, const std::string& m) {
    for (const auto& p : c.points)
      if (p.key.method == m) return p.verdict;
    return Outcome::unchanged;
  };
  const auto plain = compare_documents(base, now, o);
  EXPECT_EQ(verdict(plain, "clear"), Outcome::regressed);
  EXPECT_EQ(verdict(plain, "marginal"), Outcome::regressed);
  o.holm = true;
  const auto holm = compare_documents(base, now, o);
  EXPECT_EQ(holm.tests, 7);
  EXPECT_EQ(verdict(holm, "clear"), Outcome::regressed);
  EXPECT_EQ(verdict(holm, "marginal"), Outcome::noisy);
  for (const auto& p : holm.points) {
    EXPECT_GE(p.p_adjusted, p.test.p);
    if (p.key.method == "clear") {
      EXPECT_NEAR(p.p_adjusted, 7 * p.test.p, 1e-12);
    }
  }
  EXPECT_EQ(holm.exit_code(), 1);
}

TEST(Builds, SplitsADocumentOfRunnerAb) {
  Document d;
  d.records.push_back(make_record("bcast@base", around(10e-6)));
  d.records.push_back(make_record("bcast@new", around(12e-6)));
  d.records.push_back(make_record("raw@new", around(12e-6)));
  EXPECT_EQ(mpiarena::document_builds(d),
            (std::vector<std::string>{"base", "new"}));
  const Document base = mpiarena::build_part(d, "base"),
                 now = mpiarena::build_part(d, "new");
  ASSERT_EQ(base.records.size(), 1u);
  ASSERT_EQ(now.records.size(), 2u);
  EXPECT_EQ(base.records[0].method, "bcast");
  EXPECT_EQ(now.records[1].method, "raw");
  EXPECT_TRUE(mpiarena::document_builds(base).empty());
}

// A method with option values: the build sits between the name and the
// values (issue 44: "allreduce@base[algorithm=ring]" was taken as the build
// "base[algorithm=ring]", and runner ab judged nothing).
TEST(Builds, SplitsMethodsWithOptionValues) {
  Document d;
  d.records.push_back(
      make_record("allreduce@base[algorithm=ring]", around(10e-6)));
  d.records.push_back(
      make_record("allreduce@new[algorithm=ring]", around(10e-6)));
  d.records.push_back(
      make_record("allreduce@new[algorithm=library,x=a@b]", around(10e-6)));
  EXPECT_EQ(mpiarena::document_builds(d),
            (std::vector<std::string>{"base", "new"}));
  const Document now = mpiarena::build_part(d, "new");
  ASSERT_EQ(now.records.size(), 2u);
  EXPECT_EQ(now.records[0].method, "allreduce[algorithm=ring]");
  EXPECT_EQ(now.records[1].method, "allreduce[algorithm=library,x=a@b]");
  EXPECT_EQ(mpiarena::build_part(d, "base").records.size(), 1u);
}

TEST(Launches, EachLaunchIsOneObservation) {
  std::vector<Document> launches(3);
  const double medians[] = {10e-6, 12e-6, 11e-6};
  for (int i = 0; i < 3; ++i) {
    launches[i].complete = true;
    launches[i].records.push_back(make_record("bcast", around(medians[i])));
    if (i < 2) launches[i].records.push_back(make_record("raw", around(1e-6)));
  }
  std::vector<std::string> warnings;
  const Document side = mpiarena::launches_document(launches, "BASE", warnings);
  ASSERT_EQ(side.records.size(), 1u);  // raw is not in every launch
  EXPECT_EQ(side.records[0].samples_max,
            (std::vector<double>{10e-6, 12e-6, 11e-6}));
  EXPECT_DOUBLE_EQ(side.records[0].time.median, 11e-6);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("1 point(s) of BASE were not measured by every "
                             "launch"),
            std::string::npos);
}

// compare's summary names the row of docs/results/gate.md that holds its
// procedure's false alarms and power; every such row exists there (issue
// 44: figures compiled in had gone stale against the document).
TEST(Procedures, TheSummaryPointsToARowOfTheGateDocument) {
  std::ifstream in(std::string(MPIARENA_SOURCE_DIR) + "/docs/results/gate.md");
  ASSERT_TRUE(in) << "docs/results/gate.md";
  std::string doc((std::istreambuf_iterator<char>(in)), {}), plain;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    if (doc.compare(i, 2, "**") == 0) {
      ++i;  // markdown's bold
    } else if (doc[i] != '`') {
      plain += doc[i];
    }
  }
  int rows = 0;
  for (auto procedure :
       {mpiarena::Procedure::two_files, mpiarena::Procedure::ab_run,
        mpiarena::Procedure::launches})
    for (bool holm : {false, true})
      for (int k : {3, 5}) {
        mpiarena::Comparison c;
        c.options.procedure = procedure;
        c.options.holm = holm;
        c.options.launches_base = c.options.launches_new = k;
        const std::string line = mpiarena::procedure_line(c);
        const std::size_t at = line.find("row "),
                          end = line.find(" (bench/gate on this");
        ASSERT_NE(at, std::string::npos) << line;
        ASSERT_NE(end, std::string::npos) << line;
        const std::string row = line.substr(at + 4, end - at - 4);
        EXPECT_NE(plain.find("| " + row + " |"), std::string::npos)
            << "not a row of docs/results/gate.md: " << row;
        ++rows;
      }
  EXPECT_EQ(rows, 12);
}

// runner ab's blocks of one point merged: each rank's time is the blocks'
// weighed by their repetitions (issue 44: halving at each merge gave the
// first of three blocks a quarter of the weight).
TEST(Builds, BlocksMergeWithEqualWeightPerRepetition) {
  std::vector<Record> blocks;
  for (double rank_time : {1e-6, 1e-6, 4e-6}) {
    Record r = make_record("bcast@base", {1e-6, 1.1e-6});
    r.repetitions = 2;
    r.per_rank = {rank_time, rank_time};
    blocks.push_back(r);
  }
  Record merged = blocks[0];
  mpiarena::merge_record(merged, blocks[1]);
  mpiarena::merge_record(merged, blocks[2]);
  EXPECT_EQ(merged.repetitions, 6);
  EXPECT_EQ(merged.samples_max.size(), 6u);
  ASSERT_EQ(merged.per_rank.size(), 2u);
  EXPECT_DOUBLE_EQ(merged.per_rank[0], 2e-6);  // (1 + 1 + 4) / 3
}

// The summary cites the gate document where the guides are: a program of
// the build tree reads them in the source tree's docs/, an installed one in
// <prefix>/share/doc/mpiarena; the file named exists.
TEST(Procedures, TheSummaryCitesTheGateDocumentWhereItIs) {
  mpiarena::Comparison c;
  c.options.procedure = mpiarena::Procedure::two_files;
  const std::string line = mpiarena::procedure_line(c);
  const std::string cited = mpiarena::doc_dir() + "/results/gate.md";
  EXPECT_NE(line.find("on record: " + cited + ", row "), std::string::npos)
      << line;
  EXPECT_EQ(line.find(" docs/"), std::string::npos) << line;
  EXPECT_TRUE(std::ifstream(cited).good()) << cited;
  EXPECT_EQ(mpiarena::doc_dir(), std::string(MPIARENA_SOURCE_DIR) + "/docs");
}

// An installed program finds the guides next to it, wherever the prefix
// went; "docs/" inside a longer path is not a citation.
TEST(Procedures, TheGuidesOfAnInstalledProgramAreUnderItsPrefix) {
  namespace fs = std::filesystem;
  const fs::path prefix = fs::temp_directory_path() / "mpiarena_doc_dir_test";
  fs::remove_all(prefix);
  fs::create_directories(prefix / "bin");
  fs::create_directories(prefix / "share" / "doc" / "mpiarena");
  EXPECT_EQ(mpiarena::doc_dir_for((prefix / "bin").string()),
            (prefix / "share" / "doc" / "mpiarena").string());
  fs::remove_all(prefix / "share");
  EXPECT_EQ(mpiarena::doc_dir_for((prefix / "bin").string()),
            std::string(MPIARENA_SOURCE_DIR) + "/docs");
  fs::remove_all(prefix);
  EXPECT_EQ(mpiarena::cite_docs_in("see docs/ci.md; (docs/tuning.md) and "
                                   "tests/docs/x, mydocs/y",
                                   "/p/share/doc/mpiarena"),
            "see /p/share/doc/mpiarena/ci.md; (/p/share/doc/mpiarena/"
            "tuning.md) and tests/docs/x, mydocs/y");
}

// --help's columns: a line the path makes wider than the width is broken
// before the citation, which keeps the column of the line's text; the path
// is never cut.
TEST(Procedures, CitationsInColumnsKeepTheirPathWhole) {
  const std::string col(14, ' ');
  const std::string text = "  --x arg     runs (docs/ci.md)\n" + col +
                           "more (docs/ci.md)\nshort docs/x";
  EXPECT_EQ(mpiarena::cite_docs_wrapped_in(text, 40, "/p/share/doc/mpiarena"),
            "  --x arg     runs\n" + col + "(/p/share/doc/mpiarena/ci.md)\n" +
                col + "more\n" + col + "(/p/share/doc/mpiarena/ci.md)\n" +
                "short /p/share/doc/mpiarena/x");
  // Wide enough: only spelt.
  EXPECT_EQ(mpiarena::cite_docs_wrapped_in(text, 80, "/d"),
            mpiarena::cite_docs_in(text, "/d"));
}
