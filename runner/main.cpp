// mpiarena runner: parses the command line (no MPI needed), then runs one of
// its commands. Usage errors exit 2 on every rank with one message (rank 0).
#include <mpi.h>

#include <iostream>
#include <mpiarena/plugin.hpp>
#include <mpiarena/sizes.hpp>
#include <optional>
#include <string>

#include "core/engine/collective.hpp"
#include "core/engine/library_algorithms.hpp"
#include "core/engine/mpi_session.hpp"
#include "core/results/log.hpp"
#include "core/results/mpi_settings.hpp"
#include "runner/commands.hpp"
#include "runner/osu_front.hpp"

namespace {

using mpiarena::Command;
using mpiarena::Options;

const char* command_name(Command c) {
  switch (c) {
    case Command::run:
      return "run";
    case Command::list:
      return "--list";
    case Command::help_method:
      return "--help-method";
    case Command::sizes:
      return "sizes";
    case Command::validate:
      return "validate";
    case Command::report:
      return "report";
    case Command::compare:
      return "compare";
    case Command::trend:
      return "trend";
    case Command::tune:
      return "tune";
    case Command::ab:
      return "ab";
    case Command::algorithms:
      return "algorithms";
    case Command::clocks:
      return "clocks";
    case Command::history:
      return "history";
    case Command::help:
      return "--help";
    case Command::version:
      return "--version";
  }
  return "?";
}

// Under a launcher, every rank must take the same path, or one waits in a
// collective that the others never enter (a rank whose command line does
// not parse, or names another command, as a wrapper script or an MPMD
// command line can make it). So the ranks first agree that every command
// line parsed and names the same command; the run then checks its options
// (options_mismatch). On disagreement rank 0 prints one message naming the
// first rank concerned, and the exit code is 2 on every rank; else -1.
int agree_on_command(const std::string& usage_error, Command command) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string who = "rank " + std::to_string(rank);
  std::string problem = usage_error;
  if (problem.empty()) {
    const std::string mine = command_name(command);
    const std::string root = mpiarena::bcast_string(mine, 0, MPI_COMM_WORLD);
    if (mine != root)
      problem = who + " runs '" + mine + "' while rank 0 runs '" + root +
                "'; give every rank the same command line";
  } else {
    mpiarena::bcast_string("", 0, MPI_COMM_WORLD);  // as the others do
    if (rank != 0) problem = who + ": " + problem;
  }
  const auto [first, message] =
      mpiarena::first_failure(!problem.empty(), problem, MPI_COMM_WORLD, rank);
  if (first == mpiarena::kNobody) return -1;
  if (rank == 0) std::cerr << "runner: error: " << message << ".\n";
  std::cerr.flush();
  return 2;
}

// A command that reads files and prints (list, validate, report, compare),
// under a launcher: only rank 0 runs it (the files need to exist on its
// node only) and every rank exits with its code, so no message is lost or
// repeated and no rank waits for one that has already left.
int on_rank0(int (*command)(const Options&), const Options& options) {
  int rank = 0, code = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) code = command(options);
  std::cout.flush();
  std::cerr.flush();
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return code;
}

int dispatch(const Options& options, bool printer) {
  using namespace mpiarena;
  switch (options.command) {
    case Command::help:
      if (printer) std::cout << options.help_text << "\n";
      return 0;
    case Command::version:
      if (printer)
        std::cout << "mpiarena " << MPIARENA_VERSION << ", plugin ABI "
                  << kAbiVersion << "\n";
      return 0;
    case Command::sizes:
      if (printer)
        for (const SizePoint& p : options.sizes)
          std::cout << p.bytes << "\t" << p.label << "\n";
      return 0;
    case Command::list:
    case Command::help_method:
    case Command::validate:
    case Command::report:
    case Command::compare:
    case Command::trend:
    case Command::tune:
    case Command::history:
    case Command::run:
    case Command::ab:
    case Command::algorithms:
    case Command::clocks:
      break;
  }
  return -1;
}

int file_command(const Options& options, bool launched) {
  using namespace mpiarena;
  int (*command)(const Options&) = nullptr;
  switch (options.command) {
    case Command::list:
      command = command_list;
      break;
    case Command::help_method:
      command = command_help_method;
      break;
    case Command::validate:
      command = command_validate;
      break;
    case Command::report:
      command = command_report;
      break;
    case Command::compare:
      command = command_compare;
      break;
    case Command::trend:
      command = command_trend;
      break;
    case Command::tune:
      command = command_tune;
      break;
    case Command::history:
      command = command_history;
      break;
    default:
      return -1;
  }
  show_all_validation_errors(options.log_level == "debug");
  return launched ? on_rank0(command, options) : command(options);
}

// The command line parsed; `runner osu PROGRAM ...` is OSU's, turned
// into the run's first (osu_front.hpp).
mpiarena::Options parse_command_line(int argc, char** argv,
                                     std::string& usage_error) {
  using namespace mpiarena;
  try {
    if (argc < 2 || std::string(argv[1]) != "osu")
      return parse_options(argc, argv);
    const OsuFrontEnd front =
        osu_front_end(std::vector<std::string>(argv + 2, argv + argc));
    std::vector<const char*> args{argv[0]};
    for (const std::string& a : front.args) args.push_back(a.c_str());
    if (!front.help.empty()) args.push_back("--help");
    Options options =
        parse_options(static_cast<int>(args.size()), args.data());
    if (!front.help.empty()) options.help_text = front.help;
    return options;
  } catch (const UsageError& e) {
    usage_error = e.what();
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mpiarena;
  std::string usage_error;
  Options options = parse_command_line(argc, argv, usage_error);
  spdlog::level::level_enum level = spdlog::level::info;
  if (usage_error.empty() && parse_log_level(options.log_level, level))
    set_log_level(level);

  if (!under_launcher()) {
    if (!usage_error.empty()) {
      std::cerr << "runner: error: " << usage_error << ".\n";
      return 2;
    }
    int code = dispatch(options, true);
    if (code < 0) code = file_command(options, false);
    if (code < 0) code = command_run(options, argc, argv);
    return code;
  }

  // Under mpirun or srun: MPI from here on, so that the ranks can agree
  // before any of them takes a path of its own. The run's own MpiSession
  // finds MPI initialised and leaves it to this one, which finalises.
  std::optional<MpiSession> env;
  launch_environment();  // the MPI settings, as the launch gave them
  // --algorithms: what the MPI library must read at MPI_Init.
  if (usage_error.empty() &&
      (!options.algorithms.empty() || options.command == Command::algorithms))
    prepare_library_algorithms();
  env.emplace(argc, argv,
              usage_error.empty() ? thread_level_value(options.thread_level)
                                  : MpiSession::kNoThreadLevel);
  int code = agree_on_command(usage_error, options.command);
  if (code < 0) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    code = dispatch(options, rank == 0);
    if (code < 0) code = file_command(options, true);
    if (code < 0) code = command_run(options, argc, argv);
  }
  std::cout.flush();
  std::cerr.flush();
  env.reset();
  return code;
}
