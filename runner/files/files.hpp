// The file commands: validate, report, compare, trend and tune read result
// files and print. They need no MPI, so the runner and mpiarena-files (a tool
// for machines without MPI, files_main.cpp) both run them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/compare/compare.hpp"
#include "core/results/records.hpp"
#include "runner/options.hpp"

namespace mpiarena {

// The name every message of the file commands starts with ("runner: error:
// ..."): "runner" unless set.
const std::string& program_name();
void set_program_name(std::string name);

// Reads `file` and validates it against the schema. On failure prints why
// on stderr, raises `status` (2: unreadable; `invalid`: not JSON or not a
// valid document: validate says 1, the answer; report and compare say 2,
// bad input) and returns false. A document `other_kind` accepts is read
// without the schema (the caller checks it).
bool read_results(const std::string& file, nlohmann::json& doc, int& status,
                  int invalid,
                  bool (*other_kind)(const nlohmann::json&) = nullptr);
// As read_results, with the document's strings as the file holds them,
// not made printable: the results store keeps them so.
bool read_results_as_held(const std::string& file, nlohmann::json& doc,
                          int& status, int invalid);
// Whether read_results prints the schema's whole trace for an invalid
// document (--log-level debug) or its innermost problems only.
void show_all_validation_errors(bool all);

// The files of one pool (a side's launches, tune's runs, a trend's nights)
// each once: a file given again, by its path, through a link or as a copy
// (the same JSON content: no two launches write the same), is left out with
// a warning on stderr naming the one kept; their order is kept. One
// launch counted twice would shrink every p-value.
std::vector<std::string> distinct_files(const std::vector<std::string>& files,
                                        const std::string& pool);

// Whether report's or trend's -o may be written: not a directory, not one
// of the input files. Says why on stderr when not.
bool output_usable(const Options& options);
// Writes `text` to `path` (report and trend -o): through a temporary file
// renamed into place, so a reader never sees half a page; as gzip data when
// `path` ends in .gz. On failure says why on stderr and returns false.
bool write_output(const std::string& path, const std::string& text);
// Several files written together, all or none (runner tune's FILE and
// FILE.md: fileio::replace_together).
bool write_outputs(
    const std::vector<std::pair<std::string, std::string>>& files);

// compare's judgement as the options say, for `procedure`: --correction,
// else Holm for one file of runner ab and for launches, none for BASE NEW.
CompareOptions compare_options(const Options& options, Procedure procedure);

int command_validate(const Options& options);
int command_report(const Options& options);
int command_compare(const Options& options);
int command_trend(const Options& options);
int command_tune(const Options& options);
int command_history(const Options& options);
// trend --db STORE: the trend of the store's runs (each TrendRun's file "run
// N"), with history's change points marked. Says why on stderr and returns
// false when the store cannot be read.
struct Trend;
bool store_trend(const Options& options, Trend& out);

}  // namespace mpiarena
