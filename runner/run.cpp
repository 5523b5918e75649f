// The run command, a pipeline: the options (parsed by main) -> the plan,
// agreed on by every rank -> the measurement (measure.hpp) -> the document,
// written after every point and at the end -> the report on stdout.
#include <iostream>
#include <memory>
#include <mpiarena/mpi_check.hpp>
#include <random>

#include "core/analysis/report/report.hpp"
#include "core/engine/collective.hpp"
#include "core/engine/engine.hpp"
#include "core/engine/interrupt.hpp"
#include "core/engine/library_algorithms.hpp"
#include "core/engine/mpi_session.hpp"
#include "core/engine/synchronizer.hpp"
#include "core/results/dates.hpp"
#include "core/results/log.hpp"
#include "core/results/mpi_settings.hpp"
#include "core/results/output.hpp"
#include "core/results/units.hpp"
#include "runner/ab.hpp"
#include "runner/algorithms.hpp"
#include "runner/commands.hpp"
#include "runner/context.hpp"
#include "runner/measure.hpp"
#include "runner/plan.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

namespace {

// Every failure before measuring is agreed on by all ranks and printed
// once, by rank 0; the run then exits 2.
class Agreement {
 public:
  explicit Agreement(const World& world) : world_(world) {}
  // True when no rank has an error; else false on every rank.
  bool operator()(const std::string& local_error) const {
    const int rank = world_.rank();
    auto [first, message] =
        first_failure(!local_error.empty(), local_error, world_, rank);
    if (first == kNobody) return true;
    if (rank == 0) std::cerr << "runner: error: " << message << ".\n";
    return false;
  }

 private:
  const World& world_;
};

// What the run measures, the same on every rank.
struct RunPlan {
  Registry registry;  // the points point into it
  std::vector<const LoadedStrategy*> methods;
  Machine machine;
  std::vector<Point> points;
  std::uint64_t seed = 0;  // of the interleaved order
  // The options, with --algorithms as the --set of the option "algorithm"
  // (algorithms.hpp): what plans the points, of every block of runner ab.
  Options options;
};

// --seed, or one drawn by rank 0, exact in every JSON reader.
std::uint64_t agreed_seed(const Options& options, const World& world) {
  if (options.seed_given) return options.seed;
  unsigned long long drawn = 0;
  if (world.rank() == 0)
    drawn = (static_cast<unsigned long long>(std::random_device{}()) << 32) ^
            std::random_device{}();
  drawn &= (1ULL << 53) - 1;
  MPIARENA_CHECK(MPI_Bcast(&drawn, 1, MPI_UNSIGNED_LONG_LONG, 0, world));
  return drawn;
}

// The same plugins on every rank, the same options, the methods, the
// machine, the points, and rank 0's -o opened (and locked): false after one
// message on every rank alike.
bool make_plan(const Options& options, const World& world, spdlog::logger& log,
               RunPlan& plan, ResultFile& output) {
  const Agreement agree(world);
  const int rank = world.rank();
  std::vector<std::string> errors, warnings;
  load_plugins(plan.registry, options, errors, warnings);
  if (!agree(errors.empty() ? "" : errors.front())) return false;
  if (rank == 0)
    for (const std::string& w : warnings) log.warn("{}", w);
  const std::string names = join(plan.registry.names());
  const std::string root_names = bcast_string(names, 0, world);
  if (!agree(names == root_names
                 ? ""
                 : "rank " + std::to_string(rank) +
                       " loaded other plugins than rank 0 (" + names +
                       " instead of " + root_names + ")"))
    return false;
  if (!agree(options_mismatch(options, world))) return false;

  std::string error;
  // The OSU programs' names select methods too (plan_osu.cpp).
  plan.methods =
      select_methods(plan.registry, without_osu_names(options), error);
  std::vector<OsuSelection> osu;
  if (error.empty()) osu = select_osu(plan.registry, options, error);
  if (error.empty() && options.command == Command::ab) {
    std::vector<std::string> alone;
    plan.methods = pair_builds(plan.methods, options, error, alone);
    if (rank == 0)
      for (const std::string& w : alone) log.warn("{}", w);
  }
  plan.machine = survey(world, options.max_memory);
  // --algorithms: the library's algorithms as the option "algorithm".
  plan.options = options;
  std::vector<std::string> notes;
  if (error.empty())
    error = apply_algorithms(plan.registry, plan.methods, plan.options, notes);
  if (rank == 0)
    for (const std::string& w : notes) log.warn("{}", w);
  if (error.empty())
    plan.points =
        plan_points(plan.methods, plan.options, plan.machine, error, osu);
  // Why -o cannot be written; `output` then holds its lock for the rest of
  // the run (docs/output.md).
  if (error.empty() && rank == 0 && !options.output.empty())
    error = output.open(options.output);
  if (!agree(error)) return false;
  plan.seed = agreed_seed(options, world);
  return true;
}

// Rank 0's stdout at the end: the document in the --format asked for, then
// what failed, on stderr.
void report(const Document& doc, const Options& options, bool failed,
            const std::string& final_error, const ResultFile& output) {
  // The format's reporter writes it, and makes the strings of a note, an
  // option value or a plugin's text safe as it writes them (reporters.hpp);
  // the file keeps them as they are.
  const std::string kept = final_error.empty() ? options.output : "";
  Printout out;
  out.json = [&] { return to_json(doc); };
  out.tables = [&](Style style) {
    return render_report(doc, doc.summary, style, options.per_rank,
                         options.percentiles) +
           (kept.empty() ? "" : "\nresults: " + kept + "\n");
  };
  out.document = &doc;
  out.summary = &doc.summary;
  out.source = kept;
  out.osu_columns = options.osu_columns;
  std::cout << reporter(options.format).render(out);
  if (failed)
    std::cerr << "runner: some points failed verification or could not run; "
                 "exit 1\n";
  if (!final_error.empty())
    std::cerr << "runner: error: " << final_error
              << "; it keeps its last good write (" << output.records_written()
              << " records, complete: false); exit 2\n";
}

// The run's synchronisation method (--sync), as its options set it.
std::unique_ptr<Synchronizer> make_sync(const Options& options) {
  SyncSettings settings;
  settings.clock_sync = options.clock_sync.front();
  settings.window_s = options.sync_window;
  settings.step_bound = options.point_timeout > 0 ? options.point_timeout : 1e9;
  settings.repetitions = options.repetitions;
  return make_synchronizer(options.sync, settings);  // checked
}

}  // namespace

