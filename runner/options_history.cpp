// runner history and trend's store on the command line (options_parse.hpp):
// --db, --since, history's actions and what each takes.
#include "runner/options_parse.hpp"

namespace mpiarena {

void describe_store(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("db", po::value<std::string>(&o.db),
     "history and trend: the results store, one SQLite file (history add "
     "makes it when missing; docs/formats.md, \"The results store\")");
  // clang-format on
}

void describe_since(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("since", po::value<std::string>(&o.since),
     "history changes: exit 1 only for a change at a run after this one: a "
     "run id (#12), a git revision (7 to 40 hex digits, either case: after "
     "its last run; a prefix several revisions share is refused) or a "
     "date (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss]Z: runs started then or "
     "later); default: any change");
  // clang-format on
}

void describe_series(po::options_description& desc, Options& o,
                     RawOptions&) {
  // clang-format off
  desc.add_options()
    ("by-library", po::bool_switch(&o.by_library),
     "history changes and trend: a series per MPI library, as separate "
     "series and charts; by default a series is a point on a machine "
     "across libraries and settings, and a change at a run whose MPI "
     "library or recorded MPI settings differ from the run before is "
     "named so (\"at run #12, Open MPI v4.1.4 -> v4.1.6: +38%\")");
  // clang-format on
}

void parse_history(const std::vector<std::string>& args,
                   const po::variables_map& vm, Options& o) {
  const char* kUsage =
      "runner history add FILE... --db STORE | history changes --db STORE "
      "[--since RUN|REV|DATE] | history list --db STORE";
  if (args.size() < 2)
    throw UsageError(std::string("'history' needs an action: ") + kUsage);
  o.history_action =
      check_choice("history's action", args[1], {"add", "changes", "list"});
  o.files.assign(args.begin() + 2, args.end());
  if (o.history_action == "add" && o.files.empty())
    throw UsageError(
        "'history add' needs at least one result file: runner history add "
        "FILE... --db STORE");
  if (o.history_action != "add" && !o.files.empty())
    throw UsageError("'history " + o.history_action + "' takes no file ('" +
                     o.files[0] + "'): " + kUsage);
  if (!vm.count("db") || o.db.empty())
    throw UsageError("'history " + o.history_action +
                     "' needs the store: --db STORE (one SQLite file)");
}

void check_history(const po::variables_map& vm, const Options& o) {
  if (vm.count("since") && o.since.empty())
    throw UsageError(
        "--since '' is empty; give a run id (#12), a git revision (7 to 40 "
        "hex digits) or a date (YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss]Z), or "
        "leave --since out for any change");
}

}  // namespace mpiarena
