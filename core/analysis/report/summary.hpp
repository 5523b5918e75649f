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

// (suite, payload, ranks, bytes, operation): one table. The operation is
// operation_text: in a suite whose methods compete, "" is the suite's own
// work and another operation is a table of its own; in the everyday
// collectives an operation two methods or more declare is a ranked table
// and the rest, "", the different operations side by side; elsewhere ""
// (suites.hpp, operation_ranked).
using GroupKey =
    std::tuple<std::string, std::string, int, std::size_t, std::string>;

// Whether the methods of a group compete (a ranked table, a winner).
bool group_ranked(const GroupKey& key);

// The group of each of `recs`: its operation where its suite ranks by
// it, and in the everyday collectives where another method of its point
// declares the same.
std::vector<GroupKey> group_keys(const std::vector<const Record*>& recs);

// The records per group, fastest first; with `winners_only`, without those
// that failed verification.
std::map<GroupKey, std::vector<const Record*>> ranked_groups(
    const Document& doc, bool winners_only);

}  // namespace mpiarena
