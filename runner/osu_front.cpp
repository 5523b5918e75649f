// runner osu: OSU's flags with OSU's meanings (osu_front.hpp).
#include "runner/osu_front.hpp"

#include <algorithm>
#include <cctype>

#include "runner/options.hpp"
#include "runner/osu_programs.hpp"

namespace mpiarena {

namespace {

// clang-format off
const char* kHelp =
    "runner osu PROGRAM [OSU flags] [--runner-option ...]\n"
    "An OSU Micro-Benchmarks 7.4 program's command line, measured by\n"
    "mpiarena as --profile osu -f osu (OSU's ladder, timing and table; every\n"
    "transfer verified). PROGRAM: an OSU program name (runner --list shows\n"
    "them).\n"
    "\n"
    "OSU's flags taken, with OSU's meanings:\n"
    "  -m [MIN:]MAX   message sizes, every power of two from MIN to MAX\n"
    "  -i N           iterations: the collectives' timed operations (one\n"
    "                 per sample); point-to-point: operations per sample\n"
    "  -x N           warm-up operations\n"
    "  -f             full statistics: Min, Max and Iterations columns\n"
    "  -c             a Validation column (mpiarena verifies every point\n"
    "                 either way)\n"
    "  -z [P,P...]    percentile columns (default 50,90,99)\n"
    "  -W N           window size of the bandwidth programs\n"
    "  -t S[:R]       osu_latency_mt's sender and receiver threads\n"
    "  -b multiple    a buffer per message in flight (mpiarena's only\n"
    "                 scheme: MPI forbids pending receives into one buffer)\n"
    "  -w allocate|create|dynamic   the one-sided programs' window\n"
    "  -T mpi_int     the datatype (mpiarena's collectives move MPI_INT)\n"
    "  H H            host buffers (OSU's positional buffer locations)\n"
    "Refused, with the reason: -d (GPU buffers: no device), -a, -G, -M, -s,\n"
    "D/M buffer locations. Words starting with -- are the runner's own\n"
    "options (--output FILE, --log-level info...).\n"
    "Example: mpirun -np 2 mpiarena osu osu_latency -m 8:4194304 \\\n"
    "           -i 10000 -x 1000 -z 50,95";
// clang-format on

bool is_count(const std::string& s) {
  return !s.empty() && s.size() <= 9 &&
         s.find_first_not_of("0123456789") == std::string::npos;
}

bool is_collective(const OsuProgram& p) {
  return p.table == OsuTable::collective ||
         p.table == OsuTable::nonblocking || p.table == OsuTable::barrier;
}

// -m MAX or MIN:MAX, as --sizes takes an OSU range.
std::string sizes_of(const std::string& v, const OsuProgram& p) {
  const std::size_t colon = v.find(':');
  const std::string lo = colon == std::string::npos ? "" : v.substr(0, colon);
  const std::string hi = colon == std::string::npos ? v : v.substr(colon + 1);
  if ((!lo.empty() && !is_count(lo)) || (!hi.empty() && !is_count(hi)))
    throw UsageError("osu -m '" + v +
                     "': accepted: MAX or MIN:MAX in bytes (e.g. 8:4194304)");
  const std::string ladder = osu_ladder(p);
  const std::string from = lo.empty() ? ladder.substr(0, ladder.find(':')) : lo;
  const std::string to =
      hi.empty() ? ladder.substr(ladder.find(':') + 1) : hi;
  return from + ":" + to;
}

std::string refusal(const std::string& flag) {
  if (flag == "-d")
    return "-d selects GPU buffers (CUDA, ROCm, OpenACC, SYCL): there is no "
           "GPU method; run the host buffers (the default)";
  if (flag == "-a" || flag == "-G" || flag == "-M")
    return flag + " is an OSU flag mpiarena does not take (" +
           (flag == "-a"   ? std::string("accelerator kernels")
            : flag == "-G" ? std::string("graphs: use -f html with report")
                           : std::string("a memory limit: use --max-memory")) +
           ")";
  if (flag == "-s")
    return "-s picks the one-sided synchronisation: ask for the method "
           "instead (-m put_fence, put_lock, put_pscw...; runner --list)";
  return flag + " is not an OSU flag this front end takes; runner osu "
                "--help lists them";
}

// -z [P,P...]: the percentile columns (OSU's default 50,90,99).
void percentiles(const std::vector<std::string>& words, std::size_t& i,
                 std::vector<std::string>& columns) {
  std::string list = "50,90,99";
  if (i + 1 < words.size() && !words[i + 1].empty() &&
      std::isdigit(static_cast<unsigned char>(words[i + 1][0])))
    list = words[++i];
  for (std::size_t from = 0; from <= list.size();) {
    std::size_t comma = list.find(',', from);
    if (comma == std::string::npos) comma = list.size();
    columns.push_back("p" + list.substr(from, comma - from));
    from = comma + 1;
  }
}

// -t S[:R]: osu_latency_mt's threads, as --set.
void threads(const std::string& t, const OsuProgram& p,
             std::vector<std::string>& a) {
  if (std::string(p.method) != "latency_mt")
    throw UsageError("osu -t: threads are osu_latency_mt's");
  const std::size_t colon = t.find(':');
  a.insert(a.end(), {"--set", "latency_mt.sender_threads=" +
                                  t.substr(0, colon)});
  if (colon != std::string::npos)
    a.insert(a.end(), {"--set", "latency_mt.receiver_threads=" +
                                    t.substr(colon + 1)});
}

// One word (and its value) of OSU's command line, into the run's `a`;
// the columns OSU's -f, -c and -z add into `columns`.
void take_word(const std::vector<std::string>& words, std::size_t& i,
               const OsuProgram& prog, std::vector<std::string>& a,
               std::vector<std::string>& columns) {
  const OsuProgram* p = &prog;
  auto value = [&](std::size_t& at, const std::string& flag) {
    if (at + 1 >= words.size() || words[at + 1].rfind("-", 0) == 0)
      throw UsageError("osu " + flag + " needs a value; runner osu --help");
    return words[++at];
  };
  const std::string& w = words[i];
  if (w.rfind("--", 0) == 0) {  // the runner's own, and its value
    a.push_back(w);
    if (w.find('=') == std::string::npos && i + 1 < words.size() &&
        words[i + 1].rfind("-", 0) != 0)
      a.push_back(words[++i]);
  } else if (w == "-m") {
    a.insert(a.end(), {"--sizes", sizes_of(value(i, w), *p)});
  } else if (w == "-i") {
    const std::string n = value(i, w);
    if (!is_count(n) || n == "0")
      throw UsageError("osu -i '" + n + "': a count from 1 to 999999999");
    a.insert(a.end(), {is_collective(*p) ? "--repetitions" : "--iterations",
                       n});
  } else if (w == "-x") {
    a.insert(a.end(), {"--warmup", value(i, w)});
  } else if (w == "-f") {
    columns.push_back("full");
  } else if (w == "-c") {
    columns.push_back("validation");
  } else if (w == "-z") {
    percentiles(words, i, columns);
  } else if (w == "-W") {
    a.insert(a.end(), {"--window", value(i, w)});
  } else if (w == "-t") {
    threads(value(i, w), *p, a);
  } else if (w == "-b") {
    const std::string b = value(i, w);
    if (b != "multiple")
      throw UsageError("osu -b " + b +
                       ": mpiarena's bandwidth methods use a buffer per "
                       "message in flight (-b multiple): MPI does not "
                       "allow pending receives into one buffer");
  } else if (w == "-w") {
    a.insert(a.end(), {"--payloads", value(i, w)});
  } else if (w == "-T") {
    const std::string t = value(i, w);
    if (t != "mpi_int" && t != "MPI_INT")
      throw UsageError("osu -T " + t +
                       ": mpiarena's collectives move MPI_INT; accepted: "
                       "mpi_int");
  } else if (w == "H") {
    // host buffers, OSU's default
  } else if (w == "D" || w == "M") {
    throw UsageError("osu " + w + ": device and managed buffers need a "
                     "GPU; accepted: H (host)");
  } else {
    throw UsageError("osu " + refusal(w));
  }
}

}  // namespace

OsuFrontEnd osu_front_end(const std::vector<std::string>& words) {
  OsuFrontEnd out;
  if (words.empty() || words[0] == "-h" || words[0] == "--help") {
    out.help = kHelp;
    return out;
  }
  const OsuProgram* p = find_osu_program(words[0]);
  if (!p)
    throw UsageError("osu: '" + words[0] +
                     "' is not an OSU 7.4 program name; runner --list shows "
                     "them (osu_latency, osu_bw, osu_allreduce...)");
  if (p->method[0] == '\0')
    throw UsageError(std::string("osu: ") + p->name +
                     " is timed by another program: " + p->note);
  std::vector<std::string>& a = out.args;
  a = {"--profile", "osu", "-f", "osu", "-m", p->name};
  std::vector<std::string> columns;
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "-h" || words[i] == "--help") {
      out.help = kHelp;
      return out;
    }
    take_word(words, i, *p, a, columns);
  }
  if (!columns.empty()) {
    std::string list;
    for (const std::string& c : columns) list += (list.empty() ? "" : ",") + c;
    a.insert(a.end(), {"--osu-columns", list});
  }
  if (std::find(a.begin(), a.end(), "--log-level") == a.end() &&
      std::find(a.begin(), a.end(), "-q") == a.end())
    a.insert(a.end(), {"--log-level", "warn"});
  return out;
}

}  // namespace mpiarena
