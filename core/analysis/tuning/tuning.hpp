// runner tune: from the records of runner --algorithms, the
// winning algorithm of the MPI library per collective, communicator size
// and message size, declared only where it beats the library's own choice
// significantly (U test of the samples, Holm over the algorithms of the
// point, and faster by at least the threshold); everywhere else the
// library's choice stays. Written as the file the library itself loads:
// Open MPI's dynamic rules file (coll_tuned_dynamic_rules_filename) or
// MPICH's collective selection JSON
// (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/stats/rank_tests.hpp"
#include "core/analysis/text/text_format.hpp"
#include "core/results/records.hpp"

namespace mpiarena {

struct TuningPoint {
  std::string collective, method, size_label;
  int ranks = 0;
  std::size_t block = 0;   // bytes of the method's count (per rank or whole)
  std::string own_choice;  // the library's own choice as recorded
  double library_s = 0;    // median of the library's own choice
  int compared = 0;        // algorithms measured against it
  // The winner; empty name: the library's choice stays.
  std::string winner;
  int value = 0;
  double winner_s = 0, factor = 1, p = 1;  // p after Holm
  // The margin the file claims: the lower end of the confidence interval
  // of library / winner (ratio_lower_bound of their samples) at
  // 1 - alpha / k for the file's k winners, so that its claims hold
  // together; below `factor`, which the choice of the fastest of several
  // algorithms inflates. Launches replace it (confirm).
  double claimed = 1;
  std::string why;  // why no winner, or why a winner was set aside
  // Confirmed by launches (confirm): the candidate's figures there, its
  // name kept when the launches set it aside.
  bool confirming = false;
  std::string candidate;
  double launch_factor = 1, launch_claimed = 1, launch_p = 1;
  // The claim of the earlier passes that kept this winner (carry_decisions),
  // 0 when none did: a pass claims the smaller of it and its own bound.
  double earlier_claim = 0;
};

// One pass of the confirmation (confirm_pass): the launches that loaded
// one file, and its winners before and after.
struct ConfirmPass {
  std::string digest;  // the file's (text_digest)
  int launches = 0, candidates = 0, kept = 0;
};

struct Tuning {
  std::string library;              // "Open MPI" or "MPICH"
  std::vector<TuningPoint> points;  // by collective, ranks, block
  // MPICH: the selection table the run's library held (the context's
  // library_algorithms.selection_table), the base the winners are written
  // into; null when the runs did not record it.
  std::string library_table, library_table_source;
  // confirm: the launches of the library's default and with the file.
  int default_launches = 0, file_launches = 0;
  // confirm_pass: the passes, and whether the file tune writes is the one
  // the last pass's launches loaded (or claims nothing): only then do its
  // claims come from launches of that very file.
  std::vector<ConfirmPass> passes;
  bool settled = true;
};

struct TuneOptions {
  double alpha = 0.05;
  double threshold = 0.05;  // a winner is at least this much faster
};

// Throws std::invalid_argument when record `r` ran a forced algorithm
// that its run's context (`library_algorithms`) does not list for the
// variable, with that name and value: a tuning file must name only
// algorithms the library has.
void check_listed_algorithm(const Record& r, const Context& context);

// Every point with the library's own choice and at least one forced
// algorithm, over all `docs` (samples of the same point in several files
// are pooled). Throws std::invalid_argument when the documents hold no such
// point, or points of two libraries, or an algorithm its run does not list
// (check_listed_algorithm).
Tuning tune(const std::vector<Document>& docs, const TuneOptions& options);

// Whether `doc` is a launch without --algorithms (none of its records
// forces an algorithm): for tune, a launch that confirms a file.
bool is_plain_launch(const Document& doc);

// The winners of `t` (from tune) put to launches without --algorithms
// (docs/tuning.md, "Confirming a file"): `defaults`, launches of the
// library's default, and `loaded`, launches that loaded the file tune
// wrote from the same runs. Each launch's median of a winner's point (the
// samples of all its sizes for a barrier) is one observation. The file's
// claims hold together (Bonferroni): with k winners put to the launches,
// each is bounded at 1 - alpha / k (claim_level). A winner stays only
// where the lower end of that confidence interval of default / file over
// the launches (ratio_lower_bound) is at least 1 + threshold; the margin
// the file claims is that lower end, or an earlier pass's claim of the
// same winner where that is smaller (a claim must hold in every window of
// launches that measured it). Winners elsewhere go back to the library's
// choice, with the reason. Launches of the sweeps' ranks only count.
// Throws std::invalid_argument when the launches are too few to bound the
// ratio at that level (confirm_launches_needed of each kind at alpha 0.05:
// 4 for one winner, 5 for up to 6, 6 for up to 23, 7 for up to 85, 8 for
// up to 321); a point measured by too few of them is set aside.
void confirm(Tuning& t, const std::vector<Document>& defaults,
             const std::vector<Document>& loaded, const TuneOptions& options);

// The fewest launches of each kind whose ratio the exact interval bounds
// at 1 - alpha (2 against 2 never do at 0.05: U = 0 has probability 1/6).
std::size_t confirm_launches_needed(double alpha);

// The level of each of k claims that must hold together at 1 - alpha
// (Bonferroni): alpha / k, alpha for k < 2.
double claim_level(double alpha, int k);

// How many points of t have a winner.
int winner_count(const Tuning& t);

// One pass of the confirmation (docs/tuning.md, "Confirming a file with
// launches"): confirm, on launches that loaded the file `t` gives
// (tuning_file_text), recorded in t.passes. Setting a winner aside changes
// the file, and with it what else runs in a launch (bench/tuning_context,
// docs/results/tuning_context.md: MPICH's binomial reduce at 4 KiB, 1.97x
// faster than the default with the candidate loaded, 1.72x with the file
// one pass wrote), so a winner's claim holds for the file its launches
// loaded:
// t.settled says whether the file `t` now gives is that file (or claims
// nothing). If not, the next pass: launches of the new file, and tune on
// the sweeps, these decisions (carry_decisions) and those launches.
void confirm_pass(Tuning& t, const std::vector<Document>& defaults,
                  const std::vector<Document>& loaded,
                  const TuneOptions& options);

// Puts the decisions of an earlier pass (tuning_decisions' JSON, from the
// same sweeps) back into `t` (tune's, from the sweeps): the winners it set
// aside, its confirmations' figures and its passes. Throws
// std::invalid_argument when they are not decisions of these sweeps.
void carry_decisions(Tuning& t, const nlohmann::json& previous);

// The decisions as JSON (runner tune --format json; docs/formats.md).
nlohmann::json tuning_decisions(const Tuning& t, const TuneOptions& options);

// The file the library loads: Open MPI's rules or MPICH's selection JSON.
std::string tuning_file_text(const Tuning& t);

// The bytes that key a record's point in tune: a method's count (per rank,
// or the whole buffer under --size-basis total), 0 for a record that moves
// no data.
std::size_t tuning_block(const Record& r);

// The library's message size of a point, as its decision code computes it
// for its dynamic rules or selection table: the whole buffer for allreduce,
// bcast and reduce, the count times the communicator size for the others
// (but MPICH's alltoall: the bytes to each rank), none for a barrier.
std::size_t library_message_size(const std::string& library,
                                 const TuningPoint& p);

// Open MPI's dynamic rules file (text), or throws std::invalid_argument
// when a collective has no id in Open MPI's file format.
std::string openmpi_rules(const Tuning& t);
// MPICH's selection JSON: the library's own table with the winners put in
// front, per communicator size and message size, guarded by what was
// measured (a built-in commutative operation, not in place); gather and
// scatter keep the library's choice (MPICH 4.0 sizes them in elements).
// Throws std::invalid_argument without the library's table.
std::string mpich_selection(const Tuning& t);

// The human-readable table of the decisions.
std::string render_tuning(const Tuning& t, Style style,
                          const TuneOptions& options);

}  // namespace mpiarena
