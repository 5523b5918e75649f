// The summary of a result document (summary.hpp).
#include "summary.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "fit.hpp"
#include "suites.hpp"

namespace mpiarena {

using nlohmann::json;

std::map<GroupKey, std::vector<const Record*>> ranked_groups(
    const Document& doc, bool winners_only) {
  std::map<GroupKey, std::vector<const Record*>> groups;
  for (const Record& r : doc.records) {
    if (winners_only && r.verification == "failed") continue;
    groups[{r.suite, r.payload, r.ranks, r.bytes}].push_back(&r);
  }
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

// k with 2^(k-1) <= the largest finite |v| < 2^k (0 when there is none).
int binary_exponent(const std::vector<double>& values) {
  double top = 0;
  for (double v : values)
    if (std::isfinite(v)) top = std::max(top, std::fabs(v));
  int exponent = 0;
  std::frexp(top, &exponent);
  return exponent;
}

// fit_latency_bandwidth on values scaled by powers of two into [-1, 1]
// (exact, so the result is the same), then scaled back: sums of squares of
// times or sizes near the largest double no longer overflow into NaN.
LatencyBandwidthFit scaled_fit(std::vector<double> bytes,
                               std::vector<double> seconds) {
  const int ex = binary_exponent(bytes), ey = binary_exponent(seconds);
  for (double& x : bytes) x = std::ldexp(x, -ex);
  for (double& y : seconds) y = std::ldexp(y, -ey);
  LatencyBandwidthFit f = fit_latency_bandwidth(bytes, seconds);
  f.latency_s = std::ldexp(f.latency_s, ey);
  // B = 1 / slope and slope = slope' * 2^ey / 2^ex.
  f.bandwidth_Bps = std::ldexp(f.bandwidth_Bps, ex - ey);
  return f;
}

// Per suite, method, payload and ranks with at least 3 verified sizes that
// move data: the least-squares fit of median(n) = L + n / B.
json fits(const Document& doc) {
  std::map<std::tuple<std::string, std::string, std::string, int>,
           std::pair<std::vector<double>, std::vector<double>>>
      series;
  for (const Record& r : doc.records) {
    if (r.verification == "failed" || !r.moves_data) continue;
    auto& xy = series[{r.suite, r.method, r.payload, r.ranks}];
    xy.first.push_back(static_cast<double>(r.payload_bytes));
    xy.second.push_back(r.time.median);
  }
  json out = json::array();
  for (const auto& [key, xy] : series) {
    if (xy.first.size() < 3) continue;
    const LatencyBandwidthFit f = scaled_fit(xy.first, xy.second);
    // A fit that overflowed (times near the largest double) is no model:
    // left out rather than written as NaN or infinity.
    if (!f.ok || !std::isfinite(f.latency_s) || !std::isfinite(f.r2)) continue;
    out.push_back(
        {{"suite", std::get<0>(key)},
         {"method", std::get<1>(key)},
         {"payload", std::get<2>(key)},
         {"ranks", std::get<3>(key)},
         {"points", f.points},
         {"min_bytes", *std::min_element(xy.first.begin(), xy.first.end())},
         {"max_bytes", *std::max_element(xy.first.begin(), xy.first.end())},
         {"latency_s", f.latency_s},
         {"bandwidth_Bps", f.bandwidth_Bps > 0 && std::isfinite(f.bandwidth_Bps)
                               ? json(f.bandwidth_Bps)
                               : json(nullptr)},
         {"r2", f.r2}});
  }
  return out;
}

}  // namespace

json compute_summary(const Document& doc) {
  json best = json::array(), changes = json::array(), compare = json::array();
  std::map<std::tuple<std::string, int, std::size_t>,
           std::map<std::string, json>>
      by_payload;
  std::map<std::tuple<std::string, std::string, int>, json> previous;
  for (const auto& [key, recs] : ranked_groups(doc, true)) {
    const auto& [suite, payload, ranks, bytes] = key;
    // "The fastest" of methods that do different things means nothing.
    if (!methods_are_alternatives(suite)) continue;
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
    best.push_back(entry);
    json& prev = previous[{suite, payload, ranks}];
    if (!prev.is_null() && prev["method"] != w.method)
      changes.push_back({{"suite", suite},
                         {"payload", payload},
                         {"ranks", ranks},
                         {"from_size_label", prev["size_label"]},
                         {"from_bytes", prev["bytes"]},
                         {"from_method", prev["method"]},
                         {"to_size_label", w.size_label},
                         {"to_bytes", bytes},
                         {"to_method", w.method}});
    prev = entry;
    by_payload[{suite, ranks, bytes}][payload] = entry;
  }
  for (const auto& [key, payloads] : by_payload) {
    auto one = payloads.find("1d"), two = payloads.find("2d");
    if (one == payloads.end() || two == payloads.end()) continue;
    const double t1 = one->second["median_s"], t2 = two->second["median_s"];
    compare.push_back(
        {{"suite", std::get<0>(key)},
         {"ranks", std::get<1>(key)},
         {"bytes", std::get<2>(key)},
         {"size_label", two->second["size_label"]},
         {"best_2d", two->second["method"]},
         {"best_2d_s", t2},
         {"best_1d", one->second["method"]},
         {"best_1d_s", t1},
         {"ratio_2d_over_1d", t1 > 0 ? json(t2 / t1) : json(nullptr)}});
  }
  return {{"best", best},
          {"winner_changes", changes},
          {"payload_1d_vs_2d", compare},
          {"fits", fits(doc)}};
}

}  // namespace mpiarena
