// What measure_points keeps of its points (measure_parts.hpp).
#include "runner/measure_parts.hpp"

#include <array>
#include <cctype>

#include "core/analysis/report/report.hpp"
#include "core/analysis/report/summary.hpp"
#include "core/engine/interrupt.hpp"
#include "core/results/units.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

std::string RunWriter::save(bool final) {
  const std::string e = saving_ ? file_.write(doc_, final) : "";
  if (!e.empty() && error_.empty() && !final)
    log_.warn("{}; measuring goes on, retrying after every point", e);
  else if (e.empty() && !error_.empty())
    log_.info("the output file '{}' is written again", path_);
  error_ = e;
  if (final && saving_)
    log_.debug("-o: {} writes took {:.3f} s ({} whole files)", file_.writes(),
               file_.seconds_writing(), file_.whole_writes());
  return e;
}


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
  // "small (11.0 kB)"; a size given in a unit with its bytes, "4 KiB
  // (4096 B)", never a decimal conversion of a binary size.
  const std::string& label = p.size.label;
  const std::string bytes = std::to_string(p.size.bytes);
  if (label == bytes || label == bytes + " B") return s;
  if (!label.empty() && std::isdigit(static_cast<unsigned char>(label[0])))
    return s + " (" + bytes + " B)";
  return s + " (" + format_bytes(static_cast<double>(p.size.bytes)) + ")";
}

std::string progress_of(const std::vector<Point>& points, const Point& p) {
  return "[" + std::to_string(&p - points.data() + 1) + "/" +
         std::to_string(points.size()) + "] " + point_name(p);
}

Skip skip_of(const Point& p, std::string reason) {
  const StrategyInfo& info = p.strategy->entry.info;
  return {info.suite,   p.label, p.payload,        p.size.label,
          p.size.bytes, p.ranks, std::move(reason),
          p.osu ? p.osu->name : ""};
}

namespace {
constexpr double kHeldFloor = 64.0 * 1024 * 1024;
}  // namespace

void note_held_memory(double held, double planned, std::size_t first_record,
                      Document& doc, spdlog::logger& log, int rank) {
  if (held <= kHeldFloor || held <= planned / 2) return;
  const std::string note =
      "each rank still held up to " + format_bytes(held) +
      " after this point's strategy was released and destroyed (it " +
      "planned " + format_bytes(planned) +
      "): a buffer outlives release(), and later points of the run have " +
      "less memory";
  for (std::size_t i = first_record; i < doc.records.size(); ++i) {
    Record& r = doc.records[i];
    r.notes.push_back(note + ".");
    if (rank == 0)
      log.warn("{} {} {}: {}", r.suite, r.method, r.size_label, note);
  }
}

void update_interrupt_summary(const Document& doc, const Options& o,
                              int rank) {
  // Data formats (JSON, CSV) print nothing on a stop: half a document is
  // none. The others print the points so far, in that format, whose
  // reporter makes their strings safe (reporters.hpp).
  const Reporter& format = reporter(o.format);
  if (rank != 0 || doc.records.empty() || format.machine_read()) return;
  const nlohmann::json summary = compute_summary(doc);
  Printout out;
  out.tables = [&](Style style) {
    return render_report(doc, summary, style, o.per_rank, o.percentiles);
  };
  out.document = &doc;
  out.summary = &summary;
  out.source = o.output;
  std::string text = format.render(out);
  text += o.output.empty()
              ? "\nthe points measured before the stop (no -o file keeps "
                "them)\n"
              : "\nthe points measured before the stop, kept in " + o.output +
                    " (complete: false): runner report " + o.output +
                    " shows them again\n";
  set_interrupt_summary(text);
}

}  // namespace mpiarena
