// The measuring stage of a run (measure.hpp).
#include "runner/measure.hpp"

#include <algorithm>
#include <memory>
#include <mpiarena/mpi_check.hpp>

#include "core/engine/collective.hpp"
#include "core/engine/engine.hpp"
#include "core/engine/memory.hpp"
#include "core/engine/plugin_log.hpp"
#include "core/engine/synchronizer.hpp"
#include "core/results/log.hpp"
#include "core/results/units.hpp"
#include "core/sdk/suite_info.hpp"
#include "runner/algorithms.hpp"
#include "runner/copy_limits.hpp"
#include "runner/measure_parts.hpp"

namespace mpiarena {

namespace {

// The communicators of the points: `group` holds the first p.ranks ranks
// of the launch (--ranks; all of them by default; MPI_COMM_NULL on the
// ranks outside it) and `harness` is the engine's duplicate of it;
// `between` joins every rank of the launch after each point, so the ranks
// outside sleep while the others measure.
class PointComms {
 public:
  explicit PointComms(const World& world) : world_(world) {
    MPIARENA_CHECK(MPI_Comm_dup(world, &between_));
  }
  ~PointComms() {
    free_group();
    MPI_Comm_free(&between_);
  }
  PointComms(const PointComms&) = delete;
  PointComms& operator=(const PointComms&) = delete;

  // The communicators for a point like `p`, built anew when its ranks or
  // partner differ from the last point's. False on a rank outside them.
  bool enter(const Point& p) {
    if (p.ranks != ranks_ || p.partner != partner_) {
      free_group();
      // --pairs intra|inter: the partner of rank 0 becomes rank 1.
      const int rank = world_.rank(), partner = p.partner;
      const int key = partner < 0 || rank == 0 ? rank
                      : rank == partner        ? 1
                                               : rank + 1;
      MPIARENA_CHECK(MPI_Comm_split(world_, rank < p.ranks ? 0 : MPI_UNDEFINED,
                                    key, &group_));
      if (group_ != MPI_COMM_NULL)
        MPIARENA_CHECK(MPI_Comm_dup(group_, &harness_));
      ranks_ = p.ranks;
      partner_ = partner;
    }
    return group_ != MPI_COMM_NULL;
  }
  MPI_Comm group() const { return group_; }
  MPI_Comm harness() const { return harness_; }
  // The ranks of the launch meet, the idle ones asleep.
  void rejoin() { sleeping_barrier(between_); }

