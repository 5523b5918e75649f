#include "core/analysis/compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mpiarena/stats.hpp>
#include <set>
#include <tuple>
#include <utility>

#include "core/analysis/compare/compare_internal.hpp"
#include "core/analysis/compare/compare_procedures.hpp"
#include "core/results/doc_dir.hpp"

namespace mpiarena {

using nlohmann::json;

const char* verdict_name(Outcome v) {
  switch (v) {
    case Outcome::improved:
      return "improved";
    case Outcome::regressed:
      return "regressed";
    case Outcome::noisy:
      return "noisy";
    case Outcome::unchanged:
      break;
  }
  return "unchanged";
}

int Comparison::count(Outcome v) const {
  return static_cast<int>(
      std::count_if(points.begin(), points.end(),
                    [v](const PointComparison& p) { return p.verdict == v; }));
}

int Comparison::regressed_while_noisy() const {
  return static_cast<int>(
      std::count_if(points.begin(), points.end(), [](const PointComparison& p) {
        return p.verdict == Outcome::regressed &&
               (p.base_noise.noisy || p.new_noise.noisy);
      }));
}

int Comparison::state_changed() const {
  return static_cast<int>(
      std::count_if(points.begin(), points.end(),
                    [](const PointComparison& p) { return p.state_changed; }));
}

int Comparison::exit_code() const {
  if (points.empty()) return 2;  // nothing compared: a gate must not pass
  if (count(Outcome::regressed) > 0) return 1;
  return refusal().empty() ? 0 : 2;
}

std::string Comparison::refusal() const {
  if (!incomplete.empty() && !options.allow_incomplete) {
    std::string sides;
    for (const std::string& s : incomplete)
      sides += (sides.empty() ? "" : " and ") + s;
    return sides + (incomplete.size() > 1 ? " are" : " is") +
           " an incomplete (interrupted) run: its points may be too few or "
           "cut short; measure again, or give --allow-incomplete to judge "
           "it as it is";
  }
  if (!powerless.empty() && !options.allow_powerless)
    return "this comparison could not have failed: " + powerless +
           "; or give --allow-powerless to accept it";
  return "";
}

namespace {

double relative_change(double base, double now) {
  if (base == now) return 0;
  // As gbench does for a zero base; magnitudes, so the sign follows the
  // difference for a negative metric too.
  if (base <= 0) return (now - base) / ((std::fabs(now) + std::fabs(base)) / 2);
  return (now - base) / base;
}

MetricChange classify(std::string metric, bool higher_is_better, double base,
                      double now, double p, const CompareOptions& o) {
  MetricChange m;
  m.metric = std::move(metric);
  m.higher_is_better = higher_is_better;
  m.base = base;
  m.now = now;
  m.change = relative_change(base, now);
  if (!(factor(base, now) > o.threshold))
    m.verdict = Outcome::unchanged;
  else if (!(p < o.alpha))
    m.verdict = Outcome::noisy;
  else
    // By the sign of the difference, not of the relative change: a metric
    // may be 0 or negative in BASE (an overlap of -1 % that became 0 %).
    m.verdict = (now > base) == higher_is_better ? Outcome::improved
                                                 : Outcome::regressed;
  return m;
}

// Contract v4: phases, other parts and the plugin's metrics, each judged
// on its own samples in its own direction.
void judge_contract_v4(const Record& b, const Record& n,
                       const CompareOptions& o, PointComparison& pc) {
  auto own = [&](std::string name, bool higher, double bv, double nv,
                 const std::vector<double>& bs, const std::vector<double>& ns,
                 std::string unit) {
    const double p = mann_whitney(bs, ns).p;
    MetricChange m = classify(std::move(name), higher, bv, nv, p, o);
    m.p = p;
    m.unit = std::move(unit);
    pc.metrics.push_back(std::move(m));
  };
  for (const PhaseTiming& bp : b.phases)
    for (const PhaseTiming& np : n.phases)
      if (bp.name == np.name)
        own("phase:" + bp.name, false, samples_median(bp), samples_median(np),
            bp.samples_max, np.samples_max, "s");
  for (const PartTiming& bp : b.parts)
    for (const PartTiming& np : n.parts)
      if (bp.name == np.name && bp.name != n.headline_part)
        own("part:" + bp.name, false, samples_median(bp), samples_median(np),
            bp.samples_max, np.samples_max, "s");
  for (const MetricValue& bm : b.metrics)
    for (const MetricValue& nm : n.metrics)
      if (bm.name == nm.name)
        own("metric:" + bm.name, nm.higher_is_better, bm.value, nm.value,
            bm.samples, nm.samples, nm.unit);
}

// "+1812%", "-4.5%": a change as the notes give it.
std::string percent_change(double change) {
  return fixed(std::fabs(change) < 1 ? "%+.1f%%" : "%+.0f%%", 100 * change);
}

// Why the verdict is what it is, where that needs saying: a failed
// verification, too few samples, a change beyond the threshold but not
// significant.
void explain_verdict(const Record& b, const Record& n, const CompareOptions& o,
                     PointComparison& pc) {
  if (n.verification == "failed") {
    pc.verdict = Outcome::regressed;
    pc.note = "verification failed in NEW: " + n.verification_message;
  } else if (b.verification == "failed") {
    pc.note = "verification failed in BASE; NEW: " + n.verification;
  } else if (pc.verdict == Outcome::noisy &&
             o.procedure != Procedure::launches &&
             !(min_p_value(pc.test.n1, pc.test.n2) < o.alpha)) {
    // Too few samples: no test can judge the change, however large.
    auto count = [](std::size_t n) {
      return std::to_string(n) + (n == 1 ? " sample" : " samples");
    };
    pc.note = "too few samples to judge the " +
              percent_change(pc.metrics.front().change) +
              " change either way: BASE has " + count(pc.test.n1) +
              ", NEW " + count(pc.test.n2) +
              ", so the smallest p the U test can give is " +
              number(min_p_value(pc.test.n1, pc.test.n2)) +
              ", never below alpha " + number(o.alpha) + "; use at least " +
              std::to_string(min_samples_for(o.alpha)) +
              " repetitions on both sides";
  } else if (pc.verdict == Outcome::noisy) {
    const MetricChange* noisy = &pc.metrics.front();
    for (const MetricChange& m : pc.metrics)
      if (m.verdict == Outcome::noisy) {
        noisy = &m;
        break;
      }
    const double p = noisy->p >= 0 ? noisy->p : pc.test.p;
    // The samples of the two sides overlap too much for the change to be
    // told from their spread; for the time, how large a change it resolves.
    pc.note = (noisy->p >= 0 ? noisy->metric + ": " : std::string()) +
              "the " + percent_change(noisy->change) +
              " change is beyond the threshold " +
              fixed("%g", 100 * o.threshold) + "%, but the samples overlap: " +
              "p = " + number(p) + " is not below alpha " + number(o.alpha);
    // When the spread is why: the change is within what it resolves.
    const MetricChange& time = pc.metrics.front();
    if (noisy->p < 0 && pc.resolvable >= factor(time.base, time.now))
      pc.note += " (their spread resolves a change of " +
                 (pc.resolvable > kLargestThreshold
                      ? "none up to " + fixed("%g%%", 100 * kLargestThreshold)
                      : suggested_percent(pc.resolvable) + " or more") +
                 ")";
  }
}

// Measured in two machine states (the host moved the vCPUs between the
// runs): every transfer between the ranks changed speed with it, so a
// change is the machine's, not the code's. Not judged, as long as the
// states can explain it: the time moved the way the state did, and by no
// more than the states' own ratio (a transfer is not slowed more than a
// cache line's round trip is). A failed verification stays a regression.
void judge_machine_states(const Record& b, const Record& n,
                          PointComparison& pc) {
  const double cb = pc.base_noise.core_to_core_ns,
               cn = pc.new_noise.core_to_core_ns;
  const double factor = b.time.median > 0 ? n.time.median / b.time.median : 1;
  const bool explained = cb > 0 && cn > 0 &&
                         ((cn > cb && factor >= 1 && factor <= cn / cb) ||
                          (cn < cb && factor <= 1 && factor >= cn / cb));
  const bool two_states =
      cb > 0 && cn > 0 && std::max(cb, cn) > kStateRatio * std::min(cb, cn) &&
      n.verification != "failed" &&
      (pc.verdict == Outcome::regressed || pc.verdict == Outcome::improved);
  if (two_states && !explained)
    pc.note = std::string(
                  "measured in two machine states (core-to-core round "
                  "trip ") +
              fixed("%.0f", cb) + " ns in BASE, " + fixed("%.0f", cn) +
              " ns in NEW), but a time " + fixed("%.2f", factor) +
              "x BASE's is more than, or against, what the states explain: "
              "judged";
  if (two_states && explained) {
    pc.state_changed = true;
    pc.note = std::string(
                  "measured in two machine states (core-to-core "
                  "round trip ") +
              fixed("%.0f", cb) + " ns in BASE, " + fixed("%.0f", cn) +
              " ns in NEW, more than " + fixed("%.0f", kStateRatio) +
              "x apart): the " + verdict_name(pc.verdict) +
              " change is not judged; measure both again in one state " +
              cite_docs("(docs/ci.md, \"Machine states\")");
    pc.verdict = Outcome::noisy;
  }
}

// A change measured while the machine was noisy keeps its verdict (CI
// must not pass a regression because the run was disturbed), but says so.
void note_noisy(PointComparison& pc) {
  const bool bn = pc.base_noise.noisy, nn = pc.new_noise.noisy;
  if ((bn || nn) &&
      (pc.verdict == Outcome::regressed || pc.verdict == Outcome::improved)) {
    std::string why;
    if (bn) why += "BASE: " + pc.base_noise.reason;
    if (nn) why += (bn ? "; NEW: " : "NEW: ") + pc.new_noise.reason;
    const bool regressed = pc.verdict == Outcome::regressed;
    pc.note += (pc.note.empty() ? "" : "; ") +
               std::string("measured while the machine was noisy in ") +
               (bn && nn ? "both files"
                : bn     ? "BASE"
                         : "NEW") +
               " (" + why + "): the " + verdict_name(pc.verdict) +
               " verdict stands" + (regressed ? " and fails the gate" : "") +
               "; measure again to confirm it";
  }
}

// The interquartile range of `samples` over their median; -1 with fewer
// than 2 samples or no positive median.
double spread(const std::vector<double>& samples) {
  if (samples.size() < 2) return -1;
  const double m = quantile(samples, 0.5);
  if (!(m > 0)) return -1;
  return (quantile(samples, 0.75) - quantile(samples, 0.25)) / m;
}

PointComparison compare_pair(const Record& b, const Record& n,
                             const CompareOptions& o) {
  PointComparison pc;
  pc.key = point_key(n);
  pc.test = mann_whitney(b.samples_max, n.samples_max);
  const bool launches = o.procedure == Procedure::launches;
  if (launches) pc.test.p = welch_log_p(b.samples_max, n.samples_max);
  pc.base_noise = point_noise(b);
  pc.new_noise = point_noise(n);
  if (!launches && min_p_value(pc.test.n1, pc.test.n2) < o.alpha)
    pc.resolvable = resolvable_change(b.samples_max, n.samples_max, o.alpha);
  pc.spread = std::max(spread(b.samples_max), spread(n.samples_max));
  if (std::min(spread(b.samples_max), spread(n.samples_max)) < 0)
    pc.spread = -1;
  const double bt = samples_median(b), nt = samples_median(n);
  pc.metrics.push_back(classify("time_s", false, bt, nt, pc.test.p, o));
  if (b.moves_data && n.moves_data && bt > 0 && nt > 0)
    pc.metrics.push_back(classify(
        "bandwidth_Bps", true, static_cast<double>(b.payload_bytes) / bt,
        static_cast<double>(n.payload_bytes) / nt, pc.test.p, o));
  judge_contract_v4(b, n, o, pc);
  for (const MetricChange& m : pc.metrics)
    pc.verdict = std::max(pc.verdict, m.verdict);
  explain_verdict(b, n, o, pc);
  judge_machine_states(b, n, pc);
  note_noisy(pc);
  return pc;
}

}  // namespace

namespace {

// What the judgement as a whole should be read with: the threshold below
// what the files support, points that can never be significant, nothing
// matched.
void judgement_warnings(Comparison& c, std::size_t too_few, bool both_have) {
  const CompareOptions& options = c.options;
  if (c.suggestion.value > options.threshold)
    c.warnings.push_back(
        "the threshold " + fixed("%g", 100 * options.threshold) +
        "% is below " +
        (c.suggestion.capped ? "what these files support (more than " +
                                   fixed("%g%%", 100 * kLargestThreshold) +
                                   " at " +
                                   std::to_string(c.suggestion.beyond) +
                                   " point(s))"
                             : suggested_percent(c.suggestion.value) +
                                   ", the smallest these files support") +
        ": a change that small is within the uncertainty of the medians of "
        "some points " +
        cite_docs("(docs/ci.md)"));
  if (too_few > 0 && too_few == c.points.size() && c.powerless.empty())
    c.powerless =
        "no point has enough samples for the U test ever to reach "
        "p < " +
        number(options.alpha) + " (at least " +
        std::to_string(min_samples_for(options.alpha)) +
        " repetitions on both sides are needed)";
  if (too_few > 0)
    c.warnings.push_back(
        std::to_string(too_few) +
        " point(s) have too few samples for the U test ever to reach p < " +
        number(options.alpha) + " (at least " +
        std::to_string(min_samples_for(options.alpha)) +
        " repetitions on both sides are needed): a change beyond the "
        "threshold there is 'noisy', never 'regressed'");
  if (c.points.empty() && both_have)
    c.warnings.push_back(
        "no point is in both files (points are matched by suite, method "
        "with its option values, METHOD[OPTION=VALUE,...], payload, size, "
        "ranks, for ping-pong the pairs at once, and how the samples were "
        "timed: a run with --sync window never matches one after a "
        "barrier)");
}

}  // namespace

Comparison compare_documents(const Document& base, const Document& now,
                             const CompareOptions& options) {
  Comparison c;
  c.options = options;
  context_warnings(base.context, now.context, c.warnings);
  sync_warnings(base, now, c.warnings);
  c.settings = settings_changes(base.context, now.context);
  c.base_label = base.context.label.value_or("");
  c.new_label = now.context.label.value_or("");
  if (!base.complete) {
    c.warnings.push_back("BASE is an incomplete (interrupted) run");
    c.incomplete.push_back("BASE");
  }
  if (!now.complete) {
    c.warnings.push_back("NEW is an incomplete (interrupted) run");
    c.incomplete.push_back("NEW");
  }
  const auto b = index_records(base, "BASE", c.warnings);
  const auto n = index_records(now, "NEW", c.warnings);
  std::size_t too_few = 0;
  std::vector<const Record*> matched_base, matched_new;
  // --relative: NEW's samples of a group divided by its shift.
  const std::map<std::string, double> shift_of =
      options.relative ? group_shifts(b, n, c)
                       : std::map<std::string, double>();
  for (const auto& [key, rec] : b) {
    auto other = n.find(key);
    if (other == n.end()) continue;
    const auto shifted = shift_of.find(group_of(*rec));
    if (shifted != shift_of.end()) {
      const Record scaled = scale_times(*other->second, 1 / shifted->second);
      c.points.push_back(compare_pair(*rec, scaled, options));
      c.points.back().note +=
          (c.points.back().note.empty() ? "" : "; ") +
          std::string("judged against its group's shift of ") +
          fixed("%+.1f", 100 * (shifted->second - 1)) + "%";
    } else {
      c.points.push_back(compare_pair(*rec, *other->second, options));
    }
    matched_base.push_back(rec);
    matched_new.push_back(other->second);
    const UTest& t = c.points.back().test;
    if (options.procedure != Procedure::launches &&
        !(min_p_value(t.n1, t.n2) < options.alpha))
      ++too_few;
  }
  if (options.holm) correct_for_multiplicity(c);
  c.noise.base = noise_figures(base.context, matched_base);
  c.noise.now = noise_figures(now.context, matched_new);
  compare_noise(c.noise);
  if (!c.noise.warning.empty()) c.warnings.push_back(c.noise.warning);
  c.suggestion = suggest_threshold(c.points);
  judgement_warnings(c, too_few, !b.empty() && !n.empty());
  c.only_base = only_in(b, n, now);
  c.only_new = only_in(n, b, base);
  return c;
}

}  // namespace mpiarena
