// write_results and ResultFile (output.hpp): validate first, write
// atomically through a unique temporary file, never leave one behind, write
// through symbolic links but never onto a non-regular file, report the
// system's reason, lock the output against a second run.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/filesystem.hpp>
#include <csignal>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "core/analysis/report/summary.hpp"
#include "core/results/output.hpp"
#include "core/results/records.hpp"
#include "core/results/schema.hpp"
#include "core/results/text_file.hpp"
#include "doc_fixtures.hpp"

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
  static std::string text(const std::string& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Names in the directory, sorted.
  std::string listing() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_))
      names.insert(e.path().filename().string());
    std::string out;
    for (const std::string& n : names) out += n + " ";
    return out;
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

TEST_F(WriteResults, WritesThroughASymlinkAndKeepsIt) {
  const std::string target = path("real.json"), link = path("link.json");
  {
    std::ofstream old(target);
    old << "old";
  }
  fs::create_symlink("real.json", link);  // relative, as ln -s makes it
  mpiarena::write_results(valid_doc(), link);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::read_symlink(link).string(), "real.json");
  EXPECT_EQ(read(target), valid_doc());
  EXPECT_EQ(listing(), "link.json real.json ");
}

TEST_F(WriteResults, WritesThroughADanglingSymlinkInAnExistingDirectory) {
  const std::string link = path("link.json");
  fs::create_directories(dir_ / "sub");
  fs::create_symlink(dir_ / "sub" / "new.json", link);
  mpiarena::write_results(valid_doc(), link);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(path("sub/new.json")), valid_doc());
}

