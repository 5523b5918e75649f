// The methods a run asks for by their OSU program's name (plan.hpp).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/sdk/suite_info.hpp"
#include "runner/plan.hpp"

namespace mpiarena {

namespace {

// 'osu' stands for every OSU program that has a method.
bool osu_word(const std::string& token) {
  return token == "osu" || find_osu_program(token) != nullptr;
}

}  // namespace

Options without_osu_names(const Options& options) {
  Options out = options;
  out.methods.clear();
  for (const std::string& m : options.methods)
    if (!osu_word(m)) out.methods.push_back(m);
  return out;
}

std::vector<OsuSelection> select_osu(const Registry& registry,
                                     const Options& options,
                                     std::string& error) {
  auto strategy = [&](const char* method) -> const LoadedStrategy* {
    for (const LoadedStrategy& s : registry.strategies())
      if (s.entry.info.name == method) return &s;
    return nullptr;
  };
  std::vector<OsuSelection> out;
  std::set<std::string> seen;
  std::vector<std::string> missing;
  auto add = [&](const OsuProgram& p, bool named) {
    if (!seen.insert(p.name).second) return;
    if (p.method[0] == '\0') {
      if (named && error.empty())
        error = std::string(p.name) + " is timed by another program: " +
                p.note;
      return;
    }
    const LoadedStrategy* s = strategy(p.method);
    if (s)
      out.push_back({&p, s});
    else if (named)
      missing.push_back(std::string(p.name) + " (method " + p.method + ")");
  };
  for (const std::string& token : options.methods) {
    if (token == "osu")
      for (const OsuProgram& p : osu_programs()) add(p, false);
    else if (const OsuProgram* p = find_osu_program(token))
      add(*p, true);
  }
  if (error.empty() && !missing.empty())
    error = "no plugin provides the method of " + join(missing) +
            " (runner --list shows the methods loaded)";
  return out;
}

std::vector<std::pair<std::string, std::string>> osu_values(
    const OsuSelection& s, std::string& error) {
  const StrategyInfo& info = s.strategy->entry.info;
  const auto settings = osu_settings(*s.program);
  for (const auto& [option, value] : settings)
    if (std::none_of(info.options.begin(), info.options.end(),
                     [&](const OptionInfo& o) { return o.name == option; })) {
      error = std::string(s.program->name) + ": method " + info.name +
              " has no option '" + option + "' (its plugin is older than "
              "this runner?)";
      return {};
    }
  std::vector<std::pair<std::string, std::string>> values;
  for (const OptionInfo& o : info.options) {
    std::string v = option_value(o, o.default_value);
    for (const auto& [option, value] : settings)
      if (option == o.name) v = option_value(o, value);
    values.emplace_back(o.name, v);
  }
  return values;
}

}  // namespace mpiarena
