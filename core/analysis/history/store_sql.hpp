// Internal to the store (store.cpp): SQLite's C interface as a prepared
// statement that finalizes itself and statements run whole, the schema,
// the write transaction, and the compression of the documents kept.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>

#include "core/analysis/history/store.hpp"

namespace mpiarena {

// A prepared statement, finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK)
      throw StoreError(sqlite3_errmsg(db));
  }
  ~Statement() { sqlite3_finalize(s_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()),
                      SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int i, std::int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Statement& bind(int i, double v) {
    sqlite3_bind_double(s_, i, v);
    return *this;
  }
  Statement& bind_blob(int i, const std::string& v) {
    sqlite3_bind_blob(s_, i, v.data(), static_cast<int>(v.size()),
                      SQLITE_TRANSIENT);
    return *this;
  }
  // True while a row is there; throws on an error.
  bool step() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw StoreError(sqlite3_errmsg(db_));
  }
  void reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  std::int64_t integer(int c) { return sqlite3_column_int64(s_, c); }
  double real(int c) { return sqlite3_column_double(s_, c); }
  std::string text(int c) {
    const auto* t = sqlite3_column_text(s_, c);
    return t ? std::string(reinterpret_cast<const char*>(t),
                           sqlite3_column_bytes(s_, c))
             : std::string();
  }
  std::string blob(int c) {
    const void* b = sqlite3_column_blob(s_, c);
    return b ? std::string(static_cast<const char*>(b),
                           sqlite3_column_bytes(s_, c))
             : std::string();
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

// Runs `sql` (one statement or several); throws StoreError with
// SQLite's message.
inline void exec(sqlite3* db, const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string what = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    throw StoreError(what);
  }
}

// A write transaction (BEGIN IMMEDIATE): commit() makes it last; leaving
// the scope without it (an exception, an early return) rolls it back. A
// commit that fails throws, and the transaction is then rolled back too.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) { exec(db, "BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (db_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    exec(db_, "COMMIT");
    db_ = nullptr;
  }

 private:
  sqlite3* db_;
};

// PRAGMA user_version, and the number of tables and indexes.
std::int64_t schema_version(sqlite3* db);
std::int64_t table_count(sqlite3* db);
// Brings the store of `db` to kStoreSchemaVersion in one transaction: a new
// (empty) one gets the tables, one of schema 1 its upgrade. Throws
// StoreError for a file that holds tables but no schema version.
void make_current(sqlite3* db);

// settings_key() of a context kept as JSON text; empty when the text is
// not a context this runner reads.
std::string settings_key_of(const std::string& context_json);

// The document as the store keeps it: one gzip member (text_file.hpp's
// gzip()), what `gzip -d` reads too.
std::string document_blob(const std::string& text);
// The text of a stored document: gzip data, or the framing of stores
// written before it (the text's size in 8 bytes, little-endian, then zlib
// data). Throws StoreError when it is neither.
std::string document_text(const std::string& blob);

}  // namespace mpiarena
