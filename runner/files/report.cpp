// runner report FILE: the ranked tables, the best-method summary, the page
// of charts, or the records as CSV or gbench. Needs no MPI.
#include "core/analysis/report/report.hpp"

#include <iostream>
#include <map>

#include "core/analysis/html/report_html.hpp"
#include "core/results/point_key.hpp"
#include "runner/files/files.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

int command_report(const Options& options) {
  if (!output_usable(options)) return 2;
  nlohmann::json json;
  int status = 0;
  if (!read_results(options.files.front(), json, status, 2)) return status;
  Document doc;
  try {
    doc = document_from_json(json);
  } catch (const std::exception& e) {
    std::cerr << program_name() << ": error: " << options.files.front()
              << ": invalid: " << e.what() << "\n";
    return 2;
  }
  {
    // Two records of one point (files concatenated by hand, a run edited):
    // each is shown, but the reader should know.
    std::map<std::string, int> times;
    for (const Record& r : doc.records) ++times[point_name(point_key(r))];
    for (const auto& [name, n] : times)
      if (n > 1)
        std::cerr << program_name() << ": warning: " << options.files.front()
                  << " has " << name << " " << n
                  << " times; the report shows every record of it\n";
  }
  const nlohmann::json summary = compute_summary(doc);
  const std::string& file = options.files.front();
  Printout out;
  out.json = [&] { return summary; };
  out.tables = [&](Style style) {
    return render_report(doc, summary, style, options.per_rank,
                         options.percentiles);
  };
  out.document = &doc;
  out.summary = &summary;
  out.source = file;
  out.osu_columns = options.osu_columns;
  out.page = [&] { return render_html(doc, summary, file); };
  const std::string text = reporter(options.format).render(out);
  if (options.output.empty()) {
    std::cout << text;
    return 0;
  }
  if (!write_output(options.output, text)) return 2;
  std::cerr << program_name() << ": report written to " << options.output
            << "\n";
  return 0;
}

}  // namespace mpiarena
