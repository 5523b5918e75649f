// The text pieces every view shares: the table styles, aligned text,
// markdown and HTML grids, number and size cells, headings. Below the
// report, compare, tuning and trend rooms; on svg (escape) and the results
// library (units, sizes) only.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

// html: a fragment of a page (report_html.hpp builds the page) from
// render_grid, heading, render_matrices and the summary's views.
enum class Style { text, markdown, html };

// An aligned text table, a markdown table or an HTML <table> (cells
// escaped). A header starting with '>' marks a right-aligned column.
std::string render_grid(const std::vector<std::string>& header,
                        const std::vector<std::vector<std::string>>& rows,
                        Style style);

// `v` with `decimals` decimals, then `unit`; "n/a" for NaN, "inf" for an
// infinity, and scientific notation from 1e6 on, so that a ratio or a
// percentage of extreme times stays a short cell.
std::string fixed(double v, int decimals, const char* unit = "");

// "small (11.0 kB)", "4096 B (4.10 kB)", "64 B".
std::string size_text(const std::string& label, std::size_t bytes);

// A table's title: a "###" heading in markdown, a line of its own in text.
std::string heading(const std::string& title, Style style);

// "75.0 %", "0.97 x", "1.23e+06 msg/s", "n/a" (not finite).
std::string format_metric(double value, const std::string& unit);

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
