// The results store in SQLite (store.hpp; the schema is documented in
// docs/formats.md, "The results store").
#include "core/analysis/history/store.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/history/store_sql.hpp"
#include "core/results/dates.hpp"
#include "core/results/digest.hpp"
#include "core/results/mpi_settings.hpp"
#include "core/results/printable.hpp"

namespace mpiarena {

namespace {

// Whether this process may write `path` and its directory (SQLite writes
// its journal there). A file without any write permission counts as
// read-only even for root: whoever made it so did not want it changed.
bool writable(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || (st.st_mode & 0222) == 0 ||
      ::access(path.c_str(), W_OK) != 0)
    return false;
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  return ::stat(dir.c_str(), &st) == 0 && (st.st_mode & 0222) != 0 &&
         ::access(dir.c_str(), W_OK) == 0;
}

std::string machine_of(const Context& context) {
  std::vector<std::string> names = context.hosts;
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out.empty() ? "(unknown)" : out;
}

std::string library_of(const Context& context) {
  return context.mpi_library.empty() ? "(none)" : context.mpi_library;
}

std::string revision_of(const Context& context) {
  return context.build ? context.build->git_revision : "";
}

// The points of run `id` and their samples, each series made when new. A
// point recorded twice keeps its first record, as compare does.
void add_points(sqlite3* db, std::int64_t id, const Document& doc) {
  const Context& c = doc.context;
  Statement find(db, "SELECT id FROM series WHERE name = ?");
  Statement series(db,
                   "INSERT INTO series (name, point, suite, method, "
                   "payload, bytes, size, ranks, machine) VALUES "
                   "(?,?,?,?,?,?,?,?,?)");
  Statement point(db,
                  "INSERT INTO points (run, series, median_s, "
                  "verification, noisy) VALUES (?,?,?,?,?)");
  Statement sample(db,
                   "INSERT INTO samples (run, series, i, "
                   "seconds) VALUES (?,?,?,?)");
  const std::string machine = machine_of(c);
  std::set<std::int64_t> added;
  for (const Record& r : doc.records) {
    const std::string name = series_name(r, c);
    find.reset();
    find.bind(1, name);
    std::int64_t sid = 0;
    if (find.step()) {
      sid = find.integer(0);
    } else {
      series.reset();
      series.bind(1, name)
          .bind(2, match_name(r))
          .bind(3, r.suite)
          .bind(4, r.method)
          .bind(5, r.payload)
          .bind(6, static_cast<std::int64_t>(r.bytes))
          .bind(7, r.size_label)
          .bind(8, static_cast<std::int64_t>(r.ranks))
          .bind(9, machine);
      series.step();
      sid = sqlite3_last_insert_rowid(db);
    }
    if (!added.insert(sid).second) continue;
    point.reset();
    point.bind(1, id)
        .bind(2, sid)
        .bind(3, r.time.median)
        .bind(4, r.verification)
        .bind(5, static_cast<std::int64_t>(r.noise.noisy ? 1 : 0));
    point.step();
    for (std::size_t i = 0; i < r.samples_max.size(); ++i) {
      sample.reset();
      sample.bind(1, id)
          .bind(2, sid)
          .bind(3, static_cast<std::int64_t>(i))
          .bind(4, r.samples_max[i]);
      sample.step();
    }
  }
}

}  // namespace

std::string document_digest(const nlohmann::json& doc) {
  return text_digest(doc.dump());
}

std::string series_name(const Record& r, const Context& context) {
  return match_name(r) + " | " + machine_of(context);
}

std::string settings_key(const Context& context) {
  return settings_digest(context);
}

std::string settings_key_of(const std::string& context_json) {
  try {
    return settings_key(
        nlohmann::json::parse(context_json).get<Context>());
  } catch (const std::exception&) {
    return "";  // a context this runner cannot read records no settings
  }
}

