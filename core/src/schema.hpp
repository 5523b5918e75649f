// Validation of result documents against schemas/results.schema.json
// (compiled into the library).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mpiarena {

const nlohmann::json& results_schema();

// Empty when `doc` is valid; otherwise one line per violation, with its path.
std::vector<std::string> validate_results(const nlohmann::json& doc);

// Validates, then writes `doc` to `path` atomically (temporary file in the
// same directory, then rename), so a crash never leaves a half-written file.
// Throws std::runtime_error (with the violations) when invalid or unwritable.
void write_results(const nlohmann::json& doc, const std::string& path);

}  // namespace mpiarena
