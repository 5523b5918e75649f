// The plugin registry against real libraries built by tests/CMakeLists.txt
// into TEST_PLUGIN_DIR (and TEST_BAD_PLUGIN_DIR). Loading a library and
// calling its factory makes no MPI call, so no MPI_Init here.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/filesystem.hpp>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/engine/registry.hpp"

namespace fs = boost::filesystem;
using mpiarena::LoadResult;
using mpiarena::LoadStatus;
using mpiarena::Registry;

namespace {

const std::string kDir = TEST_PLUGIN_DIR;
const std::string kOk = kDir + "/mpiarena_test_ok.so";
const std::string kCorrupt = kDir + "/mpiarena_corrupt.so";
const std::string kDup = kDir + "/mpiarena_test_ok_dup.so";
const std::string kWrongAbi = kDir + "/mpiarena_wrong_abi.so";
const std::string kUnrelated = kDir + "/libunrelated.so";
const std::string kBadFactory =
    std::string(TEST_BAD_PLUGIN_DIR) + "/mpiarena_bad_factory.so";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// One sentence naming the file: not empty, one line, the path in it.
void expect_one_sentence_naming(const LoadResult& r, const std::string& file) {
  EXPECT_FALSE(r.message.empty());
  EXPECT_FALSE(contains(r.message, "\n")) << r.message;
  EXPECT_TRUE(contains(r.message, file)) << r.message;
}

// What dlopen itself says about `path`.
std::string dlopen_error(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle) {
    dlclose(handle);
    return {};
  }
  const char* err = dlerror();
  return err ? err : "";
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / fs::unique_path("mpiarena-reg-%%%%-%%%%");
    fs::create_directories(dir_);
  }
  void TearDown() override {
    boost::system::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write_file(const std::string& name,
                         const std::string& text) const {
    const std::string p = (dir_ / name).string();
    std::ofstream(p) << text;
    return p;
  }
  fs::path dir_;
};

}  // namespace

TEST(Registry, TestPluginsWereBuilt) {
  for (const std::string& f :
       {kOk, kCorrupt, kDup, kWrongAbi, kUnrelated, kBadFactory})
    EXPECT_TRUE(fs::is_regular_file(f)) << f;
}

TEST(Registry, LoadsAValidPlugin) {
  Registry reg;
  const LoadResult r = reg.load_file(kOk);
  ASSERT_EQ(r.status, LoadStatus::loaded) << r.message;
  EXPECT_EQ(r.message, "");
  EXPECT_EQ(reg.names(), std::vector<std::string>{"test_ok"});
  ASSERT_EQ(reg.strategies().size(), 1u);
  const mpiarena::LoadedStrategy* s = reg.find("test_ok");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->file, kOk);
  EXPECT_EQ(s->abi, mpiarena::kAbiVersion);
  EXPECT_EQ(s->entry.info.suite, "transfer");
  EXPECT_EQ(s->entry.info.payloads, (std::vector<std::string>{"1d", "2d"}));
  EXPECT_EQ(s->entry.info.min_ranks, 2);
  EXPECT_TRUE(s->entry.info.moves_data);
  EXPECT_FALSE(s->entry.info.summary.empty());
  EXPECT_EQ(reg.find("nope"), nullptr);
  EXPECT_EQ(reg.find(""), nullptr);
}

TEST(Registry, FactoryCreatesWorkingObjects) {
  Registry reg;
  ASSERT_EQ(reg.load_file(kOk).status, LoadStatus::loaded);
  auto a = reg.find("test_ok")->entry.create();
  auto b = reg.find("test_ok")->entry.create();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a.get(), b.get());
  // Never prepared: rank 0 is the root of an empty 1d payload. These calls
  // run the plugin's vtable without any MPI call.
  a->poison();
  EXPECT_TRUE(a->verify().ok);
  a->release();
}

TEST(Registry, MissingFileCannotLoad) {
  Registry reg;
  const std::string path = kDir + "/no_such_plugin.so";
  const std::string dl = dlopen_error(path);
  ASSERT_FALSE(dl.empty());
  const LoadResult r = reg.load_file(path);
  EXPECT_EQ(r.status, LoadStatus::cannot_load);
  expect_one_sentence_naming(r, path);
  EXPECT_TRUE(contains(r.message, dl))
      << "message: " << r.message << "\ndlerror: " << dl;
  EXPECT_TRUE(reg.names().empty());
}

