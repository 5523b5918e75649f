// runner tune FILE... [-o FILE]: the winners of runner --algorithms runs as
// the file the MPI library loads (core/analysis/tuning.hpp), and the table
// of decisions. Needs no MPI.
#include <iostream>
#include <stdexcept>

#include "digest.hpp"
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

std::string library_file(const Tuning& t) {
  return t.library == "MPICH" ? mpich_selection(t) : openmpi_rules(t);
}

// The confirming launches are of the sweeps' library, and those with a
// file loaded loaded the one the sweeps give.
void check_launches(const Tuning& t, const std::vector<Document>& defaults,
                    const std::vector<Document>& loaded,
                    const std::vector<std::string>& names,
                    const std::string& file_text) {
  for (const auto* group : {&defaults, &loaded})
    for (const Document& d : *group) {
      const std::string lib = d.context.value("mpi_library", "");
      if (lib.find(t.library) == std::string::npos)
        throw std::invalid_argument("a launch of " + lib +
                                    " confirms no file of " + t.library);
    }
  const std::string want = text_digest(file_text);
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    const nlohmann::json& f = loaded[i].context["tuning_file"];
    if (f.value("digest", "") != want)
      throw std::invalid_argument(
          names[i] + " loaded " + f.value("path", "?") +
          ", not the file these runs of --algorithms give (with the same "
          "--alpha and --threshold): write it with runner tune RUNS... -o "
          "FILE, and launch with that FILE loaded");
  }
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
    if (p.confirming)
      j["confirmation"] = {{"candidate", p.candidate},
                           {"factor", p.launch_factor},
                           {"at_least", p.launch_claimed},
                           {"p", p.launch_p}};
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
          {"launches",
           {{"default", t.default_launches}, {"file", t.file_launches}}},
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
  std::vector<Document> sweeps, defaults, loaded;
  std::vector<std::string> loaded_names;
  for (const std::string& file : options.files) {
    nlohmann::json json;
    int status = 0;
    if (!read_results(file, json, status, 2)) return status;
    try {
      Document d = document_from_json(json);
      if (!is_plain_launch(d)) {
        sweeps.push_back(std::move(d));
      } else if (d.context.value("tuning_file", nlohmann::json()).is_object()) {
        loaded.push_back(std::move(d));
        loaded_names.push_back(file);
      } else {
        defaults.push_back(std::move(d));
      }
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
    if (sweeps.empty())
      throw std::invalid_argument(
          "no run of runner --algorithms among the files: measure with "
          "runner --algorithms; launches without it only confirm its winners "
          "(docs/tuning.md)");
    t = tune(sweeps, o);
    file_text = library_file(t);
    if (!defaults.empty() || !loaded.empty()) {
      check_launches(t, defaults, loaded, loaded_names, file_text);
      confirm(t, defaults, loaded, o);
      file_text = library_file(t);
    }
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
