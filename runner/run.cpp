// The run command: agree on the plan, measure every point, write records.
#include <algorithm>
#include <array>
#include <boost/filesystem.hpp>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <set>

#include "breakdown.hpp"
#include "collective.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "log.hpp"
#include "mpi_session.hpp"
#include "output.hpp"
#include "placement.hpp"
#include "plan.hpp"
#include "plugin_log.hpp"
#include "report.hpp"
#include "scaling.hpp"
#include "schema.hpp"
#include "suite_info.hpp"
#include "watchdog.hpp"

namespace mpiarena {

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
        {"size_basis", options.size_total ? "total" : "per-rank"},
        {"test_every", options.test_every},
        {"exchanges", options.exchanges},
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
  std::string s = p.strategy->entry.info.suite + "/" +
                  p.strategy->entry.info.name + " " + p.payload + " " +
                  p.size.label;
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

  Document doc;
  doc.context = make_context(world, options, machine, argc, argv);
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
  MPI_Comm group = MPI_COMM_NULL, harness = MPI_COMM_NULL,
           between = MPI_COMM_NULL;
  MPIARENA_CHECK(MPI_Comm_dup(world, &between));
  int group_ranks = 0, group_partner = -1;
  auto free_group = [&] {
    if (harness != MPI_COMM_NULL) MPIARENA_CHECK(MPI_Comm_free(&harness));
    if (group != MPI_COMM_NULL) MPIARENA_CHECK(MPI_Comm_free(&group));
  };
  MeasureOptions mopt{options.min_time, options.repetitions, options.warmup,
                      options.verify};
  mopt.point_timeout = options.point_timeout;
  SpdlogLog plugin_log(log.get());
  mopt.sleep_when_waiting = sleep_when_waiting(options, machine);
  bool failed = false;
  int index = 0;
  for (const Point& p : points) {
    ++index;
    const StrategyInfo& info = p.strategy->entry.info;
    const std::string progress = "[" + std::to_string(index) + "/" +
                                 std::to_string(points.size()) + "] " +
                                 point_name(p);
    Skip skip{info.suite,   info.name, p.payload,    p.size.label,
              p.size.bytes, p.ranks,   p.skip_reason};
    if (!skip.reason.empty()) {
      doc.skipped.push_back(skip);
      log->info("{}: skipped: {}", progress, skip.reason);
      save();
      continue;
    }
    if (p.ranks != group_ranks || p.partner != group_partner) {
      free_group();
      // --pairs intra|inter: the partner of rank 0 becomes rank 1.
      const int key = p.partner < 0 || rank == 0 ? rank
                      : rank == p.partner        ? 1
                                                 : rank + 1;
      MPIARENA_CHECK(MPI_Comm_split(world, rank < p.ranks ? 0 : MPI_UNDEFINED,
                                    key, &group));
      if (group != MPI_COMM_NULL) MPIARENA_CHECK(MPI_Comm_dup(group, &harness));
      group_ranks = p.ranks;
      group_partner = p.partner;
    }
    if (group == MPI_COMM_NULL) {  // outside this point's ranks: idle
      sleeping_barrier(between);
      continue;
    }
    MPI_Comm comm = MPI_COMM_NULL;
    MPIARENA_CHECK(MPI_Comm_dup(group, &comm));
    MPIARENA_CHECK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    RunContext ctx;
    ctx.comm = comm;
    MPIARENA_CHECK(MPI_Comm_rank(comm, &ctx.rank));
    ctx.size = p.ranks;
    ctx.payload = p.payload;
    ctx.bytes = p.size.bytes;
    ctx.log = &plugin_log;
    ctx.all_pairs = options.all_pairs;
    ctx.size_total = options.size_total && size_is_per_rank(info.suite);
    ctx.test_every = options.test_every;
    ctx.exchanges = options.exchanges;
    ctx.stride = static_cast<std::size_t>(options.stride);
    Watchdog::instance().set_point(point_name(p));
    std::unique_ptr<Strategy> strategy;
    std::string create_error;
    try {
      strategy = p.strategy->entry.create();
      if (!strategy) create_error = "the plugin's factory returned no strategy";
    } catch (const std::exception& e) {
      create_error = e.what();
    }
    auto [first, message] =
        first_failure(!create_error.empty(), create_error, harness, rank);
    try {
      if (first != kNobody)
        throw PointError("creating the strategy failed on rank " +
                         std::to_string(first) + ": " + message);
      mopt.time_scale = info.time_scale;
      mopt.info = &info;
      Record rec = measure_point(*strategy, ctx, mopt, harness);
      rec.suite = info.suite;
      rec.method = info.name;
      rec.size_label = p.size.label;
      rec.moves_data = info.moves_data;
      if (info.pairwise) {
        rec.pairs = options.all_pairs ? p.ranks / 2 : 1;
        describe_pairs(rec, p, machine);
      }
      rec.size_total = ctx.size_total;
      rec.plugin_file = p.strategy->file;
      rec.plugin_abi = p.strategy->abi;
      rec.plugin_version = info.version;
      if (rec.verification == "failed") {
        failed = true;
        if (rank == 0)
          log->error("{}: VERIFICATION FAILED: {}", progress,
                     rec.verification_message);
      } else {
        log->info("{}: {} median, CV {:.1f}%, {} x {}, {}", progress,
                  format_seconds(rec.time.median), rec.time.cv * 100,
                  rec.inner_iterations, rec.repetitions, rec.verification);
      }
      doc.records.push_back(std::move(rec));
    } catch (const PointSkipped& e) {
      skip.reason = e.what();
      doc.skipped.push_back(skip);
      log->info("{}: skipped: {}", progress, skip.reason);
    } catch (const PointError& e) {
      failed = true;
      skip.reason = std::string("error: ") + e.what();
      doc.skipped.push_back(skip);
      if (rank == 0) log->error("{}: {}", progress, skip.reason);
    }
    Watchdog::instance().set_point({});
    strategy.reset();
    MPIARENA_CHECK(MPI_Comm_free(&comm));
    save();
    if (p.ranks < world.size()) sleeping_barrier(between);
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
    const std::string exported = export_document(doc, options.format);
    if (!exported.empty()) {
      std::cout << exported;
    } else if (options.format == "json") {
      std::cout << to_json(doc).dump(1) << "\n";
    } else {
      const Style style =
          options.format == "markdown" ? Style::markdown : Style::text;
      std::cout << render_header(doc) << render_table(doc, style)
                << render_breakdown(doc, style) << render_scaling(doc, style)
                << render_summary(doc.summary, style);
      if (options.per_rank) std::cout << render_per_rank(doc, style);
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
