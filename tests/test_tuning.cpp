// runner tune (issue 30): a winner only where a forced algorithm beats the
// library's own choice significantly (Holm over the point's algorithms)
// and by the threshold; the files each library loads: Open MPI's dynamic
// rules (ids, communicator and message-size rules from 0 upwards, the
// library's choice outside what was measured) and MPICH's selection JSON
// (the library's table in its own key order, the winner under guards).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/tuning/tuning.hpp"
#include "core/results/digest.hpp"
#include "doc_fixtures.hpp"

using mpiarena::Document;
using mpiarena::Record;
using mpiarena::TuneOptions;
using mpiarena::Tuning;
using mpiarena_test::make_record;

namespace {

std::vector<double> around(double v) {
  return {v, v * 1.01, v * 0.99, v * 1.02, v * 0.98,
          v, v * 1.01, v * 0.99, v * 1.02, v * 0.98};
}

Record point(const std::string& library, const std::string& collective,
             const std::string& name, int value, std::size_t bytes, int ranks,
             double seconds) {
  Record r = make_record(collective + "[algorithm=" +
                             (value ? name : std::string("library")) + "]",
                         around(seconds), bytes);
  r.suite = "collective";
  r.ranks = ranks;
  r.size_label = std::to_string(bytes);
  std::string upper = collective;
  for (char& c : upper) c = static_cast<char>(std::toupper(c));
  r.algorithm = {library,
                 library == "MPICH" ? "MPIR_CVAR_" + upper + "_INTRA_ALGORITHM"
                                    : "coll_tuned_" + collective + "_algorithm",
                 value ? name : (library == "MPICH" ? "auto" : "ignore"),
                 value};
  return r;
}

mpiarena::TuneOptions defaults() { return {}; }

// The documents with the context a run of --algorithms writes: every
// forced algorithm of their records listed for its variable.
Tuning tune_listed(std::vector<Document> docs, const TuneOptions& o) {
  for (Document& d : docs) {
    std::map<std::string, std::vector<mpiarena::AlgorithmChoice>> by_variable;
    for (const Record& r : d.records)
      if (r.algorithm.value != 0) {
        auto& algs = by_variable[r.algorithm.variable];
        const bool listed = std::any_of(
            algs.begin(), algs.end(),
            [&](const auto& a) { return a.name == r.algorithm.name; });
        if (!listed) algs.push_back({r.algorithm.value, r.algorithm.name});
      }
    std::vector<mpiarena::CollectiveContext> collectives;
    for (const auto& [variable, algs] : by_variable) {
      collectives.emplace_back();
      collectives.back().variable = variable;
      collectives.back().algorithms = algs;
    }
    auto& listed = d.context.library_algorithms;
    if (!listed) listed.emplace();
    if (listed->collectives.empty()) listed->collectives = collectives;
  }
  return mpiarena::tune(docs, o);
}

// A small MPICH table of the shape MPICH 4.0 compiles in, its keys out of
// alphabetical order on purpose.
const char* kTable = R"({"collective=reduce_scatter_block":{"comm_type=intra":
{"is_commutative=yes":{"algorithm=MPIR_Reduce_scatter_block_intra_recursive_halving":{}},
"is_commutative=no":{"algorithm=MPIR_Reduce_scatter_block_intra_recursive_doubling":{}}},
"comm_type=inter":{"algorithm=MPIR_Reduce_scatter_block_inter_remote_reduce_local_scatter":{}}},
"collective=barrier":{"comm_type=intra":{"algorithm=MPIR_Barrier_intra_dissemination":{}}}})";

}  // namespace

