// runner compare: the CI regression gate, over two files, one file of
// runner ab, or launches a side (docs/ci.md). Needs no MPI.
#include "core/analysis/compare/compare.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "core/analysis/compare/compare_procedures.hpp"
#include "core/analysis/compare/compare_text.hpp"
#include "core/results/formats.hpp"
#include "runner/files/files.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

namespace {

// The document in `file`, read and validated; false after saying why.
bool load_document(const std::string& file, Document& doc) {
  nlohmann::json json;
  int status = 0;
  if (!read_results(file, json, status, 2)) return false;
  try {
    doc = document_from_json(json);
  } catch (const std::exception& e) {
    std::cerr << program_name() << ": error: " << file
              << ": invalid: " << e.what() << "\n";
    return false;
  }
  return true;
}

std::string builds_text(const std::vector<std::string>& builds) {
  std::string s;
  for (const std::string& b : builds) s += (s.empty() ? "" : ", ") + b;
  return s;
}

// runner ab's document as its two sides; false after one message when its
// builds are not "base" and "new".
bool split_ab(const std::string& file, const Document& doc, Document& base,
              Document& now) {
  std::vector<std::string> builds = document_builds(doc);
  std::sort(builds.begin(), builds.end());
  if (builds != std::vector<std::string>{"base", "new"}) {
    std::cerr << program_name() << ": error: " << file << ": "
              << (builds.empty()
                      ? std::string("not a runner ab document (no builds)")
                      : "its builds are " + builds_text(builds) +
                            ", not base and new")
              << "; compare takes one file of runner ab, or BASE NEW; exit "
                 "2.\n";
    return false;
  }
  base = build_part(doc, "base");
  now = build_part(doc, "new");
  return true;
}

// The files of a side given as a directory: its *.json and *.json.gz
// (read_results decompresses them), by name.
std::vector<std::string> json_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  auto ends_with = [](const std::string& s, const std::string& tail) {
    return s.size() > tail.size() &&
           s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  };
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (ends_with(name, ".json") || ends_with(name, ".json.gz"))
      out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool is_directory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

// The launches of one side as one document (launches_document).
bool load_side(const std::vector<std::string>& files, const char* side,
               Document& out, std::vector<std::string>& warnings) {
  std::vector<Document> docs(files.size());
  bool ok = true;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!load_document(files[i], docs[i])) {
      ok = false;
    } else if (!document_builds(docs[i]).empty()) {
      std::cerr << program_name() << ": error: " << files[i]
                << " is a runner ab document; launches a side are plain runs; "
                   "exit 2.\n";
      ok = false;
    }
  }
  if (ok) out = launches_document(docs, side, warnings);
  return ok;
}

int print(const Comparison& c, const Document& base, const Document& now,
          const std::string& base_name, const std::string& new_name,
          const Options& options) {
  const int code = c.exit_code();
  Printout out;
  out.json = [&] {
    nlohmann::json j = to_json(c);
    j["base"] = base_name;
    j["new"] = new_name;
    return j;
  };
  out.tables = [&](Style style) {
    return render_comparison(c, base_name, new_name, style);
  };
  const Reporter& format = reporter(options.format);
  std::cout << format.render(out);
  // The tables show the warnings; beside data they go to stderr.
  if (format.machine_read())
    for (const std::string& w : c.warnings)
      std::cerr << program_name() << ": warning: " << w << "\n";
  // A gate that compared nothing must not pass (exit 2): the files measured
  // other methods, sizes or rank counts, or one has no record at all.
  if (c.points.empty())
    std::cerr << program_name() << ": error: " << base_name << " and "
              << new_name << " share no point: nothing was compared ("
              << nothing_compared(base, now, "BASE", "NEW") << "); exit 2.\n";
  else if (code == 2)
    std::cerr << program_name() << ": error: " << c.refusal() << "; exit 2.\n";
  return code;
}

// compare B1 B2... -- N1 N2..., or DIR_BASE DIR_NEW.
int compare_launches(std::vector<std::string> base_files,
                     std::vector<std::string> new_files,
                     const Options& options) {
  std::string base_name = "BASE launches", new_name = "NEW launches";
  if (new_files.empty()) {  // two directories
    base_name = base_files[0] + "/*.json";
    new_name = base_files[1] + "/*.json";
    new_files = json_files(base_files[1]);
    base_files = json_files(base_files[0]);
    if (base_files.size() < 2 || new_files.size() < 2) {
      std::cerr << program_name()
                << ": error: compare across launches needs at least 2 result "
                   "files (*.json or *.json.gz) a side: "
                << base_name << " has " << base_files.size() << ", " << new_name
                << " has " << new_files.size() << "; exit 2.\n";
      return 2;
    }
  }
  base_files = distinct_files(base_files, "BASE's launches");
  new_files = distinct_files(new_files, "NEW's launches");
  if (base_files.size() < 2 || new_files.size() < 2) {
    std::cerr << program_name()
              << ": error: compare across launches needs at least 2 distinct "
                 "launches a side: BASE has "
              << base_files.size() << ", NEW has " << new_files.size()
              << "; exit 2.\n";
    return 2;
  }
  std::vector<std::string> warnings;
  Document base, now;
  const bool ok = load_side(base_files, "BASE", base, warnings) &
                  load_side(new_files, "NEW", now, warnings);
  if (!ok) return 2;
  CompareOptions o = compare_options(options, Procedure::launches);
  o.launches_base = static_cast<int>(base_files.size());
  o.launches_new = static_cast<int>(new_files.size());
  Comparison c = compare_documents(base, now, o);
  c.warnings.insert(c.warnings.begin(), warnings.begin(), warnings.end());
  return print(c, base, now, base_name, new_name, options);
}

}  // namespace

CompareOptions compare_options(const Options& options, Procedure procedure) {
  CompareOptions o{options.threshold, options.alpha, options.relative};
  o.procedure = procedure;
  o.allow_incomplete = options.allow_incomplete;
  o.allow_powerless = options.allow_powerless;
  o.holm = options.correction.empty() ? procedure != Procedure::two_files
                                      : options.correction == "holm";
  return o;
}

int command_compare(const Options& options) {
  // Under mpirun only rank 0 runs this (main.cpp, file_command).
  const std::vector<std::string>& files = options.files;
  if (!options.new_files.empty() ||
      (files.size() == 2 && is_directory(files[0]) && is_directory(files[1])))
    return compare_launches(files, options.new_files, options);
  Document docs[2];
  if (files.size() == 1) {
    Document ab;
    if (!load_document(files[0], ab) ||
        !split_ab(files[0], ab, docs[0], docs[1]))
      return 2;
    return print(compare_documents(docs[0], docs[1],
                                   compare_options(options, Procedure::ab_run)),
                 docs[0], docs[1], files[0] + " (base)", files[0] + " (new)",
                 options);
  }
  bool ok = true;
  for (int i = 0; i < 2; ++i) {
    if (!load_document(files[i], docs[i])) {
      ok = false;
    } else if (const auto builds = document_builds(docs[i]); !builds.empty()) {
      std::cerr << program_name() << ": error: " << files[i]
                << " is a runner ab document (builds " << builds_text(builds)
                << "): compare it alone (" << program_name() << " compare "
                << files[i] << "); exit 2.\n";
      return 2;
    }
  }
  if (!ok) return 2;  // load_document said why
  return print(
      compare_documents(docs[0], docs[1],
                        compare_options(options, Procedure::two_files)),
      docs[0], docs[1], files[0], files[1], options);
}

}  // namespace mpiarena
