// runner compare BASE NEW: the CI regression gate. Needs no MPI.
#include "compare.hpp"

#include <iostream>

#include "commands.hpp"
#include "formats.hpp"

namespace mpiarena {

int command_compare(const Options& options) {
  // Under mpirun every rank reaches the same verdict; rank 0 prints it.
  const bool printer = launcher_rank() == 0;
  std::streambuf* saved = std::cerr.rdbuf();
  if (!printer) std::cerr.rdbuf(nullptr);  // silent (badbit) until restored
  Document docs[2];
  bool ok = true;
  for (int i = 0; i < 2; ++i) {
    nlohmann::json json;
    int status = 0;
    if (!read_results(options.files[i], json, status)) {
      ok = false;
      continue;
    }
    try {
      docs[i] = document_from_json(json);
    } catch (const std::exception& e) {
      std::cerr << options.files[i] << ": invalid: " << e.what() << "\n";
      ok = false;
    }
  }
  std::cerr.rdbuf(saved);  // clears badbit too
  if (!ok) {
    if (printer)
      std::cerr << "runner: error: compare needs two valid result files; "
                   "exit 2.\n";
    return 2;
  }
  const Comparison c = compare_documents(
      docs[0], docs[1], CompareOptions{options.threshold, options.alpha});
  // A gate that compared nothing must not pass (exit 2): the files measured
  // other methods, sizes or rank counts, or one has no record at all.
  const int code = c.exit_code();
  if (!printer) return code;
  if (options.format == "json") {
    nlohmann::json j = to_json(c);
    j["base"] = options.files[0];
    j["new"] = options.files[1];
    std::cout << j.dump(1) << "\n";
    for (const std::string& w : c.warnings)
      std::cerr << "runner: warning: " << w << "\n";
  } else {
    std::cout << render_comparison(
        c, options.files[0], options.files[1],
        options.format == "markdown" ? Style::markdown : Style::text);
  }
  if (c.points.empty())
    std::cerr << "runner: error: " << options.files[0] << " and "
              << options.files[1]
              << " share no point (same suite, method, payload, ranks and "
                 "bytes): nothing was compared; exit 2.\n";
  return code;
}

}  // namespace mpiarena
