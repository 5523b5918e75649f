// runner tune FILE... [-o FILE]: the winners of runner --algorithms runs as
// the file the MPI library loads (core/analysis/tuning.hpp), and the table
// of decisions. Needs no MPI.
#include <iostream>

#include "files.hpp"
#include "tuning.hpp"

namespace mpiarena {

namespace {

std::string how_to_load(const std::string& library, const std::string& file) {
  if (library == "MPICH")
    return "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=" + file +
           " mpiexec ... (or -genv MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE " +
           file + ")";
  return "mpirun --mca coll_tuned_use_dynamic_rules 1 --mca "
         "coll_tuned_dynamic_rules_filename " +
         file +
         " ... (or OMPI_MCA_coll_tuned_use_dynamic_rules=1 "
         "OMPI_MCA_coll_tuned_dynamic_rules_filename=" +
         file + ")";
}

}  // namespace

int command_tune(const Options& options) {
  if (!output_usable(options)) return 2;
  std::vector<Document> docs;
  for (const std::string& file : options.files) {
    nlohmann::json json;
    int status = 0;
    if (!read_results(file, json, status, 2)) return status;
    try {
      docs.push_back(document_from_json(json));
    } catch (const std::exception& e) {
      std::cerr << program_name() << ": error: " << file
                << ": invalid: " << e.what() << "\n";
      return 2;
    }
  }
  const TuneOptions o{options.alpha, options.threshold};
  Tuning t;
  std::string file_text;
  try {
    t = tune(docs, o);
    file_text = t.library == "MPICH" ? mpich_selection(t) : openmpi_rules(t);
  } catch (const std::invalid_argument& e) {
    std::cerr << program_name() << ": error: tune: " << e.what() << "\n";
    return 2;
  }
  const Style style =
      options.format == "markdown" ? Style::markdown : Style::text;
  const std::string table = render_tuning(t, style, o);
  std::cout << table;
  if (options.output.empty()) {
    std::cout << "\n(no -o FILE: the " << t.library
              << " tuning file is not written)\n";
    return 0;
  }
  if (!write_output(options.output, file_text) ||
      !write_output(options.output + ".md",
                    render_tuning(t, Style::markdown, o)))
    return 2;
  std::cout << "\n"
            << t.library << " tuning file written to " << options.output
            << " (its table: " << options.output << ".md); load it with\n  "
            << how_to_load(t.library, options.output) << "\n";
  return 0;
}

}  // namespace mpiarena
