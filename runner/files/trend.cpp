// runner trend FILE...: each point's median across runs, and the changes
// compare's test finds between consecutive runs. Needs no MPI.
#include "trend.hpp"

#include <cctype>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "file_io.hpp"
#include "formats.hpp"
#include "output.hpp"
#include "report_html.hpp"

namespace mpiarena {

namespace {

// "2026-11-26T08:00:00Z" and the like: what the runner writes.
bool looks_like_a_date(const std::string& s) {
  static const char kShape[] = "dddd-dd-ddTdd:dd:dd";
  if (s.size() < sizeof kShape - 1) return false;
  for (std::size_t i = 0; i + 1 < sizeof kShape; ++i)
    if (kShape[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(s[i]))
                         : s[i] != kShape[i])
      return false;
  return true;
}

}  // namespace

bool output_usable(const Options& options) {
  if (options.output.empty()) return true;
  // The same rules as a run's -o (output.hpp): a regular file, a new file in
  // an existing directory, or a symbolic link to either, written through.
  std::string target, error;
  if (!resolve_output(options.output, target, error)) {
    std::cerr << "runner: error: " << error << "\n";
    return false;
  }
  std::error_code ec;
  for (const std::string& file : options.files)
    if (std::filesystem::equivalent(target, file, ec)) {
      std::cerr << "runner: error: -o '" << options.output
                << "' is the input file '" << file
                << "'; writing the page there would replace the results\n";
      return false;
    }
  return true;
}

bool write_output(const std::string& path, const std::string& text) {
  // Resolved again here: the path may have changed since output_usable.
  std::string target, error;
  if (!resolve_output(path, target, error)) {
    std::cerr << "runner: error: " << error << "\n";
    return false;
  }
  const std::string* pieces[] = {&text};
  error = fileio::replace_with(target, pieces, 1, false);
  if (error.empty()) return true;
  std::cerr << "runner: error: cannot write " << path << ": " << error << "\n";
  return false;
}

int command_trend(const Options& options) {
  // Under mpirun only rank 0 runs this (main.cpp, file_command).
  if (!output_usable(options)) return 2;
  std::vector<TrendRun> runs;
  bool ok = true;
  std::vector<std::string> seen;
  for (const std::string& file : options.files) {
    std::error_code ec;
    bool twice = false;
    for (const std::string& before : seen)
      twice = twice || std::filesystem::equivalent(before, file, ec);
    if (twice) {
      std::cerr << "runner: warning: '" << file
                << "' is given twice; the trend counts it once\n";
      continue;
    }
    seen.push_back(file);
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
      if (!looks_like_a_date(run.started))
        std::cerr << "runner: warning: " << file << ": start_time '"
                  << run.started
                  << "' is not a date (YYYY-MM-DDThh:mm:ssZ); the runs are "
                     "put in time order by it, so this one may be out of "
                     "place\n";
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
