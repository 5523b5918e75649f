// Helpers of the report tests (test_report*.cpp): the lines of a rendered
// table and where a word or a method's row is among them.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace report_test {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Index of the first line at or after `from` containing `word`, or -1.
inline int find_line(const std::vector<std::string>& lines,
                     const std::string& word, int from = 0) {
  for (int i = from; i < static_cast<int>(lines.size()); ++i)
    if (lines[i].find(word) != std::string::npos) return i;
  return -1;
}

// The line of method `m` in a table row ("  <rank> <method> ...").
inline int method_line(const std::vector<std::string>& lines,
                       const std::string& m, int from = 0) {
  for (int i = from; i < static_cast<int>(lines.size()); ++i) {
    std::istringstream in(lines[i]);
    std::string rank, method;
    in >> rank >> method;
    if (method == m &&
        rank.find_first_not_of("0123456789") == std::string::npos)
      return i;
  }
  return -1;
}

inline std::string first_word(const std::string& line) {
  std::istringstream in(line);
  std::string w;
  in >> w;
  return w;
}

}  // namespace report_test
