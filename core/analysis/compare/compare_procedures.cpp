// The procedures compare can judge (compare_procedures.hpp).
#include "core/analysis/compare/compare_procedures.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/analysis/compare/compare_internal.hpp"
#include "core/results/doc_dir.hpp"

namespace mpiarena {

namespace {

// "bcast@new" -> "new", "allreduce@new[algorithm=ring]" -> "new" (the
// build sits between the name and a method's option values,
// method_label); "" without a build.
std::string build_of(const std::string& method) {
  const std::size_t at = method.find('@');
  if (at == std::string::npos) return "";
  const std::size_t open = method.find('[', at);
  return method.substr(
      at + 1, open == std::string::npos ? std::string::npos : open - at - 1);
}

// "allreduce@new[algorithm=ring]" -> "allreduce[algorithm=ring]".
std::string without_build(const std::string& method) {
  const std::size_t at = method.find('@');
  if (at == std::string::npos) return method;
  const std::size_t open = method.find('[', at);
  return method.substr(0, at) +
         (open == std::string::npos ? "" : method.substr(open));
}

// The launches' records of one point as one record (launches_document).
Record launch_record(const std::vector<const Record*>& each) {
  Record r = *each.front();
  std::vector<double> medians;
  for (const Record* e : each) {
    medians.push_back(samples_median(*e));
    if (e->verification == "failed") {
      r.verification = "failed";
      r.verification_message = e->verification_message;
    }
  }
  r.samples_max = r.samples_min = r.samples_avg = medians;
  r.time = summarize(medians);
  r.bandwidth = r.time.median > 0
                    ? static_cast<double>(r.payload_bytes) / r.time.median
                    : 0;
  r.repetitions = static_cast<int>(medians.size());
  r.phases.clear();
  r.parts.clear();
  r.metrics.clear();
  r.noise = Noise{};
  return r;
}

}  // namespace

std::vector<std::string> document_builds(const Document& d) {
  std::vector<std::string> builds;
  auto add = [&](const std::string& method) {
    const std::string b = build_of(method);
    if (!b.empty() &&
        std::find(builds.begin(), builds.end(), b) == builds.end())
      builds.push_back(b);
  };
  for (const Record& r : d.records) add(r.method);
  for (const Skip& s : d.skipped) add(s.method);
  return builds;
}

Document build_part(const Document& d, const std::string& build) {
  Document part;
  part.context = d.context;
  part.complete = d.complete;
  for (const Record& r : d.records)
    if (build_of(r.method) == build) {
      part.records.push_back(r);
      part.records.back().method = without_build(r.method);
    }
  for (const Skip& s : d.skipped)
    if (build_of(s.method) == build) {
      part.skipped.push_back(s);
      part.skipped.back().method = without_build(s.method);
    }
  return part;
}

Document launches_document(const std::vector<Document>& launches,
                           const std::string& side,
                           std::vector<std::string>& warnings) {
  Document out;
  if (launches.empty()) return out;
  out.context = launches.front().context;
  out.complete = true;
  std::vector<std::map<Key, const Record*>> indexed;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    indexed.push_back(index_records(
        launches[i], side + " launch " + std::to_string(i + 1), warnings));
    out.complete = out.complete && launches[i].complete;
  }
  std::size_t partial = 0;
  for (const auto& [key, first] : indexed.front()) {
    std::vector<const Record*> each;
    for (const auto& index : indexed) {
      const auto it = index.find(key);
      if (it != index.end()) each.push_back(it->second);
    }
    if (each.size() == launches.size())
      out.records.push_back(launch_record(each));
    else
      ++partial;
  }
  for (std::size_t i = 1; i < launches.size(); ++i)
    for (const auto& [key, rec] : indexed[i])
      if (!indexed.front().count(key)) ++partial;
  if (partial > 0)
    warnings.push_back(std::to_string(partial) + " point(s) of " + side +
                       " were not measured by every launch of it: left out");
  for (std::size_t i = 1; i < launches.size(); ++i) {
    const Context &a = launches[i].context, &first = out.context;
    const std::pair<const char*, bool> differ[] = {
        {"mpi_library", a.mpi_library != first.mpi_library},
        {"mpi_version", a.mpi_version != first.mpi_version},
        {"ranks", a.ranks != first.ranks},
        {"hosts", a.hosts != first.hosts}};
    for (const auto& [field, different] : differ)
      if (different)
        warnings.push_back(side + " launch " + std::to_string(i + 1) +
                           " has another " + field + " than launch 1");
  }
  return out;
}

