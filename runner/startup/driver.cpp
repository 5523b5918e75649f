// mpiarena-startup's driver: runs the launcher over the probe, one launch
// per sample, and writes the records (startup.hpp).
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mpiarena/option_value.hpp>
#include <mpiarena/plugin.hpp>
#include <mpiarena/stats.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/analysis/report/report.hpp"
#include "core/analysis/report/summary.hpp"
#include "core/results/dates.hpp"
#include "core/results/output.hpp"
#include "core/results/records.hpp"
#include "core/results/schema.hpp"
#include "runner/launcher.hpp"
#include "runner/reporters.hpp"
#include "runner/startup/bounded_run.hpp"
#include "runner/startup/startup.hpp"

namespace mpiarena {

namespace {

int parse_count(const std::string& flag, const std::string& value, int min,
                int max) {
  long long v = 0;
  if (!parse_option_integer(value, v) || v < min || v > max)
    throw std::invalid_argument(
        flag + " '" + value + "' is not accepted: give an integer from " +
        std::to_string(min) + " to " + std::to_string(max));
  return static_cast<int>(v);
}

// What one launch saw: every rank's MPI_Init and first barrier, the hosts,
// the whole launch from outside, and the check of the job.
struct Launch {
  std::vector<double> init, barrier;
  std::vector<std::string> hosts;
  double wall = 0;
  std::string library, version, problem;  // problem: empty when it held
};

// This program's path (the probe the launcher runs).
std::string self_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n))
               : std::string("mpiarena-startup");
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string tail(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string s = ss.str();
  return s.size() > 600 ? "..." + s.substr(s.size() - 600) : s;
}

// Runs the launch once over the probe; throws std::runtime_error naming
// the command and the end of its output when it fails, is stopped, or
// starts another number of ranks than o.np.
Launch launch_once(const StartupOptions& o, const std::string& dir,
                   int index) {
  const std::string exe = self_path();
  const std::string out = dir + "/launch" + std::to_string(index) + ".json";
  const std::string log = dir + "/launch" + std::to_string(index) + ".log";
  // The launch as given, then the probe and its arguments, quoted.
  const std::string command =
      o.launch + " " + quoted(exe) + " --probe " + quoted(out);
  const std::string name =
      "launch " + std::to_string(index + 1) + " (" + o.launch + " ... --probe)";
  Launch l;
  const startup::Ended e =
      startup::run_bounded(command, log, o.timeout, l.wall);
  if (e.stopped_by == SIGALRM)
    throw std::runtime_error(name + " did not end within " +
                             std::to_string(o.timeout) +
                             " s (--launch-timeout) and was stopped; its "
                             "output:\n" +
                             tail(log));
  if (e.stopped_by)
    throw std::runtime_error(name + " was stopped: mpiarena-startup got " +
                             "signal " + std::to_string(e.stopped_by));
  if (!WIFEXITED(e.status))
    throw std::runtime_error(
        name + " was killed by signal " +
        std::to_string(WIFSIGNALED(e.status) ? WTERMSIG(e.status) : 0) +
        "; its output:\n" + tail(log));
  std::ifstream f(out);
  if (WEXITSTATUS(e.status) != 0 || !f)
    throw std::runtime_error(name + " exited " +
                             std::to_string(WEXITSTATUS(e.status)) +
                             "; its output:\n" + tail(log));
  const nlohmann::json j = nlohmann::json::parse(f);
  const long long p = j.at("ranks").get<long long>();
  if (p != o.np)
    throw std::runtime_error(
        name + ": the probe saw " + std::to_string(p) + " rank" +
        (p == 1 ? "" : "s") + " (MPI_Comm_size) where " +
        std::to_string(o.np) + " were asked for (" +
        (o.np_from_launch ? "read from --launch" : "--np") +
        "); its output:\n" + tail(log));
  l.init = j.at("init_s").get<std::vector<double>>();
  l.barrier = j.at("barrier_s").get<std::vector<double>>();
  l.hosts = j.at("hosts").get<std::vector<std::string>>();
  l.library = j.at("mpi_library").get<std::string>();
  l.version = j.at("mpi_version").get<std::string>();
  if (static_cast<long long>(l.init.size()) != p ||
      static_cast<long long>(l.barrier.size()) != p)
    l.problem = "the probe reported " + std::to_string(l.init.size()) +
                " times for " + std::to_string(p) + " ranks";
  else if (j.at("rank_sum").get<long long>() != p * (p - 1) / 2)
    l.problem = "the ranks' sum over MPI_COMM_WORLD is " +
                std::to_string(j.at("rank_sum").get<long long>()) +
                ", expected " + std::to_string(p * (p - 1) / 2);
  return l;
}

