// The command line by command (runner/command_line.cpp): each command's
// help lists its own options, an option of another command is refused
// naming the commands that take it, and a mistyped option, command or
// value is answered with the nearest accepted names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runner/options_parse.hpp"

namespace {

using mpiarena::Command;
using mpiarena::parse_options;
using mpiarena::UsageError;

mpiarena::Options parsed(std::vector<const char*> args) {
  args.insert(args.begin(), "runner");
  return parse_options(static_cast<int>(args.size()), args.data());
}

// The message of the UsageError `runner ARGS...` gives; fails the test
// when it gives none.
std::string refusal(std::vector<const char*> args) {
  try {
    parsed(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CommandLine, TheOverviewListsTheCommandsAndARunsOptions) {
  const mpiarena::Options o = parsed({"--help"});
  EXPECT_EQ(o.command, Command::help);
  for (const char* part :
       {"  compare ", "  report ", "  history ", "  --list ", "  validate ",
        "runner COMMAND --help", "--min-time", "--methods", "Exit codes"})
    EXPECT_TRUE(has(o.help_text, part)) << part;
  // The options no run takes are in their commands' help only.
  for (const char* part : {"--threshold", "--db ", "--since", "--blocks"})
    EXPECT_FALSE(has(o.help_text, part)) << part;
  EXPECT_EQ(parsed({"run", "--help"}).help_text, o.help_text);
  EXPECT_EQ(parsed({"help"}).help_text, o.help_text);
}

TEST(CommandLine, ACommandsHelpListsItsOwnOptions) {
  const std::string report = parsed({"report", "--help"}).help_text;
  EXPECT_TRUE(has(report, "runner report FILE"));
  for (const char* part : {"--format", "--per-rank", "--output", "--help"})
    EXPECT_TRUE(has(report, part)) << part;
  for (const char* part : {"--threshold", "--window", "--min-time"})
    EXPECT_FALSE(has(report, part)) << part;
  const std::string compare = parsed({"compare", "--help"}).help_text;
  EXPECT_TRUE(has(compare, "runner compare BASE NEW"));
  EXPECT_TRUE(has(compare, "--threshold"));
  EXPECT_FALSE(has(compare, "--methods"));
  // 'help COMMAND' is the same, files or none; an action shows its
  // command's help.
  EXPECT_EQ(parsed({"help", "compare"}).help_text, compare);
  EXPECT_EQ(parsed({"compare", "a.json", "b.json", "-h"}).help_text, compare);
  const std::string history = parsed({"history", "add", "--help"}).help_text;
  EXPECT_TRUE(has(history, "runner history changes --db STORE"));
  EXPECT_TRUE(has(history, "--since"));
  // Every command of the overview has a help of its own.
  for (const char* name : {"ab", "--list", "sizes", "validate", "trend",
                           "tune", "algorithms", "clocks"}) {
    const std::string help = parsed({"help", name}).help_text;
    EXPECT_TRUE(has(help, std::string("runner ") + name + ": ")) << name;
  }
  EXPECT_TRUE(has(parsed({"--help-method", "bcast", "-h"}).help_text,
                  "runner --help-method: "));
}

TEST(CommandLine, AnotherCommandsOptionIsRefusedNamingWhoTakesIt) {
  EXPECT_EQ(refusal({"report", "x.json", "--window", "4"}),
            "'--window' is not an option of 'runner report'; it is an option "
            "of a run, ab. 'runner report --help' lists its options");
  EXPECT_TRUE(has(refusal({"report", "x.json", "--threshold", "5"}),
                  "it is an option of ab, compare, trend, tune, history "
                  "changes."));
  EXPECT_TRUE(has(refusal({"compare", "a", "b", "--db", "s.db"}),
                  "it is an option of trend, history."));
  EXPECT_TRUE(has(refusal({"--threshold", "5", "--list"}),
                  "'--threshold' is not an option of 'runner --list'"));
  // A short name, and a prefix as Boost completes it.
  EXPECT_TRUE(has(refusal({"report", "x.json", "-m", "bcast"}),
                  "'-m' (--methods) is not an option of 'runner report'"));
  EXPECT_TRUE(has(refusal({"report", "x.json", "--wind", "4"}),
                  "'--wind' (--window) is not an option"));
  EXPECT_TRUE(has(refusal({"history", "add", "r.json", "--db", "s", "--since",
                           "#1"}),
                  "is not an option of 'runner history add'; it is an "
                  "option of history changes."));
}

TEST(CommandLine, AnUnknownOptionIsAnsweredWithTheNearest) {
  EXPECT_TRUE(has(refusal({"compare", "a", "b", "--treshold", "5"}),
                  "unrecognised option '--treshold'; did you mean "
                  "'--threshold'?"));
  // Not a run's: the nearest of another command, and whose it is.
  EXPECT_TRUE(has(refusal({"--treshold", "5"}),
                  "did you mean '--threshold', an option of ab, compare"));
  EXPECT_TRUE(has(refusal({"--frobnicate"}), "unrecognised option "
                                             "'--frobnicate'"));
  const std::string x = refusal({"-x"});
  EXPECT_TRUE(has(x, "'-x': not an option of a run ('runner'); its short "
                     "options are -f, -h, -i, -m, -o, -p, -q, -r, -s"))
      << x;
  EXPECT_TRUE(has(refusal({"report", "f.json", "-x"}),
                  "its short options are -f, -h, -o, -q"));
  // A prefix of several options is ambiguous.
  const std::string s = refusal({"--s", "1"});
  EXPECT_TRUE(has(s, "ambiguous") && has(s, "--sizes") && has(s, "--seed"))
      << s;
}

TEST(CommandLine, AnUnknownCommandOrValueIsAnsweredWithTheNearest) {
  EXPECT_TRUE(has(refusal({"compair", "a.json", "b.json"}),
                  "unexpected argument 'compair' (did you mean 'compare'?)"));
  EXPECT_TRUE(has(refusal({"help", "reprot"}), "did you mean 'report'?"));
  EXPECT_TRUE(has(refusal({"history", "chanegs", "--db", "s"}),
                  "did you mean 'changes'?"));
  EXPECT_TRUE(has(refusal({"--interleave", "onn"}), "did you mean 'on'?"));
  EXPECT_TRUE(has(refusal({"-f", "jsn"}), "did you mean 'json'?"));
  EXPECT_TRUE(has(refusal({"--log-level", "warning"}),
                  "did you mean 'warn'?"));
  EXPECT_TRUE(has(refusal({"clocks", "--clock-sync", "hcaa"}),
                  "did you mean 'hca'?"));
  // Nothing near: no guess.
  EXPECT_FALSE(has(refusal({"--wait", "spin"}), "did you mean"));
}

// The options of every command parse as before.
TEST(CommandLine, EachCommandTakesItsOptions) {
  EXPECT_EQ(parsed({"report", "x.json", "-f", "csv", "-o", "x.csv"}).format,
            "csv");
  EXPECT_EQ(parsed({"compare", "a", "b", "--threshold", "10%"}).threshold,
            0.1);
  EXPECT_EQ(parsed({"trend", "--db", "s.db", "--relative"}).db, "s.db");
  EXPECT_EQ(parsed({"history", "changes", "--db", "s", "--since", "#2"}).since,
            "#2");
  EXPECT_EQ(parsed({"sizes", "--sizes", "1KiB"}).sizes.size(), 1u);
  EXPECT_EQ(parsed({"clocks", "--clock-sync", "jk"}).clock_sync.size(), 1u);
  EXPECT_EQ(parsed({"--list", "--plugin-dir", "/tmp"}).command, Command::list);
  EXPECT_EQ(parsed({"-m", "bcast", "--window", "8", "-q"}).window, 8);
  EXPECT_EQ(parsed({"validate", "a.json", "-q"}).command, Command::validate);
}

}  // namespace
