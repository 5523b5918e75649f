// -f osu: OSU 7.4's tables (reporter_osu.hpp). The layout is that of OSU's
// c/util/osu_util_mpi.c (print_only_header, print_only_header_nbc,
// print_stats, print_stats_nbc) and the point-to-point programs' rows, in
// the widths configure.ac gives a released build (FIELD_WIDTH 18, two
// decimals); the figures are OSU's statistics computed from the records.
#include "runner/reporter_osu.hpp"

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <mpiarena/stats.hpp>
#include <numeric>
#include <optional>

#include "core/results/printable.hpp"
#include "runner/osu_programs.hpp"

namespace mpiarena {

// In a namespace of its own: a unity batch joins this file's helpers with
// other files' (cmake/MpiarenaUnity.cmake).
namespace osu_tables {
namespace {

constexpr int kWidth = 18;  // FIELD_WIDTH of a released OSU 7.4 build

struct Columns {
  bool full = false, validation = false;
  std::vector<int> percentiles;
};

Columns parse_columns(const std::vector<std::string>& names) {
  Columns c;
  for (const std::string& n : names) {
    if (n == "full") c.full = true;
    if (n == "validation") c.validation = true;
    if (n.size() > 1 && n[0] == 'p')
      c.percentiles.push_back(std::stoi(n.substr(1)));
  }
  return c;
}

// The records of one benchmark.
struct Table {
  std::string program;  // the OSU program (Record::alias); "": none
  std::string label;    // the method label, without the alias
  std::string name;     // the label's method name
  std::string payload;
  int ranks = 0;
  OsuTable kind = OsuTable::collective;
  std::vector<const Record*> records;
  // The barriers print no size column.
  bool sized() const {
    return kind != OsuTable::barrier && name != "ibarrier";
  }
  bool bandwidth() const {
    return kind == OsuTable::bandwidth || kind == OsuTable::bibw ||
           kind == OsuTable::message_rate;
  }
};

__attribute__((format(printf, 1, 2))) std::string format(const char* f,
                                                         ...) {
  char buf[256];
  va_list args;
  va_start(args, f);
  std::vsnprintf(buf, sizeof buf, f, args);
  va_end(args);
  return buf;
}

std::string cell(double v) { return format("%*.2f", kWidth, v); }
std::string cell(const std::string& s) {
  return format("%*s", kWidth, s.c_str());
}

double mean(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

std::string label_of(const Record& r) {
  const std::string tail = kAliasMark + r.alias;
  if (!r.alias.empty() && r.method.size() > tail.size() &&
      r.method.compare(r.method.size() - tail.size(), tail.size(), tail) == 0)
    return r.method.substr(0, r.method.size() - tail.size());
  return r.method;
}

// The program's table; a method asked for by its own name takes that of
// the OSU program it reproduces, else its suite's.
OsuTable kind_of(const Record& r, const std::string& name) {
  const OsuProgram* p = r.alias.empty() ? nullptr : find_osu_program(r.alias);
  if (!p) p = osu_program_of(name);
  if (p && p->table != OsuTable::startup) return p->table;
  if (r.suite == "overlap") return OsuTable::nonblocking;
  if (r.window > 0) return OsuTable::bandwidth;
  if (r.suite == "pingpong" || r.suite == "rma") return OsuTable::latency;
  return OsuTable::collective;
}

std::vector<Table> tables_of(const Document& doc) {
  std::vector<Table> out;
  for (const Record& r : doc.records) {
    const std::string label = label_of(r);
    auto same = [&](const Table& t) {
      return t.program == r.alias && t.label == label &&
             t.payload == r.payload && t.ranks == r.ranks;
    };
    auto it = std::find_if(out.begin(), out.end(), same);
    if (it == out.end()) {
      Table t;
      t.program = r.alias;
      t.label = label;
      std::vector<std::pair<std::string, std::string>> values;
      t.name = split_label(label, values);
      t.payload = r.payload;
      t.ranks = r.ranks;
      t.kind = kind_of(r, t.name);
      out.push_back(std::move(t));
      it = out.end() - 1;
    }
    it->records.push_back(&r);
  }
  return out;
}

// The samples OSU's figure is the mean of: each sample's mean over the
// ranks; the one-sided programs time the origin alone, so there the
// slowest rank's (bench/reference_cases.py compares the same).
const std::vector<double>& samples_of(const Record& r) {
  if (r.suite == "rma" || r.samples_avg.empty()) return r.samples_max;
  return r.samples_avg;
}

const MetricValue* metric(const Record& r, const char* name) {
  for (const MetricValue& m : r.metrics)
    if (m.name == name) return &m;
  return nullptr;
}

// A rate over the samples as OSU's one figure: 1 / the mean of 1 / rate,
// so that it is the rate of the mean time, as the other columns are.
double rate_of(const MetricValue& m) {
  double sum = 0;
  for (double v : m.samples)
    if (v > 0) sum += 1 / v;
  return sum > 0 ? m.samples.size() / sum : m.value;
}

double part_mean(const Record& r, const char* name, double otherwise) {
  for (const PartTiming& p : r.parts)
    if (p.name == name) return mean(p.samples_avg);
  return otherwise;
}

// MB/s (10^6 bytes per second) of one sample of `seconds` per message:
// osu_bw's size x window / t; fan-in and fan-out's aggregate_bw and
// osu_mbw_mr's msg_rate already count every stream.
double megabytes_per_s(const Record& r, double seconds, double rate) {
  if (rate > 0) return static_cast<double>(r.bytes) * rate / 1e6;
  return seconds > 0 ? static_cast<double>(r.bytes) / seconds / 1e6 : 0;
}

// The table's headline values of the record, as printed: us or MB/s.
std::string values(const Table& t, const Record& r) {
  const double s = mean(samples_of(r));
  const MetricValue* msg_rate = metric(r, "msg_rate");
  const MetricValue* aggregate = metric(r, "aggregate_bw");
  switch (t.kind) {
    case OsuTable::barrier:
      return format("%17.2f", s * 1e6);
    case OsuTable::bandwidth:
    case OsuTable::bibw:
      return cell(aggregate ? rate_of(*aggregate)
                            : megabytes_per_s(r, s, 0));
    case OsuTable::message_rate: {
      const double rate = msg_rate ? rate_of(*msg_rate)
                          : s > 0  ? std::max(1, r.pairs) / s
                                   : 0;
      return cell(megabytes_per_s(r, s, rate)) + cell(rate);
    }
    case OsuTable::nonblocking: {
      const double overall = part_mean(r, "both", s);
      const double compute = part_mean(r, "compute", 0);
      const double comm = part_mean(r, "comm", 0);
      const MetricValue* m = metric(r, "overlap_osu");
      const double overlap =
          m ? m->value
            : comm > 0 ? std::max(0.0, 100 - (overall - compute) / comm * 100)
                       : 0;
      return (t.sized() ? cell(overall * 1e6)
                        : format("%13.2f", overall * 1e6)) +
             cell(compute * 1e6) + cell(comm * 1e6) + cell(overlap);
    }
    default:
      return cell(s * 1e6);
  }
}

// Each sample's figure in the table's unit: us, or MB/s.
std::vector<double> sample_figures(const Table& t, const Record& r) {
  std::vector<double> out;
  const std::vector<double>& s = samples_of(r);
  const MetricValue* rate =
      metric(r, t.kind == OsuTable::message_rate ? "msg_rate" : "aggregate_bw");
  if (t.bandwidth() && rate && rate->samples.size() == s.size()) {
    for (double v : rate->samples)
      out.push_back(rate->name == "msg_rate" ? megabytes_per_s(r, 0, v) : v);
  } else {
    for (double v : s)
      out.push_back(t.bandwidth() ? megabytes_per_s(r, v, 0) : v * 1e6);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string validation(const Record& r) {
  if (r.verification == "passed") return "Pass";
  if (r.verification == "failed") return "Fail";
  return "Skipped";
}

std::string row(const Table& t, const Record& r, const Columns& c) {
  std::string line = t.sized() ? format("%-10zu", r.bytes) : "";
  line += values(t, r);
  if (c.full &&
      (t.kind == OsuTable::collective || t.kind == OsuTable::barrier)) {
    const std::vector<double>& pr = r.per_rank;
    const double lo = pr.empty() ? mean(r.samples_min)
                                 : *std::min_element(pr.begin(), pr.end());
    const double hi = pr.empty() ? mean(r.samples_max)
                                 : *std::max_element(pr.begin(), pr.end());
    line += cell(lo * 1e6) + cell(hi * 1e6) +
            format("%12lld", static_cast<long long>(r.inner_iterations) *
                                 r.repetitions);
  }
  if (c.validation) line += cell(validation(r));
  const std::vector<double> figures =
      c.percentiles.empty() ? std::vector<double>() : sample_figures(t, r);
  for (int p : c.percentiles) {
    const std::optional<double> v = percentile(figures, p);
    line += v ? cell(*v) : cell("-");
  }
  return line + "\n";
}

std::string header(const Table& t, const Columns& c) {
  std::string h = t.sized() ? format("%-10s", "# Size") : "# ";
  switch (t.kind) {
    case OsuTable::barrier:
      h += "Avg Latency(us)";
      break;
    case OsuTable::nonblocking:
      h += (t.sized() ? cell("Overall(us)") : "Overall(us)") +
           cell("Compute(us)") + cell("Pure Comm.(us)") + cell("Overlap(%)");
      break;
    case OsuTable::bandwidth:
    case OsuTable::bibw:
      h += cell("Bandwidth (MB/s)");
      break;
    case OsuTable::message_rate:
      h += cell("MB/s") + cell("Messages/s");
      break;
    case OsuTable::latency:  // the one-sided programs' own header
      h += cell(t.records.front()->suite == "rma" ? "Latency (us)"
                                                  : "Avg Latency(us)");
      break;
    default:
      h += cell("Avg Latency(us)");
  }
  if (c.full &&
      (t.kind == OsuTable::collective || t.kind == OsuTable::barrier))
    h += cell("Min Latency(us)") + cell("Max Latency(us)") +
         format("%12s", "Iterations");
  if (c.validation) h += cell("Validation");
  for (int p : c.percentiles)
    h += t.bandwidth()
             ? format("%*sP%d Tail BW(MB/s)", kWidth - 16 - (p > 9), "", p)
             : format("%*sP%d Tail Lat(us)", kWidth - 15 - (p > 9), "", p);
  return h + "\n";
}

// "MPI_INT" from the operation's datatype; MPI_CHAR for bytes.
std::string datatype(const Record& r) {
  for (const auto& [k, v] : r.semantics)
    if (k == "datatype" && !v.empty()) {
      std::string out = "MPI_";
      for (char ch : v) out += static_cast<char>(std::toupper(ch));
      return out;
    }
  return r.payload == "bytes" ? "MPI_CHAR" : "";
}

std::string title(const Document& doc, const Table& t) {
  const std::string who =
      doc.context.runner_version.empty()
          ? "mpiarena"
          : "mpiarena " + doc.context.runner_version;
  const std::string what =
      t.program.empty() ? t.label + ", payload " + t.payload
                        : t.program + " as " + t.label;
  const std::string type = datatype(*t.records.front());
  // One line whatever a plugin's label holds (a newline, a control).
  const std::string line = "# " + who + ": " + what +
                           (type.empty() ? "" : " (" + type + ")") + ", " +
                           std::to_string(t.ranks) + " ranks";
  return printable(line) + "\n";
}

}  // namespace
}  // namespace osu_tables

std::string render_osu(const Document& doc,
                       const std::vector<std::string>& columns) {
  namespace o = osu_tables;
  const o::Columns c = o::parse_columns(columns);
  std::string out;
  for (const o::Table& t : o::tables_of(doc)) {
    out += "\n" + o::title(doc, t);
    if (t.kind == OsuTable::nonblocking)
      out += "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n\n";
    out += o::header(t, c);
    for (const Record* r : t.records) out += o::row(t, *r, c);
  }
  return out;
}

}  // namespace mpiarena
