#include "core/analysis/report/breakdown.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <tuple>
#include <vector>

#include "core/analysis/report/report_text.hpp"

namespace mpiarena {

namespace {

// The cells of `r`'s values of `first`'s metrics ("-" where `r` lacks
// one), in `first`'s order.
void add_metric_cells(const Record& first, const Record& r,
                      std::vector<std::string>& row) {
  for (const MetricValue& m : first.metrics) {
    auto it =
        std::find_if(r.metrics.begin(), r.metrics.end(),
                     [&](const MetricValue& q) { return q.name == m.name; });
    row.push_back(it == r.metrics.end() ? "-" : format_metric(it->value, ""));
  }
}

std::string phases_text(const std::vector<PhaseTiming>& phases, double total) {
  std::string out;
  for (const PhaseTiming& p : phases) {
    if (!out.empty()) out += ", ";
    out += p.name + " " + format_seconds(p.time.median);
    if (total > 0) {
      char pct[16];
      std::snprintf(pct, sizeof pct, " (%.0f%%)", 100 * p.time.median / total);
      out += pct;
    }
  }
  return out.empty() ? "-" : out;
}

}  // namespace

namespace {

std::string short_size_cell(const Record& r) {
  return r.size_label == std::to_string(r.bytes) ? short_size(r.bytes)
                                                 : r.size_label;
}

using MethodKey = std::tuple<std::string, std::string, std::string, int>;

// The records `keep` accepts, by suite, method, payload and ranks, each
// group by size.
template <class Keep>
std::map<MethodKey, std::vector<const Record*>> by_method(const Document& doc,
                                                          Keep keep) {
  std::map<MethodKey, std::vector<const Record*>> groups;
  for (const Record& r : doc.records)
    if (keep(r)) groups[{r.suite, r.method, r.payload, r.ranks}].push_back(&r);
  for (auto& [key, recs] : groups)
    std::stable_sort(
        recs.begin(), recs.end(),
        [](const Record* a, const Record* b) { return a->bytes < b->bytes; });
  return groups;
}

// "overlap/nob_halo2d / 1d / 2 ranks: <what>"
std::string method_title(const MethodKey& key, const std::string& what) {
  const auto& [suite, method, payload, ranks] = key;
  return suite + "/" + method + " / " + payload + " / " +
         std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") + ": " +
         what;
}

// Records with parts, one table per method, payload and rank count, a row
// per size: each part's median, each metric, the headline part's phases
// (NMPM's columns: size, communication, computation, overall, overlap).
std::string render_parts(const Document& doc, Style style) {
  std::string out;
  for (auto& [key, recs] :
       by_method(doc, [](const Record& r) { return !r.parts.empty(); })) {
    const Record& first = *recs.front();
    std::vector<std::string> header{">size"};
    for (const PartTiming& p : first.parts)
      header.push_back(">" + p.name +
                       (p.name == first.headline_part ? " *" : ""));
    for (const MetricValue& m : first.metrics)
      header.push_back(">" + m.name +
                       (m.unit.empty() ? "" : " (" + m.unit + ")"));
    header.push_back("phases of " + first.headline_part);
    header.push_back("verified");
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> notes;
    for (const Record* r : recs) {
      std::vector<std::string> row{short_size_cell(*r)};
      for (const std::string& n : r->notes)
        notes.push_back("(" + std::to_string(notes.size() + 1) + ") " +
                        short_size_cell(*r) + ": " + n);
      const PartTiming* head = nullptr;
      for (const PartTiming& p : first.parts) {
        auto it =
            std::find_if(r->parts.begin(), r->parts.end(),
                         [&](const PartTiming& q) { return q.name == p.name; });
        row.push_back(it == r->parts.end() ? "-"
                                           : format_seconds(it->time.median));
        if (it != r->parts.end() && it->name == r->headline_part) head = &*it;
      }
      add_metric_cells(first, *r, row);
      row.push_back(head ? phases_text(head->phases, head->time.median) : "-");
      row.push_back(
          (r->verification == "failed" ? "FAILED" : r->verification) +
          (r->notes.empty() ? "" : " (" + std::to_string(notes.size()) + ")"));
      rows.push_back(std::move(row));
    }
    out += heading(method_title(key,
                                "parts and metrics (per operation, slowest "
                                "rank, median; * the part that is the "
                                "record's time)"),
                   style) +
           render_grid(header, rows, style);
    for (const std::string& n : notes)
      out += (style == Style::markdown ? "\n" : "  ") + n + "\n";
  }
  return out;
}

// Records with phases or metrics but no parts, one table per method,
// payload and rank count, a row per size: each phase's median, the
// record's median, each metric (OPBench's layout: size, pack, comm,
// unpack, app).
std::string render_phases(const Document& doc, Style style) {
  std::string out;
  for (auto& [key, recs] : by_method(doc, [](const Record& r) {
         return r.parts.empty() && (!r.phases.empty() || !r.metrics.empty());
       })) {
    const Record& first = *recs.front();
    std::vector<std::string> header{">size"};
    for (const PhaseTiming& p : first.phases) header.push_back(">" + p.name);
    header.push_back(">operation");
    for (const MetricValue& m : first.metrics)
      header.push_back(">" + m.name +
                       (m.unit.empty() ? "" : " (" + m.unit + ")"));
    header.push_back("verified");
    std::vector<std::vector<std::string>> rows;
    for (const Record* r : recs) {
      std::vector<std::string> row{short_size_cell(*r)};
      for (const PhaseTiming& p : first.phases) {
        auto it = std::find_if(
            r->phases.begin(), r->phases.end(),
            [&](const PhaseTiming& q) { return q.name == p.name; });
        row.push_back(it == r->phases.end() ? "-"
                                            : format_seconds(it->time.median));
      }
      row.push_back(format_seconds(r->time.median));
      add_metric_cells(first, *r, row);
      row.push_back(r->verification == "failed" ? "FAILED" : r->verification);
      rows.push_back(std::move(row));
    }
    out += heading(method_title(key, first.phases.empty()
                                         ? "metrics (per operation, slowest "
                                           "rank, median)"
                                         : "phases of one operation (slowest "
                                           "rank, median; operation: the "
                                           "whole, time outside the phases "
                                           "included)"),
                   style) +
           render_grid(header, rows, style);
  }
  return out;
}

}  // namespace

std::string render_breakdown(const Document& doc, Style style) {
  return render_parts(doc, style) + render_phases(doc, style);
}

}  // namespace mpiarena
