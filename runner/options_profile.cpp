// --profile: a measurement definition taken whole from another suite
// (options_parse.hpp). `osu`: OSU Micro-Benchmarks 7.4's.
#include <string>
#include <vector>

#include "runner/options_parse.hpp"
#include "runner/osu_programs.hpp"

namespace mpiarena {

void describe_profile(po::options_description& desc, Options& o,
                      RawOptions&) {
  // clang-format off
  desc.add_options()
    ("profile", po::value<std::string>(&o.profile),
     "osu: measure as OSU Micro-Benchmarks 7.4 do, in one launch: each "
     "method named by its OSU program (-m osu_latency,osu_allreduce; "
     "default: every OSU program, 'osu') on OSU's ladder and, for the "
     "collectives, OSU's timing (one operation after its own barrier, "
     "1000 times after 100 warm-ups, 100 after 10 above 8 KiB); no "
     "interleaving and no noise record unless asked for; verification "
     "stays on; -r and --warmup given replace OSU's counts. Add -f osu for "
     "OSU's tables (docs/osu.md)");
  // clang-format on
}

void describe_osu_columns(po::options_description& desc, Options& o,
                          RawOptions&) {
  // clang-format off
  desc.add_options()
    ("osu-columns", po::value<std::string>(&o.osu_columns_spec),
     "-f osu: the columns OSU's flags add, comma-separated: 'full' (Min, "
     "Max and Iterations, OSU's -f), 'validation' (Pass or Fail, OSU's -c; "
     "every point is verified either way), 'pNN' for a percentile of the "
     "samples (P50, P90, P99: OSU's -z)");
  // clang-format on
}

namespace {

// --osu-columns: full, validation, p1..p99, each once.
std::vector<std::string> parse_osu_columns(const std::string& spec) {
  std::vector<std::string> out;
  for (const std::string& c : split_list(spec)) {
    bool percentile = c.size() >= 2 && c.size() <= 3 && c[0] == 'p' &&
                      c.find_first_not_of("0123456789", 1) == std::string::npos;
    if (percentile) {
      const int n = std::stoi(c.substr(1));
      percentile = n >= 1 && n <= 99;
    }
    if (c != "full" && c != "validation" && !percentile)
      throw UsageError("--osu-columns '" + c +
                       "' is not a column; accepted: full, validation, p1 "
                       "to p99 (e.g. full,p50,p99)");
    for (const std::string& seen : out)
      if (seen == c)
        throw UsageError("--osu-columns names '" + c + "' twice");
    out.push_back(c);
  }
  if (out.empty())
    throw UsageError("--osu-columns is empty; accepted: full, validation, "
                     "p1 to p99");
  return out;
}

}  // namespace

void check_profile(const po::variables_map& vm, Options& o) {
  if (vm.count("osu-columns")) {
    o.osu_columns = parse_osu_columns(o.osu_columns_spec);
    if (o.format != "osu")
      throw UsageError("--osu-columns shapes -f osu's tables; add -f osu");
  }
  if (vm.count("repetitions"))
    o.repetitions_given = !vm["repetitions"].defaulted();
  if (vm.count("warmup")) o.warmup_given = !vm["warmup"].defaulted();
  if (vm.count("profile")) {
    check_choice("--profile", o.profile, {"osu"});
    if (vm["interleave"].defaulted()) o.interleave = false;
    if (vm["noise"].defaulted() && vm["retry-noisy"].defaulted()) {
      o.noise = false;
      o.retry_noisy = 0;
    }
    if (!o.methods_given) o.methods = {"osu"};
  }
  // An OSU program that needs threads gets the level it needs, unless the
  // run asks for one (then a method that needs more is skipped, as ever).
  if (vm.count("thread-level")) return;
  for (const std::string& m : o.methods) {
    const OsuProgram* p = find_osu_program(m);
    if (p && p->threads[0] != '\0') o.thread_level = p->threads;
  }
}

}  // namespace mpiarena