TEST(Tuning, WinnerOnlyWhenSignificantAndAboveTheThreshold) {
  Document d;
  // 4 KiB at 3 ranks: ring 30% faster in every sample, linear 2% faster.
  d.records.push_back(point("Open MPI", "allreduce", "", 0, 4096, 3, 10e-6));
  d.records.push_back(point("Open MPI", "allreduce", "ring", 4, 4096, 3, 7e-6));
  d.records.push_back(
      point("Open MPI", "allreduce", "linear", 1, 4096, 3, 9.8e-6));
  // 64 KiB: nothing faster beyond 2%.
  d.records.push_back(point("Open MPI", "allreduce", "", 0, 65536, 3, 50e-6));
  d.records.push_back(
      point("Open MPI", "allreduce", "ring", 4, 65536, 3, 49e-6));
  const Tuning t = tune_listed({d}, defaults());
  ASSERT_EQ(t.points.size(), 2u);
  EXPECT_EQ(t.library, "Open MPI");
  EXPECT_EQ(t.points[0].winner, "ring");
  EXPECT_EQ(t.points[0].value, 4);
  EXPECT_NEAR(t.points[0].factor, 10.0 / 7.0, 1e-9);
  // The claim is the lower end of the ratio's interval: below the medians'
  // ratio, above the worst pair's (9.8 / 7.14).
  EXPECT_LT(t.points[0].claimed, t.points[0].factor);
  EXPECT_GT(t.points[0].claimed, 9.8e-6 / 7.14e-6);
  EXPECT_LT(t.points[0].p, 0.05);
  EXPECT_EQ(t.points[0].compared, 2);
  // One winner: its claim at 95%. Two winners (two_winners): each at
  // 97.5%, so that both hold together. By hand: 10 against 10 at 95% cuts
  // at U = 23 (tables of the Mann-Whitney test), so the claim is the 24th
  // smallest of the 100 ratios. They are 10/7 x/y for the factors x, y of
  // around() (0.98, 0.99, 1, 1.01, 1.02, twice each): each x/y 4 times,
  // the 24th is the 6th smallest x/y, 1/1.02 (0.98/1.02, 0.98/1.01,
  // 0.99/1.02, 0.98/1, 0.99/1.01, then 1/1.02).
  EXPECT_NEAR(t.points[0].claimed, 10.0 / 7 / 1.02, 1e-12);
  EXPECT_TRUE(t.points[1].winner.empty());
  EXPECT_NE(t.points[1].why.find("threshold"), std::string::npos)
      << t.points[1].why;
}

TEST(Tuning, RefusesFilesWithoutAlgorithmsOrOfTwoLibraries) {
  Document none;
  none.records.push_back(make_record("allreduce", around(1e-6), 64));
  EXPECT_THROW(tune_listed({none}, defaults()), std::invalid_argument);
  Document a, b;
  a.records.push_back(point("Open MPI", "allreduce", "", 0, 64, 2, 1e-6));
  a.records.push_back(point("Open MPI", "allreduce", "ring", 4, 64, 2, 1e-6));
  b.records.push_back(point("MPICH", "allreduce", "", 0, 64, 2, 1e-6));
  EXPECT_THROW(tune_listed({a, b}, defaults()), std::invalid_argument);
}

TEST(Tuning, OpenMpiRulesFromZeroUpwardsPerCommunicatorSize) {
  Document d;
  for (std::size_t bytes : {4096u, 65536u}) {
    d.records.push_back(point("Open MPI", "alltoall", "", 0, bytes, 4, 10e-6));
    d.records.push_back(
        point("Open MPI", "alltoall", "pairwise", 2, bytes, 4, 5e-6));
  }
  // Another collective with no winner is left out of the file.
  d.records.push_back(point("Open MPI", "bcast", "", 0, 64, 4, 1e-6));
  d.records.push_back(point("Open MPI", "bcast", "chain", 2, 64, 4, 2e-6));
  const std::string rules = mpiarena::openmpi_rules(tune_listed({d}, {}));
  // One collective (alltoall, id 3); sizes 1 (library), 4 (rules), 5
  // (library again); alltoall's message size is the count x ranks:
  // 16384 B for 4 KiB at 4 ranks, merged with 64 KiB's same winner.
  EXPECT_NE(rules.find("\n1  # collectives\n3  # alltoall\n3  # communicator "
                       "sizes\n1  # communicator size\n1  # message sizes\n"
                       "0 0 0 0"),
            std::string::npos)
      << rules;
  EXPECT_NE(rules.find("4  # communicator size\n3  # message sizes\n0 0 0 0  "
                       "# library's choice from 0 B\n16384 2 0 0  # pairwise "
                       "from 16384 B\n262145 0 0 0"),
            std::string::npos)
      << rules;
  EXPECT_NE(rules.find("5  # communicator size\n1  # message sizes\n0 0 0 0"),
            std::string::npos)
      << rules;
  EXPECT_EQ(rules.find("# bcast"), std::string::npos) << rules;
}

