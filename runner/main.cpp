// mpiarena runner: parses the command line (no MPI needed), then runs one of
// its commands. Usage errors exit 2 on every rank with one message (rank 0).
#include <mpi.h>

#include <cstdio>
#include <iostream>
#include <mpiarena/plugin.hpp>
#include <mpiarena/sizes.hpp>

#include "commands.hpp"
#include "log.hpp"

namespace {

// Exits with `code` on every rank, after rank 0 has printed why. Under a
// launcher, the first rank to exit non-zero makes mpirun kill the others,
// possibly before rank 0's message is out; so the ranks meet once first.
int exit_together(int code) {
  std::cerr.flush();
  if (code != 0 && mpiarena::under_launcher()) {
    MPI_Init(nullptr, nullptr);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
  }
  return code;
}

// A command that reads files and prints (list, validate, report, compare).
// Under a launcher only rank 0 runs it (the files need to exist on its node
// only) and every rank exits with its code, so no message is lost or
// repeated and no rank waits for one that has already left.
int file_command(int (*command)(const mpiarena::Options&),
                 const mpiarena::Options& options) {
  if (!mpiarena::under_launcher()) return command(options);
  MPI_Init(nullptr, nullptr);
  int rank = 0, code = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) code = command(options);
  std::cout.flush();
  std::cerr.flush();
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mpiarena;
  const bool printer = launcher_rank() == 0;
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const UsageError& e) {
    if (printer) std::cerr << "runner: error: " << e.what() << ".\n";
    return exit_together(2);
  }
  spdlog::level::level_enum level = spdlog::level::info;
  if (parse_log_level(options.log_level, level)) set_log_level(level);
  switch (options.command) {
    case Command::help:
      if (printer) std::cout << options.help_text << "\n";
      return 0;
    case Command::version:
      if (printer)
        std::cout << "mpiarena runner " << MPIARENA_VERSION << ", plugin ABI "
                  << kAbiVersion << "\n";
      return 0;
    case Command::list:
      return file_command(command_list, options);
    case Command::sizes:
      if (printer)
        for (const SizePoint& p : options.sizes)
          std::cout << p.bytes << "\t" << p.label << "\n";
      return 0;
    case Command::validate:
      return file_command(command_validate, options);
    case Command::report:
      return file_command(command_report, options);
    case Command::compare:
      return file_command(command_compare, options);
    case Command::run:
      break;
  }
  return command_run(options, argc, argv);
}
