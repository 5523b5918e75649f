// The combinations of a method's own option values that --set asks for
// (plan.hpp option_variants).
#include <algorithm>

#include "core/results/suggest.hpp"
#include "core/sdk/suite_info.hpp"
#include "runner/plan.hpp"

namespace mpiarena {

std::map<std::string,
         std::vector<std::vector<std::pair<std::string, std::string>>>>
option_variants(const std::vector<const LoadedStrategy*>& methods,
                const Options& options, std::string& error) {
  using Values = std::vector<std::pair<std::string, std::string>>;
  std::map<std::string, std::vector<Values>> out;
  for (const OptionSetting& s : options.settings) {
    const auto m = std::find_if(methods.begin(), methods.end(), [&](auto* l) {
      return l->entry.info.name == s.method;
    });
    const std::string spec = "--set " + s.method + "." + s.option;
    if (m == methods.end()) {
      std::vector<std::string> selected;
      for (const LoadedStrategy* l : methods)
        selected.push_back(l->entry.info.name);
      const std::string hint = did_you_mean(s.method, selected);
      error = spec + ": method '" + s.method +
              "' is not among the selected methods" +
              (hint.empty() ? "" : " (" + hint + ")") +
              " (--methods; runner --list shows every method)";
      return {};
    }
    const StrategyInfo& info = (*m)->entry.info;
    const auto o =
        std::find_if(info.options.begin(), info.options.end(),
                     [&](const OptionInfo& x) { return x.name == s.option; });
    if (o == info.options.end()) {
      std::vector<std::string> names;
      for (const OptionInfo& x : info.options) names.push_back(x.name);
      const std::string hint = did_you_mean(s.option, names);
      error = spec + ": method '" + s.method + "' has " +
              (names.empty() ? std::string("no options")
                             : "no option '" + s.option + "'" +
                                   (hint.empty() ? "" : " (" + hint + ")") +
                                   "; its options: " + join(names)) +
              " (runner --help-method " + s.method + ")";
      return {};
    }
    for (const std::string& v : s.values)
      if (option_value(*o, v).empty()) {
        error = spec + "=" + v + ": '" + v + "' is not accepted; " + s.option +
                " takes " + option_accepts(*o);
        return {};
      }
  }
  for (const LoadedStrategy* l : methods) {
    const StrategyInfo& info = l->entry.info;
    std::vector<Values> combos{{}};
    for (const OptionInfo& o : info.options) {
      std::vector<std::string> values{option_value(o, o.default_value)};
      for (const OptionSetting& s : options.settings)
        if (s.method == info.name && s.option == o.name) {
          values.clear();
          for (const std::string& v : s.values) {
            const std::string canonical = option_value(o, v);
            if (std::find(values.begin(), values.end(), canonical) ==
                values.end())
              values.push_back(canonical);
          }
        }
      std::vector<Values> next;
      for (const Values& c : combos)
        for (const std::string& v : values) {
          Values more = c;
          more.emplace_back(o.name, v);
          next.push_back(std::move(more));
        }
      combos = std::move(next);
      if (combos.size() > 256) {
        error = "--set: method '" + info.name + "' would run " +
                std::to_string(combos.size()) +
                " combinations of option values or more; at most 256";
        return {};
      }
    }
    out[info.name] = std::move(combos);
  }
  return out;
}

}  // namespace mpiarena