TEST(Tuning, MpichSelectionKeepsTheTableOrderAndGuardsTheWinner) {
  Document d;
  d.context.library_algorithms.emplace();
  d.context.library_algorithms->library = "MPICH";
  d.context.library_algorithms->selection_table = {"test", kTable};
  d.records.push_back(
      point("MPICH", "reduce_scatter_block", "", 0, 16384, 3, 10e-6));
  d.records.push_back(
      point("MPICH", "reduce_scatter_block", "pairwise", 3, 16384, 3, 5e-6));
  const std::string text = mpiarena::mpich_selection(tune_listed({d}, {}));
  const auto json = nlohmann::ordered_json::parse(text);
  // The collectives stay in the table's order (not alphabetical).
  EXPECT_EQ(json.begin().key(), "collective=reduce_scatter_block");
  const auto& intra =
      json["collective=reduce_scatter_block"]["comm_type=intra"];
  std::vector<std::string> keys;
  for (auto it = intra.begin(); it != intra.end(); ++it)
    keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"comm_size<=2", "comm_size<=3",
                                            "comm_size=any"}));
  // 16 KiB a rank at 3 ranks is 49152 B in all (total_msg_size).
  const auto& at3 = intra["comm_size<=3"];
  keys.clear();
  for (auto it = at3.begin(); it != at3.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"total_msg_size<=49151",
                                            "total_msg_size<=49152",
                                            "total_msg_size=any"}));
  EXPECT_TRUE(at3["total_msg_size<=49152"]["is_commutative=yes"].contains(
      "algorithm=MPIR_Reduce_scatter_block_intra_pairwise"));
  // Elsewhere: the library's own branch, unchanged.
  EXPECT_EQ(at3["total_msg_size=any"],
            nlohmann::ordered_json::parse(
                kTable)["collective=reduce_scatter_block"]["comm_type=intra"]);
  EXPECT_EQ(json["collective=barrier"],
            nlohmann::ordered_json::parse(kTable)["collective=barrier"]);
}

TEST(Tuning, EachLibrarysMessageSize) {
  mpiarena::TuningPoint p;
  p.ranks = 4;
  p.block = 1024;
  for (const char* c : {"allreduce", "bcast", "reduce"}) {
    p.collective = c;
    EXPECT_EQ(mpiarena::library_message_size("Open MPI", p), 1024u) << c;
    EXPECT_EQ(mpiarena::library_message_size("MPICH", p), 1024u) << c;
  }
  for (const char* c :
       {"allgather", "gather", "scatter", "reduce_scatter_block"}) {
    p.collective = c;
    EXPECT_EQ(mpiarena::library_message_size("Open MPI", p), 4096u) << c;
    EXPECT_EQ(mpiarena::library_message_size("MPICH", p), 4096u) << c;
  }
  p.collective = "alltoall";
  EXPECT_EQ(mpiarena::library_message_size("Open MPI", p), 4096u);
  EXPECT_EQ(mpiarena::library_message_size("MPICH", p), 1024u);
  p.collective = "barrier";
  EXPECT_EQ(mpiarena::library_message_size("Open MPI", p), 0u);
}

TEST(Tuning, MpichNeedsTheLibrarysTable) {
  Document d;
  d.records.push_back(point("MPICH", "allreduce", "", 0, 64, 2, 10e-6));
  d.records.push_back(
      point("MPICH", "allreduce", "recursive_doubling", 1, 64, 2, 5e-6));
  EXPECT_THROW(mpiarena::mpich_selection(tune_listed({d}, {})),
               std::invalid_argument);
}

