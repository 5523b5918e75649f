// The command line's shared checks (options_parse.hpp): a word among a few,
// a whole number in a range, a number of seconds; the messages they give,
// alone and through parse_options for the options that use them.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/results/doc_dir.hpp"
#include "core/results/sync_methods.hpp"
#include "runner/options_parse.hpp"

namespace {

using mpiarena::check_choice;
using mpiarena::check_range;
using mpiarena::check_seconds;
using mpiarena::format_number;
using mpiarena::parse_options;
using mpiarena::UsageError;

// The message of the UsageError `f` throws; fails the test when it throws
// none.
template <typename F>
std::string usage_error(F f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

// The message parse_options gives for `runner ARGS...`.
std::string parse_error(std::vector<const char*> args) {
  args.insert(args.begin(), "runner");
  return usage_error(
      [&] { parse_options(static_cast<int>(args.size()), args.data()); });
}

TEST(OptionsCheck, AChoiceReturnsTheWordAndNamesTheAcceptedOnes) {
  const std::string hot = "hot";
  EXPECT_EQ(&check_choice("--cache", hot, {"hot", "cold"}), &hot);
  EXPECT_EQ(usage_error([] {
              check_choice("--cache", "warm", {"hot", "cold"});
            }),
            "--cache 'warm' is not supported; accepted: hot, cold");
  // Case matters: the words are the accepted spellings, the nearest
  // named.
  EXPECT_EQ(usage_error([] {
              check_choice("--sync", "Window", {"barrier", "window"});
            }),
            "--sync 'Window' is not supported (did you mean 'window'?); "
            "accepted: barrier, window");
  EXPECT_EQ(usage_error([] {
              check_choice("--wait", "pol", {"auto", "poll", "sleep"});
            }),
            "--wait 'pol' is not supported (did you mean 'poll'?); "
            "accepted: auto, poll, sleep");
}

TEST(OptionsCheck, ARangeIncludesBothEndsAndSaysWhy) {
  check_range("--warmup", 0, 0, 100000);
  check_range("--warmup", 100000, 0, 100000);
  EXPECT_EQ(usage_error([] { check_range("--warmup", -1, 0, 100000); }),
            "--warmup must be between 0 and 100000, got -1");
  EXPECT_EQ(usage_error([] {
              check_range("--window", 1025, 1, 1024, "messages in flight");
            }),
            "--window must be between 1 and 1024 (messages in flight), got "
            "1025");
}

TEST(OptionsCheck, SecondsPrintAsWrittenNotAsSixDecimals) {
  check_seconds("--min-time", 60, 0, true, 60);
  check_seconds("--point-timeout", 0, 0, false, 86400);
  EXPECT_EQ(usage_error([] { check_seconds("--min-time", 0, 0, true, 60); }),
            "--min-time must be a number of seconds in (0, 60], got 0");
  EXPECT_EQ(
      usage_error([] { check_seconds("--min-time", 120.5, 0, true, 60); }),
      "--min-time must be a number of seconds in (0, 60], got 120.5");
  EXPECT_EQ(usage_error([] {
              check_seconds("--point-timeout", -0.5, 0, false, 86400,
                            "0: no bound");
            }),
            "--point-timeout must be a number of seconds in [0, 86400] (0: no "
            "bound), got -0.5");
  EXPECT_NE(usage_error([] {
              check_seconds("--max-time", std::nan(""), 0, true, 86400);
            }),
            "");
}

TEST(OptionsCheck, ANumberKeepsTheDigitsThatTellItApart) {
  EXPECT_EQ(format_number(0.005), "0.005");
  EXPECT_EQ(format_number(1e-7), "1e-07");
  EXPECT_EQ(format_number(86400), "86400");
  EXPECT_EQ(format_number(86400.01), "86400.01");
  EXPECT_EQ(std::stod(format_number(0.1 + 0.2)), 0.1 + 0.2);
}

// The options that use the checks keep their messages (tests/e2e match
// some of them: e2e_p2p.py, e2e_sync.py).
TEST(OptionsCheck, TheOptionsGiveTheSharedMessages) {
  EXPECT_EQ(parse_error({"--wait", "spin"}),
            "--wait 'spin' is not supported; accepted: auto, poll, sleep");
  EXPECT_EQ(parse_error({"--pairs", "two"}),
            "--pairs 'two' is not supported; accepted: one, all, intra, inter");
  EXPECT_EQ(parse_error({"--receive", "new"}),
            "--receive 'new' is not supported; accepted: reuse, fresh");
  EXPECT_EQ(parse_error({"--sync", "clock"}),
            "--sync 'clock' is not supported; accepted: auto, barrier, "
            "single, window");
  EXPECT_EQ(parse_error({"--thread-level", "all"}),
            "--thread-level 'all' is not supported; accepted: single, "
            "funneled, serialized, multiple");
  EXPECT_EQ(parse_error({"--window", "0"}),
            "--window must be between 1 and 1024 (messages in flight per "
            "operation), got 0");
  EXPECT_EQ(parse_error({"--repetitions", "0"}),
            "--repetitions must be between 1 and 100000, got 0");
  EXPECT_EQ(parse_error({"--min-time", "61"}),
            "--min-time must be a number of seconds in (0, 60], got 61");
  EXPECT_EQ(parse_error({"--sync", "window", "--sync-window", "0"}),
            "--sync-window must be a number of seconds in [1e-06, 1] (below "
            "1 us a window's start is finer than the ranks' synchronized "
            "clocks agree), got 0");
  EXPECT_EQ(parse_error({"--target-rse", "1%", "--max-time", "0.25e6"}),
            "--max-time must be a number of seconds in (0, 86400], got "
            "250000");
}

// The sampling options' refusals (moved from e2e_noise.py's bad-input,
// which keeps two of them under mpirun: every rank exits 2 with one
// message). Each: the arguments, and words the message must hold.
TEST(OptionsCheck, TheSamplingOptionsRefuseWhatTheyCannotDo) {
  const std::vector<std::pair<std::vector<const char*>,
                              std::vector<std::string>>>
      cases = {
          {{"--noise", "loud"}, {"--noise 'loud'", "on, off"}},
          {{"--retry-noisy", "-1"}, {"--retry-noisy", "0 and 100"}},
          {{"--noise", "off", "--retry-noisy", "3"},
           {"--retry-noisy", "--noise off"}},
          {{"--target-rse", "0.5"}, {"--target-rse '0.5'", "ambiguous"}},
          {{"--target-rse", "abc"}, {"--target-rse 'abc'", "percentage"}},
          {{"--target-rse", "0%"}, {"--target-rse", "above 0%"}},
          {{"--max-time", "5", "--precision", "off"},
           {"--max-time", "--target-rse", "fixed count"}},
          {{"--precision", "0"}, {"--precision", "above 0%"}},
          {{"--precision", "1%", "--target-rse", "1%"},
           {"--precision and --target-rse"}},
          {{"--precision", "1%", "--iterations", "5"},
           {"--precision", "--iterations"}},
          {{"--target-rse", "1%", "--max-time", "0"},
           {"--max-time", "(0, 86400]"}},
          {{"--cache", "warm"}, {"--cache 'warm'", "hot, cold"}},
          {{"--buffers", "both"}, {"--buffers 'both'", "separate, shared"}},
          {{"--iterations", "0"}, {"--iterations", "1 and 1000000000"}},
          {{"--seed", "x"}, {"seed"}},
          {{"--relative"},
           {"'--relative' is not an option of a run", "compare, trend"}},
      };
  for (const auto& [args, needles] : cases) {
    std::vector<const char*> argv = {"-m", "null", "-s", "small"};
    argv.insert(argv.end(), args.begin(), args.end());
    const std::string message = parse_error(argv);
    for (const std::string& needle : needles)
      EXPECT_NE(message.find(needle), std::string::npos)
          << args.front() << ": '" << needle << "' not in: " << message;
  }
}

// --sync takes its words and their help from the registry
// (sync_methods.hpp): every method is accepted, and --help describes each
// (its lines joined again where the help wraps them; a guide it cites
// named where the guides are, as all of --help's citations).
TEST(OptionsCheck, SyncTakesAndDescribesTheRegistrysMethods) {
  const char* help_args[] = {"runner", "--help"};
  std::istringstream wrapped(parse_options(2, help_args).help_text);
  std::string help, word;
  while (wrapped >> word) help += (help.empty() ? "" : " ") + word;
  std::string names;
  for (const mpiarena::SyncMethodInfo& m : mpiarena::sync_methods()) {
    const char* args[] = {"runner", "--sync", m.name.c_str()};
    EXPECT_EQ(parse_options(3, args).sync, m.name);
    std::istringstream text(m.name + ": " +
                            mpiarena::cite_docs(m.description));
    std::string said;
    while (text >> word) said += (said.empty() ? "" : " ") + word;
    EXPECT_NE(help.find(said), std::string::npos) << m.name;
    names += (names.empty() ? "" : " | ") + m.name;
  }
  EXPECT_NE(help.find("--sync arg (=auto) " + names + ": how the ranks"),
            std::string::npos);
}

// --label: 1 to 64 printable characters (UTF-8 counted by character),
// for a run or runner ab only.
TEST(OptionsCheck, ALabelIsShortAndPrintable) {
  const auto parsed = [](std::vector<const char*> args) {
    args.insert(args.begin(), "runner");
    return parse_options(static_cast<int>(args.size()), args.data());
  };
  EXPECT_EQ(parsed({"--label", "nightly-42"}).label, "nightly-42");
  EXPECT_EQ(parsed({"--label", "Nacht 42 (ü)"}).label, "Nacht 42 (ü)");
  const std::string longest(64, 'x');
  EXPECT_EQ(parsed({"--label", longest.c_str()}).label, longest);
  const std::string umlauts = std::string(32, 'x') + [] {
    std::string s;
    // ü: two bytes, one character.
    for (int i = 0; i < 32; ++i) s += "\xc3\xbc";
    return s;
  }();
  EXPECT_EQ(parsed({"--label", umlauts.c_str()}).label, umlauts);
  const std::string too_long(65, 'x');
  for (const char* bad :
       {"", "   ", "a\tb", "two\nlines", "\x1b[31mred", too_long.c_str(),
        "\xff\xfe"}) {
    const std::string message = parse_error({"--label", bad});
    EXPECT_EQ(message.rfind("--label '", 0), 0u) << message;
    EXPECT_NE(message.find("1 to 64 printable characters"), std::string::npos)
        << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_EQ(parse_error({"report", "f.json", "--label", "x"})
                .rfind("'--label' is not an option of 'runner report'; it is "
                       "an option of a run, ab.",
                       0),
            0u);
}

}  // namespace
