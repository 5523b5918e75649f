// Change points over the store's history (runner history changes): per
// series (a point on one MPI library and machine), the runs in time order,
// each by its median; change_points() (stats/change_points.hpp) finds where
// the level moved; the U test of the raw samples of the runs on either side
// confirms each, and a change smaller than the threshold is not reported.
// Nothing here knows any method.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/history/store.hpp"
#include "core/analysis/text/text_format.hpp"
#include "core/analysis/trend/trend.hpp"

namespace mpiarena {

struct HistoryOptions {
  // The chance that a flat series reports a change (change_points.hpp);
  // the U test that confirms a change is held to the same level.
  double alpha = 0.05;
  // The smallest change of the median (factor - 1) that is reported.
  double threshold = 0.05;
  int min_segment = 3;   // runs on each side of a change, at least
  int confirm_runs = 5;  // runs a side whose raw samples the U test pools
  // A series per MPI library (runner history changes --by-library); by
  // default a series spans the libraries and a change at a run whose
  // library or MPI settings differ from the run before is marked so.
  bool by_library = false;
};

struct SeriesChange {
  std::int64_t series = 0;
  std::string name, point, machine;
  std::string library;   // of the first run after the change
  std::int64_t run = 0;  // the first run after the change
  // What changed at that run from the run before it, when the change falls
  // at such a boundary: "Open MPI v4.1.4 -> v4.1.6", "MPI settings: ...";
  // empty otherwise.
  std::string boundary;
  std::string started, revision, label;
  int index = 0;  // its place in the series (0: the first run)
  int runs_before = 0, runs_after = 0;  // of the segments either side
  double before = 0, after = 0;  // median of the run medians of each side
  double factor = 1;             // after / before (> 1: slower)
  double p = 1;           // the U test of the raw samples (confirm_runs a side)
  double split_p = 1;     // Welch's test of the run medians of the segments
  double level = 0;       // what both p-values were held to
  bool u_slower = false;  // the U test's direction: the later runs slower
};

struct History {
  HistoryOptions options;
  std::vector<StoredRun> runs;
  int series = 0;
  int short_series = 0;               // with fewer than 2 * min_segment runs
  std::vector<SeriesChange> changes;  // by series, then run
  // Splits found in the medians that the raw samples or the threshold did
  // not confirm.
  int unconfirmed = 0;
};

History find_changes(Store& store, const HistoryOptions& options);

// The changes at runs after `since`: a run id ("#12" or "12": added after
// that run), a revision (a prefix of 7 or more hex digits: after the last
// run of that revision) or a date (YYYY-MM-DD[Thh:mm[:ss]Z]: started at or
// after it). A change at the run named itself is included when it falls
// at a boundary (SeriesChange::boundary). Empty: every change. Throws std::invalid_argument naming what
// `since` may be.
std::vector<SeriesChange> changes_since(const History& h,
                                        const std::string& since);

// `text` as a column of `width` shows it: its first line, made printable
// (printable.hpp), cut between characters, never inside an escape.
std::string column_text(const std::string& text, std::size_t width);

// The store keeps the strings of a document as the file held them; these
// show them made printable (printable.hpp).
std::string render_history(const History& h,
                           const std::vector<SeriesChange>& shown, Style style);
nlohmann::json to_json(const History& h,
                       const std::vector<SeriesChange>& shown);
std::string render_runs(const std::vector<StoredRun>& runs, Style style);
// history list --format json: one object per run, in time order.
nlohmann::json runs_json(const std::vector<StoredRun>& runs);

// Marks each change on its series in a trend of the store's runs (each
// TrendRun's file "run N", N its id, its document made printable): the cell
// of the first run after it.
void mark_changes(Trend& t, const History& h);

}  // namespace mpiarena
