// Internal to the results library: the parts of a record's JSON that have
// their own shape (schemas/results.schema.json): the noise of its samples
// and its window timing.
#pragma once

#include <nlohmann/json.hpp>

#include "core/results/records.hpp"

namespace mpiarena {

nlohmann::json noise_json(const Noise& noise);
Noise noise_from(const nlohmann::json& n);

// Only for a windowed record (SyncTiming::windowed).
nlohmann::json sync_json(const SyncTiming& s);
SyncTiming sync_from(const nlohmann::json& j);

}  // namespace mpiarena
