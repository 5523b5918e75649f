// runner trend FILE...: each point's median across runs, and the changes
// compare's test finds between consecutive runs. Needs no MPI.
#include "trend.hpp"

#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "file_io.hpp"
#include "formats.hpp"
#include "report_html.hpp"

namespace mpiarena {

bool output_usable(const Options& options) {
  if (options.output.empty()) return true;
  std::error_code ec;
  const std::filesystem::path out(options.output);
  if (std::filesystem::is_directory(out, ec)) {
    std::cerr << "runner: error: -o '" << options.output
              << "' is a directory; give the name of the file to write\n";
    return false;
  }
  for (const std::string& file : options.files)
    if (std::filesystem::equivalent(out, file, ec)) {
      std::cerr << "runner: error: -o '" << options.output
                << "' is the input file '" << file
                << "'; writing the page there would replace the results\n";
      return false;
    }
  return true;
}

bool write_output(const std::string& path, const std::string& text) {
  const std::string* pieces[] = {&text};
  const std::string error = fileio::replace_with(path, pieces, 1, false);
  if (error.empty()) return true;
  std::cerr << "runner: error: cannot write " << path << ": " << error << "\n";
  return false;
}

int command_trend(const Options& options) {
  // Under mpirun only rank 0 runs this (main.cpp, file_command).
  if (!output_usable(options)) return 2;
  std::vector<TrendRun> runs;
  bool ok = true;
  for (const std::string& file : options.files) {
    nlohmann::json json;
    int status = 0;
    if (!read_results(file, json, status, 2)) {
      ok = false;
      continue;
    }
    try {
      TrendRun run;
      run.file = file;
      run.doc = document_from_json(json);
      run.started = run.doc.context.value("start_time", std::string());
      runs.push_back(std::move(run));
    } catch (const std::exception& e) {
      std::cerr << "runner: error: " << file << ": invalid: " << e.what()
                << "\n";
      ok = false;
    }
  }
  if (!ok) return 2;  // read_results said why
  const Trend t = compute_trend(
      std::move(runs),
      CompareOptions{options.threshold, options.alpha, options.relative});
  std::string text;
  if (options.format == "json")
    text = to_json(t).dump(1) + "\n";
  else if (options.format == "html")
    text = render_trend_html(t);
  else
    text = render_trend(
        t, options.format == "markdown" ? Style::markdown : Style::text);
  if (options.output.empty()) {
    std::cout << text;
    return 0;
  }
  if (!write_output(options.output, text)) return 2;
  std::cerr << "runner: trend of " << t.runs.size() << " runs written to "
            << options.output << "\n";
  return 0;
}

}  // namespace mpiarena
