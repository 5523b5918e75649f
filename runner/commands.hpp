// The runner's commands.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "options.hpp"
#include "records.hpp"
#include "registry.hpp"

namespace mpiarena {

// This process's rank as the launcher announces it (Open MPI, PMIx, PMI,
// Slurm), for printing before MPI is initialised; 0 when not launched.
int launcher_rank();
// Whether a launcher (mpirun, srun) started this process.
bool under_launcher();

std::string executable_dir();

// Loads the plugins from the default directories and --plugin-dir. Fills
// `errors` with what must stop the run (a missing --plugin-dir) and
// `warnings` with what is only reported (a broken plugin file).
void load_plugins(Registry& registry, const Options& options,
                  std::vector<std::string>& errors,
                  std::vector<std::string>& warnings);

// Reads `file` and validates it against the schema. On failure prints why
// on stderr, raises `status` (2: unreadable; `invalid`: not JSON or not a
// valid document: validate says 1, the answer; report and compare say 2,
// bad input) and returns false.
bool read_results(const std::string& file, nlohmann::json& doc, int& status,
                  int invalid);

// What `run` and `report` print for --format csv or gbench; empty for the
// other formats.
std::string export_document(const Document& doc, const std::string& format);

int command_list(const Options& options);
int command_help_method(const Options& options);
int command_validate(const Options& options);
int command_report(const Options& options);
int command_compare(const Options& options);
int command_trend(const Options& options);

// Whether report's or trend's -o may be written: not a directory, not one
// of the input files. Says why on stderr when not.
bool output_usable(const Options& options);
// Whether read_results prints the schema's whole trace for an invalid
// document (--log-level debug) or its innermost problems only.
void show_all_validation_errors(bool all);
// Writes `text` to `path` (report and trend -o): through a temporary file
// renamed into place, so a reader never sees half a page. On failure says
// why on stderr and returns false.
bool write_output(const std::string& path, const std::string& text);
int command_run(const Options& options, int argc, char** argv);

}  // namespace mpiarena
