// runner tune FILE... [-o FILE]: the winners of runner --algorithms runs as
// the file the MPI library loads (core/analysis/tuning/tuning.hpp), and the
// table of decisions. Needs no MPI.
#include <iostream>
#include <stdexcept>

#include "core/analysis/tuning/tuning.hpp"
#include "core/results/digest.hpp"
#include "core/results/text_file.hpp"
#include "runner/files/files.hpp"
#include "runner/reporters.hpp"

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

// The confirming launches are of the sweeps' library.
void check_libraries(const Tuning& t,
                     const std::vector<const std::vector<Document>*>& groups) {
  for (const auto* group : groups)
    for (const Document& d : *group) {
      const std::string& lib = d.context.mpi_library;
      if (lib.find(t.library) == std::string::npos)
        throw std::invalid_argument("a launch of " + lib +
                                    " confirms no file of " + t.library);
    }
}

// runner tune --format json's decisions, given back for the next pass.
bool is_decisions(const nlohmann::json& j) {
  return j.is_object() && j.contains("points") && j.contains("passes") &&
         !j.contains("records");
}

struct TuneInputs {
  std::vector<Document> sweeps, defaults, loaded;
  std::vector<std::string> loaded_names;
  nlohmann::json previous;  // an earlier pass's decisions, or null
};

// The files of runner tune by kind; false (and `status`) on a file that is
// unreadable, invalid or a second set of decisions.
bool read_inputs(const std::vector<std::string>& files, TuneInputs& in,
                 int& status) {
  for (const std::string& file : files) {
    nlohmann::json json;
    if (!read_results(file, json, status, 2, is_decisions)) return false;
    try {
      if (is_decisions(json)) {
        if (!in.previous.is_null())
          throw std::invalid_argument(
              "a second set of decisions; give the last pass's only");
        in.previous = std::move(json);
        continue;
      }
      Document d = document_from_json(json);
      if (!is_plain_launch(d)) {
        in.sweeps.push_back(std::move(d));
      } else if (d.context.tuning_file && *d.context.tuning_file) {
        in.loaded.push_back(std::move(d));
        in.loaded_names.push_back(file);
      } else {
        in.defaults.push_back(std::move(d));
      }
    } catch (const std::exception& e) {
      std::cerr << program_name() << ": error: " << file
                << ": invalid: " << e.what() << "\n";
      status = 2;
      return false;
    }
  }
  return true;
}

// The decisions and the file: tune on the sweeps, an earlier pass's
// decisions put back, then this pass's launches, which loaded the file
// that gives (each pass confirms one file; docs/tuning.md).
Tuning decide(const TuneInputs& in, const TuneOptions& o) {
  if (in.sweeps.empty())
    throw std::invalid_argument(
        "no run of runner --algorithms among the files: measure with "
        "runner --algorithms; launches without it only confirm its winners "
        "(docs/tuning.md)");
  Tuning t = tune(in.sweeps, o);
  if (!in.previous.is_null()) carry_decisions(t, in.previous);
  if (in.defaults.empty() && in.loaded.empty()) return t;
  check_libraries(t, {&in.defaults, &in.loaded});
  const std::string want = text_digest(tuning_file_text(t));
  for (std::size_t i = 0; i < in.loaded.size(); ++i) {
    const TuningFileContext& f = **in.loaded[i].context.tuning_file;
    if (f.digest != want)
      throw std::invalid_argument(
          in.loaded_names[i] + " loaded " + f.path +
          ", not the file these runs of --algorithms give (with the same "
          "--alpha and --threshold" +
          (in.previous.is_null() ? std::string() : " and the decisions given") +
          "): write it with runner tune RUNS... -o FILE, and launch with "
          "that FILE loaded");
  }
  confirm_pass(t, in.defaults, in.loaded, o);
  return t;
}

}  // namespace

int command_tune(const Options& options) {
  // -o FILE writes FILE and its table FILE.md: both checked before either
  // is written, so a refusal leaves nothing half done.
  Options table_output = options;
  if (!options.output.empty()) table_output.output += ".md";
  // The MPI library reads the tuning file, and reads no gzip data.
  if (gzip_name(options.output)) {
    std::cerr << program_name() << ": error: tune: -o '" << options.output
              << "': the MPI library loads the tuning file and cannot read "
                 "gzip data; give a name that does not end in .gz\n";
    return 2;
  }
  if (!output_usable(options) || !output_usable(table_output)) return 2;
  TuneInputs in;
  int status = 0;
  if (!read_inputs(distinct_files(options.files, "tune"), in, status))
    return status;
  const TuneOptions o{options.alpha, options.threshold};
  Tuning t;
  std::string file_text;
  try {
    t = decide(in, o);
    file_text = tuning_file_text(t);
  } catch (const std::exception& e) {  // also a selection table not JSON
    std::cerr << program_name() << ": error: tune: " << e.what() << "\n";
    return 2;
  }
  Printout out;
  out.json = [&] { return tuning_decisions(t, o); };
  out.tables = [&](Style style) {
    std::string text = render_tuning(t, style, o);
    if (options.output.empty())
      text += "\n(no -o FILE: the " + t.library +
              " tuning file is not written)\n";
    return text;
  };
  const Reporter& format = reporter(options.format);
  std::cout << format.render(out);
  if (options.output.empty()) return 0;
  // Both or neither (a table that could not be written must not leave the
  // file replaced).
  if (!write_outputs(
          {{options.output, file_text},
           {options.output + ".md", render_tuning(t, Style::markdown, o)}}))
    return 2;
  // Beside data (JSON) on stdout, what was written is said on stderr.
  (format.machine_read() ? std::cerr : std::cout)
      << "\n"
      << t.library << " tuning file written to " << options.output
      << " (its table: " << options.output << ".md); load it with\n  "
      << how_to_load(t.library, options.output) << "\n";
  if (!t.settled)
    std::cerr << program_name()
              << ": warning: tune: not settled: " << options.output
              << " is not the file the last launches loaded; confirm it "
                 "in another pass (the table's last line says how)\n";
  return 0;
}

}  // namespace mpiarena
