// What one execute() of a method computes (StrategyInfo::operation). The
// methods of a suite that declare the same operation and semantics are
// ways of doing one thing: the report ranks them in one table; a method
// that declares another operation (or none, beside ones that do) is ranked
// apart (docs/writing-a-plugin.md, "Operation"). Pure: no MPI.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

using Semantics = std::vector<std::pair<std::string, std::string>>;

struct Operation {
  // "allreduce", "bcast", "ring"...: [a-z0-9_]{1,32}; empty: the suite's
  // own work (what its base class does).
  std::string name;
  // What else two methods must agree on to compete, as (key, value) pairs
  // of [a-z0-9_]{1,32}: the datatype, the reduction op, the root...
  Semantics semantics;
  // The method's options (StrategyInfo::options) whose value changes what
  // it computes: a point's value enters the semantics under the option's
  // name, in place of a declared pair of that key (op=max is not op=sum).
  std::vector<std::string> options;
};

// The semantics of one point: `op`'s, with the value of each of its
// semantic options among `values` (the point's option values), by key.
inline Semantics point_semantics(const Operation& op,
                                 const Semantics& values) {
  Semantics out = op.semantics;
  for (const std::string& name : op.options)
    for (const auto& [key, value] : values) {
      if (key != name) continue;
      auto at = std::find_if(out.begin(), out.end(),
                             [&](const auto& kv) { return kv.first == key; });
      if (at == out.end())
        out.emplace_back(key, value);
      else
        at->second = value;
    }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.first < b.first;
  });
  return out;
}

// "allreduce(datatype=int, op=sum)", "ring", "" for none: two points
// compete when their texts are equal.
inline std::string operation_text(const std::string& name,
                                  const Semantics& semantics) {
  std::string out = name;
  if (semantics.empty()) return out;
  out += "(";
  for (std::size_t i = 0; i < semantics.size(); ++i)
    out += (i ? ", " : "") + semantics[i].first + "=" + semantics[i].second;
  return out + ")";
}

}  // namespace mpiarena
