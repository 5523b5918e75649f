// Internal: text from a result file or a plugin made safe to print (a
// terminal, a markdown table, an HTML page that must be well-formed XML).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace mpiarena {

// `text` with what a reader must not receive raw spelt out: C0 control
// characters (tab and newline too: a table cell is one line) and DEL as
// `\xHH`, C1 controls and the noncharacters U+FFFE and U+FFFF as `\uHHHH`,
// bytes that are not UTF-8 as `\xHH`. Everything else is kept as is, so
// text without those is returned unchanged.
std::string printable(const std::string& text);

// Whether printable(text) == text.
bool is_printable(const std::string& text);

// Every string of `doc`, keys included, made printable. Returns how many
// strings changed.
std::size_t make_printable(nlohmann::json& doc);

}  // namespace mpiarena
