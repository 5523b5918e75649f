// --ranks: the rank ladder's syntax (options.hpp).
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "runner/options.hpp"

namespace mpiarena {

std::vector<int> parse_ranks(const std::string& spec, int launched) {
  const std::string accepted =
      "accepted: rank counts from 1" +
      (launched > 0 ? " to " + std::to_string(launched) : std::string()) +
      ", ranges a..b (every count from a to b) and 'all' (the ranks of the "
      "launch), comma-separated, e.g. 2,4,all or 2..4";
  auto count = [&](const std::string& item, const std::string& text) {
    std::size_t used = 0;
    long v = -1;
    try {
      v = std::stol(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (text.empty() || used != text.size() || !std::isdigit(text[0]))
      throw UsageError("--ranks '" + item + "' is not a rank count" +
                       (item.size() > 2 && item.substr(item.size() - 2) == ".."
                            ? " (a range needs its end: 2..4 or 2..all)"
                            : "") +
                       "; " + accepted);
    if (v < 1)
      throw UsageError("--ranks '" + item +
                       "': a sub-communicator needs at least 1 rank; " +
                       accepted);
    if (launched > 0 && v > launched)
      throw UsageError("--ranks '" + item + "': the launch has " +
                       std::to_string(launched) + " ranks; " + accepted);
    return static_cast<int>(std::min<long>(v, 1 << 30));
  };
  std::vector<std::string> items = split_list(spec);
  if (items.empty()) throw UsageError("--ranks is empty; " + accepted);
  std::vector<int> out;
  for (const std::string& item : items) {
    const auto dots = item.find("..");
    if (dots == std::string::npos) {
      if (item == "all") {
        if (launched > 0) out.push_back(launched);
      } else {
        out.push_back(count(item, item));
      }
      continue;
    }
    const std::string hi_text = item.substr(dots + 2);
    const int lo = count(item, item.substr(0, dots));
    if (hi_text == "all") {
      for (int k = lo; k <= launched; ++k) out.push_back(k);
      continue;
    }
    const int hi = count(item, hi_text);
    if (hi < lo)
      throw UsageError("--ranks '" + item + "': the range runs down; " +
                       accepted);
    for (int k = lo; k <= hi; ++k) out.push_back(k);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace mpiarena
