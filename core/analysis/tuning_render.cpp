// runner tune's table of decisions (tuning.hpp, render_tuning).
#include <sstream>

#include "report_text.hpp"
#include "tuning.hpp"
#include "units.hpp"

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
    row.push_back(w ? fixed(p.claimed, 2, "x") : "");
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
  if (launches)
    out << "; then confirmed by " << t.default_launches
        << " launches of the library's default and " << t.file_launches
        << " with the file loaded";
  out << "); elsewhere the library's choice stays. factor: the medians' "
         "ratio in the runs of --algorithms";
  if (launches)
    out << "; launches: default / file, the medians over the launches; at "
           "least: the lower end of its "
        << percent << " confidence interval, the margin the file claims\n";
  else
    out << "; at least: the lower end of its " << percent
        << " confidence interval, the margin the file claims\n";
  return out.str();
}

}  // namespace mpiarena