TEST_F(WriteResults, RefusesNonRegularFilesAndLeavesThemAlone) {
  fs::create_directories(dir_ / "adir");
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  fs::create_symlink("/dev/null", path("to-null"));
  fs::create_symlink("adir", path("to-dir"));
  fs::create_symlink("loop2", path("loop1"));
  fs::create_symlink("loop1", path("loop2"));
  const std::pair<std::string, std::string> cases[] = {
      {"adir", "it is a directory"},
      {"fifo", "it is a named pipe"},
      {"to-null",
       "'/dev/null', where its symbolic link points, is a "
       "character device"},
      {"to-dir", "is a directory"},
      {"loop1", "too many levels of symbolic links"},
      {"adir/", "it is a directory"}};
  for (const auto& [name, why] : cases) {
    std::string target, error;
    EXPECT_FALSE(mpiarena::resolve_output(path(name), target, error)) << name;
    EXPECT_NE(error.find(why), std::string::npos) << name << ": " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    if (why.find("levels") == std::string::npos) {
      EXPECT_NE(error.find("-o takes a regular file"), std::string::npos)
          << error;
    }
    EXPECT_THROW(mpiarena::write_results(valid_doc(), path(name)),
                 std::runtime_error)
        << name;
    mpiarena::ResultFile file;
    EXPECT_NE(file.open(path(name)), "") << name;
  }
  struct stat st;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_TRUE(fs::is_directory(path("adir")));
  EXPECT_TRUE(fs::is_empty(path("adir")));
  ASSERT_EQ(::lstat(path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(listing(), "adir fifo loop1 loop2 to-dir to-null ");
}

TEST_F(WriteResults, AMissingDirectoryIsNamed) {
  std::string target, error;
  EXPECT_FALSE(mpiarena::resolve_output(path("none/r.json"), target, error));
  EXPECT_NE(error.find("directory '" + path("none") + "' does not exist"),
            std::string::npos)
      << error;
  std::ofstream(path("file")) << "x";
  EXPECT_FALSE(mpiarena::resolve_output(path("file/r.json"), target, error));
  EXPECT_EQ(error, "cannot write the output file '" + path("file/r.json") +
                       "': Not a directory");
}

namespace {

// Limits the size of the files this process writes (ulimit -f) while alive;
// a write past it fails with EFBIG ("File too large"), as on a full disk.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit saved_;
  void (*old_handler_)(int);
};

}  // namespace

TEST_F(WriteResults, AFailedWriteGivesTheReasonKeepsTheFileAndNoTemporary) {
  const std::string out = path("results.json");
  mpiarena::Document small;
  small.context = mpiarena_test::sample_context();
  mpiarena::write_results(mpiarena::to_json(small), out);
  const std::string before = text(out);
  {
    FileSizeLimit limit(before.size() + 10);
    try {
      mpiarena::write_results(valid_doc(), out);
      FAIL() << "a write past the file size limit succeeded";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("File too large"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(text(out), before);
  EXPECT_EQ(listing(), "results.json ");
}

// ResultFile: the runner's writer.

class ResultFileTest : public WriteResults {
 protected:
  static mpiarena::Document growing(std::size_t records, std::size_t skips) {
    mpiarena::Document d;
    d.context = mpiarena_test::sample_context();
    // What the writer looks for in its skeleton, inside a string.
    d.context.command_line = {"runner", "-o", "x\n \"records\": []"};
    for (std::size_t i = 0; i < records; ++i)
      d.records.push_back(mpiarena_test::make_record(
          "m" + std::to_string(i), {1e-6, 2e-6, 1.5e-6}, 100 + i));
    for (std::size_t i = 0; i < skips; ++i)
      d.skipped.push_back(mpiarena_test::make_skip("s", "why \"quoted\"\n"));
    return d;
  }
};

TEST_F(ResultFileTest, EveryWriteIsTheDocumentAsDumpWouldWriteIt) {
  const std::string out = path("r.json");
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  // Empty arrays, records only, both, then the final document.
  const std::pair<std::size_t, std::size_t> steps[] = {
      {0, 0}, {1, 0}, {3, 0}, {3, 1}, {4, 2}};
  for (const auto& [r, s] : steps) {
    const mpiarena::Document d = growing(r, s);
    ASSERT_EQ(file.write(d), "");
    EXPECT_EQ(text(out), mpiarena::to_json(d).dump(1) + "\n") << r << s;
    EXPECT_TRUE(mpiarena::validate_results(read(out)).empty());
    EXPECT_EQ(file.records_written(), r);
  }
  mpiarena::Document done = mpiarena_test::sample_document();
  done.complete = true;
  done.summary = mpiarena::compute_summary(done);
  ASSERT_FALSE(done.summary.is_null());
  ASSERT_EQ(file.write(done, /*final=*/true), "");
  EXPECT_EQ(text(out), mpiarena::to_json(done).dump(1) + "\n");
  EXPECT_EQ(listing(), "r.json r.json.lock ");
}

TEST_F(ResultFileTest, AnInvalidRecordIsRefusedAndTheLastGoodFileKept) {
  const std::string out = path("r.json");
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  mpiarena::Document d = growing(2, 0);
  ASSERT_EQ(file.write(d), "");
  const std::string good = text(out);
  d.records.push_back(mpiarena_test::make_record("x", {1e-6}));
  d.records.back().suite = "";  // minLength 1
  d.records.push_back(mpiarena_test::make_record("y", {1e-6}));
  const std::string error = file.write(d);
  EXPECT_NE(error.find("refusing to write"), std::string::npos) << error;
  EXPECT_NE(error.find("<root>[records][2][suite]"), std::string::npos)
      << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_EQ(text(out), good);
  EXPECT_NE(file.write(d), "");  // still refused: it stays invalid
  EXPECT_EQ(file.records_written(), 2u);
  d.context.hosts.clear();  // the schema wants one at least
  d.records.pop_back();
  d.records.pop_back();
  const std::string context_error = file.write(d);
  EXPECT_NE(context_error.find("hosts"), std::string::npos) << context_error;
  EXPECT_EQ(text(out), good);
  EXPECT_EQ(listing(), "r.json r.json.lock ");
}

TEST_F(ResultFileTest, AFailedRenameKeepsMeasuringAndTheNextWriteRecovers) {
  const std::string out = path("r.json");
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  ASSERT_EQ(file.write(growing(1, 0)), "");
  // The target turns into a non-empty directory: rename(2) fails.
  fs::remove(out);
  fs::create_directories(out + "/inside");
  const std::string error = file.write(growing(2, 0));
  EXPECT_NE(error.find("cannot rename"), std::string::npos) << error;
  EXPECT_NE(error.find("Is a directory"), std::string::npos) << error;
  EXPECT_EQ(listing(), "r.json r.json.lock ");  // no temporary file left
  fs::remove_all(out);
  ASSERT_EQ(file.write(growing(3, 1)), "");
  EXPECT_EQ(read(out), mpiarena::to_json(growing(3, 1)));
  EXPECT_EQ(file.records_written(), 3u);
}

TEST_F(ResultFileTest, AFullDiskFailsTheWriteWithTheReason) {
  const std::string out = path("r.json");
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  ASSERT_EQ(file.write(growing(1, 0)), "");
  const std::string good = text(out);
  {
    FileSizeLimit limit(good.size() + 100);
    const std::string error = file.write(growing(5, 0));
    EXPECT_NE(error.find("File too large"), std::string::npos) << error;
    EXPECT_NE(error.find("cannot write the output file '" + out + "'"),
              std::string::npos)
        << error;
    EXPECT_EQ(text(out), good);
    EXPECT_EQ(listing(), "r.json r.json.lock ");
  }
  ASSERT_EQ(file.write(growing(5, 0), /*final=*/true), "");
  EXPECT_EQ(read(out), mpiarena::to_json(growing(5, 0)));
}

TEST_F(ResultFileTest, OpenChecksThatTheDiskTakesAFile) {
  mpiarena::ResultFile file;
  FileSizeLimit limit(1000);  // less than the probe's 4 KiB
  const std::string error = file.open(path("r.json"));
  EXPECT_NE(error.find("File too large"), std::string::npos) << error;
  EXPECT_EQ(listing(), "");  // neither the probe nor the lock file is left
}

TEST_F(ResultFileTest, ASecondRunOnTheSameTargetIsToldWhoHoldsIt) {
  const std::string out = path("r.json");
  fs::create_symlink("r.json", path("alias.json"));
  auto first = std::make_unique<mpiarena::ResultFile>();
  ASSERT_EQ(first->open(out), "");
  ASSERT_EQ(first->write(growing(1, 0)), "");
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  const std::string holder =
      "pid " + std::to_string(::getpid()) + " on host " + host;
  for (const std::string& name : {out, path("alias.json")}) {
    mpiarena::ResultFile second;
    const std::string error = second.open(name);
    EXPECT_NE(error.find("is in use by another run (" + holder),
              std::string::npos)
        << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  EXPECT_EQ(read(out), mpiarena::to_json(growing(1, 0)));
  first.reset();  // the run ends: the lock and its file go
  EXPECT_EQ(listing(), "alias.json r.json ");
  mpiarena::ResultFile third;
  EXPECT_EQ(third.open(path("alias.json")), "");
  EXPECT_EQ(third.target(), out);
}

TEST_F(ResultFileTest, OpenRemovesTheTemporariesOfAKilledRunOnly) {
  const std::string out = path("r.json");
  for (const char* name :
       {"r.json.tmp.AbC123", "r.json.tmp.zzzzzz", "r.json.tmp",
        "r.json.tmp.toolong", "q.json.tmp.AbC123"})
    std::ofstream(path(name)) << "{";
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  EXPECT_EQ(listing(),
            "q.json.tmp.AbC123 r.json.lock r.json.tmp r.json.tmp.toolong ");
}

TEST_F(ResultFileTest, TheFileIsCreatedReadableAsWithAPlainOpen) {
  const std::string out = path("r.json");
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  ASSERT_EQ(file.write(growing(0, 0)), "");
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat st;
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

// The writer validates the document without its records and skips, then
// each new item against its definition. That is the whole validation only
// while the schema puts no constraint on the arrays themselves.
TEST(ResultSchema, RecordsAndSkipsAreConstrainedOnlyItemByItem) {
  const json& props = mpiarena::results_schema().at("properties");
  EXPECT_EQ(
      props.at("records"),
      json({{"type", "array"}, {"items", {{"$ref", "#/definitions/record"}}}}));
  EXPECT_EQ(
      props.at("skipped"),
      json({{"type", "array"}, {"items", {{"$ref", "#/definitions/skip"}}}}));
  EXPECT_FALSE(mpiarena::results_schema().contains("allOf"));
  EXPECT_FALSE(mpiarena::results_schema().contains("dependencies"));
}

TEST(ResultSchema, ADefinitionValidatesOneItem) {
  const mpiarena::Document d = mpiarena_test::sample_document();
  EXPECT_TRUE(
      mpiarena::validate_definition(mpiarena::to_json(d.records[0]), "record")
          .empty());
  EXPECT_TRUE(
      mpiarena::validate_definition(mpiarena::to_json(d.skipped[0]), "skip")
          .empty());
  json bad = mpiarena::to_json(d.records[0]);
  bad["time_s"]["median"] = -1;
  const auto errors = mpiarena::validate_definition(bad, "record");
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.front().find("median"), std::string::npos) << errors.front();
  EXPECT_FALSE(
      mpiarena::validate_definition(mpiarena::to_json(d.skipped[0]), "record")
          .empty());
  EXPECT_THROW(mpiarena::validate_definition(json::object(), "nothing"),
               std::invalid_argument);
}

TEST_F(ResultFileTest, LaterWritesUpdateTheSpareInPlace) {
  const std::string out = path("r.json");
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  for (std::size_t n = 0; n < 6; ++n) {
    ASSERT_EQ(file.write(growing(n, n / 2)), "");
    EXPECT_EQ(text(out), mpiarena::to_json(growing(n, n / 2)).dump(1) + "\n");
  }
  // The first write creates the file, the second its spare; later ones
  // bring the spare up to date and swap it with the target.
  EXPECT_EQ(file.whole_writes(), 2u);
  const std::string names = listing();
  EXPECT_EQ(names.rfind("r.json r.json.lock r.json.tmp.", 0), 0u) << names;
  EXPECT_EQ(names.size(),
            std::string("r.json r.json.lock r.json.tmp.").size() + 7)
      << names;
  ASSERT_EQ(file.write(growing(6, 3), /*final=*/true), "");
  EXPECT_EQ(listing(), "r.json r.json.lock ");  // the spare is gone
  EXPECT_EQ(text(out), mpiarena::to_json(growing(6, 3)).dump(1) + "\n");
}

// A target named *.gz holds gzip data at every write: the same document,
// as members one after the other; later writes still update the spare in
// place; the final write packs the records into one member again.
TEST_F(ResultFileTest, ATargetNamedGzHoldsGzipDataAtEveryWrite) {
  const std::string out = path("r.json.gz");
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  for (std::size_t n = 0; n < 6; ++n) {
    ASSERT_EQ(file.write(growing(n, n / 2)), "");
    const std::string bytes = text(out);
    ASSERT_TRUE(mpiarena::is_gzip(bytes)) << n;
    EXPECT_EQ(mpiarena::gunzip(bytes),
              mpiarena::to_json(growing(n, n / 2)).dump(1) + "\n")
        << n;
  }
  EXPECT_EQ(file.whole_writes(), 2u);
  const std::size_t growing_size = text(out).size();
  ASSERT_EQ(file.write(growing(6, 3), /*final=*/true), "");
  EXPECT_EQ(listing(), "r.json.gz r.json.gz.lock ");
  const std::string bytes = text(out);
  EXPECT_EQ(mpiarena::gunzip(bytes),
            mpiarena::to_json(growing(6, 3)).dump(1) + "\n");
  // Head, records, rest: three members (each starts 1f 8b 08).
  std::size_t members = 0;
  for (std::size_t at = bytes.find("\x1f\x8b\x08"); at != std::string::npos;
       at = bytes.find("\x1f\x8b\x08", at + 1))
    ++members;
  EXPECT_LE(members, 3u);
  EXPECT_LT(bytes.size(), growing_size + 200);
}

TEST_F(ResultFileTest, AReaderOfAnOldVersionKeepsItWhole) {
  const std::string out = path("r.json");
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  for (std::size_t n = 0; n < 3; ++n) ASSERT_EQ(file.write(growing(n, 0)), "");
  // A reader opens version 2 and keeps it open while two more points are
  // written: the second of them would update version 2's file in place.
  std::ifstream reader(out);
  ASSERT_TRUE(reader.good());
  const std::size_t whole = file.whole_writes();
  ASSERT_EQ(file.write(growing(3, 0)), "");
  ASSERT_EQ(file.write(growing(4, 1)), "");
  EXPECT_EQ(file.whole_writes(), whole + 1);  // written anew instead
  std::stringstream seen;
  seen << reader.rdbuf();
  EXPECT_EQ(seen.str(), mpiarena::to_json(growing(2, 0)).dump(1) + "\n");
  EXPECT_EQ(read(out), mpiarena::to_json(growing(4, 1)));
}

TEST_F(ResultFileTest, NeverSwapsWithWhatReplacedTheTarget) {
  const std::string out = path("r.json");
  mpiarena::ResultFile file;
  ASSERT_EQ(file.open(out), "");
  for (std::size_t n = 0; n < 3; ++n) ASSERT_EQ(file.write(growing(n, 0)), "");
  // A directory in its place: the write fails, the directory stays.
  fs::remove(out);
  fs::create_directories(out + "/keep");
  const std::string error = file.write(growing(3, 0));
  EXPECT_NE(error.find("Is a directory"), std::string::npos) << error;
  EXPECT_TRUE(fs::is_directory(out + "/keep"));
  EXPECT_EQ(listing(), "r.json r.json.lock ");
  fs::remove_all(out);
  // Someone else's file in its place: replaced whole, never kept as spare.
  std::ofstream(out) << "theirs";
  ASSERT_EQ(file.write(growing(4, 0)), "");
  EXPECT_EQ(read(out), mpiarena::to_json(growing(4, 0)));
  ASSERT_EQ(file.write(growing(5, 0)), "");
  ASSERT_EQ(file.write(growing(6, 0)), "");
  EXPECT_EQ(read(out), mpiarena::to_json(growing(6, 0)));
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_NE(text(e.path().string()), "theirs") << e.path();
}