TEST(Tuning, DisagreeingMethodsKeepTheLibrarysChoice) {
  Document d;
  for (const char* method : {"allreduce", "fingerprint"}) {
    Record lib = point("Open MPI", "allreduce", "", 0, 64, 2, 10e-6);
    Record a = point("Open MPI", "allreduce",
                     std::string(method) == "allreduce" ? "ring" : "linear",
                     std::string(method) == "allreduce" ? 4 : 1, 64, 2, 5e-6);
    lib.method = std::string(method) + "[algorithm=library]";
    a.method = std::string(method) + "[algorithm=x]";
    d.records.push_back(lib);
    d.records.push_back(a);
  }
  const Tuning t = tune_listed({d}, {});
  ASSERT_EQ(t.points.size(), 2u);
  for (const auto& p : t.points) {
    EXPECT_TRUE(p.winner.empty());
    EXPECT_NE(p.why.find("disagree"), std::string::npos) << p.why;
  }
}

TEST(Tuning, MpichTableThatIsNotJsonIsAnErrorNotACrash) {
  Document d;
  d.context.library_algorithms.emplace();
  d.context.library_algorithms->library = "MPICH";
  d.context.library_algorithms->selection_table = {"test", "{\"collective="};
  d.records.push_back(point("MPICH", "allreduce", "", 0, 64, 2, 10e-6));
  d.records.push_back(
      point("MPICH", "allreduce", "recursive_doubling", 1, 64, 2, 5e-6));
  EXPECT_THROW(mpiarena::mpich_selection(tune_listed({d}, {})), std::exception);
}

namespace {

// A launch without --algorithms: the plain method's point, its samples
// around `seconds`.
Document launch(const std::string& collective, std::size_t bytes, int ranks,
                double seconds) {
  Document d;
  Record r = make_record(collective, around(seconds), bytes);
  r.suite = "collective";
  r.ranks = ranks;
  d.records.push_back(r);
  return d;
}

Tuning two_winners() {
  Document d;
  for (std::size_t bytes : {4096u, 65536u}) {
    d.records.push_back(
        point("Open MPI", "allreduce", "", 0, bytes, 3, 10e-6 * bytes));
    d.records.push_back(
        point("Open MPI", "allreduce", "ring", 4, bytes, 3, 6e-6 * bytes));
  }
  return tune_listed({d}, defaults());
}

}  // namespace

