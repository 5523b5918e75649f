// runner trend FILE...: each point's median across runs, and the changes
// compare's test finds between consecutive runs. Needs no MPI.
#include "core/analysis/trend/trend.hpp"

#include <iostream>

#include "core/analysis/html/report_html.hpp"
#include "core/results/dates.hpp"
#include "core/results/file_io.hpp"
#include "core/results/formats.hpp"
#include "runner/files/files.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

int write_trend(const Options& options, const Trend& t);

int command_trend(const Options& options) {
  // Under mpirun only rank 0 runs this (main.cpp, file_command).
  if (!output_usable(options)) return 2;
  if (!options.db.empty()) {
    Trend t;
    if (!store_trend(options, t)) return 2;
    return write_trend(options, t);
  }
  std::vector<TrendRun> runs;
  bool ok = true;
  for (const std::string& file : distinct_files(options.files, "trend")) {
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
      run.started = run.doc.context.start_time;
      if (!is_start_time(run.started))
        std::cerr << program_name() << ": warning: " << file << ": start_time '"
                  << run.started
                  << "' is not a date (YYYY-MM-DDThh:mm:ssZ); the runs are "
                     "put in time order by it, so this one may be out of "
                     "place\n";
      runs.push_back(std::move(run));
    } catch (const std::exception& e) {
      std::cerr << program_name() << ": error: " << file
                << ": invalid: " << e.what() << "\n";
      ok = false;
    }
  }
  if (!ok) return 2;  // read_results said why
  const Trend t = compute_trend(
      std::move(runs),
      CompareOptions{options.threshold, options.alpha, options.relative},
      options.by_library);
  return write_trend(options, t);
}

int write_trend(const Options& options, const Trend& t) {
  Printout out;
  out.json = [&] { return to_json(t); };
  out.tables = [&](Style style) { return render_trend(t, style); };
  out.page = [&] { return render_trend_html(t); };
  const std::string text = reporter(options.format).render(out);
  if (options.output.empty()) {
    std::cout << text;
    return 0;
  }
  if (!write_output(options.output, text)) return 2;
  std::cerr << program_name() << ": trend of " << t.runs.size()
            << " runs written to " << options.output << "\n";
  return 0;
}

}  // namespace mpiarena
