// Checks of a StrategyInfo at load (suite_info.hpp).
#include <cmath>
#include <set>

#include "suite_info.hpp"

namespace mpiarena {

namespace {

bool valid_name(const std::string& s, std::size_t max = 32) {
  if (s.empty() || s.size() > max) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Names of `field`: valid, unique, at most `max` of them.
std::string check_names(const std::string& field,
                        const std::vector<std::string>& names,
                        std::size_t max) {
  if (names.size() > max)
    return field + " declares " + std::to_string(names.size()) +
           " names, at most " + std::to_string(max) + " are accepted";
  std::set<std::string> seen;
  for (const std::string& n : names) {
    if (!valid_name(n))
      return field + " has '" + n +
             "': names are 1 to 32 characters of [a-z0-9_]";
    if (!seen.insert(n).second) return field + " names '" + n + "' twice";
  }
  return {};
}

}  // namespace

std::string check_strategy_info(const StrategyInfo& info) {
  if (!valid_name(info.name))
    return "name '" + info.name +
           "' is not accepted: 1 to 32 characters of [a-z0-9_]";
  const std::string who = "method '" + info.name + "': ";
  const std::vector<std::string>* payloads = nullptr;
  std::vector<std::string> suites;
  for (const auto& [suite, known] : known_suites()) {
    suites.push_back(suite);
    if (suite == info.suite) payloads = &known;
  }
  if (!payloads)
    return who + "suite '" + info.suite +
           "' is not a suite this runner knows (" + join(suites) + ")";
  if (info.payloads.empty())
    return who + "payloads is empty; suite " + info.suite + " knows " +
           join(*payloads);
  for (const std::string& p : info.payloads) {
    bool ok = false;
    for (const std::string& k : *payloads) ok = ok || k == p;
    if (!ok)
      return who + "payload '" + p + "' is not one suite " + info.suite +
             " knows (" + join(*payloads) + ")";
  }
  if (!std::isfinite(info.time_scale) || info.time_scale <= 0)
    return who + "time_scale " + std::to_string(info.time_scale) +
           " is not accepted: a finite number > 0";
  if (info.min_ranks < 1)
    return who + "min_ranks " + std::to_string(info.min_ranks) +
           " is not accepted: 1 or more";
  if (info.payload_copies < 0)
    return who + "payload_copies " + std::to_string(info.payload_copies) +
           " is not accepted: 0 or more";
  if (std::string e =
          check_names("phases", info.phases,
                      static_cast<std::size_t>(PhaseTimer::kMaxPhases));
      !e.empty())
    return who + e;
  if (std::string e = check_names("parts", info.parts, 16); !e.empty())
    return who + e;
  if (!info.headline.empty()) {
    bool ok = false;
    for (const std::string& p : info.parts) ok = ok || p == info.headline;
    if (!ok)
      return who + "headline '" + info.headline +
             "' is not one of its parts (" + join(info.parts) + ")";
  }
  std::vector<std::string> metric_names;
  for (const MetricInfo& m : info.metrics) {
    metric_names.push_back(m.name);
    if (m.unit.empty())
      return who + "metric '" + m.name +
             "' has no unit (say \"%\", \"msg/s\"...)";
    if (!m.compute) return who + "metric '" + m.name + "' has no formula";
  }
  if (std::string e = check_names("metrics", metric_names, 16); !e.empty())
    return who + e;
  std::vector<std::string> keys;
  for (const auto& [key, value] : info.params) {
    keys.push_back(key);
    if (!valid_name(value))
      return who + "params '" + key + "' has the value '" + value +
             "': values are 1 to 32 characters of [a-z0-9_]";
  }
  if (std::string e = check_names("params", keys, 16); !e.empty())
    return who + e;
  if (info.matrix_row.empty() != info.matrix_column.empty())
    return who +
           "matrix_row and matrix_column go together: set both or neither";
  for (const std::string* axis : {&info.matrix_row, &info.matrix_column}) {
    if (axis->empty()) continue;
    bool ok = false;
    for (const std::string& k : keys) ok = ok || k == *axis;
    if (!ok)
      return who + "matrix axis '" + *axis + "' is not one of its params (" +
             join(keys) + ")";
  }
  if (!info.matrix_row.empty() && info.matrix_row == info.matrix_column)
    return who + "matrix_row and matrix_column are both '" + info.matrix_row +
           "'; they must name two different params";
  if (info.fixed_bytes > (std::size_t{1} << 30))
    return who + "fixed_bytes " + std::to_string(info.fixed_bytes) +
           " is not accepted: at most 1 GiB";
  for (char c : info.version)
    if (c < 0x20 || c > 0x7e)
      return who + "version holds a control or non-ASCII character";
  if (info.version.size() > 64)
    return who + "version is longer than 64 characters";
  return {};
}

}  // namespace mpiarena
