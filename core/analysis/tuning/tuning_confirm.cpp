// runner tune's winners put to launches with the file and without it
// (tuning.hpp, confirm).
#include <algorithm>
#include <mpiarena/stats.hpp>
#include <stdexcept>

#include "core/analysis/stats/rank_tests.hpp"
#include "core/analysis/text/text_format.hpp"
#include "core/analysis/tuning/tuning.hpp"
#include "core/results/digest.hpp"

namespace mpiarena {

namespace {

bool same_point(const Record& r, const TuningPoint& p) {
  if (r.method.substr(0, r.method.find('[')) != p.method ||
      r.ranks != p.ranks || r.verification == "failed" || r.samples_max.empty())
    return false;
  return p.collective == "barrier" || tuning_block(r) == p.block;
}

// One observation per launch: the median of the point's samples in it.
std::vector<double> launch_medians(const std::vector<Document>& launches,
                                   const TuningPoint& p) {
  std::vector<double> out;
  for (const Document& d : launches) {
    std::vector<double> samples;
    for (const Record& r : d.records)
      if (same_point(r, p))
        samples.insert(samples.end(), r.samples_max.begin(),
                       r.samples_max.end());
    if (!samples.empty()) out.push_back(summarize(samples).median);
  }
  return out;
}

}  // namespace

std::string tuning_file_text(const Tuning& t) {
  return t.library == "MPICH" ? mpich_selection(t) : openmpi_rules(t);
}

void confirm_pass(Tuning& t, const std::vector<Document>& defaults,
                  const std::vector<Document>& loaded, const TuneOptions& o) {
  const std::string digest = text_digest(tuning_file_text(t));
  ConfirmPass pass{digest, static_cast<int>(loaded.size()), winner_count(t), 0};
  confirm(t, defaults, loaded, o);
  pass.kept = winner_count(t);
  t.passes.push_back(pass);
  t.settled = pass.kept == 0 || text_digest(tuning_file_text(t)) == digest;
}

void carry_decisions(Tuning& t, const nlohmann::json& previous) {
  const auto not_these = [](const std::string& why) {
    return std::invalid_argument(
        "the decisions given are not runner tune's of these runs of "
        "--algorithms: " +
        why);
  };
  if (previous.value("library", "") != t.library)
    throw not_these("of " + previous.value("library", std::string("?")));
  const nlohmann::json& points = previous.at("points");
  if (points.size() != t.points.size())
    throw not_these(std::to_string(points.size()) + " points, not " +
                    std::to_string(t.points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    const nlohmann::json& j = points[i];
    TuningPoint& p = t.points[i];
    if (j.at("method") != p.method || j.at("ranks") != p.ranks ||
        j.at("bytes") != p.block)
      throw not_these("point " + std::to_string(i + 1) + " differs");
    const bool won = j.contains("winner");
    if (won && j["winner"].at("name") != p.winner)
      throw not_these(p.method + " " + p.size_label + ": winner " +
                      j["winner"]["name"].get<std::string>() + ", not " +
                      (p.winner.empty() ? "none" : p.winner));
    if (!j.contains("confirmation")) continue;
    const nlohmann::json& c = j["confirmation"];
    p.confirming = true;
    p.candidate = c.at("candidate").get<std::string>();
    p.launch_factor = c.at("factor").get<double>();
    p.launch_claimed = c.at("at_least").get<double>();
    p.launch_p = c.at("p").get<double>();
    if (won) {
      p.claimed = p.earlier_claim = j.at("claimed").get<double>();
    } else {
      p.winner.clear();
      p.value = 0;
      p.why = j.value("why", "");
    }
  }
  for (const nlohmann::json& c : previous.value("passes", nlohmann::json()))
    t.passes.push_back(
        {c.at("digest").get<std::string>(), c.at("launches").get<int>(),
         c.at("candidates").get<int>(), c.at("kept").get<int>()});
}

std::size_t confirm_launches_needed(double alpha) {
  return min_samples_to_bound(alpha);
}

bool is_plain_launch(const Document& doc) {
  return std::none_of(
      doc.records.begin(), doc.records.end(),
      [](const Record& r) { return !r.algorithm.variable.empty(); });
}

void confirm(Tuning& t, const std::vector<Document>& defaults,
             const std::vector<Document>& loaded, const TuneOptions& o) {
  // The file's claims hold together: each at 1 - alpha / k (Bonferroni).
  const int k = winner_count(t);
  const double level = claim_level(o.alpha, k);
  const std::size_t needed = confirm_launches_needed(level);
  const auto bounded = [level](std::size_t n_d, std::size_t n_f) {
    // above kExactLimit the normal approximation's cut always exists
    return n_d + n_f > kExactLimit ||
           u_lower_critical(n_d, n_f, level / 2) >= 0;
  };
  if (!bounded(defaults.size(), loaded.size()))
    throw std::invalid_argument(
        "confirming a file of " + std::to_string(k) + " winner" +
        (k == 1 ? "" : "s") + " takes at least " + std::to_string(needed) +
        " launches of the library's default and " + std::to_string(needed) +
        " with the file loaded at --alpha " + fixed(o.alpha, 3) +
        ": fewer can never bound default / file at " +
        fixed(100 * (1 - level), k > 1 ? 2 : 0, "%") +
        (k > 1 ? " (each claim at 1 - " + fixed(o.alpha, 3) + " / " +
                     std::to_string(k) + ", so that all " + std::to_string(k) +
                     " hold together at " + fixed(100 * (1 - o.alpha), 0, "%") +
                     ")"
               : std::string()) +
        " (given: " + std::to_string(defaults.size()) + " and " +
        std::to_string(loaded.size()) + "); alternate them (docs/tuning.md)");
  t.default_launches = static_cast<int>(defaults.size());
  t.file_launches = static_cast<int>(loaded.size());
  for (TuningPoint& p : t.points) {
    if (p.winner.empty()) continue;
    p.confirming = true;
    p.candidate = p.winner;
    const std::vector<double> d = launch_medians(defaults, p),
                              f = launch_medians(loaded, p);
    const auto set_aside = [&p](const std::string& why) {
      p.why = "not confirmed: " + p.winner + " " + why;
      p.winner.clear();
      p.value = 0;
    };
    if (!bounded(d.size(), f.size())) {
      set_aside("measured by " + std::to_string(d.size()) + " default and " +
                std::to_string(f.size()) + " loaded launches (at least " +
                std::to_string(needed) + " each)");
      continue;
    }
    p.launch_factor = summarize(d).median / summarize(f).median;
    p.launch_claimed = ratio_lower_bound(d, f, level);
    p.launch_p = mann_whitney(f, d).p;
    if (p.launch_claimed >= 1 + o.threshold) {
      p.claimed = p.earlier_claim > 0
                      ? std::min(p.earlier_claim, p.launch_claimed)
                      : p.launch_claimed;
      continue;
    }
    set_aside(fixed(p.launch_factor, 2, "x") + " over " +
              std::to_string(d.size()) + "+" + std::to_string(f.size()) +
              " launches, at least " + fixed(p.launch_claimed, 2, "x") +
              " (needs " + fixed(1 + o.threshold, 2, "x") + ")");
  }
}

}  // namespace mpiarena
