// runner history add|changes|list: the results store (history.hpp) from the
// command line. Needs no MPI.
#include "history.hpp"

#include <iostream>
#include <memory>

#include "files.hpp"
#include "formats.hpp"
#include "output.hpp"

namespace mpiarena {

namespace {

// The store at options.db; null (after saying why) when it cannot be
// opened. Only `add` makes a missing one.
std::unique_ptr<Store> open_store(const Options& options, bool create) {
  // The rules of -o (output.hpp): a regular file, a new one in an existing
  // directory, or a link to either, opened at the end of the link; never a
  // device, a FIFO or a directory, which SQLite would block on or write.
  std::string target, error;
  if (!resolve_output(options.db, target, error)) {
    std::cerr << program_name() << ": error: --db: " << error << "\n";
    return nullptr;
  }
  try {
    return std::make_unique<Store>(target, create);
  } catch (const StoreError& e) {
    std::cerr << program_name() << ": error: cannot open the store " << e.what()
              << (create ? ""
                         : " (runner history add FILE... --db STORE makes "
                           "one)")
              << "\n";
    return nullptr;
  }
}

HistoryOptions history_options(const Options& options) {
  HistoryOptions h;
  h.alpha = options.alpha;
  h.threshold = options.threshold;
  return h;
}

// Every file is read and checked before anything is written: a file that
// does not validate, or holds a run the store has, and nothing is added.
int history_add(const Options& options) {
  struct Input {
    std::string file;
    nlohmann::json json;
    Document doc;
  };
  std::vector<Input> inputs;
  int refused = 0;
  const std::vector<std::string> files =
      distinct_files(options.files, "history add");
  for (const std::string& file : files) {
    Input in;
    in.file = file;
    int status = 0;
    if (!read_results(file, in.json, status, 2)) {
      ++refused;
      continue;
    }
    try {
      in.doc = document_from_json(in.json);
    } catch (const std::exception& e) {
      std::cerr << program_name() << ": error: " << file
                << ": invalid: " << e.what() << "\n";
      ++refused;
      continue;
    }
    inputs.push_back(std::move(in));
  }
  std::unique_ptr<Store> store = open_store(options, refused == 0);
  if (!store) return 2;
  try {
    for (const Input& in : inputs)
      if (const std::int64_t id =
              store->run_with_digest(document_digest(in.json))) {
        std::cerr << program_name() << ": error: " << in.file
                  << ": the store already holds this run (run #" << id
                  << "); a run is added once\n";
        ++refused;
      }
    if (refused > 0) {
      if (files.size() > 1)
        std::cerr << program_name() << ": error: nothing added to "
                  << options.db << ": " << refused << " of " << files.size()
                  << " files refused\n";
      return 2;
    }
    for (const Input& in : inputs) {
      const std::int64_t id = store->add(in.file, in.json, in.doc);
      std::cerr << program_name() << ": " << in.file << ": added as run #" << id
                << " (" << in.doc.records.size() << " points)\n";
    }
  } catch (const StoreError& e) {
    std::cerr << program_name() << ": error: " << options.db << ": " << e.what()
              << "\n";
    return 2;
  }
  return 0;
}

Style style_of(const Options& options) {
  return options.format == "markdown" ? Style::markdown : Style::text;
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
    if (options.format == "json")
      std::cout << to_json(h, shown).dump(1) << "\n";
    else
      std::cout << render_history(h, shown, style_of(options));
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
    if (options.format == "json") {
      std::cout << runs_json(runs).dump(1) << "\n";
    } else {
      std::cout << render_runs(runs, style_of(options));
    }
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
      run.file = "run " + std::to_string(r.id);
      run.started = r.started;
      run.doc = document_from_json(store->document(r.id));
      runs.push_back(std::move(run));
    }
    out = compute_trend(
        std::move(runs),
        CompareOptions{options.threshold, options.alpha, options.relative});
    mark_changes(out, find_changes(*store, history_options(options)));
    return true;
  } catch (const std::exception& e) {
    std::cerr << program_name() << ": error: " << options.db << ": " << e.what()
              << "\n";
    return false;
  }
}

}  // namespace mpiarena
