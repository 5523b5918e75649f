// The report's header and per-rank view (report.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/report/report.hpp"
#include "core/analysis/report/report_text.hpp"
#include "core/analysis/report/summary.hpp"

namespace mpiarena {

using nlohmann::json;

namespace {

// Placement of the first two ranks (the pair a point-to-point or a 2-rank
// stencil runs on): what they share; empty when the context lacks it.
std::string placement_line(const json& c) {
  if (!c.contains("placement") || !c["placement"].contains("ranks_0_1"))
    return "";
  std::ostringstream out;
  const auto& p = c["placement"];
  const auto& pair = p["ranks_0_1"];
  const auto& r = p["ranks"];
  std::string shared, apart;
  for (const char* what : {"cpu", "core", "l2", "l3", "package"}) {
    const std::string key = std::string("share_") + what;
    if (!pair.contains(key)) continue;
    std::string& list = pair[key].get<bool>() ? shared : apart;
    list += (list.empty() ? "" : ", ") +
            std::string(what[0] == 'l' ? "L" + std::string(what + 1) : what);
  }
  out << "ranks 0 and 1: "
      << (pair.value("same_host", false) ? "one host" : "two hosts")
      << ", CPUs " << r[0].value("cpus", std::string("?")) << " and "
      << r[1].value("cpus", std::string("?"))
      << (r[0].value("bound", false) ? "" : " (unbound)")
      << (shared.empty() ? "" : "; share " + shared)
      << (apart.empty() ? "" : "; not " + apart) << "\n";
  return out.str();
}

// --sync window: the global clock and the windows of the records.
std::string window_lines(const Document& doc) {
  const nlohmann::json& c = doc.context["clock"];
  double residual = 0;
  for (const auto& v : c.value("residual_s", nlohmann::json::array()))
    residual = std::max(residual, std::fabs(v.get<double>()));
  double w_lo = 0, w_hi = 0, worst = 0;
  std::int64_t windows = 0, invalid = 0;
  for (const Record& r : doc.records) {
    if (!r.sync.windowed) continue;
    w_lo = w_lo > 0 ? std::min(w_lo, r.sync.window_s) : r.sync.window_s;
    w_hi = std::max(w_hi, r.sync.window_s);
    windows += r.sync.windows;
    invalid += r.sync.invalid;
    worst = std::max(worst, r.sync.invalid_fraction());
  }
  std::ostringstream out;
  out << "window timing: clocks synchronized by " << c.value("algorithm", "")
      << " (" << c.value("synchronizations", 0) << "x, largest residual "
      << format_seconds(residual) << "); each operation starts at its "
      << "window on the global clock, W " << format_seconds(w_lo);
  if (w_hi > w_lo) out << " to " << format_seconds(w_hi);
  char pct[64];
  std::snprintf(pct, sizeof pct, "%.1f%% (at most %.1f%% in a point)",
                windows > 0 ? 100.0 * static_cast<double>(invalid) /
                                  static_cast<double>(windows)
                            : 0.0,
                100 * worst);
  out << "; windows a rank reached late, not counted: " << pct << "\n";
  return out.str();
}

// The noise the records saw, and the machine state (core-to-core round
// trip) during the run.
std::string noise_lines(const Document& doc) {
  std::ostringstream out;
  int noisy = 0, retries = 0;
  double steal = 0;
  for (const Record& r : doc.records) {
    noisy += r.noise.noisy ? 1 : 0;
    retries += r.noise.retries;
    for (double s : r.noise.steal_s) steal += s;
  }
  std::ostringstream figures;
  figures.precision(3);
  figures << steal * 1e3;
  out << "noise: " << noisy << " of " << doc.records.size()
      << " points noisy after " << retries
      << " retried samples; steal during the kept samples " << figures.str()
      << " ms\n";
  std::vector<double> state;
  for (const Record& r : doc.records)
    state.insert(state.end(), r.noise.core_to_core_ns.begin(),
                 r.noise.core_to_core_ns.end());
  if (!state.empty()) {
    const auto [lo_at, hi_at] = std::minmax_element(state.begin(), state.end());
    const double lo = *lo_at, hi = *hi_at;
    out << "machine state: core-to-core round trip between ranks 0 and 1 "
        << std::lround(median(state, EvenMedian::upper)) << " ns (median; "
        << std::lround(lo) << " to " << std::lround(hi) << " ns)"
        << (hi > kStateRatio * lo
                ? "; it changed during the run: compare points measured "
                  "in one state"
                : "")
        << "\n";
  }
  return out.str();
}

}  // namespace

std::string render_header(const Document& doc) {
  const json& c = doc.context;
  const int ranks = c.value("ranks", 0), nodes = c.value("nodes", 1);
  const std::string library = c.value("mpi_library", std::string());
  std::ostringstream out;
  out << "mpiarena " << c.value("runner_version", std::string("?")) << ": "
      << ranks << (ranks == 1 ? " rank" : " ranks") << " on " << nodes
      << (nodes == 1 ? " node, " : " nodes, ")
      << library.substr(
             0, std::min(library.find_first_of(",\n"), library.find("\\x0A")))
      << "\n";
  const int machines = c.value("machines", nodes);
  if (machines < nodes)
    out << "emulated nodes: the " << nodes << " nodes run on " << machines
        << (machines == 1 ? " machine" : " machines")
        << " and share its CPUs and memory (scripts/cluster)\n";
  if (c.value("oversubscribed", false))
    out << "oversubscribed: more ranks than the " << c.value("cpus_per_node", 0)
        << " CPUs of a node; ranks waiting between samples "
        << c.value("waiting", std::string("poll"))
        << " (--wait); compare such times only with each other\n";
  else if (c.value("waiting", std::string()) == "sleep")
    out << "ranks waiting between samples sleep (--wait sleep)\n";
  out << placement_line(c);
  if (!doc.complete)
    out << "incomplete run: it stopped before its end; these are the "
        << doc.records.size() << " points it measured\n";
  // How the samples were taken and what the machine did.
  if (c.contains("interleave") && c["interleave"].value("enabled", false))
    out << "competing methods interleaved: one sample of each per round, "
           "seeded order (--seed "
        << c["interleave"].value("seed", std::uint64_t{0}) << ")\n";
  if (c.contains("noise") && c["noise"].value("recorded", false))
    out << noise_lines(doc);
  if (c.contains("cache") && c["cache"].value("mode", "hot") == "cold")
    out << "cold cache: ping-pong buffers rotate over "
        << format_bytes(c["cache"].value("cold_set_bytes", 0.0))
        << " per rank (twice the last-level cache)\n";
  int repetitions = 0;
  if (c.contains("options") && c["options"].is_object())
    repetitions = c["options"].value("repetitions", 0);
  if (c.contains("stopping") && c["stopping"].value("iterations", 0) > 0)
    out << "fixed " << c["stopping"].value("iterations", 0)
        << " operations per sample (--iterations)\n";
  if (c.contains("stopping") && c["stopping"].value("target_rse", 0.0) > 0) {
    int reached = 0, capped = 0;
    for (const Record& r : doc.records)
      (r.stopped_by == "target_rse" ? reached : capped) +=
          r.stopped_by == "repetitions" ? 0 : 1;
    out << "--target-rse " << c["stopping"].value("target_rse", 0.0) * 100
        << "%: " << reached << " points reached it, " << capped
        << " stopped at --max-time " << c["stopping"].value("max_time_s", 0.0)
        << " s; at least " << repetitions << " samples each\n";
  }
  if (c.contains("clock")) {
    out << window_lines(doc);
    out << "per-operation time: the latest exit minus the window's start, "
           "median over a sample's valid windows; median over "
        << repetitions << " samples\n";
  } else {
    out << "per-operation time of the slowest rank; median over " << repetitions
        << " samples\n";
  }
  return out.str();
}

std::string render_per_rank(const Document& doc, Style style) {
  std::size_t width = 0;
  for (const Record& r : doc.records)
    if (r.per_rank.size() >= 2) width = std::max(width, r.per_rank.size());
  if (width == 0) return "";
  std::vector<std::string> header{"suite", "payload", ">size", "method"};
  for (std::size_t k = 0; k < width; ++k)
    header.push_back(">rank " + std::to_string(k));
  header.push_back(">max / min");
  std::vector<std::vector<std::string>> rows;
  bool any_idle = false;
  for (const auto& [key, recs] : ranked_groups(doc, false))
    for (const Record* r : recs) {
      if (r->per_rank.size() < 2) continue;
      std::vector<std::string> row{
          r->suite, r->payload, size_text(r->size_label, r->bytes), r->method};
      // A pairwise record ran `pairs` pairs on ranks 0 .. 2 * pairs - 1;
      // the ranks above only timed an empty loop: "idle", not in the ratio.
      const std::size_t active =
          r->pairs > 0 ? std::min(r->per_rank.size(),
                                  2 * static_cast<std::size_t>(r->pairs))
                       : r->per_rank.size();
      any_idle = any_idle || active < r->per_rank.size();
      for (std::size_t k = 0; k < width; ++k)
        row.push_back(k < active               ? format_seconds(r->per_rank[k])
                      : k < r->per_rank.size() ? "idle"
                                               : "");
      const auto [lo, hi] = std::minmax_element(r->per_rank.begin(),
                                                r->per_rank.begin() + active);
      const double hi_s = *hi, lo_s = *lo;
      row.push_back(lo_s > 0 ? fixed(hi_s / lo_s, 2) : "-");
      rows.push_back(std::move(row));
    }
  return heading(std::string("Per-rank time: each rank's own per-operation "
                             "time, median over the repetitions") +
                     (any_idle ? " (idle: a rank outside the ping-pong pairs)"
                               : ""),
                 style) +
         render_grid(header, rows, style);
}

std::string render_noisy_table(const std::vector<const Record*>& recs,
                               Style style) {
  std::vector<std::string> header{
      "point",    ">size",  ">ranks",           ">noisy",
      ">retried", ">steal", ">most preemptions"};
  if (style == Style::html) header.push_back("first noisy sample");
  std::vector<std::vector<std::string>> rows;
  for (const Record* r : recs) {
    if (!r->noise.noisy) continue;
    double steal = 0;
    for (double s : r->noise.steal_s) steal += s;
    const auto most = std::max_element(r->noise.preemptions.begin(),
                                       r->noise.preemptions.end());
    rows.push_back(
        {r->suite + "/" + r->method + "/" + r->payload,
         size_text(r->size_label, r->bytes), std::to_string(r->ranks),
         std::to_string(r->noise.noisy_samples) + " of " +
             std::to_string(r->repetitions),
         std::to_string(r->noise.retries),
         steal > 0 ? format_seconds(steal) : "0",
         most == r->noise.preemptions.end() ? "-" : std::to_string(*most)});
    if (style == Style::html) {
      const std::string& why = r->noise.reason;
      const auto first = why.find("first: ");
      rows.back().push_back(first == std::string::npos ? why
                                                       : why.substr(first + 7));
    }
  }
  return rows.empty() ? "" : render_grid(header, rows, style);
}

std::string noisy_count_line(const std::vector<const Record*>& recs) {
  const auto noisy = std::count_if(
      recs.begin(), recs.end(), [](const Record* r) { return r->noise.noisy; });
  std::ostringstream out;
  out << "Noisy points: " << noisy << " of " << recs.size()
      << " (a sample kept after the retries had steal over "
      << kNoisySteal * 100 << "% of its CPU time, or a rank preempted "
      << kNoisyPreemptions << " times a second or more)";
  return out.str();
}

}  // namespace mpiarena
