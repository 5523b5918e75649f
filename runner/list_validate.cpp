// Commands that need no MPI: list, validate and report; and plugin loading.
#include <sys/stat.h>

#include <algorithm>
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/filesystem.hpp>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>

#include "breakdown.hpp"
#include "commands.hpp"
#include "compare.hpp"
#include "file_io.hpp"
#include "formats.hpp"
#include "printable.hpp"
#include "report.hpp"
#include "report_html.hpp"
#include "scaling.hpp"
#include "schema.hpp"
#include "suite_info.hpp"

namespace mpiarena {

namespace {
constexpr const char* kLauncherRankVars[] = {
    "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
}

int launcher_rank() {
  for (const char* var : kLauncherRankVars)
    if (const char* v = std::getenv(var)) return std::atoi(v);
  return 0;
}

bool under_launcher() {
  for (const char* var : kLauncherRankVars)
    if (std::getenv(var)) return true;
  return false;
}

std::string executable_dir() {
  return boost::dll::program_location().parent_path().string();
}

void load_plugins(Registry& registry, const Options& options,
                  std::vector<std::string>& errors,
                  std::vector<std::string>& warnings) {
  std::vector<std::string> missing;
  std::vector<std::string> dirs =
      default_plugin_dirs(executable_dir(), &missing);
  for (const std::string& m : missing)
    warnings.push_back("MPIARENA_PLUGIN_PATH names '" + m +
                       "', which is not a directory; ignored");
  // A directory named twice (--plugin-dir of the runner's own plugins, or
  // the same one given again) is loaded once: every plugin in it would
  // otherwise be a duplicate of itself.
  for (const std::string& d : options.plugin_dirs) {
    boost::system::error_code ec;
    if (!boost::filesystem::is_directory(d, ec)) {
      errors.push_back("--plugin-dir '" + d + "' is not a directory");
      continue;
    }
    const bool seen =
        std::any_of(dirs.begin(), dirs.end(), [&](const std::string& other) {
          boost::system::error_code ignored;
          return boost::filesystem::equivalent(d, other, ignored);
        });
    if (!seen) dirs.push_back(d);
  }
  if (!errors.empty()) return;
  if (dirs.empty())
    warnings.push_back(
        "no plugin directory found next to the runner (" + executable_dir() +
        "/lib/mpiarena/plugins or ../lib/"
        "mpiarena/plugins); use --plugin-dir or MPIARENA_PLUGIN_PATH");
  for (const std::string& d : dirs) {
    // Methods already provided by a directory loaded before (a copy of the
    // same plugins) are one line per directory, not one per plugin.
    std::vector<std::string> duplicates;
    for (const LoadResult& r : registry.load_dir(d)) {
      if (r.status == LoadStatus::duplicate)
        duplicates.push_back(r.message);
      else if (r.status != LoadStatus::not_a_plugin)
        warnings.push_back(r.message);
    }
    if (duplicates.size() == 1)
      warnings.push_back(duplicates.front());
    else if (duplicates.size() > 1)
      warnings.push_back(std::to_string(duplicates.size()) + " plugins in '" +
                         d +
                         "' provide methods already loaded from another "
                         "directory; skipped (the first: " +
                         duplicates.front() + ")");
  }
}

// --list and --help-method: the plugins loaded, their warnings and errors
// said on stderr; false on an error.
static bool load_for_listing(Registry& registry, const Options& options) {
  std::vector<std::string> errors, warnings;
  load_plugins(registry, options, errors, warnings);
  for (const std::string& w : warnings)
    std::cerr << "runner: warning: " << w << "\n";
  for (const std::string& e : errors)
    std::cerr << "runner: error: " << e << ".\n";
  return errors.empty();
}

int command_help_method(const Options& options) {
  Registry registry;
  if (!load_for_listing(registry, options)) return 2;
  const LoadedStrategy* found = nullptr;
  std::string names;
  for (const LoadedStrategy& s : registry.strategies()) {
    if (s.entry.info.name == options.help_method) found = &s;
    names += (names.empty() ? "" : ", ") + s.entry.info.name;
  }
  if (!found) {
    std::cerr << "runner: error: --help-method: no method '"
              << printable(options.help_method) << "'; runner --list shows "
              << "the methods (" << registry.strategies().size()
              << " loaded)\n";
    return 2;
  }
  const StrategyInfo& i = found->entry.info;
  std::string payloads;
  for (const std::string& p : i.payloads)
    payloads += (payloads.empty() ? "" : ", ") + p;
  std::cout << i.name << ": " << i.summary << "\n"
            << "  suite " << i.suite << ", payloads " << payloads
            << ", at least " << i.min_ranks << " ranks"
            << (i.version.empty() ? "" : ", version " + i.version) << "\n"
            << "  plugin " << found->file << "\n";
  for (const auto& [k, v] : i.params)
    std::cout << "  " << k << ": " << v << "\n";
  if (i.options.empty()) {
    std::cout << "options: none\n";
    return 0;
  }
  std::cout << "options (runner --set " << i.name
            << ".OPTION=VALUE[,VALUE...]; a list of values measures each):\n";
  for (const OptionInfo& o : i.options)
    std::cout << "  " << o.name << ": " << option_accepts(o) << ", default "
              << o.default_value << (o.help.empty() ? "" : "; " + o.help)
              << "\n";
  return 0;
}

int command_list(const Options& options) {
  Registry registry;
  if (!load_for_listing(registry, options)) return 2;
  // Columns as wide as their widest entry (method names go up to 32
  // characters), two spaces apart, so every line splits on blanks.
  std::vector<std::vector<std::string>> rows;
  for (const LoadedStrategy& s : registry.strategies()) {
    const StrategyInfo& i = s.entry.info;
    std::string payloads;
    for (const std::string& p : i.payloads)
      payloads += (payloads.empty() ? "" : ",") + p;
    std::string summary = i.summary;
    if (!i.options.empty()) {
      std::string names;
      for (const OptionInfo& o : i.options)
        names += (names.empty() ? "" : ", ") + o.name;
      summary += " [options: " + names + "; --help-method " + i.name + "]";
    }
    rows.push_back(
        {i.name, i.suite, payloads, std::to_string(i.min_ranks), summary});
  }
  std::vector<std::string> header = {"method", "suite", "payloads", "min ranks",
                                     "summary"};
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& r) {
    for (std::size_t c = 0; c + 1 < r.size(); ++c)
      std::cout << std::left << std::setw(static_cast<int>(width[c] + 2))
                << r[c];
    std::cout << r.back() << "\n";
  };
  line(header);
  for (const auto& r : rows) line(r);
  return 0;
}

namespace {

// Containers nested deeper than this make a document unreadable here: the
// JSON library copies, compares, prints and validates recursively, so a
// file of 70 000 nested arrays would overflow the stack in `report` or
// `compare`. A result document nests 5 levels.
constexpr int kMaxNesting = 100;

struct TooDeep {};

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

bool read_results(const std::string& file, nlohmann::json& doc, int& status,
                  int invalid) {
  // Only a regular file (or a link to one): a named pipe would block the
  // read until somebody writes to it, a device never ends.
  struct stat st;
  if (::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    std::cerr << "runner: error: cannot read '" << file << "': it is "
              << fileio::kind_of(st.st_mode)
              << "; give a result file (runner -o FILE wrote one).\n";
    status = 2;
    return false;
  }
  std::ifstream in(file);
  if (!in) {
    std::cerr << "runner: error: cannot read '" << file << "'.\n";
    status = 2;
    return false;
  }
  const char* prefix = invalid == 2 ? "runner: error: " : "";
  try {
    // The parser itself is iterative; stop before anything deeper than the
    // limit is built. `depth` is the number of containers around the one
    // that starts.
    doc = nlohmann::json::parse(
        in,
        [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
          if ((event == nlohmann::json::parse_event_t::object_start ||
               event == nlohmann::json::parse_event_t::array_start) &&
              depth >= kMaxNesting)
            throw TooDeep{};
          return true;
        });
  } catch (const TooDeep&) {
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
  const std::vector<std::string> errors = validate_results(doc);
  if (errors.empty()) {
    // Every command that reads a result file shows its strings; control
    // characters and the like are spelt out (printable.hpp).
    make_printable(doc);
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

std::string export_document(const Document& doc, const std::string& format) {
  if (format == "csv") return to_csv(doc);
  if (format == "gbench") return to_gbench(doc).dump(1) + "\n";
  return {};
}

int command_report(const Options& options) {
  if (!output_usable(options)) return 2;
  nlohmann::json json;
  int status = 0;
  if (!read_results(options.files.front(), json, status, 2)) return status;
  Document doc;
  try {
    doc = document_from_json(json);
  } catch (const std::exception& e) {
    std::cerr << "runner: error: " << options.files.front()
              << ": invalid: " << e.what() << "\n";
    return 2;
  }
  {
    // Two records of one point (files concatenated by hand, a run edited):
    // each is shown, but the reader should know.
    std::map<std::string, int> times;
    for (const Record& r : doc.records) ++times[point_name(point_key(r))];
    for (const auto& [name, n] : times)
      if (n > 1)
        std::cerr << "runner: warning: " << options.files.front() << " has "
                  << name << " " << n
                  << " times; the report shows every record of it\n";
  }
  std::string text = export_document(doc, options.format);
  if (text.empty()) {
    const nlohmann::json summary = compute_summary(doc);
    if (options.format == "json")
      text = summary.dump(1) + "\n";
    else if (options.format == "html")
      text = render_html(doc, summary, options.files.front());
    else if (options.format == "summary")
      text = render_brief(doc, summary, options.files.front());
    else
      text = render_report(
          doc, summary,
          options.format == "markdown" ? Style::markdown : Style::text,
          options.per_rank);
  }
  if (options.output.empty()) {
    std::cout << text;
    return 0;
  }
  if (!write_output(options.output, text)) return 2;
  std::cerr << "runner: report written to " << options.output << "\n";
  return 0;
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
