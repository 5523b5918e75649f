// runner history add|changes|list: the results store (history.hpp) from the
// command line. Needs no MPI.
#include "core/analysis/history/history.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

#include "core/results/dates.hpp"
#include "core/results/file_io.hpp"
#include "core/results/formats.hpp"
#include "core/results/output.hpp"
#include "core/results/printable.hpp"
#include "runner/files/files.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

namespace {

const std::string kMakesOne = "runner history add FILE... --db STORE makes one";

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "."
         : slash == 0               ? "/"
                                    : path.substr(0, slash);
}

// Whether `path` (a file or a directory) may be written: a write bit set
// and access() agreeing. A store of mode 0444 counts as read-only for root
// too: whoever made it so did not want it changed.
bool may_write(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && (st.st_mode & 0222) != 0 &&
         ::access(path.c_str(), W_OK) == 0;
}

void store_error(const std::string& what) {
  std::cerr << program_name() << ": error: " << what << "\n";
}

// Where the store at options.db is, its links followed; empty (after
// saying why) when it cannot be one. To read, it must exist and be a
// regular file; to write, a regular file the process may write, or a new
// file in a directory it may write (`missing` is then set).
std::string store_target(const Options& options, bool write, bool& missing) {
  const std::string& path = options.db;
  missing = false;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) {
      store_error("--db '" + path + "': " + std::strerror(errno));
      return "";
    }
    if (!write) {
      store_error("--db '" + path + "': there is no store there (" +
                  kMakesOne + ")");
      return "";
    }
    // A new file, or a link to one: the rules of -o (output.hpp).
    std::string target, error;
    if (!resolve_output(path, target, error)) {
      store_error("--db: " + error);
      return "";
    }
    if (!may_write(directory_of(target))) {
      store_error("--db '" + path + "': cannot make the store: its "
                  "directory '" + directory_of(target) +
                  "' is read-only; nothing added");
      return "";
    }
    missing = true;
    return target;
  }
  if (!S_ISREG(st.st_mode)) {
    store_error("--db '" + path + "' is " + fileio::kind_of(st.st_mode) +
                "; the store is one SQLite file (a regular file, or a "
                "symbolic link to one)");
    return "";
  }
  char* real = ::realpath(path.c_str(), nullptr);
  const std::string target = real ? real : path;
  std::free(real);
  if (write) {
    if (!may_write(target)) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%04o",
                    static_cast<unsigned>(st.st_mode & 07777));
      store_error("--db '" + path + "': the store is read-only (mode " +
                  mode + "); nothing added");
      return "";
    }
    if (!may_write(directory_of(target))) {
      store_error("--db '" + path + "': the store's directory '" +
                  directory_of(target) +
                  "' is read-only (SQLite writes its journal beside the "
                  "store); nothing added");
      return "";
    }
  }
  return target;
}

// The store at options.db, read-only unless `write`; null (after saying
// why) when it cannot be opened. Only `add` (`write`) makes a missing one.
std::unique_ptr<Store> open_store(const Options& options, bool write,
                                  bool* created = nullptr) {
  bool missing = false;
  const std::string target = store_target(options, write, missing);
  if (target.empty()) return nullptr;
  try {
    auto store = std::make_unique<Store>(target, write);
    if (created) *created = missing;
    return store;
  } catch (const StoreError& e) {
    // A store this add made and could not finish: not left behind.
    struct stat st;
    if (missing && ::stat(target.c_str(), &st) == 0 && st.st_size == 0)
      ::unlink(target.c_str());
    store_error("cannot open the store " + std::string(e.what()));
    return nullptr;
  }
}

HistoryOptions history_options(const Options& options) {
  HistoryOptions h;
  h.alpha = options.alpha;
  h.threshold = options.threshold;
  h.by_library = options.by_library;
  return h;
}

// What the store would keep badly, or empty: a run of no record, an
// interrupted run (unless --allow-incomplete) or one whose start time is
// not a date.
std::string unfit(const Document& doc, const Options& options) {
  if (doc.records.empty())
    return "holds no record (nothing measured): the store keeps points, "
           "nothing added";
  if (!doc.complete && !options.allow_incomplete)
    return "an incomplete (interrupted) run: its points may be too few or "
           "cut short; measure again, or give --allow-incomplete to keep it "
           "as it is";
  const std::string& start = doc.context.start_time;
  if (!is_start_time(start))
    return "start_time '" + printable(start) +
           "' is not a date (YYYY-MM-DDThh:mm:ssZ): the store puts its runs "
           "in time order by it";
  return "";
}

std::string run_list(const std::vector<std::int64_t>& ids) {
  std::string out;
  for (std::int64_t id : ids)
    out += (out.empty() ? "#" : ", #") + std::to_string(id);
  return out;
}

struct Input {
  std::string file;
  nlohmann::json json;  // as the file holds it
  Document doc;
  std::string digest;
};

