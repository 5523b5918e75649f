// The options of the CI gate's commands (docs/ci.md): compare's files in
// its three forms, and runner ab's own options (options_parse.hpp).
#include <algorithm>
#include <filesystem>

#include "core/analysis/compare/compare.hpp"
#include "runner/options_parse.hpp"

namespace mpiarena {

// compare's files: BASE NEW, one file of runner ab, or launches a side
// around "--" (at least 2 a side).
void compare_files(const std::vector<std::string>& args, Options& o) {
  const auto sep = std::find(args.begin() + 1, args.end(), kSideSeparator);
  if (sep == args.end()) {
    o.files.assign(args.begin() + 1, args.end());
    if (o.files.size() != 1 && o.files.size() != 2)
      throw UsageError(
          "'compare' takes two result files (runner compare BASE NEW), one "
          "file of runner ab (runner compare AB), or launches a side (runner "
          "compare B1 B2 B3 -- N1 N2 N3, or DIR_BASE DIR_NEW) [--threshold "
          "5%] [--alpha 0.05] [--format table|markdown|json]");
    return;
  }
  o.files.assign(args.begin() + 1, sep);
  o.new_files.assign(sep + 1, args.end());
  if (std::find(o.new_files.begin(), o.new_files.end(), kSideSeparator) !=
      o.new_files.end())
    throw UsageError("'compare' takes one '--' (BASE files -- NEW files)");
  if (o.files.size() < 2 || o.new_files.size() < 2)
    throw UsageError(
        cite_docs("compare across launches needs at least 2 files a side "
                  "(3 or more to judge well; docs/ci.md): BASE has ") +
        std::to_string(o.files.size()) + ", NEW has " +
        std::to_string(o.new_files.size()) +
        " (runner compare B1 B2 B3 -- N1 N2 N3; one file a side: runner "
        "compare BASE NEW)");
}

namespace {

// -o may not land in a directory the run loads plugins from: it could
// replace a plugin of the very build being measured, and a
// later run would try to load the file it wrote.
void check_output_outside_plugins(const Options& o) {
  if (o.output.empty()) return;
  // Through links: -o may name a link to a file in a plugin directory.
  std::error_code ec;
  const std::filesystem::path out =
      std::filesystem::weakly_canonical(o.output, ec);
  const std::filesystem::path parent =
      (ec ? std::filesystem::absolute(o.output, ec) : out).parent_path();
  for (const auto* dirs :
       {&o.plugin_dirs, &o.base_plugin_dirs, &o.new_plugin_dirs})
    for (const std::string& d : *dirs)
      if (std::filesystem::equivalent(parent, d, ec))
        throw UsageError("-o '" + o.output +
                         "' is inside the plugin directory '" + d +
                         "' of this run; write the results elsewhere (a "
                         "plugin of the build measured could be replaced)");
}

}  // namespace

// runner ab: both builds' directories, no --plugin-dir, interleaved; the
// build directories belong to ab alone.
void check_ab_options(const po::variables_map& vm, Options& o) {
  check_output_outside_plugins(o);
  // The build directories and --blocks: ab's description alone takes them.
  if (o.command != Command::ab) return;
  if (o.base_plugin_dirs.empty() || o.new_plugin_dirs.empty())
    throw UsageError(
        "'ab' needs the plugin directories of both builds: runner ab "
        "--base-plugin-dir OLD --new-plugin-dir NEW [run options]");
  if (vm.count("plugin-dir"))
    throw UsageError(
        "--plugin-dir does not apply to 'ab': give each build's directories "
        "with --base-plugin-dir and --new-plugin-dir");
  // The defaults bench/gate measured (docs/results/gate.md, its figures):
  // a 10% slowdown caught, no A/A run failing.
  if (vm["repetitions"].defaulted()) o.repetitions = kAbRepetitions;
  if (!vm.count("blocks")) o.blocks = std::min(kAbBlocks, o.repetitions);
  if (o.repetitions < 2)
    throw UsageError(
        "'ab' measures the builds in turn first and second, in blocks of the "
        "repetitions; give --repetitions 2 or more");
  // A gate that could not fail must not pass: below this many samples a
  // side no U test reaches p < alpha (compare's --allow-powerless).
  if (o.alpha > 0 && o.alpha < 1 && !vm.count("allow-powerless") &&
      static_cast<std::size_t>(o.repetitions) < min_samples_for(o.alpha))
    throw UsageError(
        "'ab' with --repetitions " + std::to_string(o.repetitions) +
        " could not fail: the U test needs at least " +
        std::to_string(min_samples_for(o.alpha)) +
        " samples a side to reach p < alpha; give -r " +
        std::to_string(min_samples_for(o.alpha)) +
        " or more (the default, 15, is what bench/gate measured), or "
        "--allow-powerless to measure anyway");
  if (vm.count("blocks") && (o.blocks < 2 || o.blocks > o.repetitions))
    throw UsageError("--blocks must be between 2 and --repetitions (" +
                     std::to_string(o.repetitions) + "), got " +
                     std::to_string(o.blocks));
  if (given(vm, "precision") &&
      vm["precision"].as<std::string>() != "off")
    throw UsageError(
        "'ab' takes a fixed number of samples for both builds in the same "
        "rounds; --precision stops each point on its own: give -r instead");
  if (vm.count("target-rse"))
    throw UsageError(
        "'ab' takes a fixed number of samples for both builds in the same "
        "rounds; --target-rse stops each point on its own (one build "
        "could end with twice the other's samples): give -r instead");
  if (given(vm, "interleave") &&
      vm["interleave"].as<std::string>() == "off")
    throw UsageError(
        "'ab' measures both builds in the same rounds; --interleave off is "
        "not accepted there");
}

}  // namespace mpiarena
