#include "core/analysis/text/text_format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <mpiarena/sizes.hpp>
#include <sstream>

#include "core/analysis/svg/svg.hpp"
#include "core/results/printable.hpp"

namespace mpiarena {

std::string render_grid(const std::vector<std::string>& header,
                        const std::vector<std::vector<std::string>>& given,
                        Style style) {
  std::vector<std::string> names;
  std::vector<bool> right;
  for (const std::string& h : header) {
    right.push_back(!h.empty() && h[0] == '>');
    names.push_back(printable(right.back() ? h.substr(1) : h));
  }
  // Each cell one line, safe to print: a name or a note from a file or a
  // plugin may hold a newline, a tab or an escape sequence (printable.hpp).
  std::vector<std::vector<std::string>> rows = given;
  for (auto& row : rows)
    for (std::string& cell : row) cell = printable(cell);
  std::ostringstream out;
  if (style == Style::html) {
    auto cell = [&](const char* tag, std::size_t i, const std::string& c) {
      out << "<" << tag
          << (i < right.size() && right[i] ? " class=\"num\"" : "") << ">"
          << svg::escape(c) << "</" << tag << ">";
    };
    out << "<table><thead><tr>";
    for (std::size_t i = 0; i < names.size(); ++i) cell("th", i, names[i]);
    out << "</tr></thead><tbody>";
    for (const auto& row : rows) {
      out << "<tr>";
      for (std::size_t i = 0; i < row.size(); ++i) cell("td", i, row[i]);
      out << "</tr>";
    }
    out << "</tbody></table>\n";
    return out.str();
  }
  if (style == Style::markdown) {
    // A `|` in a cell (a method's name, a note) would end it.
    auto md = [](const std::string& c) {
      std::string e;
      for (char ch : c)
        e += ch == '|' ? std::string("\\|") : std::string(1, ch);
      return e;
    };
    out << "|";
    for (const std::string& n : names) out << " " << md(n) << " |";
    out << "\n|";
    for (bool r : right) out << (r ? "---:|" : "---|");
    out << "\n";
    for (const auto& row : rows) {
      out << "|";
      for (const std::string& c : row) out << " " << md(c) << " |";
      out << "\n";
    }
    return out.str();
  }
  std::vector<std::size_t> width(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) width[i] = names[i].size();
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  auto line = [&](const std::vector<std::string>& cells) {
    out << " ";
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::size_t w = i < width.size() ? width[i] : 0;
      const std::string fill(w > cells[i].size() ? w - cells[i].size() : 0,
                             ' ');
      const bool last = i + 1 == cells.size();
      out << "  "
          << (i < right.size() && right[i] ? fill + cells[i]
              : last                       ? cells[i]
                                           : cells[i] + fill);
    }
    out << "\n";
  };
  line(names);
  for (const auto& row : rows) line(row);
  return out.str();
}

// `v` with `decimals` decimals, then `unit`; "n/a" for NaN, "inf" for an
// infinity, and scientific notation from 1e6 on, so that a ratio or a
// percentage of extreme times stays a short cell.
std::string fixed(double v, int decimals, const char* unit) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return std::string(v > 0 ? "inf" : "-inf") + unit;
  char buf[64];
  if (std::fabs(v) >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2e%s", v, unit);
  else
    std::snprintf(buf, sizeof buf, "%.*f%s", decimals, v, unit);
  return buf;
}

// "small (11.0 kB)"; "1 MiB", "1 MB" as given in a unit; a bare number
// "4096 B (4 KiB)", "1000000 B (1.00 MB)", "64 B".
std::string size_text(const std::string& label, std::size_t bytes) {
  if (label == std::to_string(bytes))
    return bytes < 1000 ? format_bytes(static_cast<double>(bytes))
                        : label + " B (" + short_size(bytes) + ")";
  if (!label.empty() && std::isdigit(static_cast<unsigned char>(label[0])))
    return label;
  return label + " (" + format_bytes(static_cast<double>(bytes)) + ")";
}

std::string heading(const std::string& title, Style style) {
  if (style == Style::html) return "<h4>" + svg::escape(title) + "</h4>\n";
  return style == Style::markdown ? "\n### " + title + "\n\n"
                                  : "\n" + title + "\n";
}

std::string format_metric(double value, const std::string& unit) {
  if (!std::isfinite(value)) return "n/a";
  char buf[48];
  const double a = std::fabs(value);
  if (a != 0 && (a >= 1e6 || a < 1e-2))
    std::snprintf(buf, sizeof buf, "%.3g", value);
  else if (a < 10)  // a ratio near 1 (comp_over_comm 0.97) needs 2 decimals
    std::snprintf(buf, sizeof buf, "%.2f", value);
  else
    std::snprintf(buf, sizeof buf, "%.1f", value);
  return unit.empty() ? std::string(buf) : std::string(buf) + " " + unit;
}

}  // namespace mpiarena
