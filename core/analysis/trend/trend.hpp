// A trend across many result documents (`runner trend FILE...`): each
// point's median per run in time order, with the spread of each run's
// samples, and where compare's test (compare.hpp) finds a change against
// the run before. Runs whose contexts differ in what decides a measurement
// (ranks, MPI library, hosts, placement, synchronization) are grouped
// apart, with the reason.
// Nothing here knows any method.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/text/text_format.hpp"
#include "core/results/records.hpp"

namespace mpiarena {

struct TrendRun {
  std::string file;
  std::int64_t store_run = 0;  // the store's run id (trend --db); else 0
  std::string started;  // context start_time; empty when the file has none
  Document doc;
};

// One point in one run.
struct TrendCell {
  bool present = false;
  double median = 0, lo = 0, hi = 0;  // the median, fastest, slowest sample
  // The quartiles of the samples (MAX over ranks): the band a page draws;
  // the median when the record keeps no samples.
  double q1 = 0, q3 = 0;
  bool failed = false;                // verification failed in this run
  bool noisy = false;                 // the run marked the point noisy
  // Against the last earlier run of the group that has the point (none for
  // the first): compare's verdict on the time, the change of the median,
  // the U test's p and compare's note.
  bool compared = false;
  Outcome verdict = Outcome::unchanged;
  double change = 0, p = 1;
  bool state_changed = false;
  // When the verdict comes from another figure than the time (a metric, a
  // phase, a part, or a failed verification): its name ("metric:overlap",
  // "verification"), its change, and `p` is that figure's.
  std::string decided_by;
  double decided_change = 0;
  std::string note;
  int against = -1;  // the run (index into Trend::runs) compared with
  // A change point of the series found at this run (runner history,
  // history.hpp mark_changes): +1 slower from here on, -1 faster, 0 none;
  // and what it was.
  int change_point = 0;
  std::string change_text;
};

struct TrendPoint {
  PointKey key;
  // The point as the results store names it (compare.hpp match_name(),
  // the `point` column of `series`), so a name on a page finds its rows.
  std::string store_name;
  std::vector<TrendCell> cells;  // one per run of the group, in its order
};

// Where the MPI library or its recorded settings change inside a group:
// `at` is the first run after it (an index into TrendGroup::runs), `text`
// what changed ("Open MPI 4.1.4 -> 4.1.6").
struct TrendBoundary {
  int at = 0;
  std::string text;
};

struct TrendGroup {
  std::vector<int> runs;  // indices into Trend::runs, in time order
  std::vector<TrendBoundary> boundaries;  // in run order
  // The context that sets the group apart ("ranks 4, MPI library ...").
  std::string context;
  // Why it is not with the first group; empty for the first.
  std::string why;
  std::vector<TrendPoint> points;  // in point_name order
  int flagged = 0;                 // cells that regressed or improved
};

struct Trend {
  CompareOptions options;
  std::vector<TrendRun> runs;  // in time order (start_time, then as given)
  std::vector<TrendGroup> groups;
};

// The fields of a context that decide whether two runs belong in one
// trend, as (name, value) text: ranks, nodes, hosts, oversubscription,
// the placement of every rank (host, CPUs, bound or not), and with
// `by_library` the MPI library and version first.
std::vector<std::pair<std::string, std::string>> trend_context(
    const Context& c, bool by_library = true);

// Orders the runs by start time (stably: runs without one keep their
// place after those with one), groups them by trend_context() and their
// synchronization (sync_setting(): barrier, or window with its clock and
// window), and compares each point of each run with its previous run in
// the group. Unless `by_library`, runs of another MPI library or other MPI
// settings stay in their group, and each run where they change is one of
// the group's boundaries (boundary.hpp).
Trend compute_trend(std::vector<TrendRun> runs, const CompareOptions& options,
                    bool by_library = false);

// Whether a cell is a change the trend flags: compared, in one machine
// state, improved or regressed.
bool flagged(const TrendCell& c);

// The runs, then per group a block per point: a line per run with the
// median, the spread, the change against the previous run and the verdict.
std::string render_trend(const Trend& t, Style style);
nlohmann::json to_json(const Trend& t);
// A self-contained page (report_html.hpp): per group, a chart per point of
// the median per run with its spread, flagged runs ringed, and the table.
std::string render_trend_html(const Trend& t);

}  // namespace mpiarena
