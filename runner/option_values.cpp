// The values of options that are more than a number or a word: a
// percentage, --set's method options, and what a numeric option accepts
// (options_parse.hpp).
#include <algorithm>
#include <sstream>

#include "core/results/suggest.hpp"
#include "runner/options_parse.hpp"

namespace mpiarena {

double parse_percent(const std::string& option, const std::string& given,
                     double max_percent) {
  std::string text = given;
  const bool sign = !text.empty() && text.back() == '%';
  if (sign) text.pop_back();
  std::size_t used = 0;
  double percent = -1;
  try {
    percent = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::ostringstream top;
  top << max_percent;
  if (used == 0 || used != text.size() ||
      !(percent >= 0 && percent <= max_percent))
    throw UsageError(option + " '" + given +
                     "' is not a percentage; give e.g. 5% or 2.5 (percent, "
                     "0 to " +
                     top.str() + ", both included)");
  // A bare fraction is most likely meant as one (0.05 for 5%): ask.
  if (!sign && percent > 0 && percent < 1) {
    std::ostringstream as_percent;
    as_percent << percent * 100;
    throw UsageError(option + " '" + given +
                     "' is ambiguous: it is in percent; write " +
                     as_percent.str() + "% for a fraction of " + given +
                     ", or " + given + "% for " + given + " percent");
  }
  return percent / 100;
}

// What a numeric option accepts, for the message about a value that is not
// a number at all (the range checks below name the same ranges).
std::string accepted_values(const std::string& option) {
  static const std::pair<const char*, const char*> kAccepted[] = {
      {"--test-every", "an integer from 1 to 64"},
      {"--exchanges", "an even integer from 2 to 64"},
      {"--window", "an integer from 1 to 1024"},
      {"--stride", "a multiple of 8 from 8 to 4096 (bytes)"},
      {"--seed", "an integer from 0 to 9007199254740991 (2^53-1)"},
      {"--retry-noisy", "an integer from 0 to 100"},
      {"--max-time", "a number of seconds in (0, 86400]"},
      {"--alpha", "a probability in (0, 1)"},
      {"--min-time", "a number of seconds in (0, 60]"},
      {"--sync-window", "a number of seconds in (0, 1]"},
      {"--repetitions", "an integer from 1 to 100000"},
      {"--warmup", "an integer from 0 to 100000"},
      {"--point-timeout", "a number of seconds in [0, 86400] (0: no bound)"},
  };
  std::string name = option;
  if (name.rfind("--", 0) != 0) name = "--" + name;
  if (name == "--r" || name == "-r") name = "--repetitions";
  for (const auto& [n, text] : kAccepted)
    if (name == n) return text;
  return "see 'runner --help'";
}

// --set METHOD.OPTION=VALUE[,VALUE...], each checked for its shape here
// (its meaning needs the plugins: option_variants.cpp); one method.option once.
std::vector<OptionSetting> parse_settings(
    const std::vector<std::string>& specs) {
  std::vector<OptionSetting> out;
  auto name_ok = [](const std::string& s) {
    return !s.empty() && s.size() <= 32 &&
           s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") ==
               std::string::npos;
  };
  for (const std::string& spec : specs) {
    const std::size_t dot = spec.find('.'), eq = spec.find('=');
    const std::string shape =
        "--set '" + spec +
        "': give METHOD.OPTION=VALUE[,VALUE...] (runner --help-method METHOD "
        "lists a method's options)";
    if (dot == std::string::npos || eq == std::string::npos || eq < dot)
      throw UsageError(shape);
    OptionSetting s{
        spec.substr(0, dot), spec.substr(dot + 1, eq - dot - 1), {}};
    if (!name_ok(s.method) || !name_ok(s.option)) throw UsageError(shape);
    const std::string values = spec.substr(eq + 1);
    std::size_t from = 0;
    for (;;) {
      const std::size_t comma = values.find(',', from);
      const std::string v = values.substr(
          from, comma == std::string::npos ? std::string::npos : comma - from);
      if (v.empty())
        throw UsageError("--set '" + spec +
                         "': an empty value; give METHOD.OPTION=VALUE[,"
                         "VALUE...]");
      s.values.push_back(v);
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    if (s.values.size() > 64)
      throw UsageError("--set '" + spec + "': at most 64 values per option");
    for (const OptionSetting& before : out)
      if (before.method == s.method && before.option == s.option)
        throw UsageError("--set gives " + s.method + "." + s.option +
                         " twice; give its values in one --set, comma-"
                         "separated");
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

// The comma-separated words of `spec`, each checked by `ok` (which throws
// for one it refuses), each kept once, in order.
template <class Check>
std::vector<std::string> distinct_words(const std::string& spec, Check ok) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t comma = spec.find(',', from);
    const std::string v = spec.substr(
        from, comma == std::string::npos ? std::string::npos : comma - from);
    ok(v);
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> parse_algorithms(const std::string& spec, bool given) {
  if (!given) return {};
  const std::vector<std::string> out =
      distinct_words(spec, [&spec](const std::string& v) {
        if (v.empty() || v.size() > 64 ||
            v.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.-") !=
                std::string::npos)
          throw UsageError(
              "--algorithms '" + spec +
              "': give all, or algorithm names of the MPI library (1 to 64 "
              "characters of [a-z0-9_.-], comma-separated; runner algorithms "
              "lists them)");
      });
  if (out.size() > 1 && std::find(out.begin(), out.end(), "all") != out.end())
    throw UsageError("--algorithms '" + spec + "': all stands alone");
  return out;
}

std::vector<std::string> parse_clock_sync(const std::string& spec) {
  return distinct_words(spec, [&spec](const std::string& v) {
    if (std::find(std::begin(kClockSyncAlgorithms),
                  std::end(kClockSyncAlgorithms),
                  v) == std::end(kClockSyncAlgorithms))
      throw UsageError(
          "--clock-sync '" + spec + "': '" + v +
          "' is not a clock synchronization algorithm" + [&] {
            const std::string hint = did_you_mean(
                v, {std::begin(kClockSyncAlgorithms),
                    std::end(kClockSyncAlgorithms)});
            return hint.empty() ? hint : " (" + hint + ")";
          }() + "; accepted: hca, jk, comma-separated");
  });
}

std::string unexpected_argument(const std::vector<std::string>& args) {
  static const std::string kBare[] = {"run", "sizes", "ab", "algorithms",
                                      "clocks"};
  const bool bare =
      args.size() > 1 &&
      std::find(std::begin(kBare), std::end(kBare), args[0]) != std::end(kBare);
  // A word where a command was expected: the commands nearest to it.
  std::vector<std::string> commands = {"list", "help"};
  for (const CommandSpec& c : command_specs()) {
    const std::string name = c.name;
    if (name.find(' ') == std::string::npos && name.rfind("--", 0) != 0)
      commands.push_back(name);
  }
  const std::string hint = bare ? "" : did_you_mean(args[0], commands);
  return "unexpected argument '" + args[bare ? 1 : 0] + "'" +
         (hint.empty() ? "" : " (" + hint + ")") +
         "; the commands are 'run' (default), 'list', 'sizes', "
         "'validate FILE...', 'report FILE', 'compare BASE NEW', 'ab', "
         "'algorithms', 'clocks', 'trend FILE...', 'tune FILE...' and "
         "'history ACTION'. Run 'runner --help'";
}

}  // namespace mpiarena