TEST(Tuning, LaunchesConfirmAWinnerOrSetItAside) {
  Tuning t = two_winners();
  ASSERT_EQ(t.points.size(), 2u);
  ASSERT_EQ(t.points[0].winner, "ring");
  ASSERT_EQ(t.points[1].winner, "ring");
  // Each claim at 97.5%: 10 against 10, P(U <= c) <= 0.0125 cuts at
  // c = 20 (the exact distribution: P(U <= 20) = 2146 / 184756 = 0.0116,
  // P(U <= 21) = 2661 / 184756 = 0.0144), so the 21st smallest ratio: as
  // above, 10/6 times the 6th smallest x/y, 1/1.02 (the 21st to 24th).
  EXPECT_NEAR(t.points[0].claimed, 10.0 / 6 / 1.02, 1e-12);
  // Alone, ring is 1.5x faster at 4 KiB, no faster at 64 KiB. Each launch's
  // level moves (launch to launch noise); the file's launches alternate.
  std::vector<Document> d, f;
  const double noise[] = {1.0, 1.03, 0.98, 1.02, 0.99};
  for (double k : noise) {
    Document dd = launch("allreduce", 4096, 3, 30e-3 * k);
    dd.records.push_back(launch("allreduce", 65536, 3, 0.5 * k).records[0]);
    Document ff = launch("allreduce", 4096, 3, 20e-3 * k);
    ff.records.push_back(launch("allreduce", 65536, 3, 0.5 * k).records[0]);
    d.push_back(dd);
    f.push_back(ff);
  }
  EXPECT_TRUE(mpiarena::is_plain_launch(d[0]));
  mpiarena::confirm(t, d, f, defaults());
  EXPECT_EQ(t.default_launches, 5);
  EXPECT_EQ(t.points[0].winner, "ring");
  EXPECT_NEAR(t.points[0].launch_factor, 1.5, 0.01);
  // The claim is now the launches' lower bound at 1 - 0.05 / 2 (two
  // winners were put to them): above the threshold, below the launches'
  // factor. By hand: each launch's median is its level (30 ms or 20 ms
  // times k), so the 25 ratios are 1.5 k_i / k_j. 5 against 5 with
  // P(U <= c) <= 0.0125 cuts at c = 1 (P(U <= 1) = 2/252, P(U <= 2) =
  // 4/252): the 2nd smallest, 1.5 x 0.98/1.02 (after 0.98/1.03). At 95%
  // (c = 2, the tables' 2 for 5 against 5) the 3rd, 1.5 x 0.99/1.03.
  EXPECT_NEAR(t.points[0].launch_claimed, 1.5 * 0.98 / 1.02, 1e-12);
  EXPECT_LT(t.points[0].launch_claimed, 1.5 * 0.99 / 1.03);
  EXPECT_EQ(t.points[0].claimed, t.points[0].launch_claimed);
  EXPECT_GE(t.points[0].claimed, 1.05);
  EXPECT_LT(t.points[0].claimed, 1.5);
  EXPECT_TRUE(t.points[1].winner.empty());
  EXPECT_EQ(t.points[1].value, 0);
  EXPECT_EQ(t.points[1].candidate, "ring");
  EXPECT_NE(t.points[1].why.find("not confirmed: ring 1.00x"),
            std::string::npos)
      << t.points[1].why;
  // The file written after: the confirmed rule only.
  const std::string rules = mpiarena::openmpi_rules(t);
  EXPECT_NE(rules.find("4096 4 0 0"), std::string::npos) << rules;
  EXPECT_EQ(rules.find("65536 4 0 0"), std::string::npos) << rules;
}

TEST(Tuning, ConfirmingNeedsLaunchesOfBothKindsAtThePoint) {
  Tuning t = two_winners();
  // Two claims that hold together: each at 97.5%, which 4 against 4 can
  // never bound (U = 0 has probability 1/70 > 1.25%).
  std::vector<Document> four(4, launch("allreduce", 4096, 3, 1e-3));
  try {
    mpiarena::confirm(t, four, four, defaults());
    ADD_FAILURE() << "4 + 4 launches accepted for 2 winners";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "a file of 2 winners takes at least 5 launches"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("so that all 2 hold together at 95%"),
              std::string::npos)
        << e.what();
  }
  // Launches of another rank count do not measure the winners' points.
  std::vector<Document> other(5, launch("allreduce", 4096, 2, 1e-3));
  mpiarena::confirm(t, other, other, defaults());
  for (const auto& p : t.points) {
    EXPECT_TRUE(p.winner.empty());
    EXPECT_NE(p.why.find("measured by 0 default and 0 loaded launches"),
              std::string::npos)
        << p.why;
  }
  Document sweep;
  sweep.records.push_back(point("Open MPI", "allreduce", "", 0, 8, 2, 1e-6));
  EXPECT_FALSE(mpiarena::is_plain_launch(sweep));
}

