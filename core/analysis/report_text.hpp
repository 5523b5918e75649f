// Internal: the text pieces the report's views share (report.cpp,
// report_views.cpp, breakdown.cpp, scaling.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "records.hpp"
#include "report.hpp"

namespace mpiarena {

// `v` with `decimals` decimals, then `unit`; "n/a" for NaN, "inf" for an
// infinity, and scientific notation from 1e6 on, so that a ratio or a
// percentage of extreme times stays a short cell.
std::string fixed(double v, int decimals, const char* unit = "");

// "small (11.0 kB)", "4096 B (4.10 kB)", "64 B".
std::string size_text(const std::string& label, std::size_t bytes);

// A table's title: a "###" heading in markdown, a line of its own in text.
std::string heading(const std::string& title, Style style);

// The noisy points of `recs` (Record::noise) as one compact table: the
// point, its size and ranks, its noisy samples of all, the samples
// measured again, the steal in its kept samples and the most preemptions
// in one; in HTML also its first noisy sample. Empty when none is noisy.
std::string render_noisy_table(const std::vector<const Record*>& recs,
                               Style style);
// "Noisy points: 3 of 172 (...)": the count above that table.
std::string noisy_count_line(const std::vector<const Record*>& recs);

// A table rendered as aligned text or as a markdown table. Columns whose
// header starts with '>' are right-aligned.
class Table {
 public:
  explicit Table(std::vector<std::string> header)
      : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }

  std::string render(Style style) const {
    return render_grid(header_, rows_, style);
  }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace mpiarena