void correct_for_multiplicity(Comparison& c) {
  // Every test once: (point, metric index or -1 for the point's own p).
  std::vector<std::pair<std::size_t, int>> tests;
  std::vector<double> p;
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    tests.push_back({i, -1});
    p.push_back(c.points[i].test.p);
    const auto& metrics = c.points[i].metrics;
    for (std::size_t m = 0; m < metrics.size(); ++m)
      if (metrics[m].p >= 0) {
        tests.push_back({i, int(m)});
        p.push_back(metrics[m].p);
      }
  }
  const std::vector<double> adjusted = holm(p);
  const double n = static_cast<double>(tests.size());
  for (std::size_t t = 0; t < tests.size(); ++t) {
    PointComparison& pc = c.points[tests[t].first];
    if (tests[t].second < 0)
      pc.p_adjusted = adjusted[t];
    else
      pc.metrics[static_cast<std::size_t>(tests[t].second)].p_adjusted =
          adjusted[t];
  }
  c.tests = static_cast<int>(tests.size());
  const CompareOptions& o = c.options;
  bool possible = false;
  for (PointComparison& pc : c.points) {
    const bool flagged =
        pc.verdict == Outcome::regressed || pc.verdict == Outcome::improved;
    Outcome verdict = Outcome::unchanged;
    for (MetricChange& m : pc.metrics) {
      const double p = m.p >= 0 ? m.p_adjusted : pc.p_adjusted;
      if (m.verdict == Outcome::regressed || m.verdict == Outcome::improved)
        if (!(p < o.alpha)) m.verdict = Outcome::noisy;
      verdict = std::max(verdict, m.verdict);
    }
    if (o.procedure != Procedure::launches &&
        min_p_value(pc.test.n1, pc.test.n2) * n < o.alpha)
      possible = true;
    if (pc.note.rfind("verification failed in NEW", 0) == 0 ||
        pc.state_changed || !flagged)
      continue;
    pc.verdict = verdict;
    if (verdict == Outcome::noisy)
      pc.note =
          (pc.note.empty() ? "" : pc.note + "; ") +
          "the change is beyond the threshold but p = " + number(pc.test.p) +
          " is " + number(pc.p_adjusted) + " after Holm's correction for " +
          std::to_string(c.tests) + " tests, not below alpha " +
          number(o.alpha);
  }
  if (!possible && o.procedure != Procedure::launches && !c.points.empty()) {
    const std::size_t needed = min_samples_for(o.alpha / n);
    c.powerless = "after Holm's correction for " + std::to_string(c.tests) +
                  " tests no point could reach p < " + number(o.alpha) +
                  " with these samples; measure at least " +
                  std::to_string(needed) +
                  " repetitions a side (-r), or fewer points";
  }
  if (!possible && o.procedure != Procedure::launches && !c.points.empty())
    c.warnings.push_back(
        "after Holm's correction for " + std::to_string(c.tests) +
        " tests no point can be significant at alpha " + number(o.alpha) +
        " with these samples (the smallest p of a point times " +
        std::to_string(c.tests) +
        " is not below it): measure more repetitions (-r) or fewer points, "
        "or use --correction none");
}

}  // namespace mpiarena

namespace mpiarena {

namespace {

// What bench/gate measured for each procedure on this project's 2-core VM
// (docs/results/gate.md: Open MPI, 2 ranks, 21 transfer and ping-pong
// methods at small and medium, threshold 5%, alpha 0.05; a gate run fails
// on exit 1; the slowdowns are gate_bcast's, caught when it is named).
struct GateRecord {
  Procedure procedure;
  int launches;  // per side; 1 for the one-launch procedures
  bool holm;
  const char* row;  // its first cell, without markdown's ` and **
};
// The row of docs/results/gate.md (bench/gate) that holds each
// procedure's false alarms and power on this project's VM. The figures stay
// in the document, which bench/gate renders from its runs, so that none is
// compiled in to go stale.
constexpr GateRecord kGateRecords[] = {
    {Procedure::two_files, 1, false,
     "(a) two files, one launch each (no correction: today's default)"},
    {Procedure::two_files, 1, true, "(a) two files, Holm"},
    {Procedure::ab_run, 1, true,
     "(b) runner ab -m gate_bcast -r 15 --blocks 5 (Holm): runner ab's "
     "defaults, the recommended procedure"},
    {Procedure::ab_run, 1, false,
     "(b) runner ab -m gate_bcast -r 15 --blocks 5, no correction"},
    {Procedure::launches, 3, true, "(c) 3 launches a side (Holm: its default)"},
    {Procedure::launches, 3, false, "(c) 3 launches a side, no correction"},
    {Procedure::launches, 5, true, "(c) 5 launches a side (Holm)"},
    {Procedure::launches, 5, false, "(c) 5 launches a side, no correction"},
};

}  // namespace

const char* procedure_name(Procedure p) {
  switch (p) {
    case Procedure::ab_run:
      return "ab_run";
    case Procedure::launches:
      return "launches";
    case Procedure::two_files:
      break;
  }
  return "two_files";
}

std::string procedure_line(const Comparison& c) {
  const CompareOptions& o = c.options;
  std::string what;
  switch (o.procedure) {
    case Procedure::two_files:
      what =
          "two files, one launch each (the U test on each file's samples: "
          "it cannot tell the two launches' machine states from a change of "
          "the code)";
      break;
    case Procedure::ab_run:
      what =
          "A/B in one run (runner ab: both builds measured in the same "
          "rounds of one launch)";
      break;
    case Procedure::launches:
      what = std::to_string(o.launches_base) + " launches of BASE against " +
             std::to_string(o.launches_new) +
             " of NEW (each launch's median one observation; Welch's t test "
             "on their logarithms)";
      break;
  }
  const int k = std::min(o.launches_base, o.launches_new);
  std::string rate = "no false-alarm rate on record for this procedure";
  for (const GateRecord& r : kGateRecords)
    if (r.procedure == o.procedure && r.holm == o.holm &&
        (r.procedure != Procedure::launches || r.launches == k))
      rate = cite_docs(
                 "its false alarms and power on record: docs/results/gate.md, "
                 "row ") +
             r.row + " (bench/gate on this project's 2-core VM)";
  return "procedure: " + what + "; " + rate;
}

}  // namespace mpiarena
