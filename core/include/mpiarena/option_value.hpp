// The one reading of a method's option value as a number (plugin.hpp's
// OptionInfo, RunContext::option_int and option_number).
#pragma once

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

namespace mpiarena {

// The one reading of an option's value as a number: the runner's check of
// --set and of a default (before anything is measured) and the plugin's
// RunContext::option_int/option_number below, so that a value the check
// passed is a value the plugin reads (4.9e-324 once passed the check and
// then failed std::stod mid-run). The whole text, in C locale, finite.
inline bool parse_option_integer(const std::string& text, long long& out) {
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, out);
  return !text.empty() && r.ec == std::errc() && r.ptr == end;
}
inline bool parse_option_number(const std::string& text, double& out) {
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, out);
  return !text.empty() && r.ec == std::errc() && r.ptr == end &&
         std::isfinite(out);
}

}  // namespace mpiarena
