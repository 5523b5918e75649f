#include "core/results/doc_dir.hpp"

#include <cctype>
#include <filesystem>
#include <system_error>

namespace mpiarena {

namespace detail {
extern const char* const kDocDirRelative;
extern const char* const kDocDirInstalled;
extern const char* const kDocDirSource;
}  // namespace detail

namespace {

namespace fs = std::filesystem;

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// A character that continues a path: "docs/" after one is not a citation
// ("tests/e2e/docs/", "mydocs/").
bool path_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         c == '-' || c == '.' || c == '/';
}

}  // namespace

std::string doc_dir_for(const std::string& exe_dir) {
  const fs::path installed =
      (fs::path(exe_dir) / ".." / detail::kDocDirRelative).lexically_normal();
  if (!exe_dir.empty() && is_dir(installed)) return installed.string();
  if (is_dir(detail::kDocDirSource)) return detail::kDocDirSource;
  return detail::kDocDirInstalled;
}

const std::string& doc_dir() {
  static const std::string dir = [] {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return doc_dir_for(ec ? std::string() : exe.parent_path().string());
  }();
  return dir;
}

std::string cite_docs_in(const std::string& text, const std::string& dir) {
  static const std::string kCited = "docs/";
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = text.find(kCited); at != std::string::npos;
       at = text.find(kCited, at + kCited.size())) {
    if (at > 0 && path_char(text[at - 1])) continue;
    out.append(text, from, at - from).append(dir).append("/");
    from = at + kCited.size();
  }
  return out.append(text, from, std::string::npos);
}

std::string cite_docs(const std::string& text) {
  return cite_docs_in(text, doc_dir());
}

namespace {

// Where the first citation of `line` starts (its word: "(docs/ci.md)"
// from the parenthesis), or npos.
std::size_t citation_word(const std::string& line) {
  for (std::size_t at = line.find("docs/"); at != std::string::npos;
       at = line.find("docs/", at + 1)) {
    if (at > 0 && path_char(line[at - 1])) continue;
    while (at > 0 && line[at - 1] != ' ') --at;
    return at;
  }
  return std::string::npos;
}

// The column of the text of `line`: after its indentation, or, on an
// option's or a command's first line ("  --name arg   text"), after the
// last run of two spaces before `before`.
std::size_t text_column(const std::string& line, std::size_t before) {
  const std::size_t indent = line.find_first_not_of(' ');
  if (indent >= 8) return indent;
  const std::size_t gap = line.rfind("  ", before);
  if (gap == std::string::npos || gap < indent) return indent;
  return line.find_first_not_of(' ', gap);
}

}  // namespace

std::string cite_docs_wrapped_in(const std::string& text, std::size_t width,
                                 const std::string& dir) {
  std::string out;
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t end = text.find('\n', from);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(from, end - from);
    const std::string cited = cite_docs_in(line, dir);
    const std::size_t word = citation_word(line);
    const std::size_t head = line.find_last_not_of(' ', word - 1);
    if (cited.size() > width && word != std::string::npos && word > 0 &&
        head != std::string::npos && head >= text_column(line, word)) {
      out += line.substr(0, head + 1) + "\n" +
             std::string(text_column(line, word), ' ') +
             cite_docs_in(line.substr(word), dir);
    } else {
      out += cited;
    }
    if (end < text.size()) out += '\n';
    from = end + 1;
  }
  return out;
}

std::string cite_docs_wrapped(const std::string& text, std::size_t width) {
  return cite_docs_wrapped_in(text, width, doc_dir());
}

}  // namespace mpiarena