class RegistryFiles : public TempDir {};

TEST_F(RegistryFiles, GarbageFileCannotLoadWithTheDlerrorText) {
  const std::string path =
      write_file("x.so", "this is a text file, not a shared library; " +
                             std::string(200, 'x') + "\n");
  const std::string dl = dlopen_error(path);
  ASSERT_FALSE(dl.empty());
  Registry reg;
  const LoadResult r = reg.load_file(path);
  EXPECT_EQ(r.status, LoadStatus::cannot_load);
  expect_one_sentence_naming(r, path);
  EXPECT_TRUE(contains(r.message, dl))
      << "message: " << r.message << "\ndlerror: " << dl;
  EXPECT_TRUE(reg.names().empty());
}

TEST(Registry, UnrelatedLibraryIsNotAPlugin) {
  Registry reg;
  const LoadResult r = reg.load_file(kUnrelated);
  EXPECT_EQ(r.status, LoadStatus::not_a_plugin) << r.message;
  expect_one_sentence_naming(r, kUnrelated);
  EXPECT_TRUE(reg.names().empty());
}

TEST(Registry, WrongAbiNamesBothVersions) {
  Registry reg;
  const LoadResult r = reg.load_file(kWrongAbi);
  EXPECT_EQ(r.status, LoadStatus::wrong_abi) << r.message;
  expect_one_sentence_naming(r, kWrongAbi);
  EXPECT_TRUE(contains(r.message, std::to_string(mpiarena::kAbiVersion + 1000)))
      << r.message;
  EXPECT_TRUE(
      contains(r.message, "version " + std::to_string(mpiarena::kAbiVersion)))
      << r.message;
  EXPECT_TRUE(reg.names().empty());
  EXPECT_EQ(reg.find("wrong_abi"), nullptr);
}

TEST(Registry, ThrowingFactoryIsABadFactory) {
  Registry reg;
  const LoadResult r = reg.load_file(kBadFactory);
  EXPECT_EQ(r.status, LoadStatus::bad_factory) << r.message;
  expect_one_sentence_naming(r, kBadFactory);
  EXPECT_TRUE(contains(r.message, "refuses to build its entries")) << r.message;
  EXPECT_TRUE(reg.names().empty());
}

TEST(Registry, DuplicateNamesBothFilesAndKeepsTheFirst) {
  Registry reg;
  ASSERT_EQ(reg.load_file(kOk).status, LoadStatus::loaded);
  const LoadResult r = reg.load_file(kDup);
  EXPECT_EQ(r.status, LoadStatus::duplicate) << r.message;
  expect_one_sentence_naming(r, kDup);
  EXPECT_TRUE(contains(r.message, kOk)) << r.message;
  EXPECT_TRUE(contains(r.message, "test_ok")) << r.message;
  EXPECT_EQ(reg.names(), std::vector<std::string>{"test_ok"});
  ASSERT_NE(reg.find("test_ok"), nullptr);
  EXPECT_EQ(reg.find("test_ok")->file, kOk);
  EXPECT_EQ(reg.find("test_ok")->entry.info.payloads.size(),
            2u);  // not the dup's {"1d"}
}

// The duplicate is not quiet: the warning says which file -m runs, and the
// registry keeps both files for --list and --help-method.
TEST(Registry, DuplicateSaysWhichOneRunsAndIsKept) {
  Registry reg;
  ASSERT_EQ(reg.load_file(kOk).status, LoadStatus::loaded);
  EXPECT_TRUE(reg.shadowed().empty());
  const LoadResult r = reg.load_file(kDup);
  EXPECT_TRUE(contains(r.message, "-m test_ok runs the one of '" + kOk + "'"))
      << r.message;
  ASSERT_EQ(reg.shadowed().size(), 1u);
  EXPECT_EQ(reg.shadowed()[0].name, "test_ok");
  EXPECT_EQ(reg.shadowed()[0].file, kDup);
  EXPECT_EQ(reg.shadowed()[0].kept, kOk);
  // A failure of another kind is no duplicate.
  EXPECT_NE(reg.load_file(kWrongAbi).status, LoadStatus::loaded);
  EXPECT_EQ(reg.shadowed().size(), 1u);
}

