// Validation of result documents against schemas/results.schema.json
// (compiled into the library).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mpiarena {

const nlohmann::json& results_schema();

// Empty when `doc` is valid; otherwise one line per violation, with its path.
// Beyond the schema, the cache check (docs/formats.md, "Measured and
// derived"): a record's summaries, derived figures, agree with its samples,
// measured ones (record_contradictions), so no reader takes a change from
// one and its p from the other.
std::vector<std::string> validate_results(const nlohmann::json& doc);

// A record (already valid against the schema) whose time_s, or a phase's
// or part's, contradicts the samples it summarizes (min, median, mean, max
// of samples_s.max): one line per figure, "<where>[time_s][median]: ...".
std::vector<std::string> record_contradictions(const nlohmann::json& record,
                                               const std::string& where);

// The same against one of the schema's definitions ("record", "skip"...):
// what the result writer checks of each new item instead of revalidating the
// whole document. Throws std::invalid_argument for an unknown definition.
std::vector<std::string> validate_definition(const nlohmann::json& value,
                                             const std::string& definition);

// Validates, then writes `doc` to `path` atomically (unique temporary file in
// the same directory, then rename), so a crash never leaves a half-written
// file; a symbolic link is written through (output.hpp, resolve_output).
// Throws std::runtime_error (with the violations, or what failed and the
// system's reason) when invalid or unwritable; `path` is then unchanged and
// no temporary file is left. The runner writes through ResultFile instead.
void write_results(const nlohmann::json& doc, const std::string& path);

}  // namespace mpiarena
