// The line under a group's table that holds its records against the
// machine's copy limit (report_text.hpp, docs/methodology.md).
#include <mpiarena/sizes.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/report/report_text.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

namespace {

// "shm 0.93 (2 copies)", "raw 0.41 (1 copy, one core)"; "bcast (copies not
// declared)".
std::string reached(const Record& r) {
  const CopyLimit& c = r.copy_limit;
  if (c.copies == 0 || c.fraction_of.empty())
    return r.method + " (copies not declared)";
  std::string out = r.method + " " + fixed(c.fraction, 2) + " (" +
                    std::to_string(c.copies) +
                    (c.copies == 1 ? " copy" : " copies");
  if (c.fraction_of == "one_core") out += ", one core";
  return out + ")";
}

}  // namespace

std::string copy_limit_lines(const std::vector<const Record*>& recs,
                             Style style) {
  // One line per byte count, in the order of the records.
  std::vector<std::size_t> sizes;
  for (const Record* r : recs) {
    const std::size_t b = r->copy_limit.bytes;
    if (b == 0) continue;
    bool seen = false;
    for (std::size_t s : sizes) seen = seen || s == b;
    if (!seen) sizes.push_back(b);
  }
  std::ostringstream out;
  const char* item = style == Style::markdown ? "\n- " : "  ";
  for (std::size_t bytes : sizes) {
    const CopyLimit* limit = nullptr;
    std::string methods;
    for (const Record* r : recs) {
      if (r->copy_limit.bytes != bytes) continue;
      if (limit == nullptr) limit = &r->copy_limit;
      methods += (methods.empty() ? "" : ", ") + reached(*r);
    }
    out << item << "copy limit at " << format_bytes(static_cast<double>(bytes))
        << ": " << format_rate(limit->one_core_Bps) << " one core, "
        << format_rate(limit->all_ranks_Bps) << " " << limit->node_ranks
        << " ranks at once; reached: " << methods << "\n";
  }
  return out.str();
}

}  // namespace mpiarena
