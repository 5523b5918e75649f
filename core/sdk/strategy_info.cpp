// Checks of a StrategyInfo at load (suite_info.hpp).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <system_error>

#include "core/sdk/suite_info.hpp"

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

bool valid_choice(const std::string& s) {
  if (s.empty() || s.size() > 32) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '.' || c == '-'))
      return false;
  return true;
}

std::string number_text(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// Every option: name, type, range or choices, a default it accepts.
std::string check_options(const StrategyInfo& info) {
  if (info.options.size() > 8)
    return "options declares " + std::to_string(info.options.size()) +
           " options, at most 8 are accepted";
  std::set<std::string> seen, params;
  for (const auto& kv : info.params) params.insert(kv.first);
  for (const OptionInfo& o : info.options) {
    if (!valid_name(o.name))
      return "option '" + o.name +
             "': names are 1 to 32 characters of [a-z0-9_]";
    if (!seen.insert(o.name).second)
      return "options names '" + o.name + "' twice";
    if (params.count(o.name))
      return "option '" + o.name + "' is also a key of params";
    const std::string who = "option '" + o.name + "': ";
    if (o.type == OptionInfo::Type::choice) {
      if (o.choices.empty()) return who + "a choice needs its choices";
      std::set<std::string> distinct;
      for (const std::string& c : o.choices) {
        if (!valid_choice(c))
          return who + "choice '" + c + "': 1 to 32 characters of [a-z0-9_.-]";
        if (!distinct.insert(c).second)
          return who + "choice '" + c + "' is listed twice";
      }
    } else {
      if (!std::isfinite(o.min) || !std::isfinite(o.max) || o.min > o.max)
        return who + "min and max must be finite numbers, min <= max";
      if (o.type == OptionInfo::Type::integer &&
          (o.min != std::floor(o.min) || o.max != std::floor(o.max) ||
           std::fabs(o.min) > 1e15 || std::fabs(o.max) > 1e15))
        return who +
               "an integer option's min and max must be integers "
               "within +-1e15";
    }
    if (option_value(o, o.default_value).empty())
      return who + "the default '" + o.default_value +
             "' is not accepted: " + option_accepts(o);
    if (o.help.size() > 200) return who + "help is longer than 200 characters";
  }
  return {};
}

}  // namespace

std::string option_accepts(const OptionInfo& o) {
  if (o.type == OptionInfo::Type::choice) return "one of " + join(o.choices);
  return std::string(o.type == OptionInfo::Type::integer ? "an integer"
                                                         : "a number") +
         " from " + number_text(o.min) + " to " + number_text(o.max);
}

std::string option_value(const OptionInfo& o, const std::string& value) {
  if (o.type == OptionInfo::Type::choice) {
    for (const std::string& c : o.choices)
      if (c == value) return value;
    return {};
  }
  if (value.empty() || value.size() > 32) return {};
  if (o.type == OptionInfo::Type::integer) {
    long long i = 0;
    if (!parse_option_integer(value, i)) return {};
    const double v = static_cast<double>(i);
    if (v < o.min || v > o.max) return {};
    return std::to_string(i);
  }
  double v = 0;
  if (!parse_option_number(value, v) || v < o.min || v > o.max) return {};
  // What the plugin will read is this text, read by the same parser.
  const std::string text = number_text(v);
  double again = 0;
  if (!parse_option_number(text, again) || again != v) return {};
  return text;
}