 private:
  void free_group() {  // no throw: the destructor calls it
    if (harness_ != MPI_COMM_NULL) MPI_Comm_free(&harness_);
    if (group_ != MPI_COMM_NULL) MPI_Comm_free(&group_);
  }
  const World& world_;
  MPI_Comm group_ = MPI_COMM_NULL, harness_ = MPI_COMM_NULL,
           between_ = MPI_COMM_NULL;
  int ranks_ = 0, partner_ = -1;
};

// The members of a group that could be created, with what they own; the
// communicators are freed with it.
struct Members {
  std::vector<GroupMember> members;
  std::vector<const Point*> points;
  std::vector<std::unique_ptr<Strategy>> strategies;
  std::vector<MPI_Comm> comms;
  Members() = default;
  Members(const Members&) = delete;
  Members& operator=(const Members&) = delete;
  ~Members() {
    strategies.clear();
    for (MPI_Comm& c : comms) MPI_Comm_free(&c);
  }
};

// What the run's stages share while they measure.
struct Stage {
  const std::vector<Point>& points;
  const Machine& machine;
  const Options& options;
  Document& doc;
  spdlog::logger& log;
  Log& plugin_log;
  int rank;
  bool failed = false;
  // The most payload memory a rank planned to hold at once (the largest
  // block of measure_members).
  double planned_peak = 0;
  std::string usage_error;  // the first PointUsageError's reason
  CopyLimits* copy_limits = nullptr;
};

// The strategy of `p`, or why the plugin could not create it.
std::unique_ptr<Strategy> create_strategy(const Point& p, std::string& error) {
  std::unique_ptr<Strategy> strategy;
  try {
    strategy = p.strategy->entry.create();
    if (!strategy) error = "the plugin's factory returned no strategy";
  } catch (const std::exception& e) {
    error = e.what();
  }
  return strategy;
}

// The member's context: its own duplicate of `group` and the run's options
// that its suite honours.
GroupMember member_of(const Point& p, Strategy* strategy, MPI_Comm comm,
                      const Stage& s) {
  const StrategyInfo& info = p.strategy->entry.info;
  const Options& options = s.options;
  GroupMember m;
  m.strategy = strategy;
  m.ctx.comm = comm;
  MPIARENA_CHECK(MPI_Comm_rank(comm, &m.ctx.rank));
  m.ctx.size = p.ranks;
  m.ctx.payload = p.payload;
  m.ctx.bytes = p.size.bytes;
  m.ctx.log = &s.plugin_log;
  m.ctx.all_pairs = p.all_pairs;
  m.ctx.size_total = options.size_total && size_is_per_rank(info.suite);
  m.ctx.test_every = options.test_every;
  m.ctx.exchanges = options.exchanges;
  m.ctx.window = options.window;
  m.ctx.stride = static_cast<std::size_t>(options.stride);
  m.ctx.cache_cold = options.cache_cold && honours_cold_cache(info.suite);
  m.ctx.cache_set_bytes = cold_set_bytes(s.machine.llc_bytes);
  m.ctx.separate_buffers = options.separate_buffers;
  m.ctx.receive_fresh = options.receive_fresh;
  m.ctx.options = p.options.empty() ? nullptr : &p.options;
  m.info = &info;
  m.time_scale =
      info.windowed ? info.time_scale / options.window : info.time_scale;
  m.name = point_name(p);
  set_algorithm_hooks(p, m);
  return m;
}

// Creates every member's strategy and communicator; one that fails to be
// created (on any rank) is reported, the others are measured.
void create_members(const std::vector<const Point*>& group, MPI_Comm comm,
                    MPI_Comm harness, Stage& s, Members& out) {
  for (const Point* pp : group) {
    const Point& p = *pp;
    std::string create_error;
    std::unique_ptr<Strategy> strategy = create_strategy(p, create_error);
    auto [first, message] =
        first_failure(!create_error.empty(), create_error, harness, s.rank);
    if (first != kNobody) {
      s.failed = true;
      const std::string reason =
          "error: creating the strategy failed on rank " +
          std::to_string(first) + ": " + message;
      s.doc.skipped.push_back(skip_of(p, reason));
      if (s.rank == 0) s.log.error("{}: {}", progress_of(s.points, p), reason);
      continue;
    }
    MPI_Comm own = MPI_COMM_NULL;
    {
      CreationScope algorithm(p);  // --algorithms under Open MPI
      MPIARENA_CHECK(MPI_Comm_dup(comm, &own));
      algorithm.close();  // a refusal to go back ends the run, loudly
    }
    MPIARENA_CHECK(MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN));
    out.comms.push_back(own);
    out.members.push_back(member_of(p, strategy.get(), own, s));
    out.points.push_back(pp);
    out.strategies.push_back(std::move(strategy));
  }
}

// What the engine cannot know of a measured point: its name and suite, the
// pairs, the options that define it, the plugin.
void complete_record(Record& rec, const Point& p, const GroupMember& m,
                     const Stage& s, const std::string& alone) {
  const StrategyInfo& info = p.strategy->entry.info;
  const Options& options = s.options;
  rec.suite = info.suite;
  rec.method = p.label;  // "method[option=value,...]" (plan.hpp)
  describe_algorithm(rec, p);
  rec.size_label = p.size.label;
  rec.moves_data = info.moves_data;
  if (info.pairwise) {
    rec.pairs = p.all_pairs ? p.ranks / 2 : 1;
    describe_pairs(rec, p, s.machine);
  }
  rec.size_total = m.ctx.size_total;
  rec.cache = m.ctx.cache_cold ? "cold" : "hot";
  if (honours_buffers(info.suite))
    rec.buffers = options.separate_buffers ? "separate" : "shared";
  if (info.suite == "transfer" && rec.payload == "2d")
    rec.definition["receive"] = options.receive_fresh ? "fresh" : "reuse";
  if (!alone.empty()) rec.notes.push_back(alone + ".");
  rec.plugin_file = p.strategy->file;
  rec.plugin_abi = p.strategy->abi;
  rec.plugin_version = info.version;
  rec.plugin_build = p.strategy->build;
  if (p.osu) rec.alias = p.osu->name;
  if (s.copy_limits) s.copy_limits->attach(rec, p);
}

// Each member's result into the document: a record, a skip, or a failure.
void keep_results(std::vector<GroupResult>& results, const Members& ready,
                  Stage& s, const std::string& alone) {
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Point& p = *ready.points[i];
    const std::string progress = progress_of(s.points, p);
    GroupResult& r = results[i];
    refused_by_library(p, r);
    if (r.kind == GroupResult::skipped) {
      s.doc.skipped.push_back(skip_of(p, r.reason));
      s.log.info("{}: skipped: {}", progress, r.reason);
      continue;
    }
    if (r.kind == GroupResult::failed) {
      s.failed = true;
      if (r.usage && s.usage_error.empty()) s.usage_error = r.reason;
      s.doc.skipped.push_back(skip_of(p, "error: " + r.reason));
      if (s.rank == 0) s.log.error("{}: error: {}", progress, r.reason);
      continue;
    }
    Record& rec = r.record;
    complete_record(rec, p, ready.members[i], s, alone);
    if (rec.verification == "failed") {
      s.failed = true;
      if (s.rank == 0)
        s.log.error("{}: VERIFICATION FAILED: {}", progress,
                    rec.verification_message);
    } else {
      s.log.info("{}: {} median, CV {:.1f}%, {} x {}, {}{}", progress,
                 format_seconds(rec.time.median), rec.time.cv * 100,
                 rec.inner_iterations, rec.repetitions, rec.verification,
                 rec.noise.noisy ? ", noisy: " + rec.noise.reason : "");
    }
    s.doc.records.push_back(std::move(rec));
  }
}