// The record of one quantity: per launch, the slowest, fastest and average
// rank (`per_rank`: each rank's value per launch), or the launch's own
// time (`per_rank` empty: `wall`).
Record make_record(const std::string& method, const std::string& reproduces,
                   const std::vector<Launch>& launches,
                   std::vector<double> Launch::*per_rank) {
  Record r;
  r.suite = "startup";
  r.method = method;
  r.payload = "none";
  r.size_label = "0";
  r.ranks = static_cast<int>(launches.front().init.size());
  r.inner_iterations = 1;
  r.repetitions = static_cast<int>(launches.size());
  r.moves_data = false;
  r.params = {{"reproduces", reproduces}};
  std::vector<std::vector<double>> by_rank(static_cast<std::size_t>(r.ranks));
  for (const Launch& l : launches) {
    if (!per_rank) {
      for (auto* v : {&r.samples_max, &r.samples_min, &r.samples_avg})
        v->push_back(l.wall);
      continue;
    }
    const std::vector<double>& v = l.*per_rank;
    r.samples_max.push_back(*std::max_element(v.begin(), v.end()));
    r.samples_min.push_back(*std::min_element(v.begin(), v.end()));
    double sum = 0;
    for (std::size_t k = 0; k < v.size(); ++k) {
      sum += v[k];
      if (k < by_rank.size()) by_rank[k].push_back(v[k]);
    }
    r.samples_avg.push_back(sum / static_cast<double>(v.size()));
  }
  if (per_rank)
    for (const auto& v : by_rank) r.per_rank.push_back(summarize(v).median);
  r.time = summarize(r.samples_max);
  r.verification = "passed";
  r.plugin_file = self_path();
  r.plugin_abi = kAbiVersion;
  return r;
}

}  // namespace

StartupOptions parse_startup_options(int argc, char** argv) {
  StartupOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw std::invalid_argument(a + " needs a value (--help)");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--launch") {
      o.launch = value();
      if (o.launch.find_first_not_of(" \t") == std::string::npos)
        throw std::invalid_argument(
            "--launch is empty: give the launcher, "
            "e.g. --launch 'mpirun -np 4'");
    } else if (a == "--np") {
      o.np = parse_count(a, value(), 1, 1000000);
    } else if (a == "--launches" || a == "-r") {
      o.launches = parse_count(a, value(), 3, 100000);
    } else if (a == "--launch-timeout") {
      o.timeout = parse_count(a, value(), 1, 86400);
    } else if (a == "--warmup") {
      o.warmup = parse_count(a, value(), 0, 100000);
    } else if (a == "-o" || a == "--output") {
      o.output = value();
    } else if (a == "--format" || a == "-f") {
      o.format = value();
      const std::vector<std::string> taken = accepted_formats(kListing);
      if (std::find(taken.begin(), taken.end(), o.format) == taken.end()) {
        std::string list;
        for (const std::string& name : taken)
          list += (list.empty() ? "" : ", ") + name;
        throw std::invalid_argument("--format '" + o.format +
                                    "' is not accepted: " + list);
      }
    } else if (a == "--probe") {
      o.probe = value();
    } else {
      throw std::invalid_argument(
          "unknown argument '" + a +
          "' (accepted: --launch, --np, --launches, "
          "--warmup, --launch-timeout, -o, --format, --help)");
    }
  }
  if (!o.help && o.probe.empty() && o.np == 0) {
    o.np = startup::launch_ranks(o.launch);
    o.np_from_launch = true;
  }
  return o;
}

std::string startup_help() {
  return "mpiarena-startup: the time of MPI_Init, of a first collective and "
         "of a whole\nlaunch, one launch per sample (osu_init, osu_hello).\n\n"
         "  mpiarena-startup [--launch CMD] [--np N] [--launches K] "
         "[--warmup W]\n                   [--launch-timeout S] [-o FILE] "
         "[--format table|json]\n\n"
         "  --launch CMD    the launcher and its options (default 'mpirun "
         "-np 2'); each\n                  launch runs  /bin/sh -c 'CMD "
         "PROBE --probe FILE'  (CMD as\n                  given, then this "
         "program and its arguments, quoted), so\n                  "
         "'VAR=x mpirun -np 2' and 'cd DIR && mpirun -np 2' work; run\n"
         "                  mpiarena-startup itself WITHOUT a launcher\n"
         "  --np N          the ranks each launch must start (default: the "
         "N of CMD's\n                  -np N, -n N, --np N, --n N or "
         "--ntasks N); a launch whose\n                  MPI_COMM_WORLD has "
         "another size stops the run (exit 1)\n"
         "  --launches K    launches measured, one sample each (default 10, "
         "at least 3)\n"
         "  --warmup W      launches run first and not recorded (default 1)\n"
         "  --launch-timeout S  seconds the whole shell command may take "
         "(default 300);\n                  past it its process group gets "
         "SIGTERM, SIGKILL 10 s\n                  later, and the run ends "
         "with exit 1 and no records\n"
         "  -o FILE         the records (results schema, suite 'startup'):\n"
         "                  init (MPI_Init, as osu_init), first_barrier (the "
         "first\n                  MPI_Barrier after it), launch (the whole "
         "launch, timed from\n                  outside: `time mpirun "
         "osu_hello`)\n"
         "  --format F      table (default) or json on stdout\n\n"
         "Each sample of init and first_barrier is the slowest rank of a "
         "launch; the\nfastest and the average are kept (osu_init prints min, "
         "max, avg).\n";
}

