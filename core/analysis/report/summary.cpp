// The summary of a result document (summary.hpp).
#include "core/analysis/report/summary.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/analysis/stats/fit.hpp"
#include "core/results/suites.hpp"

namespace mpiarena {

using nlohmann::json;

bool group_ranked(const GroupKey& key) {
  return operation_ranked(std::get<0>(key), std::get<4>(key));
}

std::vector<GroupKey> group_keys(const std::vector<const Record*>& recs) {
  std::map<GroupKey, int> methods;
  std::vector<GroupKey> keys;
  for (const Record* r : recs) {
    const std::string op = operation_ranked(r->suite, operation_text(*r))
                               ? operation_text(*r)
                               : std::string();
    keys.emplace_back(r->suite, r->payload, r->ranks, r->bytes, op);
    ++methods[keys.back()];
  }
  for (GroupKey& k : keys)
    if (std::get<0>(k) == "collective" && methods[k] < 2) std::get<4>(k) = "";
  return keys;
}

std::map<GroupKey, std::vector<const Record*>> ranked_groups(
    const Document& doc, bool winners_only) {
  std::vector<const Record*> kept;
  for (const Record& r : doc.records)
    if (!winners_only || r.verification != "failed") kept.push_back(&r);
  const std::vector<GroupKey> keys = group_keys(kept);
  std::map<GroupKey, std::vector<const Record*>> groups;
  for (std::size_t i = 0; i < kept.size(); ++i)
    groups[keys[i]].push_back(kept[i]);
  // A failed verification ranks after every method that did not fail,
  // however fast it was (a wrong transfer is often a fast one).
  for (auto& [key, recs] : groups)
    std::stable_sort(recs.begin(), recs.end(),
                     [](const Record* a, const Record* b) {
                       const bool fa = a->verification == "failed";
                       const bool fb = b->verification == "failed";
                       if (fa != fb) return fb;
                       return a->time.median < b->time.median;
                     });
  return groups;
}

namespace {

// One fitted piece of a series as the summary's "fits" entry; `range` is
// "all" (every size of the series), "below" or "above" (of a split, or
// "above": the largest sizes only).
json fit_json(const std::tuple<std::string, std::string, std::string, int>& key,
              const std::vector<double>& x, const FitPiece& p,
              const char* range) {
  const LatencyBandwidthFit& f = p.fit;
  return {{"suite", std::get<0>(key)},
          {"method", std::get<1>(key)},
          {"payload", std::get<2>(key)},
          {"ranks", std::get<3>(key)},
          {"points", p.last - p.first},
          {"min_bytes", x[p.first]},
          {"max_bytes", x[p.last - 1]},
          {"range", range},
          {"series_points", x.size()},
          {"latency_s", f.latency_s},
          {"bandwidth_Bps",
           f.bandwidth_Bps > 0 ? json(f.bandwidth_Bps) : json(nullptr)},
          {"r2", f.r2},
          {"max_error", p.max_error}};
}

// Per suite, method, payload and ranks with at least 3 verified sizes that
// move data: the least-squares fit of median(n) = L + n / B where it holds
// (fit_where_it_holds) into "fits", and the sizes no line holds over into
// "unfitted".
void fits(const Document& doc, json& fitted, json& unfitted) {
  using Key = std::tuple<std::string, std::string, std::string, int>;
  std::map<Key, std::vector<std::pair<double, double>>> series;
  for (const Record& r : doc.records) {
    if (r.verification == "failed" || !r.moves_data) continue;
    series[{r.suite, r.method, r.payload, r.ranks}].emplace_back(
        static_cast<double>(r.payload_bytes), r.time.median);
  }
  for (auto& [key, xy] : series) {
    if (xy.size() < kFitMinPoints) continue;
    std::stable_sort(xy.begin(), xy.end(), [](const auto& a, const auto& b) {
      return a.first < b.first;
    });
    std::vector<double> x, y;
    for (const auto& [bytes, t] : xy) {
      x.push_back(bytes);
      y.push_back(t);
    }
    const std::vector<FitPiece> pieces = fit_where_it_holds(x, y);
    for (const FitPiece& p : pieces)
      fitted.push_back(fit_json(key, x, p,
                                pieces.size() == 2
                                    ? (p.first ? "above" : "below")
                                : p.first ? "above"
                                          : "all"));
    const std::size_t from = pieces.empty() ? x.size() : pieces[0].first;
    if (from > 0)
      unfitted.push_back({{"suite", std::get<0>(key)},
                          {"method", std::get<1>(key)},
                          {"payload", std::get<2>(key)},
                          {"ranks", std::get<3>(key)},
                          {"points", from},
                          {"min_bytes", x.front()},
                          {"max_bytes", x[from - 1]},
                          {"series_points", x.size()}});
  }
}

}  // namespace

json compute_summary(const Document& doc) {
  json best = json::array(), changes = json::array(), compare = json::array();
  std::map<std::tuple<std::string, std::string, int, std::size_t>,
           std::map<std::string, json>>
      by_payload;
  std::map<std::tuple<std::string, std::string, int, std::string>, json>
      previous;
  for (const auto& [key, recs] : ranked_groups(doc, true)) {
    const auto& [suite, payload, ranks, bytes, op] = key;
    // "The fastest" of methods that do different things means nothing.
    if (!group_ranked(key)) continue;
    const Record& w = *recs.front();
    json entry = {
        {"suite", suite},
        {"payload", payload},
        {"ranks", ranks},
        {"bytes", bytes},
        {"size_label", w.size_label},
        {"method", w.method},
        {"median_s", w.time.median},
        {"bandwidth_Bps", w.moves_data ? json(w.bandwidth) : json(nullptr)},
        {"runner_up", nullptr},
        {"runner_up_ratio", nullptr}};
    if (recs.size() > 1 && w.time.median > 0) {
      entry["runner_up"] = recs[1]->method;
      entry["runner_up_ratio"] = recs[1]->time.median / w.time.median;
    }
    if (!op.empty()) entry["operation"] = op;
    best.push_back(entry);
    json& prev = previous[{suite, payload, ranks, op}];
    if (!prev.is_null() && prev["method"] != w.method) {
      changes.push_back({{"suite", suite},
                         {"payload", payload},
                         {"ranks", ranks},
                         {"from_size_label", prev["size_label"]},
                         {"from_bytes", prev["bytes"]},
                         {"from_method", prev["method"]},
                         {"to_size_label", w.size_label},
                         {"to_bytes", bytes},
                         {"to_method", w.method}});
      if (!op.empty()) changes.back()["operation"] = op;
    }
    prev = entry;
    by_payload[{suite, op, ranks, bytes}][payload] = entry;
  }
  for (const auto& [key, payloads] : by_payload) {
    auto one = payloads.find("1d"), two = payloads.find("2d");
    if (one == payloads.end() || two == payloads.end()) continue;
    const double t1 = one->second["median_s"], t2 = two->second["median_s"];
    compare.push_back(
        {{"suite", std::get<0>(key)},
         {"ranks", std::get<2>(key)},
         {"bytes", std::get<3>(key)},
         {"size_label", two->second["size_label"]},
         {"best_2d", two->second["method"]},
         {"best_2d_s", t2},
         {"best_1d", one->second["method"]},
         {"best_1d_s", t1},
         {"ratio_2d_over_1d", t1 > 0 ? json(t2 / t1) : json(nullptr)}});
  }
  json fitted = json::array(), unfitted = json::array();
  fits(doc, fitted, unfitted);
  return {{"best", best},
          {"winner_changes", changes},
          {"payload_1d_vs_2d", compare},
          {"fits", fitted},
          {"unfitted", unfitted}};
}

}  // namespace mpiarena