int command_run(const Options& options, int argc, char** argv) {
  launch_environment();  // the MPI settings, before MPI_Init
  if (!options.algorithms.empty() || options.command == Command::algorithms)
    prepare_library_algorithms();
  MpiSession env(argc, argv, thread_level_value(options.thread_level));
  if (options.command == Command::algorithms)
    return command_algorithms(options);
  if (options.command == Command::clocks) return command_clocks(options);
  const World world;
  install_interrupt_handler(world.rank() == 0);
  auto log = make_rank_logger(world.rank(), options.quiet);
  RunPlan plan;
  ResultFile output;
  if (!make_plan(options, world, *log, plan, output)) return 2;

  Document doc;
  doc.context = run_context(world, options, plan.machine, plan.points,
                            plan.seed, argc, argv);
  if (!options.algorithms.empty())
    doc.context.library_algorithms = algorithms_context();
  // The progress lines (stderr) open with what the run is, so that a log
  // of stdout and stderr together starts with it, not with points.
  if (world.rank() == 0) {
    const std::string header = render_header(doc);
    log->info("{}: {} points; the tables follow at the end",
              header.substr(0, header.find('\n')), plan.points.size());
  }
  const bool saving = world.rank() == 0 && !options.output.empty();
  if (!Agreement(world)(saving ? output.write(doc) : "")) return 2;
  RunWriter writer(doc, output, saving, *log, options.output);
  // What the method needs before the first point (window: the global
  // clock).
  const std::unique_ptr<Synchronizer> sync = make_sync(options);
  sync->start(world, *log);
  std::string plan_error, usage_error;
  const bool failed =
      options.command == Command::ab
          ? measure_builds(plan.methods, plan.points, plan.machine,
                           plan.options, plan.seed, world, doc, writer, *log,
                           plan_error)
          : measure_points(plan.points, plan.machine, options, plan.seed, world,
                           doc, writer, *log, sync.get(), &usage_error);
  sync->stop(doc.context);

  doc.complete = plan_error.empty();
  doc.context.end_time = iso_now();
  doc.summary = compute_summary(doc);
  std::string final_error = bcast_string(writer.save(true), 0, world);
  if (final_error.empty()) final_error = plan_error;
  if (options.command == Command::ab) {
    int code =
        world.rank() == 0 ? judge_builds(doc, options, failed, final_error) : 0;
    MPIARENA_CHECK(MPI_Bcast(&code, 1, MPI_INT, 0, world));
    return code;
  }
  if (world.rank() == 0) {
    report(doc, options, failed && usage_error.empty(), final_error, output);
    if (!usage_error.empty())
      std::cerr << "runner: error: " << usage_error << "; exit 2\n";
  }
  if (!final_error.empty() || !usage_error.empty()) return 2;
  return failed ? 1 : 0;
}

}  // namespace mpiarena
