// The report's matrix view and the whole text report (report.hpp).
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/report/breakdown.hpp"
#include "core/analysis/report/guidelines.hpp"
#include "core/analysis/report/report.hpp"
#include "core/analysis/report/report_text.hpp"
#include "core/analysis/report/scaling.hpp"

namespace mpiarena {

namespace {

// The params of a record other than its matrix axes, "mode bandwidth".
std::string other_params(const Record& r) {
  std::string out;
  for (const auto& [k, v] : r.params)
    if (k != r.matrix_row && k != r.matrix_column)
      out += (out.empty() ? "" : ", ") + k + " " + v;
  return out;
}

// Smaller is better: the median time (bandwidth tables show the rate,
// which orders the same way at one size).
std::string cell(const Record& r, bool rate, bool best) {
  if (r.verification == "failed") return "FAILED";
  std::string v =
      rate ? format_rate(r.bandwidth) : format_seconds(r.time.median);
  return best ? "*" + v : v;
}

}  // namespace

std::string render_matrices(const Document& doc, Style style) {
  // (suite, payload, ranks, bytes, size label, other params) -> records.
  using Key = std::tuple<std::string, std::string, int, std::size_t,
                         std::string, std::string>;
  std::map<Key, std::vector<const Record*>> tables;
  std::vector<Key> order;
  for (const Record& r : doc.records) {
    if (r.matrix_row.empty()) continue;
    const Key k{r.suite, r.payload,    r.ranks,
                r.bytes, r.size_label, other_params(r)};
    if (!tables.count(k)) order.push_back(k);
    tables[k].push_back(&r);
  }
  std::sort(order.begin(), order.end(), [](const Key& a, const Key& b) {
    return std::tie(std::get<0>(a), std::get<5>(a), std::get<1>(a),
                    std::get<2>(a), std::get<3>(a)) <
           std::tie(std::get<0>(b), std::get<5>(b), std::get<1>(b),
                    std::get<2>(b), std::get<3>(b));
  });
  std::ostringstream out;
  for (const Key& k : order) {
    const std::vector<const Record*>& recs = tables[k];
    if (recs.size() < 2) continue;
    const Record& first = *recs.front();
    std::vector<std::string> rows, cols;
    for (const Record* r : recs) {
      const std::string rv = r->param(first.matrix_row);
      const std::string cv = r->param(first.matrix_column);
      if (std::find(rows.begin(), rows.end(), rv) == rows.end())
        rows.push_back(rv);
      if (std::find(cols.begin(), cols.end(), cv) == cols.end())
        cols.push_back(cv);
    }
    const bool rate = first.window > 0 && first.moves_data;
    std::string title = first.suite + " " + first.payload + ", " +
                        std::to_string(first.ranks) + " ranks, " +
                        size_text(first.size_label, first.bytes);
    if (!std::get<5>(k).empty()) title += ", " + std::get<5>(k);
    title += ": " + first.matrix_row + " x " + first.matrix_column + " (" +
             (rate ? "bandwidth per message" : "median time") +
             "; * the fastest of its row)";
    out << heading(title, style);
    std::vector<std::string> header{first.matrix_row};
    for (const std::string& c : cols) header.push_back(">" + c);
    Table t(header);
    for (const std::string& rv : rows) {
      std::vector<const Record*> line(cols.size(), nullptr);
      const Record* best = nullptr;
      for (const Record* r : recs) {
        if (r->param(first.matrix_row) != rv) continue;
        const auto c =
            std::find(cols.begin(), cols.end(), r->param(first.matrix_column));
        line[static_cast<std::size_t>(c - cols.begin())] = r;
        if (r->verification != "failed" &&
            (!best || r->time.median < best->time.median))
          best = r;
      }
      std::vector<std::string> row{rv};
      for (const Record* r : line)
        row.push_back(
            r ? cell(*r, rate, r == best && rows.size() + cols.size() > 2)
              : "-");
      t.add(std::move(row));
    }
    out << t.render(style);
  }
  return out.str();
}

std::string render_report(const Document& doc, const nlohmann::json& summary,
                          Style style, bool per_rank, bool percentiles) {
  std::string out = render_header(doc) + render_table(doc, style, percentiles) +
                    render_matrices(doc, style) +
                    render_guidelines(doc, style) +
                    render_breakdown(doc, style) + render_scaling(doc, style) +
                    render_summary(summary, style);
  if (per_rank) out += render_per_rank(doc, style);
  return out;
}

}  // namespace mpiarena
