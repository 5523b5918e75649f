// What sizes.cpp and size_units.cpp share: blanks trimmed, lower case, and
// the error every size item throws. Pure; no MPI.
#pragma once

#include <string>

namespace mpiarena {

std::string trim_blanks(const std::string& s);
std::string lower_case(std::string s);
// Throws SizeSpecError: "invalid size 'ITEM': WHY. Accepted: <syntax>".
[[noreturn]] void bad_size(const std::string& item, const std::string& why);

}  // namespace mpiarena