TEST(Registry, SameFileTwiceIsADuplicate) {
  Registry reg;
  ASSERT_EQ(reg.load_file(kOk).status, LoadStatus::loaded);
  EXPECT_EQ(reg.load_file(kOk).status, LoadStatus::duplicate);
  EXPECT_EQ(reg.strategies().size(), 1u);
  // The first load still works after the second handle was dropped.
  auto s = reg.find("test_ok")->entry.create();
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->verify().ok);
}

TEST(Registry, FailuresLeaveTheRegistryUnchanged) {
  Registry reg;
  ASSERT_EQ(reg.load_file(kCorrupt).status, LoadStatus::loaded);
  EXPECT_NE(reg.load_file(kWrongAbi).status, LoadStatus::loaded);
  EXPECT_NE(reg.load_file(kUnrelated).status, LoadStatus::loaded);
  EXPECT_NE(reg.load_file(kBadFactory).status, LoadStatus::loaded);
  EXPECT_NE(reg.load_file(kDir + "/missing.so").status, LoadStatus::loaded);
  ASSERT_EQ(reg.load_file(kOk).status, LoadStatus::loaded);
  EXPECT_EQ(reg.names(), (std::vector<std::string>{"corrupt", "test_ok"}));
  EXPECT_EQ(reg.find("corrupt")->file, kCorrupt);
  EXPECT_EQ(reg.find("test_ok")->file, kOk);
}

TEST(Registry, LoadDirLoadsTheValidOnesAndReportsTheOthers) {
  Registry reg;
  const std::vector<LoadResult> failures = reg.load_dir(kDir);
  EXPECT_EQ(reg.names(), (std::vector<std::string>{"corrupt", "test_ok"}));
  EXPECT_EQ(reg.find("test_ok")->file,
            kOk);  // sorted: test_ok.so before test_ok_dup.so
  EXPECT_EQ(reg.find("corrupt")->file, kCorrupt);
  ASSERT_EQ(failures.size(), 3u);
  // Sorted by file name: libunrelated, mpiarena_test_ok_dup,
  // mpiarena_wrong_abi.
  EXPECT_EQ(failures[0].status, LoadStatus::not_a_plugin);
  EXPECT_TRUE(contains(failures[0].message, kUnrelated)) << failures[0].message;
  EXPECT_EQ(failures[1].status, LoadStatus::duplicate);
  EXPECT_TRUE(contains(failures[1].message, kDup)) << failures[1].message;
  EXPECT_EQ(failures[2].status, LoadStatus::wrong_abi);
  EXPECT_TRUE(contains(failures[2].message, kWrongAbi)) << failures[2].message;
}

TEST_F(RegistryFiles, LoadDirGoesOnAfterAFailure) {
  write_file("a_garbage.so",
             "not an ELF file at all, " + std::string(100, 'z'));
  write_file("notes.txt", "ignored: not a .so");
  fs::create_directories(dir_ / "subdir.so");
  fs::copy_file(kOk, dir_ / "b_ok.so");
  Registry reg;
  const auto failures = reg.load_dir(dir_.string());
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].status, LoadStatus::cannot_load);
  EXPECT_TRUE(contains(failures[0].message, "a_garbage.so"))
      << failures[0].message;
  // What the loader says of the file ("invalid ELF header"), not errno.
  const std::string dl = dlopen_error((dir_ / "a_garbage.so").string());
  ASSERT_FALSE(dl.empty());
  EXPECT_TRUE(contains(failures[0].message, dl))
      << failures[0].message << "\ndlerror: " << dl;
  EXPECT_EQ(reg.names(), std::vector<std::string>{"test_ok"});
  EXPECT_EQ(reg.find("test_ok")->file, (dir_ / "b_ok.so").string());
}

TEST(Registry, LoadDirOfAMissingDirectoryLoadsNothing) {
  Registry reg;
  EXPECT_NO_THROW(reg.load_dir(kDir + "/does/not/exist"));
  EXPECT_TRUE(reg.names().empty());
}

