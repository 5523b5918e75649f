// The run command: agree on the plan, measure every point, write records.
#include <sys/utsname.h>

#include <algorithm>
#include <array>
#include <boost/filesystem.hpp>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <random>
#include <set>

#include "breakdown.hpp"
#include "collective.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "log.hpp"
#include "memory.hpp"
#include "mpi_session.hpp"
#include "noise.hpp"
#include "output.hpp"
#include "placement.hpp"
#include "plan.hpp"
#include "plugin_log.hpp"
#include "printable.hpp"
#include "report.hpp"
#include "scaling.hpp"
#include "schema.hpp"
#include "suite_info.hpp"
#include "watchdog.hpp"

namespace mpiarena {

namespace {

// What a reader needs to rebuild this runner (Google Benchmark's context):
// the compiler, the build type and the git revision the build came from
// (empty when it was not built from a git checkout).
nlohmann::json build_context() {
#if defined(__clang__)
  const std::string compiler = std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  const std::string compiler = std::string("GCC ") + __VERSION__;
#else
  const std::string compiler = "unknown";
#endif
  return {{"compiler", compiler},
          {"build_type", MPIARENA_BUILD_TYPE},
          {"git_revision", MPIARENA_GIT_REVISION}};
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

// --set as given: "method.option=v1,v2" each.
std::vector<std::string> set_specs(const std::vector<OptionSetting>& settings) {
  std::vector<std::string> out;
  for (const OptionSetting& s : settings) {
    std::string text = s.method + "." + s.option + "=";
    for (std::size_t i = 0; i < s.values.size(); ++i)
      text += (i ? "," : "") + s.values[i];
    out.push_back(text);
  }
  return out;
}

// The machine of rank 0: kernel, CPU model and frequency governor ("" when
// the system does not expose one, as in many VMs).
nlohmann::json system_context() {
  struct utsname u;
  std::string kernel;
  if (::uname(&u) == 0) kernel = std::string(u.sysname) + " " + u.release;
  std::string model;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; model.empty() && std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      model = line.substr(line.find(':') + 2);
  return {
      {"kernel", kernel},
      {"cpu_model", model},
      {"governor",
       first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")}};
}

}  // namespace

namespace {

std::string iso_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// Why -o cannot be written, or empty; `file` then holds the output's lock
// for the rest of the run (docs/output.md).
std::string output_problem(const std::string& path, ResultFile& file) {
  if (path.empty()) return {};
  return file.open(path);
}

nlohmann::json make_context(const World& world, const Options& options,
                            const Machine& machine, int argc, char** argv) {
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPIARENA_CHECK(MPI_Get_processor_name(name, &len));
  const std::vector<std::string> hosts = gather_strings(
      std::string(name, static_cast<std::size_t>(len)), 0, world);
  std::set<std::string> distinct(hosts.begin(), hosts.end());
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  MPIARENA_CHECK(MPI_Get_library_version(lib, &len));
  std::string library(lib, static_cast<std::size_t>(len));
  while (!library.empty() && (library.back() == '\n' || library.back() == '\0'))
    library.pop_back();
  int major = 0, minor = 0;
  MPIARENA_CHECK(MPI_Get_version(&major, &minor));
  std::vector<std::string> command(argv, argv + argc);
  std::vector<std::string> sizes;
  for (const SizePoint& s : options.sizes) sizes.push_back(s.label);
  return {
      {"start_time", iso_now()},
      {"hosts", std::vector<std::string>(distinct.begin(), distinct.end())},
      {"ranks", world.size()},
      {"nodes", static_cast<int>(distinct.size())},
      {"machines", machine.machines},
      {"mpi_library", library},
      {"mpi_version", std::to_string(major) + "." + std::to_string(minor)},
      {"runner_version", MPIARENA_VERSION},
      {"plugin_abi", kAbiVersion},
      {"command_line", command},
      {"timer_resolution_s", MPI_Wtick()},
      {"build", build_context()},
      {"system", system_context()},
      {"cpus_per_node", machine.min_cpus},
      {"oversubscribed", machine.oversubscribed},
      {"waiting", sleep_when_waiting(options, machine) ? "sleep" : "poll"},
      {"options",
       {{"methods", options.methods},
        {"payloads", options.payloads},
        {"sizes", sizes},
        {"min_time_s", options.min_time},
        {"repetitions", options.repetitions},
        {"warmup", options.warmup},
        {"point_timeout_s", options.point_timeout},
        {"max_memory", options.max_memory},
        {"verify", options.verify},
        {"pairs", pairs_setting(options)},
        {"ranks", options.ranks_spec.empty() ? "launch" : options.ranks_spec},
        {"set", set_specs(options.settings)},
        {"size_basis", options.size_total ? "total" : "per-rank"},
        {"test_every", options.test_every},
        {"exchanges", options.exchanges},
        {"window", options.window},
        {"receive", options.receive_fresh ? "fresh" : "reuse"},
        {"stride", options.stride},
        {"wait", options.wait},
        {"plugin_dirs", options.plugin_dirs}}}};
}

// Which ranks of the launch the pairs of a pairwise point were, and whether
// they ran within a node or across nodes. Under --pairs intra|inter the
// point's communicator put the partner at rank 1: per_rank goes back to the
// ranks of the launch.
void describe_pairs(Record& rec, const Point& p, const Machine& m) {
  std::vector<std::array<int, 2>> pairs;
  if (p.partner >= 0)
    pairs.push_back({0, p.partner});
  else
    for (int i = 0; i < rec.pairs; ++i) pairs.push_back({2 * i, 2 * i + 1});
  int intra = 0;
  for (const auto& [a, b] : pairs)
    if (m.node_of.at(a) == m.node_of.at(b)) ++intra;
  rec.pair_ranks = pairs;
  rec.pair_placement = intra == static_cast<int>(pairs.size()) ? "intra"
                       : intra == 0                            ? "inter"
                                                               : "mixed";
  if (p.partner > 1 && rec.per_rank.size() > 1) {
    std::vector<double> world_order;  // group rank 1 is the partner
    for (std::size_t g = 2; g < rec.per_rank.size(); ++g)
      world_order.push_back(rec.per_rank[g]);
    world_order.insert(world_order.begin(), rec.per_rank[0]);
    world_order.insert(world_order.begin() + p.partner, rec.per_rank[1]);
    rec.per_rank = world_order;
  }
}

std::string point_name(const Point& p) {
  std::string s = p.strategy->entry.info.suite + "/" + p.label + " " +
                  p.payload + " " + p.size.label;
  if (p.size.label != std::to_string(p.size.bytes))
    s += " (" + format_bytes(static_cast<double>(p.size.bytes)) + ")";
  return s;
}

}  // namespace

int command_run(const Options& options, int argc, char** argv) {
  MpiSession env(argc, argv);
  const World world;
  const int rank = world.rank();
  auto log = make_rank_logger(rank, options.quiet);

  // Every failure below is agreed on by all ranks, printed once, exit 2.
  auto agree = [&](const std::string& local_error) {
    auto [first, message] =
        first_failure(!local_error.empty(), local_error, world, rank);
    if (first == kNobody) return true;
    if (rank == 0) std::cerr << "runner: error: " << message << ".\n";
    return false;
  };

  Registry registry;
  std::vector<std::string> errors, warnings;
  load_plugins(registry, options, errors, warnings);
  if (!agree(errors.empty() ? "" : errors.front())) return 2;
  if (rank == 0)
    for (const std::string& w : warnings) log->warn("{}", w);
  const std::string names = join(registry.names());
  const std::string root_names = bcast_string(names, 0, world);
  if (!agree(names == root_names
                 ? ""
                 : "rank " + std::to_string(rank) +
                       " loaded other plugins than rank 0 (" + names +
                       " instead of " + root_names + ")"))
    return 2;
  if (!agree(options_mismatch(options, world))) return 2;

  std::string error;
  const auto methods = select_methods(registry, options, error);
  std::vector<Point> points;
  const Machine machine = survey(world, options.max_memory);
  if (error.empty()) points = plan_points(methods, options, machine, error);
  ResultFile output;
  if (error.empty() && rank == 0)
    error = output_problem(options.output, output);
  if (!agree(error)) return 2;

  // The seed of the interleaved order: --seed, or drawn by rank 0.
  std::uint64_t seed = options.seed;
  if (!options.seed_given) {
    unsigned long long drawn = 0;
    if (rank == 0)
      drawn = (static_cast<unsigned long long>(std::random_device{}()) << 32) ^
              std::random_device{}();
    drawn &= (1ULL << 53) - 1;  // exact in every JSON reader
    MPIARENA_CHECK(MPI_Bcast(&drawn, 1, MPI_UNSIGNED_LONG_LONG, 0, world));
    seed = drawn;
  }

  Document doc;
  doc.context = make_context(world, options, machine, argc, argv);
  doc.context["interleave"] = {{"enabled", options.interleave},
                               {"seed", seed},
                               {"seed_given", options.seed_given}};
  doc.context["noise"] = {
      {"recorded", options.noise},
      {"retry_noisy", options.retry_noisy},
      {"noisy_steal_fraction", kNoisySteal},
      {"noisy_preemptions_per_s", kNoisyPreemptions},
      {"preemption_counts", !machine.oversubscribed},
      {"cpu_frequency",
       cpu_frequency_exposed() ? "scaling_cur_freq" : "not exposed"},
      {"core_to_core",
       !options.noise ? "not probed: --noise off"
       : machine.oversubscribed
           ? "not probed: oversubscribed (a spinning partner would wait "
             "for a CPU)"
           : "probed between node ranks 0 and 1 of each node with two "
             "ranks or more, at most every 2 ms"}};
  doc.context["cache"] = {
      {"mode", options.cache_cold ? "cold" : "hot"},
      {"llc_bytes", machine.llc_bytes},
      {"llc_source", machine.llc_source},
      {"cold_set_bytes", cold_set_bytes(machine.llc_bytes)}};
  doc.context["stopping"] = {{"target_rse", options.target_rse},
                             {"max_time_s", options.max_time},
                             {"iterations", options.iterations}};
  doc.context["buffers"] = options.separate_buffers ? "separate" : "shared";
  const nlohmann::json where = placement(world);
  if (rank == 0) doc.context["placement"] = where;
  {
    std::vector<int> counts;
    for (const Point& p : points)
      if (counts.empty() || counts.back() != p.ranks) counts.push_back(p.ranks);
    doc.context["rank_counts"] = counts;
    // The sizes the points run (each suite's default without --sizes).
    std::vector<std::string> labels;
    for (const Point& p : points)
      if (std::find(labels.begin(), labels.end(), p.size.label) == labels.end())
        labels.push_back(p.size.label);
    doc.context["options"]["sizes"] = labels;
    doc.context["sub_communicator"] = "first_ranks_of_world";
  }
  const bool saving = rank == 0 && !options.output.empty();
  if (!agree(saving ? output.write(doc) : "")) return 2;
  // After every point; a failed write warns once and the next one retries.
  std::string write_error;
  auto save = [&](bool final = false) {
    const std::string e = saving ? output.write(doc, final) : "";
    if (!e.empty() && write_error.empty() && !final)
      log->warn("{}; measuring goes on, retrying after every point", e);
    else if (e.empty() && !write_error.empty())
      log->info("the output file '{}' is written again", options.output);
    write_error = e;
    if (final && saving)
      log->debug("-o: {} writes took {:.3f} s ({} whole files)",
                 output.writes(), output.seconds_writing(),
                 output.whole_writes());
    return e;
  };

  // The ranks of the point: the first p.ranks ranks of the launch
  // (--ranks; all of them by default). `group` is that sub-communicator
  // (MPI_COMM_NULL on the ranks outside it) and `harness` the engine's
  // duplicate of it; `between` joins every rank of the launch after each
  // point, so the ranks outside sleep while the others measure.
  MPI_Comm group_comm = MPI_COMM_NULL, harness = MPI_COMM_NULL,
           between = MPI_COMM_NULL;
  MPIARENA_CHECK(MPI_Comm_dup(world, &between));
  int group_ranks = 0, group_partner = -1;
  auto free_group = [&] {
    if (harness != MPI_COMM_NULL) MPIARENA_CHECK(MPI_Comm_free(&harness));
    if (group_comm != MPI_COMM_NULL) MPIARENA_CHECK(MPI_Comm_free(&group_comm));
  };
  MeasureOptions mopt{options.min_time, options.repetitions, options.warmup,
                      options.verify};
  mopt.point_timeout = options.point_timeout;
  mopt.noise = options.noise;
  mopt.retry_noisy = options.retry_noisy;
  mopt.cpus = machine.min_cpus;
  mopt.oversubscribed = machine.oversubscribed;
  mopt.target_rse = options.target_rse;
  mopt.max_time = options.max_time;
  mopt.iterations = options.iterations;
  SpdlogLog plugin_log(log.get());
  mopt.sleep_when_waiting = sleep_when_waiting(options, machine);
  bool failed = false;
  int group_index = 0;
  // "[7/30] transfer/raw 1d small (11.0 kB)": the point's place in the plan.
  auto progress_of = [&](const Point& p) {
    return "[" + std::to_string(&p - points.data() + 1) + "/" +
           std::to_string(points.size()) + "] " + point_name(p);
  };
  std::vector<std::string> fallbacks;  // groups measured one at a time
  for (const std::vector<const Point*>& members : point_groups(points)) {
    const Point& first_point = *members.front();
    // Counted on every rank, the ranks outside a point's group too: the
    // order of a group's rounds is drawn from its index.
    const int this_group = group_index++;
    std::vector<const Point*> group;  // the members that are not skipped
    for (const Point* pp : members) {
      const Point& p = *pp;
      if (p.skip_reason.empty()) {
        group.push_back(pp);
        continue;
      }
      const StrategyInfo& info = p.strategy->entry.info;
      doc.skipped.push_back({info.suite, p.label, p.payload, p.size.label,
                             p.size.bytes, p.ranks, p.skip_reason});
      log->info("{}: skipped: {}", progress_of(p), p.skip_reason);
      save();
    }
    if (group.empty()) continue;
    if (first_point.ranks != group_ranks ||
        first_point.partner != group_partner) {
      free_group();
      // --pairs intra|inter: the partner of rank 0 becomes rank 1.
      const int partner = first_point.partner;
      const int key = partner < 0 || rank == 0 ? rank
                      : rank == partner        ? 1
                                               : rank + 1;
      MPIARENA_CHECK(
          MPI_Comm_split(world, rank < first_point.ranks ? 0 : MPI_UNDEFINED,
                         key, &group_comm));
      if (group_comm != MPI_COMM_NULL)
        MPIARENA_CHECK(MPI_Comm_dup(group_comm, &harness));
      group_ranks = first_point.ranks;
      group_partner = partner;
    }
    if (group_comm == MPI_COMM_NULL) {  // outside this point's ranks: idle
      sleeping_barrier(between);
      continue;
    }
    // Interleaved when the members' buffers fit in memory together.
    MeasureOptions gopt = mopt;
    std::string alone;
    gopt.interleave = options.interleave && group.size() > 1 &&
                      group_fits(group, machine, alone);
    if (options.interleave && group.size() > 1 && !gopt.interleave) {
      alone = "measured one method at a time, not interleaved: " + alone;
      fallbacks.push_back(first_point.strategy->entry.info.suite + " " +
                          first_point.size.label + ": " + alone);
      log->warn("{} {}: {}", first_point.strategy->entry.info.suite,
                first_point.size.label, alone);
    }
    // Create every member's strategy and communicator; one that fails to
    // be created is reported, the others are measured.
    std::vector<GroupMember> ready;
    std::vector<const Point*> ready_points;
    std::vector<std::unique_ptr<Strategy>> strategies;
    std::vector<MPI_Comm> comms;
    for (const Point* pp : group) {
      const Point& p = *pp;
      const StrategyInfo& info = p.strategy->entry.info;
      std::unique_ptr<Strategy> strategy;
      std::string create_error;
      try {
        strategy = p.strategy->entry.create();
        if (!strategy)
          create_error = "the plugin's factory returned no strategy";
      } catch (const std::exception& e) {
        create_error = e.what();
      }
      auto [first, message] =
          first_failure(!create_error.empty(), create_error, harness, rank);
      if (first != kNobody) {
        failed = true;
        const std::string reason =
            "error: creating the strategy failed on "
            "rank " +
            std::to_string(first) + ": " + message;
        doc.skipped.push_back({info.suite, p.label, p.payload, p.size.label,
                               p.size.bytes, p.ranks, reason});
        if (rank == 0) log->error("{}: {}", progress_of(p), reason);
        continue;
      }
      MPI_Comm comm = MPI_COMM_NULL;
      MPIARENA_CHECK(MPI_Comm_dup(group_comm, &comm));
      MPIARENA_CHECK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
      GroupMember m;
      m.strategy = strategy.get();
      m.ctx.comm = comm;
      MPIARENA_CHECK(MPI_Comm_rank(comm, &m.ctx.rank));
      m.ctx.size = p.ranks;
      m.ctx.payload = p.payload;
      m.ctx.bytes = p.size.bytes;
      m.ctx.log = &plugin_log;
      m.ctx.all_pairs = options.all_pairs;
      m.ctx.size_total = options.size_total && size_is_per_rank(info.suite);
      m.ctx.test_every = options.test_every;
      m.ctx.exchanges = options.exchanges;
      m.ctx.window = options.window;
      m.ctx.stride = static_cast<std::size_t>(options.stride);
      m.ctx.cache_cold = options.cache_cold && honours_cold_cache(info.suite);
      m.ctx.cache_set_bytes = cold_set_bytes(machine.llc_bytes);
      m.ctx.separate_buffers = options.separate_buffers;
      m.ctx.receive_fresh = options.receive_fresh;
      m.ctx.options = p.options.empty() ? nullptr : &p.options;
      m.info = &info;
      m.time_scale =
          info.windowed ? info.time_scale / options.window : info.time_scale;
      m.name = point_name(p);
      ready.push_back(std::move(m));
      ready_points.push_back(pp);
      strategies.push_back(std::move(strategy));
      comms.push_back(comm);
    }
    std::vector<GroupResult> results =
        measure_group(ready, gopt, harness, seed, this_group);
    for (std::size_t i = 0; i < results.size(); ++i) {
      const Point& p = *ready_points[i];
      const StrategyInfo& info = p.strategy->entry.info;
      const std::string progress = progress_of(p);
      Skip skip{info.suite,   p.label, p.payload, p.size.label,
                p.size.bytes, p.ranks, ""};
      GroupResult& r = results[i];
      if (r.kind == GroupResult::skipped) {
        skip.reason = r.reason;
        doc.skipped.push_back(skip);
        log->info("{}: skipped: {}", progress, skip.reason);
        continue;
      }
      if (r.kind == GroupResult::failed) {
        failed = true;
        skip.reason = "error: " + r.reason;
        doc.skipped.push_back(skip);
        if (rank == 0) log->error("{}: {}", progress, skip.reason);
        continue;
      }
      Record& rec = r.record;
      rec.suite = info.suite;
      rec.method = p.label;  // "method[option=value,...]" (plan.hpp)
      rec.size_label = p.size.label;
      rec.moves_data = info.moves_data;
      if (info.pairwise) {
        rec.pairs = options.all_pairs ? p.ranks / 2 : 1;
        describe_pairs(rec, p, machine);
      }
      rec.size_total = ready[i].ctx.size_total;
      rec.cache = ready[i].ctx.cache_cold ? "cold" : "hot";
      if (honours_buffers(info.suite))
        rec.buffers = options.separate_buffers ? "separate" : "shared";
      if (info.suite == "transfer" && rec.payload == "2d")
        rec.definition["receive"] = options.receive_fresh ? "fresh" : "reuse";
      if (!alone.empty()) rec.notes.push_back(alone + ".");
      rec.plugin_file = p.strategy->file;
      rec.plugin_abi = p.strategy->abi;
      rec.plugin_version = info.version;
      if (rec.verification == "failed") {
        failed = true;
        if (rank == 0)
          log->error("{}: VERIFICATION FAILED: {}", progress,
                     rec.verification_message);
      } else {
        log->info("{}: {} median, CV {:.1f}%, {} x {}, {}{}", progress,
                  format_seconds(rec.time.median), rec.time.cv * 100,
                  rec.inner_iterations, rec.repetitions, rec.verification,
                  rec.noise.noisy ? ", noisy: " + rec.noise.reason : "");
      }
      doc.records.push_back(std::move(rec));
    }
    strategies.clear();
    for (MPI_Comm& c : comms) MPIARENA_CHECK(MPI_Comm_free(&c));
    save();
    if (first_point.ranks < world.size()) sleeping_barrier(between);
  }
  if (!fallbacks.empty()) {
    doc.context["interleave"]["fallbacks"] = fallbacks;
    save();
  }
  free_group();
  MPIARENA_CHECK(MPI_Comm_free(&between));
  // A rank outside a sub-communicator saw none of its failures.
  int any_failed = failed ? 1 : 0;
  MPIARENA_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, &any_failed, 1, MPI_INT, MPI_MAX, world));
  failed = any_failed != 0;

  doc.complete = true;
  doc.context["end_time"] = iso_now();
  doc.summary = compute_summary(doc);
  const std::string final_error = bcast_string(save(true), 0, world);
  if (rank == 0) {
    // What the terminal gets: control characters in a note, an option value
    // or a plugin's text spelt out (printable.hpp); the file keeps them.
    nlohmann::json shown_json = to_json(doc);
    if (make_printable(shown_json) > 0) doc = document_from_json(shown_json);
    const std::string exported = export_document(doc, options.format);
    if (!exported.empty()) {
      std::cout << exported;
    } else if (options.format == "json") {
      std::cout << to_json(doc).dump(1) << "\n";
    } else if (options.format == "summary") {
      std::cout << render_brief(doc, doc.summary,
                                final_error.empty() ? options.output : "");
    } else {
      const Style style =
          options.format == "markdown" ? Style::markdown : Style::text;
      std::cout << render_report(doc, doc.summary, style, options.per_rank);
      if (!options.output.empty() && final_error.empty())
        std::cout << "\nresults: " << options.output << "\n";
    }
    if (failed)
      std::cerr << "runner: some points failed verification or could not run; "
                   "exit 1\n";
    if (!final_error.empty())
      std::cerr << "runner: error: " << final_error
                << "; it keeps its last good write ("
                << output.records_written()
                << " records, complete: false); exit 2\n";
  }
  if (!final_error.empty()) return 2;
  return failed ? 1 : 0;
}

}  // namespace mpiarena