// The members of a group that run (the skipped ones recorded as such).
std::vector<const Point*> runnable(const std::vector<const Point*>& members,
                                   Stage& s, RunWriter& writer) {
  std::vector<const Point*> group;
  for (const Point* pp : members) {
    if (pp->skip_reason.empty()) {
      group.push_back(pp);
      continue;
    }
    s.doc.skipped.push_back(skip_of(*pp, pp->skip_reason));
    s.log.info("{}: skipped: {}", progress_of(s.points, *pp), pp->skip_reason);
    writer.save();
  }
  return group;
}

// --profile osu: an OSU program's point sampled as OSU samples it.
// -r and --warmup, when given, replace OSU's counts.
MeasureOptions osu_timed(MeasureOptions gopt, const Point& p,
                         const Options& options) {
  if (!p.osu_timing) return gopt;
  const OsuSampling o = osu_sampling(*p.osu, p.size.bytes);
  if (o.iterations > 0) gopt.iterations = o.iterations;
  if (o.repetitions > 0 && !options.repetitions_given)
    gopt.repetitions = o.repetitions;
  if (o.warmup >= 0 && !options.warmup_given) gopt.warmup = o.warmup;
  return gopt;
}

// Whether a group is interleaved: when the members' buffers fit in memory
// together. Else `alone` says why not, and the fallback is listed.
bool interleaved(const std::vector<const Point*>& group, const Stage& s,
                 std::string& alone, std::vector<std::string>& fallbacks) {
  const bool competing = s.options.interleave && group.size() > 1;
  if (!competing) return false;
  if (group_fits(group, s.machine, alone)) return true;
  const Point& first = *group.front();
  alone = "measured one method at a time, not interleaved: " + alone;
  fallbacks.push_back(first.strategy->entry.info.suite + " " +
                      first.size.label + ": " + alone);
  s.log.warn("{} {}: {}", first.strategy->entry.info.suite, first.size.label,
             alone);
  return false;
}

