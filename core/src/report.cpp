#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <sstream>
#include <tuple>

namespace mpiarena {

std::string format_seconds(double s) {
  char buf[32];
  if (s < 1e-6)
    std::snprintf(buf, sizeof buf, "%.1f ns", s * 1e9);
  else if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

std::string format_rate(double bps) {
  char buf[32];
  if (bps >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f GB/s", bps / 1e9);
  else if (bps >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1f MB/s", bps / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.1f kB/s", bps / 1e3);
  return buf;
}

namespace {

std::string pad(const std::string& s, std::size_t w, bool right = false) {
  // Width in characters, not bytes (no multibyte text is produced here).
  if (s.size() >= w) return s;
  return right ? std::string(w - s.size(), ' ') + s
               : s + std::string(w - s.size(), ' ');
}

}  // namespace

std::string render_table(const Document& doc) {
  using Key = std::tuple<std::string, std::string, std::size_t, int>;
  std::map<Key, std::vector<const Record*>> groups;
  std::map<Key, std::vector<const Skip*>> skips;
  std::map<Key, std::string> labels;
  for (const Record& r : doc.records) {
    Key k{r.suite, r.payload, r.bytes, r.ranks};
    groups[k].push_back(&r);
    labels[k] = r.size_label;
  }
  for (const Skip& s : doc.skipped) {
    Key k{s.suite, s.payload, s.bytes, s.ranks};
    skips[k].push_back(&s);
    labels[k] = s.size_label;
    groups[k];  // a group may hold only skips
  }
  std::ostringstream out;
  for (auto& [key, recs] : groups) {
    const auto& [suite, payload, bytes, ranks] = key;
    std::stable_sort(recs.begin(), recs.end(),
                     [](const Record* a, const Record* b) {
                       return a->time.median < b->time.median;
                     });
    std::string title = suite + " / " + payload + " / " + labels[key];
    if (labels[key] != std::to_string(bytes))
      title += " (" + format_bytes(static_cast<double>(bytes)) + ")";
    title += " / " + std::to_string(ranks) + " ranks";
    out << "\n" << title << "\n";
    if (!recs.empty()) {
      out << "  " << pad("#", 3) << pad("method", 16) << pad("median", 12, true)
          << pad("min", 12, true) << pad("bandwidth", 13, true)
          << pad("CV", 8, true) << pad("x best", 8, true)
          << pad("iters x reps", 15, true) << "  verified\n";
      const double best = recs.front()->time.median;
      int rank = 1;
      for (const Record* r : recs) {
        char cv[16], ratio[16];
        std::snprintf(cv, sizeof cv, "%.1f%%", r->time.cv * 100);
        std::snprintf(ratio, sizeof ratio, "%.2f",
                      best > 0 ? r->time.median / best : 1.0);
        const std::string verified = r->verification == "failed"
                                         ? "FAILED: " + r->verification_message
                                         : r->verification;
        out << "  " << pad(std::to_string(rank++), 3) << pad(r->method, 16)
            << pad(format_seconds(r->time.median), 12, true)
            << pad(format_seconds(r->time.min), 12, true)
            << pad(r->moves_data ? format_rate(r->bandwidth) : "-", 13, true)
            << pad(cv, 8, true) << pad(ratio, 8, true)
            << pad(std::to_string(r->inner_iterations) + " x " +
                       std::to_string(r->repetitions),
                   15, true)
            << "  " << verified << "\n";
      }
    }
    for (const Skip* s : skips[key])
      out << "  skipped " << s->method << ": " << s->reason << "\n";
  }
  return out.str();
}

}  // namespace mpiarena
