// The rank ladder's views (scaling.hpp).
#include "core/analysis/report/scaling.hpp"

#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <set>
#include <tuple>
#include <vector>

#include "core/analysis/report/report_text.hpp"
#include "core/analysis/report/summary.hpp"
#include "core/results/suites.hpp"

namespace mpiarena {

namespace {

std::string labelled_size_cell(const Record& r) {
  const std::string pretty = format_bytes(static_cast<double>(r.bytes));
  return r.size_label == std::to_string(r.bytes)
             ? pretty
             : r.size_label + " (" + pretty + ")";
}

std::string factor(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "x%.2f", x);
  return buf;
}

using Series = std::pair<std::string, std::string>;  // suite, payload

}  // namespace

namespace {

using Cells = std::map<Series, std::map<std::pair<std::string, std::size_t>,
                                        std::map<int, const Record*>>>;
using RanksOf = std::map<Series, std::set<int>>;

// Per series measured at 2 rank counts or more: each method's median time
// per size and rank count, and the ratio of the largest count's to the
// smallest's.
std::string time_tables(const Cells& cells, RanksOf& ranks_of, Style style) {
  std::string out;
  for (const auto& [series, rows] : cells) {
    const std::set<int>& ranks = ranks_of[series];
    if (ranks.size() < 2) continue;
    const std::string what = series.first + " / " + series.second;
    bool total = false;
    for (const auto& row : rows)
      for (const auto& cell : row.second)
        total = total || cell.second->size_total;
    const std::string basis = !size_is_per_rank(series.first) ? ""
                              : total ? "; sizes in total over the ranks"
                                      : "; sizes per rank";
    std::vector<std::string> header{"method", ">size"};
    for (int k : ranks) header.push_back(">np " + std::to_string(k));
    header.push_back(">np " + std::to_string(*ranks.rbegin()) + " / np " +
                     std::to_string(*ranks.begin()));
    std::vector<std::vector<std::string>> table;
    for (const auto& [key, by_ranks] : rows) {
      std::vector<std::string> row{
          key.first, labelled_size_cell(*by_ranks.begin()->second)};
      for (int k : ranks) {
        auto it = by_ranks.find(k);
        row.push_back(it == by_ranks.end() ? "-"
                      : it->second->verification == "failed"
                          ? "FAILED"
                          : format_seconds(it->second->time.median));
      }
      auto lo = by_ranks.find(*ranks.begin());
      auto hi = by_ranks.find(*ranks.rbegin());
      row.push_back(
          lo != by_ranks.end() && hi != by_ranks.end() &&
                  lo->second->time.median > 0
              ? factor(hi->second->time.median / lo->second->time.median)
              : "-");
      table.push_back(std::move(row));
    }
    out +=
        heading("Scaling over ranks: " + what +
                    " (median time per operation, slowest rank" + basis + ")",
                style) +
        render_grid(header, table, style);
  }

  return out;
}

// The winner per size and rank count (the ranked groups, verified records
// only), with the runner-up's factor.
std::string winner_tables(const Document& doc, RanksOf& ranks_of, Style style) {
  std::string out;
  // Winners: the ranked groups (verified records only), by series and size.
  std::map<Series, std::map<std::size_t, std::map<int, std::string>>> wins;
  std::map<Series, std::map<std::size_t, std::string>> size_names;
  std::map<Series, Series> base;  // (suite, payload) of each
  for (const auto& [key, recs] : ranked_groups(doc, true)) {
    const auto& [suite, payload, ranks, bytes, op] = key;
    if (ranks_of[{suite, payload}].size() < 2 || !group_ranked(key)) continue;
    std::string cell = recs.front()->method;
    if (recs.size() > 1 && recs.front()->time.median > 0)
      cell +=
          " (" + factor(recs[1]->time.median / recs.front()->time.median) + ")";
    // An operation of its own is a table of its own ("stencil / ring").
    const Series series{op.empty() ? suite : suite + " / " + op, payload};
    wins[series][bytes][ranks] = cell;
    size_names[series][bytes] = labelled_size_cell(*recs.front());
    base[series] = {suite, payload};
  }
  for (const auto& [series, by_size] : wins) {
    const std::set<int>& ranks = ranks_of[base[series]];
    std::vector<std::string> header{">size"};
    for (int k : ranks) header.push_back("np " + std::to_string(k));
    std::vector<std::vector<std::string>> table;
    for (const auto& [bytes, by_ranks] : by_size) {
      std::vector<std::string> row{size_names[series][bytes]};
      for (int k : ranks) {
        auto it = by_ranks.find(k);
        row.push_back(it == by_ranks.end() ? "-" : it->second);
      }
      table.push_back(std::move(row));
    }
    out += heading("Winner per size and rank count: " + series.first + " / " +
                       series.second +
                       " (x: the runner-up's time over the "
                       "winner's)",
                   style) +
           render_grid(header, table, style);
  }
  return out;
}

}  // namespace

std::string render_scaling(const Document& doc, Style style) {
  std::set<int> all_ranks;
  for (const Record& r : doc.records) all_ranks.insert(r.ranks);
  if (all_ranks.size() < 2) return {};

  RanksOf ranks_of;
  Cells cells;  // (suite, payload) -> (method, bytes) -> ranks -> record
  for (const Record& r : doc.records) {
    ranks_of[{r.suite, r.payload}].insert(r.ranks);
    cells[{r.suite, r.payload}][{r.method, r.bytes}][r.ranks] = &r;
  }
  return time_tables(cells, ranks_of, style) +
         winner_tables(doc, ranks_of, style);
}

}  // namespace mpiarena
