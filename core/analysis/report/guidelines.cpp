// The "Guideline violations" view (guidelines.hpp).
#include "core/analysis/report/guidelines.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "core/analysis/report/report_text.hpp"
#include "core/analysis/stats/rank_tests.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

namespace {

// The library's own choice: neither a mock-up nor a forced algorithm.
bool library_choice(const Record& r) {
  return r.param("guideline").empty() &&
         (r.algorithm.variable.empty() || r.algorithm.value == 0);
}

}  // namespace

std::vector<GuidelineViolation> guideline_violations(const Document& doc,
                                                     double alpha,
                                                     int& compared) {
  using Key = std::tuple<std::string, std::string, std::size_t, int, bool>;
  std::map<Key, const Record*> library;
  std::map<Key, std::vector<const Record*>> others;
  for (const Record& r : doc.records) {
    const std::string collective = r.param("collective");
    if (collective.empty() || r.verification == "failed" ||
        r.samples_max.empty())
      continue;
    const Key key{collective, r.payload, r.bytes, r.ranks, r.size_total};
    if (library_choice(r))
      library[key] = &r;
    else
      others[key].push_back(&r);
  }
  std::vector<GuidelineViolation> out;
  compared = 0;
  for (const auto& [key, rivals] : others) {
    const auto lib = library.find(key);
    if (lib == library.end()) continue;
    const Record& ref = *lib->second;
    for (const Record* r : rivals) {
      ++compared;
      if (r->time.median >= ref.time.median) continue;
      const UTest t = mann_whitney(r->samples_max, ref.samples_max);
      if (t.p >= alpha) continue;
      out.push_back({std::get<0>(key), r->size_label, r->method, r->bytes,
                     r->ranks, ref.time.median, r->time.median,
                     ref.time.median / r->time.median, t.p});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::tie(a.collective, a.ranks, a.bytes) <
               std::tie(b.collective, b.ranks, b.bytes) ||
           (std::tie(a.collective, a.ranks, a.bytes) ==
                std::tie(b.collective, b.ranks, b.bytes) &&
            a.factor > b.factor);
  });
  return out;
}

std::string render_guidelines(const Document& doc, Style style, double alpha) {
  int compared = 0;
  const std::vector<GuidelineViolation> found =
      guideline_violations(doc, alpha, compared);
  if (compared == 0) return "";
  std::ostringstream out;
  out << "\n"
      << heading(
             "Guideline violations: a mock-up or another algorithm of "
             "the library faster than the library's own choice",
             style);
  if (found.empty()) {
    out << "none: no mock-up or other algorithm was significantly faster ("
        << compared << " compared; U test, p < " << fixed(alpha, 2) << ")\n";
    return out.str();
  }
  Table table({"collective", ">size", ">ranks", ">library's choice", "faster",
               ">median", ">factor", ">p"});
  for (const GuidelineViolation& v : found)
    table.add({v.collective, size_text(v.size_label, v.bytes),
               std::to_string(v.ranks), format_seconds(v.library_s), v.faster,
               format_seconds(v.faster_s), fixed(v.factor, 2, "x"),
               fixed(v.p, 4)});
  out << table.render(style) << found.size() << " of " << compared
      << " compared significantly faster (U test, p < " << fixed(alpha, 2)
      << "); where the library loses to its own parts, its choice or its "
         "algorithm is worth a report to its maintainers\n";
  return out.str();
}

}  // namespace mpiarena