namespace {

// Runs the warm-up and the measured launches; `problem` names the first
// check that did not hold. Throws std::runtime_error when a launch fails.
std::vector<Launch> run_launches(const StartupOptions& o, const char* dir,
                                 std::string& problem) {
  std::vector<Launch> launches;
  for (int i = 0; i < o.warmup + o.launches; ++i) {
    Launch l = launch_once(o, dir, i);
    if (problem.empty() && !l.problem.empty())
      problem = "launch " + std::to_string(i + 1) + ": " + l.problem;
    if (i >= o.warmup) launches.push_back(std::move(l));
  }
  return launches;
}

Context startup_context(const StartupOptions& o,
                        const std::vector<Launch>& launches,
                        const std::string& start, int argc, char** argv) {
  std::set<std::string> hosts;
  for (const Launch& l : launches) hosts.insert(l.hosts.begin(), l.hosts.end());
  Context c;
  c.start_time = start;
  c.end_time = iso_now();
  c.hosts.assign(hosts.begin(), hosts.end());
  c.ranks = static_cast<int>(launches.front().init.size());
  c.nodes = static_cast<int>(hosts.size());
  c.mpi_library = launches.front().library;
  c.mpi_version = launches.front().version;
  c.runner_version = MPIARENA_VERSION;
  c.plugin_abi = kAbiVersion;
  c.command_line.assign(argv, argv + argc);
  c.options.launch = o.launch;
  c.options.repetitions = o.launches;
  c.options.warmup = o.warmup;
  return c;
}

}  // namespace

int run_startup(const StartupOptions& o, int argc, char** argv) {
  // The launch's processes that outlive their parents come back to this
  // process, which reaps them (run_bounded).
  signal(SIGCHLD, SIG_DFL);
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (under_launcher()) {
    if (launcher_rank() == 0)
      std::cerr << "mpiarena-startup: error: it runs the launcher itself; "
                   "run it without mpirun or srun and give the launcher "
                   "with --launch 'mpirun -np N'.\n";
    return 2;
  }
  std::string target, error;
  if (!o.output.empty() && !resolve_output(o.output, target, error)) {
    std::cerr << "mpiarena-startup: error: -o: " << error << ".\n";
    return 2;
  }
  char tmpl[] = "/tmp/mpiarena-startup.XXXXXX";
  const char* dir = mkdtemp(tmpl);
  if (!dir) {
    std::cerr << "mpiarena-startup: error: cannot create a directory in "
                 "/tmp for the launches' output.\n";
    return 2;
  }
  const std::string start = iso_now();
  std::string problem;
  std::vector<Launch> launches;
  try {
    launches = run_launches(o, dir, problem);
  } catch (const std::exception& e) {
    std::system(("rm -rf " + quoted(dir)).c_str());
    std::cerr << "mpiarena-startup: error: " << e.what() << "\n";
    return 1;
  }
  std::system(("rm -rf " + quoted(dir)).c_str());

  Document doc;
  doc.records = {
      make_record("init", "osu_init", launches, &Launch::init),
      make_record("first_barrier", "osu_init", launches, &Launch::barrier),
      make_record("launch", "osu_hello", launches, nullptr)};
  if (!problem.empty())
    for (Record& r : doc.records) {
      r.verification = "failed";
      r.verification_message = problem;
    }
  doc.context = startup_context(o, launches, start, argc, argv);
  doc.complete = true;
  doc.summary = compute_summary(doc);
  if (!o.output.empty()) {
    try {
      write_results(to_json(doc), o.output);
    } catch (const std::exception& e) {
      std::cerr << "mpiarena-startup: error: " << e.what() << "\n";
      return 2;
    }
  }
  Printout out;  // a listing (reporters.hpp)
  out.json = [&] { return to_json(doc); };
  out.tables = [&](Style style) {
    return render_report(doc, doc.summary, style, false);
  };
  std::cout << reporter(o.format).render(out);
  if (!problem.empty())
    std::cerr << "mpiarena-startup: " << problem << "; exit 1\n";
  return problem.empty() ? 0 : 1;
}

}  // namespace mpiarena
