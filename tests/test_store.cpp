// The results store's parts (store_sql.hpp): the write transaction rolls
// back on an exception and lasts only when committed; documents are kept
// as gzip, and a document in the framing of stores written before (its
// size in 8 bytes, then zlib data) still reads, in a store file too.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "core/analysis/history/store.hpp"
#include "core/analysis/history/store_sql.hpp"
#include "core/results/records.hpp"
#include "core/results/text_file.hpp"
#include "doc_fixtures.hpp"

namespace {

using mpiarena::Statement;
using mpiarena::Transaction;

// An in-memory database with one table of integers.
struct Memory {
  sqlite3* db = nullptr;
  Memory() {
    sqlite3_open(":memory:", &db);
    mpiarena::exec(db, "CREATE TABLE t (v INTEGER)");
  }
  ~Memory() { sqlite3_close(db); }
  std::int64_t rows() {
    Statement s(db, "SELECT count(*) FROM t");
    s.step();
    return s.integer(0);
  }
};

// `text` as stores written before kept it.
std::string earlier_framing(const std::string& text) {
  uLongf size = compressBound(text.size());
  std::string out(8 + size, '\0');
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<char>(
        (static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xff);
  compress2(reinterpret_cast<Bytef*>(&out[8]), &size,
            reinterpret_cast<const Bytef*>(text.data()), text.size(), 6);
  out.resize(8 + size);
  return out;
}

TEST(StoreTransaction, AnExceptionRollsBack) {
  Memory m;
  try {
    Transaction t(m.db);
    mpiarena::exec(m.db, "INSERT INTO t VALUES (1)");
    EXPECT_EQ(m.rows(), 1);  // seen inside the transaction
    throw std::runtime_error("a failure mid-add");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(m.rows(), 0);
  // Leaving the scope without commit() rolls back as well.
  {
    Transaction t(m.db);
    mpiarena::exec(m.db, "INSERT INTO t VALUES (2)");
  }
  EXPECT_EQ(m.rows(), 0);
  EXPECT_TRUE(sqlite3_get_autocommit(m.db)) << "a transaction left open";
}

TEST(StoreTransaction, CommitMakesItLast) {
  Memory m;
  {
    Transaction t(m.db);
    mpiarena::exec(m.db, "INSERT INTO t VALUES (1)");
    t.commit();
  }
  EXPECT_EQ(m.rows(), 1);
  EXPECT_TRUE(sqlite3_get_autocommit(m.db));
}

TEST(StoreBlob, GzipWrittenBothFramingsRead) {
  const std::string text = R"({"records": [], "context": {"a": 1}})";
  const std::string blob = mpiarena::document_blob(text);
  EXPECT_TRUE(mpiarena::is_gzip(blob));
  EXPECT_EQ(mpiarena::gunzip(blob), text);  // what gzip -d reads
  EXPECT_EQ(mpiarena::document_text(blob), text);
  EXPECT_EQ(mpiarena::document_text(earlier_framing(text)), text);
  EXPECT_THROW(mpiarena::document_text("not a document"),
               mpiarena::StoreError);
  std::string cut = blob.substr(0, blob.size() / 2);
  EXPECT_THROW(mpiarena::document_text(cut), mpiarena::StoreError);
}

// A size of 0x8b1f begins with gzip's magic number in the earlier framing:
// it is read all the same.
TEST(StoreBlob, EarlierFramingThatLooksLikeGzip) {
  const std::string text(0x8b1f, 'x');
  const std::string old = earlier_framing(text);
  ASSERT_TRUE(mpiarena::is_gzip(old));
  EXPECT_EQ(mpiarena::document_text(old), text);
}

TEST(StoreBlob, AStoreWrittenBeforeStillReads) {
  char dir[] = "/tmp/mpiarena_store_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/store.db";
  const mpiarena::Document doc = mpiarena_test::sample_document();
  const nlohmann::json json = mpiarena::to_json(doc);
  std::int64_t id = 0;
  {
    mpiarena::Store store(path, true);
    id = store.add("a.json", json, doc);
  }
  {
    // The document as a store written before kept it.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    {
      Statement s(db, "UPDATE runs SET document = ? WHERE id = ?");
      s.bind_blob(1, earlier_framing(json.dump())).bind(2, id);
      s.step();
      Statement check(db, "SELECT substr(document, 9, 1) FROM runs");
      EXPECT_TRUE(check.step());
      EXPECT_EQ(check.blob(0), "\x78");  // zlib data after the 8 bytes
    }
    sqlite3_close(db);
  }
  {
    mpiarena::Store store(path, false);
    EXPECT_EQ(store.document(id), json);
    EXPECT_EQ(store.runs().size(), 1u);
  }
  std::remove(path.c_str());
  rmdir(dir);
}

}  // namespace