// default_plugin_dirs() with a fake runner location and MPIARENA_PLUGIN_PATH.
class PluginDirs : public TempDir {
 protected:
  void SetUp() override {
    TempDir::SetUp();
    if (const char* old = std::getenv("MPIARENA_PLUGIN_PATH"))
      saved_ = old, had_ = true;
    unsetenv("MPIARENA_PLUGIN_PATH");
  }
  void TearDown() override {
    if (had_)
      setenv("MPIARENA_PLUGIN_PATH", saved_.c_str(), 1);
    else
      unsetenv("MPIARENA_PLUGIN_PATH");
    TempDir::TearDown();
  }
  std::string make_dir(const fs::path& rel) const {
    fs::create_directories(dir_ / rel);
    return fs::canonical(dir_ / rel).string();
  }
  std::string saved_;
  bool had_ = false;
};

TEST_F(PluginDirs, BuildTreeThenInstallTree) {
  const std::string build = make_dir("bin/lib/mpiarena/plugins");
  const std::string install = make_dir("lib/mpiarena/plugins");
  std::vector<std::string> missing;
  const auto dirs =
      mpiarena::default_plugin_dirs((dir_ / "bin").string(), &missing);
  EXPECT_EQ(dirs, (std::vector<std::string>{build, install}));
  EXPECT_TRUE(missing.empty());
}

TEST_F(PluginDirs, OnlyExistingDirectories) {
  std::vector<std::string> missing;
  EXPECT_TRUE(
      mpiarena::default_plugin_dirs((dir_ / "bin").string(), &missing).empty());
  EXPECT_TRUE(missing.empty());  // the default places are not reported
}

TEST_F(PluginDirs, HonoursPluginPathAndReportsMissingEntries) {
  make_dir("bin");  // where the runner would be
  const std::string install = make_dir("lib/mpiarena/plugins");
  const std::string extra1 = make_dir("extra1");
  const std::string extra2 = make_dir("extra2");
  const std::string gone = (dir_ / "gone").string();
  const std::string file = write_file("a_file", "not a directory");
  // Empty items are ignored; a directory already found is not repeated.
  const std::string path =
      extra1 + "::" + gone + ":" + install + ":" + extra2 + ":" + file + ":";
  setenv("MPIARENA_PLUGIN_PATH", path.c_str(), 1);
  std::vector<std::string> missing;
  const auto dirs =
      mpiarena::default_plugin_dirs((dir_ / "bin").string(), &missing);
  EXPECT_EQ(dirs, (std::vector<std::string>{install, extra1, extra2}));
  EXPECT_EQ(missing, (std::vector<std::string>{gone, file}));
  // Without `missing` the same directories, and no crash.
  EXPECT_EQ(mpiarena::default_plugin_dirs((dir_ / "bin").string(), nullptr),
            dirs);
}

TEST_F(PluginDirs, PluginPathFindsTheTestPlugins) {
  setenv("MPIARENA_PLUGIN_PATH", kDir.c_str(), 1);
  std::vector<std::string> missing;
  const auto dirs =
      mpiarena::default_plugin_dirs((dir_ / "bin").string(), &missing);
  ASSERT_EQ(dirs.size(), 1u);
  EXPECT_TRUE(fs::equivalent(dirs[0], kDir));
  Registry reg;
  for (const std::string& d : dirs) reg.load_dir(d);
  EXPECT_NE(reg.find("test_ok"), nullptr);
}

// Contract v4: StrategyInfo is checked at load. One plugin per bad field
// (tests/plugins/bad_info.cpp, BAD_FIELD=N), each refused with one sentence
// that names the file and the field.
struct BadInfoCase {
  int field;
  const char* needle;
};

class BadInfo : public ::testing::TestWithParam<BadInfoCase> {};

TEST_P(BadInfo, IsRefusedNamingTheFileAndTheField) {
  const BadInfoCase c = GetParam();
  const std::string file = std::string(TEST_BAD_INFO_DIR) +
                           "/mpiarena_bad_info_" + std::to_string(c.field) +
                           ".so";
  Registry reg;
  const LoadResult r = reg.load_file(file);
  EXPECT_EQ(r.status, LoadStatus::bad_info) << r.message;
  expect_one_sentence_naming(r, file);
  EXPECT_TRUE(contains(r.message, c.needle)) << r.message;
  EXPECT_TRUE(reg.names().empty());
}