namespace {

// The suite is one the core knows, and each payload one it knows.
std::string check_suite(const StrategyInfo& info) {
  const std::vector<std::string>* payloads = nullptr;
  std::vector<std::string> suites;
  for (const auto& [suite, known] : known_suites()) {
    suites.push_back(suite);
    if (suite == info.suite) payloads = &known;
  }
  if (!payloads)
    return "suite '" + info.suite + "' is not a suite this runner knows (" +
           join(suites) + ")";
  if (info.payloads.empty())
    return "payloads is empty; suite " + info.suite + " knows " +
           join(*payloads);
  for (const std::string& p : info.payloads) {
    bool ok = false;
    for (const std::string& k : *payloads) ok = ok || k == p;
    if (!ok)
      return "payload '" + p + "' is not one suite " + info.suite + " knows (" +
             join(*payloads) + ")";
  }
  return {};
}

// The numbers: time_scale, min_ranks, payload_copies(_per_rank),
// memory_copies, thread_level.
std::string check_numbers(const StrategyInfo& info) {
  if (!std::isfinite(info.time_scale) || info.time_scale <= 0)
    return "time_scale " + std::to_string(info.time_scale) +
           " is not accepted: a finite number > 0";
  if (info.min_ranks < 1)
    return "min_ranks " + std::to_string(info.min_ranks) +
           " is not accepted: 1 or more";
  if (info.payload_copies < 0)
    return "payload_copies " + std::to_string(info.payload_copies) +
           " is not accepted: 0 or more";
  if (info.payload_copies_per_rank < 0)
    return "payload_copies_per_rank " +
           std::to_string(info.payload_copies_per_rank) +
           " is not accepted: 0 or more";
  if (info.memory_copies < 0 || info.memory_copies > 64)
    return "memory_copies " + std::to_string(info.memory_copies) +
           " is not accepted: 0 to 64";
  const int t = info.thread_level;
  if (t != MPI_THREAD_SINGLE && t != MPI_THREAD_FUNNELED &&
      t != MPI_THREAD_SERIALIZED && t != MPI_THREAD_MULTIPLE)
    return "thread_level " + std::to_string(t) +
           " is not accepted: MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, "
           "MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE";
  return {};
}

// Phases, parts, the headline and the metrics.
std::string check_breakdown(const StrategyInfo& info) {
  if (std::string e =
          check_names("phases", info.phases,
                      static_cast<std::size_t>(PhaseTimer::kMaxPhases));
      !e.empty())
    return e;
  if (std::string e = check_names("parts", info.parts, 16); !e.empty())
    return e;
  if (!info.headline.empty()) {
    bool ok = false;
    for (const std::string& p : info.parts) ok = ok || p == info.headline;
    if (!ok)
      return "headline '" + info.headline + "' is not one of its parts (" +
             join(info.parts) + ")";
  }
  std::vector<std::string> metric_names;
  for (const MetricInfo& m : info.metrics) {
    metric_names.push_back(m.name);
    if (m.unit.empty())
      return "metric '" + m.name + "' has no unit (say \"%\", \"msg/s\"...)";
    if (!m.compute) return "metric '" + m.name + "' has no formula";
  }
  if (std::string e = check_names("metrics", metric_names, 16); !e.empty())
    return e;
  return {};
}

// The params and the matrix axes among them.
std::string check_params(const StrategyInfo& info) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : info.params) {
    keys.push_back(key);
    if (!valid_name(value))
      return "params '" + key + "' has the value '" + value +
             "': values are 1 to 32 characters of [a-z0-9_]";
  }
  if (std::string e = check_names("params", keys, 16); !e.empty()) return e;
  if (info.matrix_row.empty() != info.matrix_column.empty())
    return "matrix_row and matrix_column go together: set both or neither";
  for (const std::string* axis : {&info.matrix_row, &info.matrix_column}) {
    if (axis->empty()) continue;
    bool ok = false;
    for (const std::string& k : keys) ok = ok || k == *axis;
    if (!ok)
      return "matrix axis '" + *axis + "' is not one of its params (" +
             join(keys) + ")";
  }
  if (!info.matrix_row.empty() && info.matrix_row == info.matrix_column)
    return "matrix_row and matrix_column are both '" + info.matrix_row +
           "'; they must name two different params";
  return {};
}

// The operation: its name, its semantics' keys and values, and the
// semantic options among the method's options.
std::string check_operation(const StrategyInfo& info) {
  const Operation& op = info.operation;
  if (info.suite == "exchange" && op.name.empty())
    return "the exchange suite ranks a method with those of its pattern: "
           "name it in operation.name (\"ring\"...)";
  if (!op.name.empty() && !valid_name(op.name))
    return "operation '" + op.name +
           "' is not accepted: 1 to 32 characters of [a-z0-9_]";
  if (op.name.empty() && !op.semantics.empty())
    return "operation semantics without an operation: name the operation";
  std::vector<std::string> keys;
  for (const auto& [key, value] : op.semantics) {
    keys.push_back(key);
    if (!valid_name(value))
      return "operation semantics '" + key + "' has the value '" + value +
             "': values are 1 to 32 characters of [a-z0-9_]";
  }
  if (std::string e = check_names("operation semantics", keys, 8); !e.empty())
    return e;
  if (std::string e = check_names("operation options", op.options, 8);
      !e.empty())
    return e;
  for (const std::string& name : op.options) {
    bool ok = false;
    for (const OptionInfo& o : info.options) ok = ok || o.name == name;
    if (!ok)
      return "operation option '" + name + "' is not one of its options";
  }
  return {};
}

}  // namespace

std::string check_strategy_info(const StrategyInfo& info) {
  if (!valid_name(info.name))
    return "name '" + info.name +
           "' is not accepted: 1 to 32 characters of [a-z0-9_]";
  const std::string who = "method '" + info.name + "': ";
  for (auto check : {check_suite, check_numbers, check_breakdown, check_params,
                     check_operation})
    if (std::string e = check(info); !e.empty()) return who + e;
  if (info.fixed_bytes > (std::size_t{1} << 30))
    return who + "fixed_bytes " + std::to_string(info.fixed_bytes) +
           " is not accepted: at most 1 GiB";
  for (char c : info.version)
    if (c < 0x20 || c > 0x7e)
      return who + "version holds a control or non-ASCII character";
  if (info.version.size() > 64)
    return who + "version is longer than 64 characters";
  if (std::string e = check_options(info); !e.empty()) return who + e;
  // Any collective: runner --algorithms finds at run time which ones the
  // running library exposes an algorithm variable for (a closed list
  // once kept MPI_Scan and MPI_Exscan out).
  if (!info.library_collective.empty() && !valid_name(info.library_collective))
    return who + "library_collective '" + info.library_collective +
           "' is not accepted: a collective's name, 1 to 32 characters of "
           "[a-z0-9_] (\"allreduce\", \"scan\", \"reduce_scatter\"...)";
  for (const OptionInfo& o : info.options)
    if (!info.library_collective.empty() && o.name == "algorithm")
      return who + "declares the option 'algorithm', which the runner adds " +
             "to a method with a library_collective";
  return {};
}

}  // namespace mpiarena
