// The nearest accepted names of a mistyped word (suggest.hpp).
#include "core/results/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace mpiarena {

namespace {

// Lower case, without leading dashes: '--Treshold' -> 'treshold'.
std::string normal(const std::string& word) {
  std::string out = word.substr(std::min(word.find_first_not_of('-'),
                                         word.size()));
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The edits a word of this length may be away from a name it was meant
// as: a short word is too near to too much.
std::size_t allowed_edits(std::size_t length) {
  if (length < 3) return 0;
  if (length <= 5) return 1;
  if (length <= 8) return 2;
  return 3;
}

std::size_t osa(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1,
                                          std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

// The parts of a name between '_' and '-', 3 characters or longer.
std::vector<std::string> parts(const std::string& name) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from <= name.size()) {
    std::size_t end = name.find_first_of("_-", from);
    if (end == std::string::npos) end = name.size();
    if (end - from >= 3) out.push_back(name.substr(from, end - from));
    from = end + 1;
  }
  return out;
}

// How near `name` is to `word` (both normal), lower is nearer; or
// nothing (`near` false).
std::tuple<int, std::size_t> closeness(const std::string& word,
                                       const std::string& name, bool& near) {
  near = true;
  const std::size_t full = osa(word, name);
  if (full <= allowed_edits(word.size()) || full == 0) return {0, full};
  const std::size_t apart =
      word.size() > name.size() ? word.size() - name.size()
                                : name.size() - word.size();
  // Held whole: the word in the name, or a name of half the word or more
  // in the word ('osu_latency' holds 'latency', not just 'osu').
  if ((word.size() >= 3 && name.find(word) != std::string::npos) ||
      (name.size() >= 3 && name.size() * 2 >= word.size() &&
       word.find(name) != std::string::npos))
    return {1, apart};
  // The fewest edits of a part, the longest part first among equals.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t best = kNone;
  for (const std::string& w : parts(word))
    for (const std::string& n : parts(name)) {
      const std::size_t d = osa(w, n);
      if (d <= allowed_edits(w.size()))
        best = std::min(best, d * 100 + (99 - std::min<std::size_t>(
                                                  n.size(), 99)));
    }
  if (best != kNone) return {2, best};
  near = false;
  return {3, 0};
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  return osa(normal(a), normal(b));
}

std::vector<std::string> nearest(const std::string& word,
                                 const std::vector<std::string>& accepted,
                                 std::size_t most) {
  const std::string w = normal(word);
  std::vector<std::tuple<int, std::size_t, std::size_t, std::string>> found;
  if (w.empty()) return {};
  for (const std::string& name : accepted) {
    bool near = false;
    const auto [tier, score] = closeness(w, normal(name), near);
    if (near) found.emplace_back(tier, score, name.size(), name);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (const auto& f : found) {
    const std::string& name = std::get<3>(f);
    if (out.size() == most) break;
    if (std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(name);
  }
  return out;
}

std::string quoted_alternatives(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += "'" + names[i] + "'";
  }
  return out;
}

std::string did_you_mean(const std::string& word,
                         const std::vector<std::string>& accepted,
                         std::size_t most) {
  const std::vector<std::string> names = nearest(word, accepted, most);
  if (names.empty()) return {};
  return "did you mean " + quoted_alternatives(names) + "?";
}

}  // namespace mpiarena
