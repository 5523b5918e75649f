// mpiarena-files: the runner's file commands (validate, report, compare,
// trend, tune) as a tool that needs no MPI library at build or run time, so a
// CI job on a machine without MPI can gate on two result files. The same
// options and exit codes as `runner <command>`.
#include <iostream>
#include <string>

#include "core/results/log.hpp"
#include "runner/files/files.hpp"
#include "runner/options.hpp"

namespace {

constexpr const char* kUsage =
    "mpiarena-files: the runner's file commands, without MPI.\n"
    "\n"
    "Usage:\n"
    "  mpiarena-files validate FILE...           check result files against "
    "the schema\n"
    "  mpiarena-files report FILE [--format F]   tables, summary, csv, "
    "gbench,\n"
    "                                            osu or an HTML page (-o "
    "FILE)\n"
    "  mpiarena-files compare BASE NEW           CI regression gate: exit 0 "
    "nothing\n"
    "                                            regressed, 1 a regression, 2 "
    "bad input\n"
    "  mpiarena-files compare AB                 one file of runner ab\n"
    "  mpiarena-files compare B1 B2 B3 -- N1 N2 N3   launches a side (or "
    "DIR_BASE DIR_NEW)\n"
    "  mpiarena-files trend FILE...              each point's median across "
    "runs\n"
    "  mpiarena-files tune FILE... [-o FILE]     the winners of runner "
    "--algorithms\n"
    "                                            as the MPI library's tuning "
    "file\n"
    "  mpiarena-files history add FILE... --db STORE   keep runs in one "
    "SQLite file\n"
    "  mpiarena-files history changes --db STORE [--since RUN|REV|DATE]\n"
    "                                            change points per series: "
    "exit 1 a\n"
    "                                            change after --since, 0 none, "
    "2 bad input\n"
    "  mpiarena-files history list --db STORE    the stored runs\n"
    "\n"
    "The options are the runner's for the same command (--format, -o,\n"
    "--threshold, --alpha, --relative, --per-rank, --percentiles, --db,\n"
    "--since, "
    "--log-level); 'runner COMMAND --help'\n"
    "lists a command's options. Measuring needs the runner, under mpirun or\n"
    "srun.\n";

int unsupported(const std::string& what) {
  std::cerr
      << "mpiarena-files: error: " << what
      << "; mpiarena-files runs validate, report, compare, trend, tune and "
         "history "
         "(measuring needs the runner). Run 'mpiarena-files --help'.\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mpiarena;
  set_program_name("mpiarena-files");
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "mpiarena-files: error: " << e.what() << ".\n";
    return 2;
  }
  spdlog::level::level_enum level = spdlog::level::info;
  if (parse_log_level(options.log_level, level)) set_log_level(level);
  show_all_validation_errors(options.log_level == "debug");
  switch (options.command) {
    case Command::help:
      std::cout << kUsage;
      return 0;
    case Command::version:
      std::cout << "mpiarena-files " << MPIARENA_VERSION << "\n";
      return 0;
    case Command::validate:
      return command_validate(options);
    case Command::report:
      return command_report(options);
    case Command::compare:
      return command_compare(options);
    case Command::trend:
      return command_trend(options);
    case Command::tune:
      return command_tune(options);
    case Command::history:
      return command_history(options);
    case Command::run:
      return unsupported(argc < 2 ? "no command given"
                                  : "measuring is not a file command");
    case Command::list:
    case Command::help_method:
    case Command::sizes:
    case Command::ab:
    case Command::algorithms:
    case Command::clocks:
      break;
  }
  return unsupported("that command is not a file command");
}