// The files that may be added; each refused one said on stderr and
// counted in `refused`.
std::vector<Input> read_inputs(const Options& options,
                               const std::vector<std::string>& files,
                               int& refused) {
  std::vector<Input> inputs;
  for (const std::string& file : files) {
    Input in;
    in.file = file;
    int status = 0;
    if (!read_results_as_held(file, in.json, status, 2)) {
      ++refused;
      continue;
    }
    try {
      in.doc = document_from_json(in.json);
    } catch (const std::exception& e) {
      store_error(file + ": invalid: " + printable(e.what()));
      ++refused;
      continue;
    }
    if (const std::string why = unfit(in.doc, options); !why.empty()) {
      store_error(file + ": " + why);
      ++refused;
      continue;
    }
    in.digest = document_digest(in.json);
    const auto same = std::find_if(
        inputs.begin(), inputs.end(),
        [&](const Input& o) { return o.digest == in.digest; });
    if (same != inputs.end()) {
      store_error(file + ": the same run as " + same->file +
                  " (given before it); a run is added once");
      ++refused;
      continue;
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

// Every file is read and checked before anything is written: a file that
// does not validate, is not fit to keep, or holds a run the store (or an
// earlier file) has, and nothing is added. A run that another process adds
// meanwhile is found inside the transaction that would add it again: that
// file is not added, the others are, and each is named.
int history_add(const Options& options) {
  int refused = 0;
  const std::vector<std::string> files =
      distinct_files(options.files, "history add");
  const std::vector<Input> inputs = read_inputs(options, files, refused);
  const auto nothing_added = [&] {
    if (files.size() > 1)
      store_error("nothing added to " + options.db + ": " +
                  std::to_string(refused) + " of " +
                  std::to_string(files.size()) + " files refused");
    return 2;
  };
  struct stat st;
  if (refused > 0 && ::stat(options.db.c_str(), &st) != 0)
    return nothing_added();  // no store made for nothing
  bool created = false;
  std::unique_ptr<Store> store = open_store(options, true, &created);
  if (!store) return 2;
  // A store this add made is removed when it ends holding no run.
  const auto drop_if_made_empty = [&] {
    if (!created) return;
    try {
      if (!store->runs().empty()) return;
    } catch (const StoreError&) {
      return;
    }
    char* real = ::realpath(options.db.c_str(), nullptr);
    const std::string target = real ? real : options.db;
    std::free(real);
    store.reset();
    ::unlink(target.c_str());
  };
  std::vector<std::int64_t> added;
  try {
    for (const Input& in : inputs)
      if (const std::int64_t id = store->run_of(in.json)) {
        store_error(in.file + ": the store already holds this run (run #" +
                    std::to_string(id) + "); a run is added once");
        ++refused;
      }
    if (refused > 0) {
      drop_if_made_empty();
      return nothing_added();
    }
    for (const Input& in : inputs) {
      try {
        const std::int64_t id = store->add(in.file, in.json, in.doc);
        added.push_back(id);
        std::cerr << program_name() << ": " << in.file << ": added as run #"
                  << id << " (" << in.doc.records.size() << " points"
                  << (in.doc.complete ? ")"
                                      : "; an incomplete (interrupted) run, "
                                        "kept as it is)")
                  << "\n";
      } catch (const DuplicateRun& e) {
        store_error(in.file + ": not added: the store already holds this " +
                    "run (run #" + std::to_string(e.run) +
                    "), added by another process meanwhile");
        ++refused;
      }
    }
  } catch (const StoreError& e) {
    store_error(options.db + ": " + e.what() + "; " +
                (added.empty() ? std::string("nothing added")
                               : "added before it: run " + run_list(added)));
    drop_if_made_empty();
    return 2;
  }
  if (refused > 0) {
    store_error(options.db + ": " + std::to_string(added.size()) + " of " +
                std::to_string(inputs.size()) + " files added" +
                (added.empty() ? std::string()
                               : " (run " + run_list(added) + ")") +
                ", " + std::to_string(refused) + " not");
    drop_if_made_empty();
    return 2;
  }
  return 0;
}

int history_changes(const Options& options) {
  std::unique_ptr<Store> store = open_store(options, false);
  if (!store) return 2;
  try {
    const History h = find_changes(*store, history_options(options));
    std::vector<SeriesChange> shown;
    try {
      shown = changes_since(h, options.since);
    } catch (const std::invalid_argument& e) {
      std::cerr << program_name() << ": error: " << e.what() << "\n";
      return 2;
    }
    Printout out;
    out.json = [&] { return to_json(h, shown); };
    out.tables = [&](Style style) {
      return render_history(h, shown, style);
    };
    std::cout << reporter(options.format).render(out);
    return shown.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << program_name() << ": error: " << options.db << ": " << e.what()
              << "\n";
    return 2;
  }
}

int history_list(const Options& options) {
  std::unique_ptr<Store> store = open_store(options, false);
  if (!store) return 2;
  try {
    const std::vector<StoredRun> runs = store->runs();
    Printout out;
    out.json = [&] { return runs_json(runs); };
    out.tables = [&](Style style) { return render_runs(runs, style); };
    std::cout << reporter(options.format).render(out);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << program_name() << ": error: " << options.db << ": " << e.what()
              << "\n";
    return 2;
  }
}

}  // namespace

int command_history(const Options& options) {
  if (options.history_action == "add") return history_add(options);
  if (options.history_action == "changes") return history_changes(options);
  return history_list(options);
}

bool store_trend(const Options& options, Trend& out) {
  std::unique_ptr<Store> store = open_store(options, false);
  if (!store) return false;
  try {
    std::vector<TrendRun> runs;
    for (const StoredRun& r : store->runs()) {
      TrendRun run;
      run.file = "#" + std::to_string(r.id) + " " + printable(r.file);
      run.store_run = r.id;
      run.started = printable(r.started);
      // Shown as trend FILE... shows a file (read_results).
      nlohmann::json doc = store->document(r.id);
      make_printable(doc);
      run.doc = document_from_json(doc);
      runs.push_back(std::move(run));
    }
    out = compute_trend(
        std::move(runs),
        CompareOptions{options.threshold, options.alpha, options.relative},
        options.by_library);
    mark_changes(out, find_changes(*store, history_options(options)));
    return true;
  } catch (const std::exception& e) {
    std::cerr << program_name() << ": error: " << options.db << ": " << e.what()
              << "\n";
    return false;
  }
}

}  // namespace mpiarena
