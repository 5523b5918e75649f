// The summary of a result document, computed from its records only: the
// fastest method per point, where it changes, 1d against 2d, and the fitted
// latency and bandwidth. Rendered by report.hpp.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "core/results/records.hpp"

namespace mpiarena {

// What the records say, without a word typed by hand (the `summary` section
// of the result document, see schemas/results.schema.json):
//  - "best": per suite, payload, ranks and size, the fastest verified method,
//    its median and bandwidth, and the runner-up with its ratio;
//  - "winner_changes": per suite, payload and ranks, the sizes at which the
//    fastest method changes;
//  - "payload_1d_vs_2d": per suite, ranks and size present in both payloads,
//    the best 2d and best 1d methods and the ratio of their medians;
//  - "fits": per suite, method, payload and ranks with 3 verified sizes or
//    more, the lines median(n) = L + n / B over the sizes where one holds
//    (fit_where_it_holds), and "unfitted": the sizes where none does.
// Failed verifications never win.
nlohmann::json compute_summary(const Document& doc);

// (suite, payload, ranks, bytes): one point of the tables.
using GroupKey = std::tuple<std::string, std::string, int, std::size_t>;

// The records per point, fastest first; with `winners_only`, without those
// that failed verification.
std::map<GroupKey, std::vector<const Record*>> ranked_groups(
    const Document& doc, bool winners_only);

}  // namespace mpiarena