INSTANTIATE_TEST_SUITE_P(
    Fields, BadInfo,
    ::testing::Values(
        BadInfoCase{1, "name 'Bad-Name'"}, BadInfoCase{2, "1 to 32 characters"},
        BadInfoCase{3, "suite 'nosuchsuite'"}, BadInfoCase{4, "payload '3d'"},
        BadInfoCase{5, "time_scale nan"}, BadInfoCase{6, "time_scale 0"},
        BadInfoCase{7, "min_ranks 0"},
        BadInfoCase{8, "phases names 'pack' twice"},
        BadInfoCase{9, "headline 'both'"},
        BadInfoCase{10, "metric 'overlap' has no unit"},
        BadInfoCase{11, "declares method 'bad_info' twice"},
        BadInfoCase{12, "params 'op' has the value 'Put!'"},
        BadInfoCase{13, "matrix axis 'window' is not one of"},
        BadInfoCase{14,
                    "matrix_row and matrix_column go "
                    "together"},
        BadInfoCase{15,
                    "the default '0' is not accepted: an "
                    "integer from 1 to 64"},
        BadInfoCase{16, "a choice needs its choices"},
        BadInfoCase{17, "option 'op' is also a key of params"},
        BadInfoCase{18, "library_collective 'All-Reduce!' is not accepted"},
        BadInfoCase{19, "payload_copies_per_rank -1 is not accepted"},
        BadInfoCase{20, "the exchange suite ranks a method with those of "
                        "its pattern"},
        BadInfoCase{21, "operation option 'op' is not one of its options"},
        BadInfoCase{22, "operation semantics without an operation"}));

TEST(Registry, ProbeWithPhasesPartsAndMetricsLoads) {
  Registry reg;
  const std::string file =
      std::string(TEST_FAULT_PLUGIN_DIR) + "/mpiarena_probe.so";
  const LoadResult r = reg.load_file(file);
  ASSERT_EQ(r.status, LoadStatus::loaded) << r.message;
  const mpiarena::LoadedStrategy* s = reg.find("probe");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->entry.info.parts.size(), 3u);
  EXPECT_EQ(s->entry.info.version, "probe-1.0");
  ASSERT_EQ(s->entry.info.metrics.size(), 1u);
  // The plugin's formula is seed 002's: 100 * max(0, min(p + c - o, tmin))
  // / tmin with tmin = min(p, c).
  mpiarena::MetricInput in;
  in.parts = {{"comm", 4}, {"compute", 6}, {"both", 7}};
  EXPECT_DOUBLE_EQ(s->entry.info.metrics[0].compute(in), 75.0);
  in.parts["both"] = 10;  // serialised
  EXPECT_DOUBLE_EQ(s->entry.info.metrics[0].compute(in), 0.0);
  in.parts["both"] = 12;  // slower than serialised: clamped at 0
  EXPECT_DOUBLE_EQ(s->entry.info.metrics[0].compute(in), 0.0);
  in.parts["both"] = 5;  // more than the shorter part hidden: clamped at 100
  EXPECT_DOUBLE_EQ(s->entry.info.metrics[0].compute(in), 100.0);
  in.parts.erase("compute");
  EXPECT_THROW(s->entry.info.metrics[0].compute(in), std::out_of_range);
}

#ifdef TEST_OTHER_MPI_PLUGIN
TEST(Registry, PluginBuiltAgainstAnotherMpiIsRefusedNamingBoth) {
  Registry reg;
  const LoadResult r = reg.load_file(TEST_OTHER_MPI_PLUGIN);
  EXPECT_EQ(r.status, LoadStatus::wrong_abi) << r.message;
  expect_one_sentence_naming(r, TEST_OTHER_MPI_PLUGIN);
  // MPICH's in an Open MPI build, Open MPI's in an MPICH build.
  EXPECT_TRUE(contains(r.message, "was built against " TEST_OTHER_MPI_NAME))
      << r.message;
  EXPECT_TRUE(contains(r.message, "this runner against " TEST_OWN_MPI_NAME))
      << r.message;
  EXPECT_TRUE(contains(r.message, "rebuild it with this runner's MPI"))
      << r.message;
  EXPECT_TRUE(reg.names().empty());
}
#endif
