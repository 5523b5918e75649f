// runner tune's table of decisions (tuning.hpp, render_tuning).
#include <sstream>

#include "core/analysis/text/text_format.hpp"
#include "core/analysis/tuning/tuning.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

std::string render_tuning(const Tuning& t, Style style,
                          const TuneOptions& options) {
  const bool launches = t.default_launches > 0;
  std::vector<std::string> columns = {
      "collective", "method", "ranks",   ">size",  "library's choice",
      ">median",    "winner", ">median", ">factor"};
  if (launches) columns.push_back(">launches");
  for (const char* c : {">at least", ">p", "why"}) columns.push_back(c);
  Table table(columns);
  int won = 0;
  for (const TuningPoint& p : t.points) {
    won += !p.winner.empty();
    const bool w = !p.winner.empty();
    std::vector<std::string> row = {p.collective,
                                    p.method,
                                    std::to_string(p.ranks),
                                    size_text(p.size_label, p.block),
                                    p.own_choice,
                                    format_seconds(p.library_s),
                                    w ? p.winner : "(library's)",
                                    w ? format_seconds(p.winner_s) : "",
                                    w ? fixed(p.factor, 2, "x") : ""};
    if (launches) row.push_back(w ? fixed(p.launch_factor, 2, "x") : "");
    // 0: too few samples to bound the ratio at 1 - alpha
    row.push_back(w && p.claimed > 0 ? fixed(p.claimed, 2, "x") : w ? "-" : "");
    row.push_back(w ? fixed(p.p, 4) : "");
    row.push_back(p.why);
    table.add(row);
  }
  const std::string percent = fixed(100 * (1 - options.alpha), 0, "%");
  std::ostringstream out;
  out << heading(t.library + ": the winner of each point", style)
      << table.render(style) << won << " of " << t.points.size()
      << " points have a winner (U test against the library's own choice, "
         "Holm over the point's algorithms, p < "
      << fixed(options.alpha, 2) << ", at least "
      << fixed(100 * options.threshold, 0, "%") << " faster";
  if (launches) {
    out << "; then confirmed by " << t.default_launches
        << " launches of the library's default and " << t.file_launches
        << " with the file loaded, in " << t.passes.size() << " pass"
        << (t.passes.size() == 1 ? "" : "es") << " (";
    for (std::size_t i = 0; i < t.passes.size(); ++i)
      out << (i ? "; " : "") << "pass " << i + 1 << ": " << t.passes[i].launches
          << " launches of a file of " << t.passes[i].candidates << " winners, "
          << t.passes[i].kept << " kept";
    out << ")";
  }
  out << "); elsewhere the library's choice stays. factor: the medians' "
         "ratio in the runs of --algorithms";
  const std::string level = "1 - " + fixed(options.alpha, 2) + " / k";
  if (launches)
    out << "; launches: default / file, the medians over the launches; at "
           "least: the margin the file claims, the lower end of default / "
           "file's confidence interval over a pass's launches at "
        << level
        << " (k: the winners the pass put to them; Bonferroni, so that the "
           "claims hold together at "
        << percent << "), the smallest over the passes that kept it\n";
  else
    out << "; at least: the margin the file claims, the lower end of the "
           "ratio's confidence interval at "
        << level << " for the file's " << won
        << " winners (Bonferroni, so that the claims hold together at "
        << percent << ")\n";
  if (!t.settled)
    out << "\nNot settled: the last pass set "
        << t.passes.back().candidates - t.passes.back().kept
        << " winners aside, so this file is not the one its launches "
           "loaded, and the others' claims come from launches of a file "
           "with more winners (what else runs in a launch changes a "
           "winner's time). Confirm again: launch with this file loaded, "
           "alternated with the default, and run runner tune on the sweeps, "
           "this run's --format json decisions and those new launches "
           "(docs/tuning.md, \"Passes\").\n";
  return out.str();
}

nlohmann::json tuning_decisions(const Tuning& t, const TuneOptions& o) {
  nlohmann::json points = nlohmann::json::array();
  for (const TuningPoint& p : t.points) {
    nlohmann::json j = {
        {"collective", p.collective},
        {"method", p.method},
        {"ranks", p.ranks},
        {"size", p.size_label},
        {"bytes", p.block},
        {"library_message_size", library_message_size(t.library, p)},
        {"own_choice", p.own_choice},
        {"library_s", p.library_s},
        {"compared", p.compared}};
    if (p.confirming)
      j["confirmation"] = {{"candidate", p.candidate},
                           {"factor", p.launch_factor},
                           {"at_least", p.launch_claimed},
                           {"p", p.launch_p}};
    if (p.winner.empty()) {
      j["why"] = p.why;
    } else {
      j["winner"] = {{"name", p.winner}, {"value", p.value}};
      j["winner_s"] = p.winner_s;
      j["factor"] = p.factor;
      j["claimed"] = p.claimed;
      j["p_holm"] = p.p;
    }
    points.push_back(j);
  }
  nlohmann::json passes = nlohmann::json::array();
  for (const ConfirmPass& c : t.passes)
    passes.push_back({{"digest", c.digest},
                      {"launches", c.launches},
                      {"candidates", c.candidates},
                      {"kept", c.kept}});
  return {{"library", t.library},
          {"launches",
           {{"default", t.default_launches}, {"file", t.file_launches}}},
          {"passes", passes},
          {"settled", t.settled},
          {"alpha", o.alpha},
          {"threshold", o.threshold},
          {"points", points}};
}

}  // namespace mpiarena
