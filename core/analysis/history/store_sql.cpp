// The store's schema and the compression of the documents it keeps
// (store_sql.hpp).
#include "core/analysis/history/store_sql.hpp"

#include <zlib.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "core/results/text_file.hpp"

namespace mpiarena {

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS runs (
  id       INTEGER PRIMARY KEY,
  digest   TEXT NOT NULL UNIQUE,
  file     TEXT NOT NULL,
  added_at TEXT NOT NULL,
  started  TEXT NOT NULL,
  revision TEXT NOT NULL,
  library  TEXT NOT NULL,
  machine  TEXT NOT NULL,
  ranks    INTEGER NOT NULL,
  options  TEXT NOT NULL,
  context  TEXT NOT NULL,
  document BLOB NOT NULL,
  kept_as  TEXT NOT NULL DEFAULT 'file',
  label    TEXT NOT NULL DEFAULT '',
  settings TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS runs_by_time ON runs (started, id);
CREATE TABLE IF NOT EXISTS series (
  id      INTEGER PRIMARY KEY,
  name    TEXT NOT NULL UNIQUE,
  point   TEXT NOT NULL,
  suite   TEXT NOT NULL,
  method  TEXT NOT NULL,
  payload TEXT NOT NULL,
  bytes   INTEGER NOT NULL,
  size    TEXT NOT NULL,
  ranks   INTEGER NOT NULL,
  machine TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS points (
  run          INTEGER NOT NULL REFERENCES runs (id),
  series       INTEGER NOT NULL REFERENCES series (id),
  median_s     REAL NOT NULL,
  verification TEXT NOT NULL,
  noisy        INTEGER NOT NULL,
  PRIMARY KEY (series, run)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS points_by_run ON points (run);
CREATE TABLE IF NOT EXISTS samples (
  run       INTEGER NOT NULL,
  series    INTEGER NOT NULL,
  i         INTEGER NOT NULL,
  seconds   REAL NOT NULL,
  PRIMARY KEY (run, series, i)
) WITHOUT ROWID;
)sql";

// Schema 1 to 2: the runs kept so far hold their strings made printable.
constexpr const char* kSchema1To2 = R"sql(
ALTER TABLE runs ADD COLUMN kept_as TEXT NOT NULL DEFAULT 'file';
UPDATE runs SET kept_as = 'printable';
)sql";

// The framing of the documents of stores written before they were kept
// as gzip: the text's size (8 bytes, little-endian), then zlib data
// (compress2). Read only: nothing is written so any more.
std::string earlier_framing_text(const std::string& data) {
  if (data.size() < 8) throw StoreError("a stored document is truncated");
  std::uint64_t size = 0;
  for (int i = 0; i < 8; ++i)
    size |= static_cast<std::uint64_t>(static_cast<unsigned char>(data[i]))
            << (8 * i);
  if (size > (std::uint64_t{1} << 32))
    throw StoreError("a stored document claims " + std::to_string(size) +
                     " bytes");
  std::string out(size, '\0');
  uLongf got = size;
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &got,
                 reinterpret_cast<const Bytef*>(data.data() + 8),
                 data.size() - 8) != Z_OK ||
      got != size)
    throw StoreError("a stored document does not decompress");
  return out;
}

// Schema 2 to 3: the runs' labels (runner --label) in a column.
constexpr const char* kSchema2To3 =
    "ALTER TABLE runs ADD COLUMN label TEXT NOT NULL DEFAULT ''";

// The label of each run whose context holds one: a file of a runner that
// had --label, added by a program that kept schema 2.
void fill_labels(sqlite3* db) {
  std::vector<std::pair<std::int64_t, std::string>> found;
  {
    Statement s(db, "SELECT id, context FROM runs");
    while (s.step()) {
      const auto c = nlohmann::json::parse(s.text(1), nullptr, false);
      const auto it = c.is_object() ? c.find("label") : c.end();
      if (it != c.end() && it->is_string() && !it->empty())
        found.emplace_back(s.integer(0), it->get<std::string>());
    }
  }
  Statement set(db, "UPDATE runs SET label = ? WHERE id = ?");
  for (const auto& [id, label] : found) {
    set.reset();
    set.bind(1, label).bind(2, id);
    set.step();
  }
}

