// Internal: a short digest of a text (which file a launch loaded).
#pragma once

#include <string>

namespace mpiarena {

// FNV-1a (64 bits) of `text` as 16 hex digits: which file a launch loaded
// (the context's tuning_file), not a guard against tampering.
std::string text_digest(const std::string& text);

}  // namespace mpiarena
