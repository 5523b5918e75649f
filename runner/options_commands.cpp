// Which command takes which options: the option groups (their functions in
// options.cpp and its siblings) and the commands, each with the groups it
// takes. A command's own description is built from its row, so its help
// lists its options only and an option of another command is refused by
// its parser (command_line.cpp). Adding a group to a command, or a command,
// is a line here (docs/architecture.md, "Adding an option or a command").
#include "runner/options_parse.hpp"

namespace mpiarena {

namespace {

// clang-format off
const std::vector<OptionGroup> kGroups = {
  {"selection", "What to measure", describe_selection},
  {"sizes", "Sizes", describe_sizes},
  {"measurement", "Measurement", describe_measurement},
  {"suites", "Suites, interleaving, noise and stopping", describe_suites},
  {"sync", "How a sample's ranks start", describe_sync},
  {"clock-sync", "The global clock", describe_clock_sync},
  {"timeout", "Faults", describe_timeout},
  {"plugins", "Plugins", describe_plugins},
  {"builds", "The two builds of runner ab", describe_builds},
  {"listing", "The plugins' methods", describe_listing},
  {"method-options", "A method's options, the library's algorithms",
   describe_method_options},
  {"judgement", "Judgement", describe_judgement},
  {"gate", "The gate's procedure", describe_gate},
  {"incomplete", "Interrupted runs", describe_incomplete},
  {"relative", "Shifts of the whole machine", describe_relative},
  {"store", "The results store", describe_store},
  {"since", "Since when", describe_since},
  {"series", "Series across MPI libraries", describe_series},
  {"format", "Output", describe_format},
  {"output", "Output file", describe_output_file},
  {"views", "Table views", describe_views},
  {"label", "The run's name", describe_label},
  {"profile", "Another suite's definition", describe_profile},
  {"osu-columns", "OSU's columns (-f osu)", describe_osu_columns},
  {"log", "Log", describe_log},
  {"general", "General", describe_general},
};

// A run's groups; runner ab takes them too.
const std::vector<const char*> kRun = {
  "selection", "sizes", "measurement", "suites", "sync", "clock-sync",
  "timeout", "plugins", "listing", "method-options", "format", "output",
  "views", "label", "profile", "osu-columns", "log"};

std::vector<const char*> and_run(std::vector<const char*> groups) {
  groups.insert(groups.begin(), kRun.begin(), kRun.end());
  return groups;
}

const std::vector<CommandSpec> kCommands = {
  {"run", Command::run, "measure the selected methods (under mpirun)",
   "  mpirun -np N runner [run] [options]   measure the selected methods\n",
   kRun},
  {"ab", Command::ab, "two builds' methods in the same rounds, judged",
   "  mpirun -np N runner ab --base-plugin-dir OLD --new-plugin-dir NEW\n"
   "         [options]   A/B in one run: both builds' methods in the same\n"
   "                     rounds, judged as compare does (exit 0/1/2); -o\n"
   "                     keeps the run (docs/ci.md)\n",
   and_run({"builds", "judgement", "gate", "incomplete"})},
  {"--list", Command::list, "the methods the plugins provide",
   "  runner --list (or runner list)   the methods with suite, payloads,\n"
   "                                   minimum ranks and summary\n",
   {"listing", "plugins", "log"}},
  {"--help-method", Command::help_method,
   "what method NAME is and its options (--set)",
   "  runner --help-method NAME   what method NAME is and the options it\n"
   "                              takes (--set)\n",
   {"listing", "plugins", "log"}},
  {"sizes", Command::sizes, "the points a --sizes SPEC expands to",
   "  runner sizes [--sizes SPEC]   print the ladder SPEC expands to, one\n"
   "                                point per line (bytes, label)\n",
   {"sizes"}},
  {"validate", Command::validate, "check result files against the schema",
   "  runner validate FILE...   check result files against the schema\n",
   {"log"}},
  {"report", Command::report, "tables, summary, csv or a page of a file",
   "  runner report FILE [--format F]   ranked tables and best-method\n"
   "       summary of a saved result file (table|markdown|json), its records\n"
   "       as csv, gbench or osu (OSU's tables), or a self-contained page of\n"
   "       charts (--format html -o report.html)\n",
   {"format", "output", "views", "osu-columns", "log"}},
  {"compare", Command::compare, "the regression gate of two result files",
   "  runner compare BASE NEW   CI regression gate: match the points of two\n"
   "       result files, Mann-Whitney U test per point; exit 0 nothing\n"
   "       regressed, 1 a regression, 2 bad input\n"
   "  runner compare AB   the same for one file of 'runner ab'\n"
   "  runner compare B1 B2 B3 -- N1 N2 N3   (or DIR_BASE DIR_NEW): k\n"
   "       launches a side, each launch's median one observation\n",
   {"format", "judgement", "relative", "gate", "incomplete"}},
  {"trend", Command::trend, "each point's median across runs",
   "  runner trend FILE...   each point's median across runs in time order,\n"
   "       the spread of each run, and where compare's test flags a change\n"
   "       against the run before; runs whose contexts differ are grouped\n"
   "       apart\n"
   "  runner trend --db STORE   the store's runs, change points marked\n",
   {"format", "judgement", "relative", "output", "store", "series"}},
  {"tune", Command::tune, "the winners of --algorithms as a tuning file",
   "  runner tune FILE... [-o FILE]   the winners of --algorithms runs (U\n"
   "       test against the library's own choice, Holm, --alpha,\n"
   "       --threshold) as the file the library loads: Open MPI's dynamic\n"
   "       rules or MPICH's selection JSON, and its table; FILEs of launches\n"
   "       without --algorithms, with the file loaded and without, confirm\n"
   "       its winners; tune --format json's decisions given back carry a\n"
   "       pass's set-asides to the next (docs/tuning.md)\n",
   {"format", "judgement", "output"}},
  {"algorithms", Command::algorithms, "the MPI library's own algorithms",
   "  runner algorithms [-f json]   the MPI library's own algorithms of each\n"
   "       collective (MPI_T), which --algorithms measures (docs/tuning.md)\n",
   {"format", "log"}},
  {"clocks", Command::clocks, "how well the ranks' clocks agree (MPI)",
   "  mpirun -np N runner clocks [--clock-sync A,B]   how well the ranks'\n"
   "       clocks agree once synchronized, per algorithm\n",
   {"clock-sync", "format", "timeout", "log"}},
  {"history", Command::history, "runs kept in one SQLite file",
   "  runner history add FILE... --db STORE   keep runs in one SQLite file\n"
   "  runner history changes --db STORE [--since RUN|REV|DATE]   change\n"
   "       points per series: exit 1 one after --since\n"
   "  runner history list --db STORE   the stored runs (docs/ci.md)\n",
   {"store", "since", "series", "format", "judgement", "incomplete",
    "log"}},
  {"history add", Command::history, "", "",
   {"store", "incomplete", "log"}},
  {"history changes", Command::history, "", "",
   {"store", "since", "series", "format", "judgement", "log"}},
  {"history list", Command::history, "", "", {"store", "format", "log"}},
};
// clang-format on

}  // namespace

const std::vector<OptionGroup>& option_groups() { return kGroups; }

const std::vector<CommandSpec>& command_specs() { return kCommands; }

}  // namespace mpiarena
