// The results store (runner history, docs/formats.md "The results store"):
// runs kept in one SQLite file, each with its context, its points and
// their raw samples, so that change points can be sought over the whole
// history. SQLite's locking makes concurrent adds safe; each run is added
// in one transaction, so a store interrupted mid-write keeps every run
// committed before.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/results/records.hpp"

struct sqlite3;

namespace mpiarena {

// The version of the store's schema (PRAGMA user_version). Version 1 kept
// each document with its strings made printable (printable.hpp); version 2
// keeps the document as the file held it (runs.kept_as says which);
// version 3 keeps each run's label (runner --label) in a column; version 4
// keys a series by the point and the machine alone (the MPI library and
// the recorded MPI settings are attributes of each run) and keeps the
// digest of each run's MPI settings.
inline constexpr int kStoreSchemaVersion = 4;

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// add() refused a run the store holds already: added by another process
// since the caller last looked. `run` is its id.
class DuplicateRun : public StoreError {
 public:
  DuplicateRun(const std::string& what, std::int64_t run)
      : StoreError(what), run(run) {}
  std::int64_t run;
};

// One stored run (a row of `runs`).
struct StoredRun {
  std::int64_t id = 0;
  std::string digest, file, added_at, started, revision, library, machine;
  std::string label;  // runner --label; empty: none
  // The digest of the run's recorded MPI settings (settings_key()); empty
  // when the run recorded none.
  std::string settings;
  int ranks = 0;
  int points = 0;
};

// One stored point of a series: its run, the median of its samples, and
// the run's MPI library and settings digest. `series` is the row of
// `series` that holds it (a store of schema 3 or older, read as it is,
// keeps a row per library).
struct SeriesValue {
  std::int64_t run = 0;
  double median = 0;
  bool noisy = false;
  std::int64_t series = 0;
  std::string library, settings;
};

// A series: one point (compare's match: suite, method with its options,
// payload, size, ranks, pairs) on one machine, whatever the MPI library,
// with its values in run order. `library` is set only when the series was
// split by library (split_by_library()).
struct StoredSeries {
  std::int64_t id = 0;
  std::string name;  // point + " | " + machine
  std::string point, library, machine;
  std::vector<SeriesValue> values;
};

// The series of `all` split where the values' MPI library differs: one
// series per point, library and machine, named point | library | machine
// (what schema 3 and older kept).
std::vector<StoredSeries> split_by_library(
    const std::vector<StoredSeries>& all);

// The key of a context's MPI settings kept with each run (runs.settings):
// mpi_settings.hpp settings_digest(), empty when the run recorded none.
std::string settings_key(const Context& context);

// The digest a run is known by: FNV-1a of the document's JSON in one
// canonical form, so the same document plain, compressed or re-indented
// is the same run. `doc` as the file holds it (its strings as they are).
std::string document_digest(const nlohmann::json& doc);

// The series name of a record of a run with `context`.
std::string series_name(const Record& r, const Context& context);

class Store {
 public:
  // Opens the store at `path`. To read (`write` false) it is opened
  // read-only and must be a store already; to write, a missing or empty
  // file is made a store, and a store of an older schema is brought to the
  // current one (read, it is read as it is). A journal left by an add that
  // was killed is rolled back when the store and its directory can be
  // written, else refused with why. Throws StoreError naming the path and
  // the reason (not a store, a newer schema, unreadable).
  Store(const std::string& path, bool write);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The id of the run of this document (as the file holds it), 0 when
  // none. A run kept by schema 1 is known by its printable form.
  std::int64_t run_of(const nlohmann::json& json);
  // Adds one run in one transaction and returns its id. Throws StoreError
  // (the store unchanged); DuplicateRun when the store holds the run, found
  // inside the transaction, so a run added meanwhile by another process is
  // refused so too. `json` as the file holds it.
  std::int64_t add(const std::string& file, const nlohmann::json& json,
                   const Document& doc);
  // Every run, in time order (start time, then the order added).
  std::vector<StoredRun> runs();
  // Every series with the values of its points whose verification did not
  // fail, in run time order.
  std::vector<StoredSeries> series();
  // The raw samples (MAX over ranks, seconds) of a series in a run.
  std::vector<double> samples(std::int64_t run, std::int64_t series);
  // The document of a run as it was added.
  nlohmann::json document(std::int64_t run);
  // The context of a run as it was added.
  Context context(std::int64_t run);

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  std::int64_t schema_ = 0;  // as opened: a store read keeps its own
};

}  // namespace mpiarena