std::vector<StoredSeries> split_by_library(
    const std::vector<StoredSeries>& all) {
  std::vector<StoredSeries> out;
  for (const StoredSeries& s : all) {
    std::vector<StoredSeries> parts;
    for (const SeriesValue& v : s.values) {
      auto it = std::find_if(parts.begin(), parts.end(), [&](const auto& p) {
        return p.library == v.library;
      });
      if (it == parts.end()) {
        StoredSeries p;
        p.id = v.series;
        p.point = s.point;
        p.machine = s.machine;
        p.library = v.library;
        p.name = s.point + " | " + v.library + " | " + s.machine;
        parts.push_back(std::move(p));
        it = parts.end() - 1;
      }
      it->values.push_back(v);
    }
    for (StoredSeries& p : parts) out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

Store::Store(const std::string& path, bool write) : path_(path) {
  const auto open = [&](int flags) {
    sqlite3_close(db_);
    db_ = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      throw StoreError(why);
    }
    // Another process adding holds the lock for one run's transaction:
    // wait for it rather than fail.
    sqlite3_busy_timeout(db_, 60000);
  };
  try {
    open(write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
               : SQLITE_OPEN_READONLY);
    std::int64_t found = 0;
    try {
      found = schema_version(db_);
    } catch (const StoreError&) {
      // A hot journal: an add killed mid-write. Rolling it back restores
      // the runs committed before; a read-only connection cannot.
      if (write || sqlite3_extended_errcode(db_) != SQLITE_READONLY_ROLLBACK)
        throw;
      if (!writable(path))
        throw StoreError(
            "an add was interrupted and left its journal '" + path +
            "-journal', which must be rolled back before the store can be "
            "read; this process cannot write the store or its directory: "
            "run any history command once where it can (the runs committed "
            "before the interruption are kept)");
      open(SQLITE_OPEN_READWRITE);
      found = schema_version(db_);
    }
    if (found > kStoreSchemaVersion)
      throw StoreError("schema version " + std::to_string(found) +
                       " is newer than this runner's (" +
                       std::to_string(kStoreSchemaVersion) + ")");
    if (write && found < kStoreSchemaVersion) make_current(db_);
    schema_ = write ? kStoreSchemaVersion : found;
    if (!write && found == 0)
      throw StoreError(
          table_count(db_) == 0
              ? "not a results store: an empty database ('runner history "
                "add FILE... --db STORE' makes it one)"
              : "holds tables but is not a results store (no schema "
                "version)");
  } catch (const StoreError& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError(path + ": " + e.what());
  }
}

Store::~Store() { sqlite3_close(db_); }

std::int64_t Store::run_of(const nlohmann::json& json) {
  Statement s(db_, "SELECT id FROM runs WHERE digest = ?");
  s.bind(1, document_digest(json));
  if (s.step()) return s.integer(0);
  // A run kept by schema 1 was known by its document made printable.
  nlohmann::json shown = json;
  if (make_printable(shown) == 0) return 0;
  Statement old(db_,
                "SELECT id FROM runs WHERE digest = ? AND "
                "kept_as = 'printable'");
  old.bind(1, document_digest(shown));
  return old.step() ? old.integer(0) : 0;
}

std::int64_t Store::add(const std::string& file, const nlohmann::json& json,
                        const Document& doc) {
  const std::string digest = document_digest(json);
  const Context& c = doc.context;
  Transaction transaction(db_);
  if (const std::int64_t id = run_of(json))
    throw DuplicateRun("the store already holds this run (run #" +
                           std::to_string(id) + ")",
                       id);
  Statement run(db_,
                "INSERT INTO runs (digest, file, added_at, started, "
                "revision, library, machine, ranks, options, context, "
                "document, label, settings) VALUES "
                "(?,?,?,?,?,?,?,?,?,?,?,?,?)");
  run.bind(1, digest)
      .bind(2, file)
      .bind(3, iso_now())
      .bind(4, c.start_time)
      .bind(5, revision_of(c))
      .bind(6, library_of(c))
      .bind(7, machine_of(c))
      .bind(8, static_cast<std::int64_t>(c.ranks))
      .bind(9, nlohmann::json(c.options).dump())
      .bind(10, nlohmann::json(c).dump())
      .bind_blob(11, document_blob(json.dump()))
      .bind(12, c.label.value_or(""))
      .bind(13, settings_key(c));
  run.step();
  const std::int64_t id = sqlite3_last_insert_rowid(db_);
  add_points(db_, id, doc);
  transaction.commit();
  return id;
}

std::vector<StoredRun> Store::runs() {
  // A store of schema 2 or older, read, has no labels.
  const std::string sql =
      "SELECT r.id, r.digest, r.file, r.added_at, r.started, r.revision, "
      "r.library, r.machine, r.ranks, coalesce(c.n, 0), " +
      std::string(schema_ >= 3 ? "r.label" : "''") + ", " +
      std::string(schema_ >= 4 ? "r.settings" : "''") +
      " FROM runs r LEFT JOIN (SELECT run, count(*) AS n FROM points GROUP "
      "BY run) c ON c.run = r.id ORDER BY r.started, r.id";
  Statement s(db_, sql.c_str());
  std::vector<StoredRun> out;
  while (s.step()) {
    StoredRun r;
    r.id = s.integer(0);
    r.digest = s.text(1);
    r.file = s.text(2);
    r.added_at = s.text(3);
    r.started = s.text(4);
    r.revision = s.text(5);
    r.library = s.text(6);
    r.machine = s.text(7);
    r.ranks = static_cast<int>(s.integer(8));
    r.points = static_cast<int>(s.integer(9));
    r.label = s.text(10);
    r.settings = s.text(11);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<StoredSeries> Store::series() {
  // One series per point and machine; a store of schema 3 or older, read
  // as it is, keeps a row per library too: those rows are one series here.
  std::vector<StoredSeries> out;
  std::map<std::pair<std::string, std::string>, std::size_t> place;
  std::map<std::int64_t, std::size_t> of_row;  // series row -> out
  {
    Statement s(db_, "SELECT id, point, machine FROM series ORDER BY id");
    while (s.step()) {
      const auto key = std::make_pair(s.text(1), s.text(2));
      auto it = place.find(key);
      if (it == place.end()) {
        StoredSeries x;
        x.id = s.integer(0);
        x.point = key.first;
        x.machine = key.second;
        x.name = x.point + " | " + x.machine;
        it = place.emplace(key, out.size()).first;
        out.push_back(std::move(x));
      }
      of_row[s.integer(0)] = it->second;
    }
  }
  const std::string sql =
      "SELECT p.series, p.run, p.median_s, p.noisy, r.library, " +
      std::string(schema_ >= 4 ? "r.settings" : "''") +
      " FROM points p JOIN runs r ON r.id = p.run WHERE p.verification <> "
      "'failed' ORDER BY r.started, r.id";
  Statement s(db_, sql.c_str());
  while (s.step()) {
    const auto it = of_row.find(s.integer(0));
    if (it == of_row.end()) continue;
    out[it->second].values.push_back({s.integer(1), s.real(2),
                                      s.integer(3) != 0, s.integer(0),
                                      s.text(4), s.text(5)});
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

std::vector<double> Store::samples(std::int64_t run, std::int64_t series) {
  Statement s(db_,
              "SELECT seconds FROM samples WHERE run = ? AND series = ? "
              "ORDER BY i");
  s.bind(1, run).bind(2, series);
  std::vector<double> out;
  while (s.step()) out.push_back(s.real(0));
  return out;
}

nlohmann::json Store::document(std::int64_t run) {
  Statement s(db_, "SELECT document FROM runs WHERE id = ?");
  s.bind(1, run);
  if (!s.step()) throw StoreError(path_ + ": no run " + std::to_string(run));
  return nlohmann::json::parse(document_text(s.blob(0)));
}

Context Store::context(std::int64_t run) {
  Statement s(db_, "SELECT context FROM runs WHERE id = ?");
  s.bind(1, run);
  if (!s.step()) throw StoreError(path_ + ": no run " + std::to_string(run));
  return nlohmann::json::parse(s.text(0)).get<Context>();
}

}  // namespace mpiarena
