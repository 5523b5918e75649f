// write_results: validates first, then writes atomically.
#include <gtest/gtest.h>

#include <boost/filesystem.hpp>
#include <fstream>
#include <iterator>
#include <string>

#include "doc_fixtures.hpp"
#include "records.hpp"
#include "schema.hpp"

namespace fs = boost::filesystem;
using nlohmann::json;

namespace {

class WriteResults : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / fs::unique_path("mpiarena-write-%%%%-%%%%");
    fs::create_directories(dir_);
  }
  void TearDown() override {
    boost::system::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const {
    return (dir_ / name).string();
  }
  std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  static json read(const std::string& p) {
    std::ifstream in(p);
    return json::parse(in);
  }

  fs::path dir_;
};

json valid_doc() { return mpiarena::to_json(mpiarena_test::sample_document()); }

}  // namespace

TEST_F(WriteResults, RefusesAnInvalidDocumentAndCreatesNothing) {
  json doc = valid_doc();
  doc["records"][0]["bytes"] = -1;
  const std::string out = path("results.json");
  try {
    mpiarena::write_results(doc, out);
    FAIL() << "an invalid document was written";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("results.json"), std::string::npos) << what;
    EXPECT_NE(what.find("bytes"), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out + ".tmp"));
  EXPECT_EQ(entries(), 0u);
}

TEST_F(WriteResults, InvalidDocumentLeavesAnExistingFileAlone) {
  const std::string out = path("results.json");
  mpiarena::write_results(valid_doc(), out);
  json bad = valid_doc();
  bad.erase("records");
  EXPECT_THROW(mpiarena::write_results(bad, out), std::runtime_error);
  EXPECT_EQ(read(out), valid_doc());
}

TEST_F(WriteResults, WritesAValidDocumentThatParsesBackEqual) {
  const std::string out = path("results.json");
  const json doc = valid_doc();
  mpiarena::write_results(doc, out);
  ASSERT_TRUE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out + ".tmp"));
  EXPECT_EQ(entries(), 1u);  // nothing but the result file
  const json back = read(out);
  EXPECT_EQ(back, doc);
  EXPECT_EQ(mpiarena::to_json(mpiarena::document_from_json(back)), doc);
}

TEST_F(WriteResults, ReplacesAnEarlierFileWhole) {
  const std::string out = path("results.json");
  {
    // A longer earlier file: the new one must not keep its tail.
    std::ofstream old(out);
    old << std::string(1 << 20, ' ') << "{}";
  }
  mpiarena::Document partial;
  partial.context = mpiarena_test::sample_context();
  mpiarena::write_results(mpiarena::to_json(partial), out);
  EXPECT_EQ(read(out), mpiarena::to_json(partial));
  mpiarena::write_results(valid_doc(), out);
  EXPECT_EQ(read(out), valid_doc());
  EXPECT_FALSE(fs::exists(out + ".tmp"));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(WriteResults, UnwritablePlaceThrows) {
  const std::string out = path("no-such-dir/results.json");
  EXPECT_THROW(mpiarena::write_results(valid_doc(), out), std::runtime_error);
  EXPECT_FALSE(fs::exists(out));
}