// Measures `block` (points of one group prepared together: the whole
// group when it is interleaved, else one point) and destroys its
// strategies before it returns, so that a launch needs what its largest
// block needs (Stage::planned_peak), not what its blocks add up to.
void measure_members(const std::vector<const Point*>& block,
                     PointComms& comms, const MeasureOptions& gopt,
                     std::uint64_t seed, int group, Stage& s,
                     const std::string& alone) {
  double planned = 0;
  for (const Point* p : block) planned += p->memory_bytes;
  s.planned_peak = std::max(s.planned_peak, planned);
  return_free_memory();
  const double before = static_cast<double>(resident_bytes());
  const std::size_t first_record = s.doc.records.size();
  {
    Members ready;
    create_members(block, comms.group(), comms.harness(), s, ready);
    std::vector<GroupResult> results =
        measure_group(ready.members, gopt, comms.harness(), seed, group);
    keep_results(results, ready, s, alone);
  }
  return_free_memory();
  double held = std::max(0.0, static_cast<double>(resident_bytes()) - before);
  MPIARENA_CHECK(MPI_Allreduce(MPI_IN_PLACE, &held, 1, MPI_DOUBLE, MPI_MAX,
                               comms.harness()));
  note_held_memory(held, planned, first_record, s.doc, s.log, s.rank);
}

}  // namespace

bool measure_points(const std::vector<Point>& points, const Machine& machine,
                    const Options& options, std::uint64_t seed,
                    const World& world, Document& doc, RunWriter& writer,
                    spdlog::logger& log, Synchronizer* sync,
                    std::string* usage_error) {
  SpdlogLog plugin_log(&log);
  Stage s{points, machine, options, doc, log, plugin_log, world.rank(),
          false,  0,       {}};
  const MeasureOptions mopt = measure_options(options, machine);
  CopyLimits copy_limits(options.copy_limit, machine.min_available,
                         machine.max_ranks_per_node);
  s.copy_limits = &copy_limits;
  PointComms comms(world);
  std::vector<std::string> fallbacks;  // groups measured one at a time
  int group_index = 0;
  for (const std::vector<const Point*>& members : point_groups(points)) {
    // Counted on every rank, the ranks outside a point's group too: the
    // order of a group's rounds is drawn from its index.
    const int this_group = group_index++;
    const std::vector<const Point*> group = runnable(members, s, writer);
    if (group.empty()) continue;
    if (sync) sync->before_group();      // every rank of the launch
    if (!comms.enter(*group.front())) {  // outside this point's ranks: idle
      comms.rejoin();
      continue;
    }
    MeasureOptions gopt = mopt;
    std::string alone;
    gopt.interleave = interleaved(group, s, alone, fallbacks);
    gopt.sync = sync;
    copy_limits.prepare(group, comms.harness(), log, s.rank);
    if (gopt.interleave) {
      measure_members(group, comms, gopt, seed, this_group, s, alone);
    } else {  // each strategy destroyed before the next is created
      for (const Point* pp : group) {
        measure_members({pp}, comms, osu_timed(gopt, *pp, options), seed,
                        this_group, s, alone);
        if (pp == group.back()) break;
        writer.save();  // what a stop keeps: every point measured
        update_interrupt_summary(doc, options, s.rank);
      }
    }
    writer.save();
    update_interrupt_summary(doc, options, s.rank);
    if (members.front()->ranks < world.size()) comms.rejoin();
  }
  if (!fallbacks.empty()) {
    if (!doc.context.interleave) doc.context.interleave.emplace();
    doc.context.interleave->fallbacks = fallbacks;
    writer.save();
  }
  // What each rank held at most, against what the run planned.
  unsigned long long peak = peak_resident_bytes(), most = 0;
  MPIARENA_CHECK(MPI_Allreduce(&peak, &most, 1, MPI_UNSIGNED_LONG_LONG,
                               MPI_MAX, world));
  double planned = s.planned_peak;
  MPIARENA_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, &planned, 1, MPI_DOUBLE, MPI_MAX, world));
  if (!doc.context.memory) doc.context.memory.emplace();
  doc.context.memory->peak_rss_bytes = most;
  doc.context.memory->planned_per_rank_bytes =
      static_cast<std::uint64_t>(planned);
  // Rank 0 ran every group (the first ranks of the world).
  if (usage_error) *usage_error = bcast_string(s.usage_error, 0, world);
  // A rank outside a sub-communicator saw none of its failures.
  int any_failed = s.failed ? 1 : 0;
  MPIARENA_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, &any_failed, 1, MPI_INT, MPI_MAX, world));
  return any_failed != 0;
}

}  // namespace mpiarena