TEST(Tuning, TheClaimIsTheExactIntervalsCut) {
  // The lower critical values of U, two-sided 0.05 (tables of the
  // Mann-Whitney test): 2 for 5 against 5, 8 for 7, 23 for 10; 0 for 4
  // against 4 (P(U = 0) = 1/70) and none for 3 against 3 (1/20).
  EXPECT_EQ(mpiarena::u_lower_critical(5, 5, 0.025), 2);
  EXPECT_EQ(mpiarena::u_lower_critical(7, 7, 0.025), 8);
  EXPECT_EQ(mpiarena::u_lower_critical(10, 10, 0.025), 23);
  EXPECT_EQ(mpiarena::u_lower_critical(4, 4, 0.025), 0);
  EXPECT_EQ(mpiarena::u_lower_critical(3, 5, 0.025), 0);  // 1/56
  EXPECT_EQ(mpiarena::u_lower_critical(3, 3, 0.025), -1);
  EXPECT_EQ(mpiarena::confirm_launches_needed(0.05), 4u);
  EXPECT_EQ(mpiarena::confirm_launches_needed(0.2), 3u);
  // k claims that hold together, each at 0.05 / k: n against n bounds them
  // while 1 / C(2n, n) <= 0.025 / k (5: 1/252, 6: 1/924, 7: 1/3432).
  EXPECT_DOUBLE_EQ(mpiarena::claim_level(0.05, 12), 0.05 / 12);
  EXPECT_DOUBLE_EQ(mpiarena::claim_level(0.05, 0), 0.05);
  const auto needed = [](int k) {
    return mpiarena::confirm_launches_needed(mpiarena::claim_level(0.05, k));
  };
  EXPECT_EQ(needed(1), 4u);
  EXPECT_EQ(needed(2), 5u);
  EXPECT_EQ(needed(6), 5u);
  EXPECT_EQ(needed(7), 6u);
  EXPECT_EQ(needed(23), 6u);
  EXPECT_EQ(needed(24), 7u);
  EXPECT_EQ(needed(85), 7u);
  EXPECT_EQ(needed(86), 8u);
  // 5 against 5: the 3rd smallest of the 25 ratios, not the 4th (the
  // normal approximation's cut, a 2.8% chance below it, not 2.5%). By
  // hand: 20/14 = 1.4286, 21/14 = 1.5, 20/13 = 1.5385, then 22/14 = 1.5714.
  const std::vector<double> d = {20, 21, 22, 23, 24}, f = {10, 11, 12, 13, 14};
  EXPECT_DOUBLE_EQ(mpiarena::ratio_lower_bound(d, f, 0.05), 20.0 / 13);
  // 2 against 2: no bound at 95%.
  EXPECT_EQ(mpiarena::ratio_lower_bound({2, 2.1}, {1, 1.1}, 0.05), 0);
}

namespace {

// Launches of the two points (4096 and 65536 B) at `at4096` and `at65536`
// seconds, with the file of digest `digest` loaded (none: empty).
std::vector<Document> launches(double at4096, double at65536,
                               const std::string& digest) {
  std::vector<Document> out;
  for (double k : {1.0, 1.03, 0.98, 1.02, 0.99}) {
    Document d = launch("allreduce", 4096, 3, at4096 * k);
    d.records.push_back(launch("allreduce", 65536, 3, at65536 * k).records[0]);
    if (!digest.empty())
      d.context.tuning_file =
          mpiarena::TuningFileContext{"v", "f", digest};
    out.push_back(d);
  }
  return out;
}

std::string file_digest(const Tuning& t) {
  return mpiarena::text_digest(mpiarena::tuning_file_text(t));
}

}  // namespace