// Schema 3 to 4: a series is a point on a machine, whatever the MPI
// library: the series of one point and machine on several libraries become
// one (each run has one library, so their points never collide), and each
// run keeps the digest of its recorded MPI settings.
constexpr const char* kSchema3To4 = R"sql(
CREATE TEMP TABLE merged AS
  SELECT s.id AS old, k.id AS new FROM series s JOIN
    (SELECT min(id) AS id, point, machine FROM series
     GROUP BY point, machine) k
  ON k.point = s.point AND k.machine = s.machine WHERE s.id <> k.id;
UPDATE points SET series =
  (SELECT new FROM merged WHERE old = points.series)
  WHERE series IN (SELECT old FROM merged);
UPDATE samples SET series =
  (SELECT new FROM merged WHERE old = samples.series)
  WHERE series IN (SELECT old FROM merged);
DELETE FROM series WHERE id IN (SELECT old FROM merged);
DROP TABLE merged;
UPDATE series SET name = point || ' | ' || machine;
ALTER TABLE series DROP COLUMN library;
ALTER TABLE runs ADD COLUMN settings TEXT NOT NULL DEFAULT '';
)sql";

// The digest of the MPI settings of each run whose context records them.
void fill_settings(sqlite3* db) {
  std::vector<std::pair<std::int64_t, std::string>> found;
  {
    Statement s(db, "SELECT id, context FROM runs");
    while (s.step()) {
      const std::string key = settings_key_of(s.text(1));
      if (!key.empty()) found.emplace_back(s.integer(0), key);
    }
  }
  Statement set(db, "UPDATE runs SET settings = ? WHERE id = ?");
  for (const auto& [id, key] : found) {
    set.reset();
    set.bind(1, key).bind(2, id);
    set.step();
  }
}

}  // namespace

std::int64_t schema_version(sqlite3* db) {
  // Each statement finished before the next transaction: a read left open
  // would hold its lock, and two processes each holding one while asking
  // to write would deadlock (SQLite then fails at once).
  Statement v(db, "PRAGMA user_version");
  v.step();
  return v.integer(0);
}

std::int64_t table_count(sqlite3* db) {
  Statement t(db, "SELECT count(*) FROM sqlite_master");
  t.step();
  return t.integer(0);
}

void make_current(sqlite3* db) {
  Transaction transaction(db);
  const std::int64_t now = schema_version(db);
  if (now == 0) {
    // A new store, or a file that is not one (SQLite says so here).
    if (table_count(db) != 0)
      throw StoreError(
          "holds tables but is not a results store (no schema version)");
    exec(db, kSchema);
  } else {
    if (now == 1) exec(db, kSchema1To2);
    if (now <= 2) {
      exec(db, kSchema2To3);
      fill_labels(db);
    }
    if (now <= 3) {
      exec(db, kSchema3To4);
      fill_settings(db);
    }
  }
  if (now < kStoreSchemaVersion)
    exec(db, ("PRAGMA user_version = " + std::to_string(kStoreSchemaVersion))
                 .c_str());
  transaction.commit();
}

std::string document_blob(const std::string& text) { return gzip(text); }

std::string document_text(const std::string& blob) {
  std::string gzip_error;
  if (is_gzip(blob)) {
    try {
      return gunzip(blob, max_text_bytes());
    } catch (const TextTooLarge& e) {
      throw StoreError(std::string("a stored document: ") + e.what());
    } catch (const std::invalid_argument& e) {
      gzip_error = e.what();
    }
  }
  // A store written before: its first two bytes are gzip's magic number
  // only when the size is 0x8b1f modulo 65536.
  try {
    return earlier_framing_text(blob);
  } catch (const StoreError&) {
    if (gzip_error.empty()) throw;
    throw StoreError("a stored document is bad gzip data (" + gzip_error +
                     ")");
  }
}

}  // namespace mpiarena
