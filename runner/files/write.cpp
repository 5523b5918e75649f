// Where the file commands write (-o) and the name their messages start with.
#include <filesystem>
#include <iostream>

#include "core/results/file_io.hpp"
#include "core/results/output.hpp"
#include "core/results/text_file.hpp"
#include "runner/files/files.hpp"

namespace mpiarena {

namespace {
std::string g_program = "runner";
}

const std::string& program_name() { return g_program; }
void set_program_name(std::string name) { g_program = std::move(name); }

bool output_usable(const Options& options) {
  if (options.output.empty()) return true;
  // The same rules as a run's -o (output.hpp): a regular file, a new file in
  // an existing directory, or a symbolic link to either, written through.
  std::string target, error;
  if (!resolve_output(options.output, target, error)) {
    std::cerr << program_name() << ": error: " << error << "\n";
    return false;
  }
  std::error_code ec;
  if (!options.db.empty() &&
      std::filesystem::equivalent(target, options.db, ec)) {
    std::cerr << program_name() << ": error: -o '" << options.output
              << "' is the store '" << options.db
              << "'; writing the page there would replace the store\n";
    return false;
  }
  for (const std::string& file : options.files)
    if (std::filesystem::equivalent(target, file, ec)) {
      std::cerr << program_name() << ": error: -o '" << options.output
                << "' is the input file '" << file
                << "'; writing the page there would replace the results\n";
      return false;
    }
  return true;
}

bool write_output(const std::string& path, const std::string& text) {
  return write_outputs({{path, text}});
}

bool write_outputs(
    const std::vector<std::pair<std::string, std::string>>& files) {
  // Resolved again here: the paths may have changed since output_usable.
  std::vector<std::pair<std::string, std::string>> targets;
  std::string names;
  for (const auto& [path, text] : files) {
    std::string target, error;
    if (!resolve_output(path, target, error)) {
      std::cerr << program_name() << ": error: " << error << "\n";
      return false;
    }
    // A name ending in .gz gets gzip data, which every file command reads.
    if (gzip_name(path)) {
      try {
        targets.emplace_back(target, gzip(text));
      } catch (const std::exception& e) {
        std::cerr << program_name() << ": error: cannot write " << path
                  << ": " << e.what() << "\n";
        return false;
      }
    } else {
      targets.emplace_back(target, text);
    }
    names += (names.empty() ? "" : " and ") + path;
  }
  const std::string error = fileio::replace_together(targets);
  if (error.empty()) return true;
  std::cerr << program_name() << ": error: cannot write " << names << ": "
            << error << "\n";
  return false;
}

}  // namespace mpiarena
