// mpiarena runner: parses the command line (no MPI needed), then runs one of
// its commands. Usage errors exit 2 on every rank with one message (rank 0).
#include <cstdio>
#include <iostream>
#include <mpiarena/plugin.hpp>
#include <mpiarena/sizes.hpp>

#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace mpiarena;
  const bool printer = launcher_rank() == 0;
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const UsageError& e) {
    if (printer) std::cerr << "runner: error: " << e.what() << ".\n";
    return 2;
  }
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
      return command_list(options);
    case Command::sizes:
      if (printer)
        for (const SizePoint& p : options.sizes)
          std::cout << p.bytes << "\t" << p.label << "\n";
      return 0;
    case Command::validate:
      return command_validate(options);
    case Command::report:
      return command_report(options);
    case Command::compare:
      return command_compare(options);
    case Command::run:
      break;
  }
  return command_run(options, argc, argv);
}
