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

#include "records.hpp"

struct sqlite3;

namespace mpiarena {

// The version of the store's schema (PRAGMA user_version).
inline constexpr int kStoreSchemaVersion = 1;

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One stored run (a row of `runs`).
struct StoredRun {
  std::int64_t id = 0;
  std::string digest, file, added_at, started, revision, library, machine;
  int ranks = 0;
  int points = 0;
};

// One stored point of a series: its run and the median of its samples.
struct SeriesValue {
  std::int64_t run = 0;
  double median = 0;
  bool noisy = false;
};

// A series: one point (compare's match: suite, method with its options,
// payload, size, ranks, pairs) on one MPI library and machine, with its
// values in run order.
struct StoredSeries {
  std::int64_t id = 0;
  std::string name;  // point + " | " + library + " | " + machine
  std::string point, library, machine;
  std::vector<SeriesValue> values;
};

// The digest a run is known by: FNV-1a of the document's JSON in one
// canonical form, so the same document plain, compressed or re-indented
// is the same run.
std::string document_digest(const nlohmann::json& doc);

// The series name of a record of a run with `context`.
std::string series_name(const Record& r, const nlohmann::json& context);

class Store {
 public:
  // Opens the store at `path`; with `create`, makes it when missing.
  // Throws StoreError naming the path and the reason (not a store, a newer
  // schema, unreadable).
  Store(const std::string& path, bool create);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The id of the run with this digest, 0 when none.
  std::int64_t run_with_digest(const std::string& digest);
  // Adds one run in one transaction and returns its id. Throws StoreError
  // (the store unchanged); a run of the same digest added meanwhile by
  // another process is refused so too.
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

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace mpiarena
