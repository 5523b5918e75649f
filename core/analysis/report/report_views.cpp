// The report's header and per-rank view (report.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <mpiarena/sizes.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/report/report.hpp"
#include "core/analysis/report/report_text.hpp"
#include "core/analysis/report/summary.hpp"
#include "core/results/printable.hpp"
#include "core/results/suites.hpp"

namespace mpiarena {

using nlohmann::json;

namespace {

// Placement of the first two ranks (the pair a point-to-point or a 2-rank
// stencil runs on): what they share; empty when the context lacks it.
std::string placement_line(const Context& c) {
  if (!c.placement || !c.placement->ranks_0_1 || c.placement->ranks.size() < 2)
    return "";
  std::ostringstream out;
  const PairPlacement& pair = *c.placement->ranks_0_1;
  const std::vector<RankPlacement>& r = c.placement->ranks;
  std::string shared, apart;
  const std::pair<const char*, bool> what[] = {{"cpu", pair.share_cpu},
                                               {"core", pair.share_core},
                                               {"L2", pair.share_l2},
                                               {"L3", pair.share_l3},
                                               {"package", pair.share_package}};
  for (const auto& [name, shares] : what) {
    std::string& list = shares ? shared : apart;
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  out << "ranks 0 and 1: " << (pair.same_host ? "one host" : "two hosts")
      << ", CPUs " << r[0].cpus << " and " << r[1].cpus
      << (r[0].bound ? "" : " (unbound)")
      << (shared.empty() ? "" : "; share " + shared)
      << (apart.empty() ? "" : "; not " + apart) << "\n";
  return out.str();
}

// --sync window: the global clock and the windows of the records.
std::string window_lines(const Document& doc) {
  const ClockContext c = doc.context.clock.value_or(ClockContext{});
  double residual = 0;
  for (const double v : c.residual_s)
    residual = std::max(residual, std::fabs(v));
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
  out << "window timing: clocks synchronized by " << c.algorithm << " ("
      << c.synchronizations << "x, largest residual "
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

// What the times are, by how the suites' operations were timed
// (docs/methodology.md, "How a collective is timed"): one at a time
// (--sync single), back to back where one can overlap the next (a rate),
// or back to back where they cannot.
std::string timing_lines(const Document& doc, const std::string& samples) {
  std::set<std::string> single, rate;
  bool other = doc.records.empty();
  for (const Record& r : doc.records) {
    const auto it = r.definition.find("sync");
    if (it != r.definition.end() && it->second == "single")
      single.insert(r.suite);
    else if (operations_may_overlap(r.suite))
      rate.insert(r.suite);
    else
      other = true;
  }
  auto names = [](const std::set<std::string>& suites) {
    std::string s;
    for (const std::string& n : suites) s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  std::ostringstream out;
  if (!single.empty())
    out << names(single)
        << ": one operation at a time, each after its own barrier: the "
           "slowest rank's time of one operation (median over a sample's "
           "operations), median over "
        << samples << "\n";
  if (!rate.empty())
    out << names(rate)
        << ": operations back to back after one barrier (--sync barrier): "
           "the slowest rank's time per operation, a rate where one overlaps "
           "the next; median over "
        << samples << "\n";
  if (other)
    out << "per-operation time of the slowest rank; median over " << samples
        << "\n";
  return out.str();
}

// --precision: the samples' rule, how many points reached it, and the
// worst precision of those that did not.
std::string precision_line(const Document& doc, const StoppingContext& s) {
  int reached = 0, capped = 0, samples_lo = 0, samples_hi = 0;
  double worst = 0;
  for (const Record& r : doc.records) {
    if (r.stopped_by == "precision") ++reached;
    if (r.stopped_by == "max_time") {
      ++capped;
      worst = std::max(worst, r.precision);
    }
    const int n = r.repetitions;
    samples_lo = samples_lo == 0 ? n : std::min(samples_lo, n);
    samples_hi = std::max(samples_hi, n);
  }
  std::ostringstream out;
  out.precision(3);
  out << "samples until the median is known to +-" << s.precision * 100
      << "% (95%), " << doc.context.options.repetitions.value_or(0)
      << " at least, at most " << s.max_time_s << " s a point: " << reached
      << " of " << doc.records.size() << " points reached it";
  if (capped > 0)
    out << ", " << capped << " stopped at " << s.max_time_s
        << " s (worst: +-" << worst * 100 << "%)";
  if (samples_hi > 0)
    out << "; " << samples_lo << " to " << samples_hi << " samples";
  out << "\n";
  return out.str();
}

}  // namespace

std::string render_header(const Document& doc) {
  const Context& c = doc.context;
  const int ranks = c.ranks, nodes = c.nodes;
  const std::string& library = c.mpi_library;
  std::ostringstream out;
  out << "mpiarena "
      << (c.runner_version.empty() ? std::string("?") : c.runner_version)
      << ": " << ranks << (ranks == 1 ? " rank" : " ranks") << " on "
      << nodes << (nodes == 1 ? " node, " : " nodes, ")
      << library.substr(
             0, std::min(library.find_first_of(",\n"), library.find("\\x0A")))
      << "\n";
  if (c.label) out << "label: " << printable(*c.label) << "\n";
  const int machines = c.machines.value_or(nodes);
  if (machines < nodes)
    out << "emulated nodes: the " << nodes << " nodes run on " << machines
        << (machines == 1 ? " machine" : " machines")
        << " and share its CPUs and memory (scripts/cluster)\n";
  const std::string waiting = c.waiting.value_or("");
  if (c.oversubscribed.value_or(false))
    out << "oversubscribed: more ranks than the " << c.cpus_per_node.value_or(0)
        << " CPUs of a node; ranks waiting between samples "
        << (waiting.empty() ? "poll" : waiting)
        << " (--wait); compare such times only with each other\n";
  else if (waiting == "sleep")
    out << "ranks waiting between samples sleep (--wait sleep)\n";
  out << placement_line(c);
  if (!doc.complete)
    out << "incomplete run: it stopped before its end; these are the "
        << doc.records.size() << " points it measured\n";
  // How the samples were taken and what the machine did.
  if (c.interleave && c.interleave->enabled)
    out << "competing methods interleaved: one sample of each per round, "
           "seeded order (--seed "
        << c.interleave->seed << ")\n";
  if (c.noise && c.noise->recorded) out << noise_lines(doc);
  if (c.cache && c.cache->mode == "cold")
    out << "cold cache: ping-pong buffers rotate over "
        << format_bytes(static_cast<double>(c.cache->cold_set_bytes))
        << " per rank (twice the last-level cache)\n";
  const int repetitions = c.options.repetitions.value_or(0);
  const StoppingContext stopping = c.stopping.value_or(StoppingContext{});
  if (stopping.iterations > 0)
    out << "fixed " << stopping.iterations
        << " operations per sample (--iterations)\n";
  if (stopping.precision > 0) out << precision_line(doc, stopping);
  if (stopping.target_rse > 0) {
    int reached = 0, capped = 0;
    for (const Record& r : doc.records)
      (r.stopped_by == "target_rse" ? reached : capped) +=
          r.stopped_by == "repetitions" ? 0 : 1;
    out << "--target-rse " << stopping.target_rse * 100 << "%: " << reached
        << " points reached it, " << capped << " stopped at --max-time "
        << stopping.max_time_s << " s; at least " << repetitions
        << " samples each\n";
  }
  if (c.clock) {
    out << window_lines(doc);
    out << "per-operation time: the latest exit minus the window's start, "
           "median over a sample's valid windows; median over "
        << repetitions << " samples\n";
  } else {
    out << timing_lines(doc, stopping.precision > 0
                                 ? std::string("the samples")
                                 : std::to_string(repetitions) + " samples");
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
