// runner ab: the builds measured in blocks, crossed, merged, judged (ab.hpp).
#include "runner/ab.hpp"

#include <algorithm>
#include <iostream>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/compare/compare_procedures.hpp"
#include "core/analysis/compare/compare_text.hpp"
#include "runner/files/files.hpp"
#include "runner/measure.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

namespace {

// The key of a record within one document of runner ab.
std::string point_of(const Record& r) {
  return r.suite + "/" + r.method + "/" + r.payload + "/" +
         std::to_string(r.bytes) + "/" + std::to_string(r.ranks) + "/" +
         std::to_string(r.pairs) + "/" + r.pair_placement;
}

}  // namespace

bool measure_builds(const std::vector<const LoadedStrategy*>& methods,
                    const std::vector<Point>& points, const Machine& machine,
                    const Options& options, std::uint64_t seed,
                    const World& world, Document& doc, RunWriter& writer,
                    spdlog::logger& log, std::string& plan_error) {
  // 2 to --repetitions, given or kAbBlocks (check_ab_options).
  const int blocks = options.blocks;
  // Odd blocks: NEW's methods first, so NEW's points are created first in
  // every group (the plan's order is the methods' order).
  std::vector<const LoadedStrategy*> crossed = methods;
  std::stable_partition(
      crossed.begin(), crossed.end(),
      [](const LoadedStrategy* s) { return s->build == "new"; });
  bool failed = false;
  for (int b = 0; b < blocks; ++b) {
    Options block_options = options;
    // The repetitions spread over the blocks, the first ones one more.
    block_options.repetitions =
        options.repetitions / blocks + (b < options.repetitions % blocks);
    if (b == 0) {
      failed |= measure_points(points, machine, block_options, seed, world, doc,
                               writer, log);
      continue;
    }
    std::string error;
    const std::vector<Point> block_points =
        plan_points(b % 2 ? crossed : methods, block_options, machine, error);
    // The same plan on every rank: the error too, so every rank stops here.
    if (!error.empty()) {
      plan_error =
          "block " + std::to_string(b + 1) + " could not be planned: " + error;
      break;
    }
    Document block;
    ResultFile none;
    RunWriter quiet(block, none, false, log, "");
    failed |= measure_points(block_points, machine, block_options,
                             seed + static_cast<std::uint64_t>(b), world, block,
                             quiet, log);
    for (const Record& r : block.records) {
      const std::string key = point_of(r);
      auto it =
          std::find_if(doc.records.begin(), doc.records.end(),
                       [&](const Record& d) { return point_of(d) == key; });
      if (it != doc.records.end())
        merge_record(*it, r);
      else
        doc.records.push_back(r);  // skipped in the first block
    }
    writer.save();
  }
  return failed;
}

int judge_builds(const Document& doc, const Options& options, bool failed,
                 const std::string& final_error) {
  const CompareOptions o = compare_options(options, Procedure::ab_run);
  const Document base = build_part(doc, "base"), now = build_part(doc, "new");
  const Comparison c = compare_documents(base, now, o);
  Printout out;
  out.json = [&] {
    nlohmann::json j = to_json(c);
    j["base"] = "base build";
    j["new"] = "new build";
    j["results"] = options.output.empty() ? nlohmann::json()
                                          : nlohmann::json(options.output);
    return j;
  };
  out.tables = [&](Style style) {
    std::string text =
        render_comparison(c, "base build", "new build", style);
    if (!options.output.empty() && final_error.empty())
      text += "\nresults: " + options.output + " (runner compare " +
              options.output + " judges it again)\n";
    return text;
  };
  const Reporter& format = reporter(options.format);
  std::cout << format.render(out);
  // The tables show the warnings; beside data they go to stderr.
  if (format.machine_read())
    for (const std::string& w : c.warnings)
      std::cerr << "runner: warning: " << w << "\n";
  if (failed)
    std::cerr << "runner: some points failed verification or could not run\n";
  if (!final_error.empty())
    std::cerr << "runner: error: " << final_error << "; exit 2\n";
  // Every exit 2 says why.
  if (c.points.empty())
    std::cerr << "runner: error: the builds share no point: nothing was "
                 "compared ("
              << nothing_compared(base, now, "the base build", "the new build")
              << "); exit 2\n";
  else if (c.exit_code() == 2)
    std::cerr << "runner: error: " << c.refusal() << "; exit 2\n";
  const int code = c.exit_code();
  if (code == 2 || !final_error.empty()) return 2;
  return failed ? std::max(code, 1) : code;
}

}  // namespace mpiarena
