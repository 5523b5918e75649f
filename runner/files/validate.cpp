// runner validate FILE...: each file against the schema; and the reading of
// a result file that every file command shares. Needs no MPI.
#include <sys/stat.h>

#include <algorithm>
#include <iostream>

#include "core/results/bounded_json.hpp"
#include "core/results/file_io.hpp"
#include "core/results/printable.hpp"
#include "core/results/schema.hpp"
#include "core/results/text_file.hpp"
#include "runner/files/files.hpp"

namespace mpiarena {

namespace {

// Containers nested deeper than this make a document unreadable here: the
// JSON library copies, compares, prints and validates recursively, so a
// file of 70 000 nested arrays would overflow the stack in `report` or
// `compare` (bounded_json.hpp).
constexpr int kMaxNesting = kResultDepth;

}  // namespace

namespace {

bool g_all_validation_errors = false;

// The errors whose place ("<root>[records][0][time_s]: ...") encloses no
// other error's place, in their order.
std::vector<std::string> innermost(const std::vector<std::string>& errors) {
  auto place = [](const std::string& e) { return e.substr(0, e.find(": ")); };
  std::vector<std::string> out;
  for (const std::string& e : errors) {
    const std::string p = place(e);
    bool encloses = false;
    for (const std::string& other : errors) {
      const std::string q = place(other);
      encloses = encloses || (q.size() > p.size() && q.rfind(p, 0) == 0);
    }
    if (!encloses && std::find(out.begin(), out.end(), e) == out.end())
      out.push_back(e);
  }
  return out;
}

}  // namespace

void show_all_validation_errors(bool all) { g_all_validation_errors = all; }

namespace {

bool read_document(const std::string& file, nlohmann::json& doc, int& status,
                   int invalid, bool (*other_kind)(const nlohmann::json&),
                   bool make_shown) {
  // Only a regular file (or a link to one): a named pipe would block the
  // read until somebody writes to it, a device never ends.
  struct stat st;
  if (::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    std::cerr << program_name() << ": error: cannot read '" << file
              << "': it is " << fileio::kind_of(st.st_mode)
              << "; give a result file (runner -o FILE wrote one).\n";
    status = 2;
    return false;
  }
  // The file's text, decompressed when it is gzip data (a .json.gz).
  std::string text;
  try {
    text = read_text_file(file);
  } catch (const ReadError& e) {
    std::cerr << program_name() << ": error: " << printable(e.what()) << ".\n";
    status = 2;
    return false;
  }
  const std::string prefix =
      invalid == 2 ? program_name() + ": error: " : std::string();
  try {
    doc = parse_bounded(text, kMaxNesting);
  } catch (const JsonTooDeep&) {
    std::cerr << prefix << file
              << ": invalid: arrays or objects nested deeper than "
              << kMaxNesting
              << " levels (a result document nests a few levels)\n";
    status = std::max(status, invalid);
    return false;
  } catch (const std::exception& e) {
    std::cerr << prefix << file
              << ": invalid: not JSON: " << printable(e.what()) << "\n";
    status = std::max(status, invalid);
    return false;
  }
  const std::vector<std::string> errors = other_kind && other_kind(doc)
                                              ? std::vector<std::string>()
                                              : validate_results(doc);
  if (errors.empty()) {
    // Every command that reads a result file shows its strings; control
    // characters and the like are spelt out (printable.hpp).
    if (make_shown) make_printable(doc);
    return true;
  }
  std::cerr << prefix << file << ": invalid:\n";
  if (g_all_validation_errors) {
    for (const std::string& e : errors)
      std::cerr << "  " << printable(e) << "\n";
  } else {
    // The schema's trace names every enclosing object and alternative too
    // (hundreds of lines for one wrong field): the innermost problems only,
    // the first few of them.
    const std::vector<std::string> leaves = innermost(errors);
    const std::size_t shown = std::min<std::size_t>(leaves.size(), 3);
    for (std::size_t i = 0; i < shown; ++i)
      std::cerr << "  " << printable(leaves[i]) << "\n";
    if (leaves.size() > shown)
      std::cerr << "  (" << leaves.size() - shown << " more problem(s); the "
                << "schema's whole trace, " << errors.size()
                << " lines, with --log-level debug)\n";
    else if (errors.size() > shown)
      std::cerr << "  (the schema's whole trace, " << errors.size()
                << " lines, with --log-level debug)\n";
  }
  status = std::max(status, invalid);
  return false;
}

}  // namespace

bool read_results(const std::string& file, nlohmann::json& doc, int& status,
                  int invalid, bool (*other_kind)(const nlohmann::json&)) {
  return read_document(file, doc, status, invalid, other_kind, true);
}

bool read_results_as_held(const std::string& file, nlohmann::json& doc,
                          int& status, int invalid) {
  return read_document(file, doc, status, invalid, nullptr, false);
}

int command_validate(const Options& options) {
  int status = 0;
  for (const std::string& file : options.files) {
    nlohmann::json doc;
    if (!read_results(file, doc, status, 1)) continue;
    std::cout << file << ": valid (" << doc["records"].size() << " records, "
              << doc["skipped"].size() << " skipped"
              << (doc["complete"].get<bool>() ? "" : ", run incomplete")
              << ")\n";
  }
  return status;
}

}  // namespace mpiarena
