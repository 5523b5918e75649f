// runner compare BASE NEW: the CI regression gate. Needs no MPI.
#include "compare.hpp"

#include <iostream>

#include "compare_text.hpp"
#include "files.hpp"
#include "formats.hpp"

namespace mpiarena {

int command_compare(const Options& options) {
  // Under mpirun only rank 0 runs this (main.cpp, file_command).
  Document docs[2];
  bool ok = true;
  for (int i = 0; i < 2; ++i) {
    nlohmann::json json;
    int status = 0;
    if (!read_results(options.files[i], json, status, 2)) {
      ok = false;
      continue;
    }
    try {
      docs[i] = document_from_json(json);
    } catch (const std::exception& e) {
      std::cerr << program_name() << ": error: " << options.files[i]
                << ": invalid: " << e.what() << "\n";
      ok = false;
    }
  }
  if (!ok) return 2;  // read_results said why
  const Comparison c = compare_documents(
      docs[0], docs[1],
      CompareOptions{options.threshold, options.alpha, options.relative});
  // A gate that compared nothing must not pass (exit 2): the files measured
  // other methods, sizes or rank counts, or one has no record at all.
  const int code = c.exit_code();
  if (options.format == "json") {
    nlohmann::json j = to_json(c);
    j["base"] = options.files[0];
    j["new"] = options.files[1];
    std::cout << j.dump(1) << "\n";
    for (const std::string& w : c.warnings)
      std::cerr << program_name() << ": warning: " << w << "\n";
  } else {
    std::cout << render_comparison(
        c, options.files[0], options.files[1],
        options.format == "markdown" ? Style::markdown : Style::text);
  }
  if (c.points.empty())
    std::cerr << program_name() << ": error: " << options.files[0] << " and "
              << options.files[1]
              << " share no point: nothing was compared; exit 2.\n";
  return code;
}

}  // namespace mpiarena
