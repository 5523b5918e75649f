// The file commands: validate, report, compare, trend and tune read result
// files and print. They need no MPI, so the runner and mpiarena-files (a tool
// for machines without MPI, files_main.cpp) both run them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "compare.hpp"
#include "options.hpp"
#include "records.hpp"

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
// Whether read_results prints the schema's whole trace for an invalid
// document (--log-level debug) or its innermost problems only.
void show_all_validation_errors(bool all);

// What `run` and `report` print for --format csv or gbench; empty for the
// other formats.
std::string export_document(const Document& doc, const std::string& format);

// Whether report's or trend's -o may be written: not a directory, not one
// of the input files. Says why on stderr when not.
bool output_usable(const Options& options);
// Writes `text` to `path` (report and trend -o): through a temporary file
// renamed into place, so a reader never sees half a page. On failure says
// why on stderr and returns false.
bool write_output(const std::string& path, const std::string& text);

// compare's judgement as the options say, for `procedure`: --correction,
// else Holm for one file of runner ab and for launches, none for BASE NEW.
CompareOptions compare_options(const Options& options, Procedure procedure);

int command_validate(const Options& options);
int command_report(const Options& options);
int command_compare(const Options& options);
int command_trend(const Options& options);
int command_tune(const Options& options);

}  // namespace mpiarena
