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

nlohmann::json decisions_json(const Tuning& t, const TuneOptions& o) {
  nlohmann::json points = nlohmann::json::array();
  for (const TuningPoint& p : t.points) {
    nlohmann::json j = {
        {"collective", p.collective},
        {"method", p.method},
        {"ranks", p.ranks},
        {"size", p.size_label},
        {"bytes", p.block},
        {"library_message_size", library_message_size(t.library, p)},
        {"own_choice", p.own_choice},
        {"library_s", p.library_s},
        {"compared", p.compared}};
    if (p.winner.empty()) {
      j["why"] = p.why;
    } else {
      j["winner"] = {{"name", p.winner}, {"value", p.value}};
      j["winner_s"] = p.winner_s;
      j["factor"] = p.factor;
      j["claimed"] = p.claimed;
      j["p_holm"] = p.p;
    }
    points.push_back(j);
  }
  return {{"library", t.library},
          {"alpha", o.alpha},
          {"threshold", o.threshold},
          {"points", points}};
}

}  // namespace

int command_tune(const Options& options) {
  // -o FILE writes FILE and its table FILE.md: both checked before either
  // is written, so a refusal leaves nothing half done.
  Options table_output = options;
  if (!options.output.empty()) table_output.output += ".md";
  if (!output_usable(options) || !output_usable(table_output)) return 2;
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
  } catch (const std::exception& e) {  // also a selection table not JSON
    std::cerr << program_name() << ": error: tune: " << e.what() << "\n";
    return 2;
  }
  if (options.format == "json")
    std::cout << decisions_json(t, o).dump(1) << "\n";
  else
    std::cout << render_tuning(
        t, options.format == "markdown" ? Style::markdown : Style::text, o);
  if (options.output.empty()) {
    if (options.format != "json")
      std::cout << "\n(no -o FILE: the " << t.library
                << " tuning file is not written)\n";
    return 0;
  }
  if (!write_output(options.output, file_text) ||
      !write_output(options.output + ".md",
                    render_tuning(t, Style::markdown, o)))
    return 2;
  (options.format == "json" ? std::cerr : std::cout)
      << "\n"
      << t.library << " tuning file written to " << options.output
      << " (its table: " << options.output << ".md); load it with\n  "
      << how_to_load(t.library, options.output) << "\n";
  return 0;
}

}  // namespace mpiarena
