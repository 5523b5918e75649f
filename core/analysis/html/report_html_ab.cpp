// The page of a `runner ab` document: the gate's judgement of its builds
// (report_html_tables.hpp, ab_section).
#include <algorithm>
#include <string>
#include <vector>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/compare/compare_procedures.hpp"
#include "core/analysis/compare/compare_text.hpp"
#include "core/analysis/html/report_charts.hpp"
#include "core/analysis/html/report_html_tables.hpp"
#include "core/analysis/report/report.hpp"
#include "core/analysis/report/report_text.hpp"
#include "core/analysis/svg/svg.hpp"

namespace mpiarena {

namespace {

// A list of escaped items, or nothing.
std::string items(const std::vector<std::string>& lines) {
  if (lines.empty()) return "";
  std::string out = "<ul>";
  for (const std::string& l : lines) out += "<li>" + svg::escape(l) + "</li>";
  return out + "</ul>\n";
}

std::string only_text(const OnlyIn& o) {
  return point_name(o.key) + (o.other.empty() ? "" : " (" + o.other + ")");
}

}  // namespace

std::string ab_section(const Document& doc, const std::string& source) {
  std::vector<std::string> builds = document_builds(doc);
  std::sort(builds.begin(), builds.end());
  if (builds != std::vector<std::string>{"base", "new"}) return "";
  const Document base = build_part(doc, "base"), now = build_part(doc, "new");
  // runner compare FILE's own judgement of such a file: its defaults
  // (compare_options), Holm's correction for an A/B run.
  CompareOptions o;
  o.procedure = Procedure::ab_run;
  o.holm = true;
  const Comparison c = compare_documents(base, now, o);
  std::string out =
      "<h2 id=\"ab\">A/B judgement: runner compare " + svg::escape(source) +
      "</h2>\n" +
      para(
          "This file holds two builds of the methods (runner ab: method@base "
          "and method@new). Judged as runner compare " +
          source + " judges it, with its defaults: a median more than " +
          fixed(o.threshold * 100, 0, "%") +
          " slower or faster counts, and only when the U test's p, after "
          "Holm's correction over the comparison's " +
          std::to_string(c.tests) + " tests, is below " + fixed(o.alpha, 2) +
          ". The time and bandwidth columns are the change of new against "
          "base.") +
      para(procedure_line(c) + ".");
  if (!c.points.empty())
    out += heading("Verdict per point", Style::html) +
           render_compared_points(c, Style::html);
  std::vector<std::string> notes;
  for (const PointComparison& p : c.points)
    if (!p.note.empty()) notes.push_back(point_name(p.key) + ": " + p.note);
  for (const OnlyIn& x : c.only_base)
    notes.push_back("only in base: " + only_text(x));
  for (const OnlyIn& x : c.only_new)
    notes.push_back("only in new: " + only_text(x));
  out += items(notes);
  if (!c.warnings.empty())
    out += "<details><summary>Warnings (" + std::to_string(c.warnings.size()) +
           ")</summary>\n" + items(c.warnings) + "</details>\n";
  const int code = c.exit_code();
  std::string why =
      c.points.empty()
          ? "nothing was compared: " +
                nothing_compared(base, now, "the base build", "the new build")
          : c.refusal();
  out += std::string("<p class=\"") + (code == 0 ? "verdict" : "verdict bad") +
         "\"><strong>" + svg::escape(comparison_result(c)) + "</strong>" +
         (code == 0   ? " (the gate passes)"
          : code == 1 ? " (the gate fails: a regression)"
                      : " (the gate refuses to judge)") +
         "</p>\n" + (code == 2 && !why.empty() ? para("Exit 2: " + why) : "");
  return out;
}

}  // namespace mpiarena