TEST(Tuning, ASetAsideChangesTheFileSoItsLaunchesConfirmAgain) {
  const TuneOptions o = defaults();
  // Pass 1 (the candidate loaded): ring 1.5x faster at 4 KiB, no faster at
  // 64 KiB, so the file changes: not settled.
  const std::vector<Document> d = launches(30e-3, 0.5, "");
  Tuning t = two_winners();
  const std::string candidate = file_digest(t);
  mpiarena::confirm_pass(t, d, launches(20e-3, 0.5, candidate), o);
  ASSERT_EQ(t.passes.size(), 1u);
  EXPECT_EQ(t.passes[0].digest, candidate);
  EXPECT_EQ(t.passes[0].candidates, 2);
  EXPECT_EQ(t.passes[0].kept, 1);
  EXPECT_FALSE(t.settled);
  EXPECT_NE(
      mpiarena::render_tuning(t, mpiarena::Style::text, o).find("Not settled"),
      std::string::npos);
  // Pass 2: tune on the sweep again, pass 1's decisions put back, and
  // launches of the file they give: ring only 1.2x faster there.
  const nlohmann::json pass1 = mpiarena::tuning_decisions(t, o);
  Tuning t2 = two_winners();
  mpiarena::carry_decisions(t2, pass1);
  EXPECT_EQ(file_digest(t2), file_digest(t));
  EXPECT_NE(file_digest(t2), candidate);
  EXPECT_EQ(t2.points[1].candidate, "ring");
  EXPECT_TRUE(t2.points[1].winner.empty());
  mpiarena::confirm_pass(t2, d, launches(25e-3, 0.5, file_digest(t2)), o);
  ASSERT_EQ(t2.passes.size(), 2u);
  EXPECT_EQ(t2.passes[1].candidates, 1);
  EXPECT_EQ(t2.passes[1].kept, 1);
  EXPECT_TRUE(t2.settled);
  // The claim is pass 2's: below its 1.2x, not pass 1's 1.5x.
  EXPECT_NEAR(t2.points[0].launch_factor, 1.2, 0.01);
  EXPECT_LT(t2.points[0].claimed, 1.2);
  EXPECT_GE(t2.points[0].claimed, 1.05);
  // Pass 3, of the same file: ring 1.8x faster in its launches. The claim
  // stays pass 2's, the smaller: it must hold in every window of launches
  // that measured the winner, not just the luckiest.
  Tuning t4 = two_winners();
  mpiarena::carry_decisions(t4, mpiarena::tuning_decisions(t2, o));
  EXPECT_EQ(t4.points[0].earlier_claim, t2.points[0].claimed);
  mpiarena::confirm_pass(t4, d, launches(30e-3 / 1.8, 0.5, file_digest(t4)), o);
  EXPECT_TRUE(t4.settled);
  EXPECT_GT(t4.points[0].launch_claimed, 1.5);
  EXPECT_EQ(t4.points[0].claimed, t2.points[0].claimed);
  // Decisions of other runs are refused.
  nlohmann::json other = pass1;
  other["points"][0]["winner"]["name"] = "linear";
  Tuning t3 = two_winners();
  EXPECT_THROW(mpiarena::carry_decisions(t3, other), std::invalid_argument);
  other = pass1;
  other["points"].erase(1);
  EXPECT_THROW(mpiarena::carry_decisions(t3, other), std::invalid_argument);
}

TEST(Tuning, TextDigestIsFnv1a) {
  // FNV-1a 64's published values: "" and "a".
  EXPECT_EQ(mpiarena::text_digest(""), "cbf29ce484222325");
  EXPECT_EQ(mpiarena::text_digest("a"), "af63dc4c8601ec8c");
}

// Issue 44: a record whose algorithm its run's context does not list (a
// value of 99, or a name the library has under another value) is refused,
// never written into a file the library would fail to load.
TEST(Tuning, AnAlgorithmTheLibraryDoesNotListIsRefused) {
  Document d;
  d.records.push_back(point("Open MPI", "allreduce", "", 0, 4096, 3, 10e-6));
  d.records.push_back(point("Open MPI", "allreduce", "ring", 4, 4096, 3, 7e-6));
  mpiarena::CollectiveContext allreduce;
  allreduce.variable = "coll_tuned_allreduce_algorithm";
  allreduce.algorithms = {{4, "ring"}};
  d.context.library_algorithms.emplace();
  d.context.library_algorithms->collectives = {allreduce};
  EXPECT_EQ(mpiarena::tune({d}, {}).points.at(0).winner, "ring");
  d.records[1].algorithm.value = 99;
  try {
    mpiarena::tune({d}, {});
    ADD_FAILURE() << "value 99 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ring = 4"), std::string::npos)
        << e.what();
  }
  d.context.library_algorithms.reset();
  d.records[1].algorithm.value = 4;
  EXPECT_THROW(mpiarena::tune({d}, {}), std::invalid_argument);
}
