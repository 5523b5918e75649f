// The command line parsed: the command first (its word, or --list,
// --help-method, --help), then its own options only, as its row of the
// table (options_commands.cpp) gives them; an option it does not take is
// refused naming the commands that do, an unknown one with the nearest
// names. Then the checks (options_check.cpp). No MPI.
#include <algorithm>
#include <sstream>

#include "core/results/suggest.hpp"
#include "runner/options_parse.hpp"

namespace mpiarena {

namespace {

// clang-format off
const char* kOverview =
    "mpiarena runner: which way of moving this data is fastest, at which size.\n"
    "\n"
    "Usage: mpirun -np N runner [options]   measure the selected methods\n"
    "       runner COMMAND [ARGS] [options]\n"
    "\n"
    "Commands:\n";
const char* kOverviewEnd =
    "  osu PROGRAM       an OSU program's command line, OSU's flags (runner\n"
    "                    osu --help; OSU's names as methods: runner --list)\n"
    "\n"
    "'runner COMMAND --help' (or 'runner help COMMAND') shows a command's\n"
    "usage and options.\n"
    "\n"
    "Every sample starts after a barrier (--sync window: in windows on a\n"
    "global clock), calibrated so that one sample lasts at least --min-time,\n"
    "repeated --repetitions times; a sample is the per-operation time of the\n"
    "slowest rank. Every point is verified on a\n"
    "poisoned receive side: a wrong transfer fails the run (exit 1).\n"
    "Exit codes: 0 success, 1 a verification or a point failed, 2 bad input,\n"
    "3 a fault stopped the run (a rank hung, crashed, or threw while the\n"
    "others were stuck; the result file keeps every completed point).\n"
    "The guides cited here are in docs/\n"
    "The CI gate (ab, compare, history): docs/ci.md\n"
    "The library's algorithms (algorithms, tune): docs/tuning.md\n"
    "\n";
// clang-format on

const CommandSpec* find_spec(const std::string& name) {
  for (const CommandSpec& c : command_specs())
    if (name == c.name) return &c;
  return nullptr;
}

const CommandSpec& spec_of(const std::string& name) {
  if (const CommandSpec* c = find_spec(name)) return *c;
  throw std::logic_error("no command '" + name + "' in the table");
}

// How a message names the command: 'runner report', a run.
std::string shown(const CommandSpec& c) {
  return c.command == Command::run ? std::string("a run ('runner')")
                                   : "'runner " + std::string(c.name) + "'";
}

// Where its help is: 'runner report --help'.
std::string help_of(const CommandSpec& c) {
  if (c.command == Command::run) return "'runner --help'";
  std::string name = c.name;
  return "'runner " + name.substr(0, name.find(' ')) + " --help'";
}

// Every group's options, bound to one Options and RawOptions, and each
// command's description made of its groups.
class Descriptions {
 public:
  Descriptions(Options& o, RawOptions& raw) {
    groups_.reserve(option_groups().size());
    for (const OptionGroup& g : option_groups()) {
      groups_.emplace_back(g.caption);
      g.describe(groups_.back(), o, raw);
      all_.add(groups_.back());
    }
  }
  const po::options_description& all() const { return all_; }
  // The command's options, under `caption`; its groups, then "general".
  po::options_description of(const CommandSpec& c,
                             const std::string& caption = "") const {
    po::options_description out(caption);
    std::vector<const char*> names = c.groups;
    names.push_back("general");
    for (const char* name : names) {
      const auto& groups = option_groups();
      const auto g = std::find_if(groups.begin(), groups.end(),
                                  [&](const auto& g) {
                                    return std::string(g.name) == name;
                                  });
      if (g == groups.end())
        throw std::logic_error(std::string("no option group ") + name);
      out.add(groups_[g - groups.begin()]);
    }
    return out;
  }
  // The option `given` names among every command's ('--win': --window,
  // as Boost completes it; '-m'); null when none or several.
  const po::option_description* find(const std::string& given) const {
    const bool short_name = given.size() == 2 && given[0] == '-';
    const std::string key = short_name ? given : given.substr(
        std::min(given.find_first_not_of('-'), given.size()));
    try {
      return all_.find_nothrow(key, !short_name);
    } catch (const po::error&) {
      return nullptr;
    }
  }
  // Its long names ('--window'), or its short ones ('-m').
  std::vector<std::string> names(const CommandSpec& c, bool short_ones) const {
    std::vector<std::string> out;
    const po::options_description own = of(c);
    for (const auto& d : own.options()) {
      const std::string n = d->canonical_display_name(
          short_ones ? po::command_line_style::allow_dash_for_short
                     : po::command_line_style::allow_long);
      if (short_ones == (n.size() == 2 && n[0] == '-' && n[1] != '-'))
        out.push_back(n);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::vector<po::options_description> groups_;
  po::options_description all_;
};

// The commands whose rows take the option `long_name`, in the table's
// order; history's actions as 'history' when all three take it.
std::string takers(const Descriptions& d, const std::string& long_name) {
  std::vector<std::string> out;
  int actions = 0;
  for (const CommandSpec& c : command_specs()) {
    const std::string name = c.name;
    if (c.command == Command::history && name == "history") continue;
    if (!d.of(c).find_nothrow(long_name, false)) continue;
    if (name.rfind("history ", 0) == 0) ++actions;
    out.push_back(c.command == Command::run ? "a run" : name);
  }
  if (actions == 3) {
    out.erase(std::remove_if(out.begin(), out.end(),
                             [](const std::string& n) {
                               return n.rfind("history ", 0) == 0;
                             }),
              out.end());
    out.push_back("history");
  }
  std::string text;
  for (std::size_t i = 0; i < out.size(); ++i)
    text += (i == 0 ? "" : ", ") + out[i];
  return text;
}

std::string unknown_option(const Descriptions& d, const CommandSpec& c,
                           const std::string& given) {
  if (const po::option_description* o = d.find(given)) {
    const std::string name = "--" + o->long_name();
    const std::string as =
        given == name ? "'" + name + "'" : "'" + given + "' (" + name + ")";
    return as + " is not an option of " + shown(c) + "; it is an option of " +
           takers(d, o->long_name()) + ". " + help_of(c) + " lists " +
           (c.command == Command::run ? "a run's" : "its") + " options";
  }
  const bool short_name = given.size() == 2 && given[0] == '-';
  if (short_name) {
    std::string shorts;
    for (const std::string& n : d.names(c, true))
      shorts += (shorts.empty() ? "" : ", ") + n;
    return "unrecognised option '" + given + "': not an option of " +
           shown(c) + "; its short options are " + shorts + " (" +
           help_of(c) + " lists them all)";
  }
  std::string hint = did_you_mean(given, d.names(c, false));
  if (hint.empty()) {
    // Another command's, then.
    std::vector<std::string> every;
    for (const auto& o : d.all().options())
      every.push_back("--" + o->long_name());
    const std::vector<std::string> near = nearest(given, every, 1);
    if (!near.empty())
      hint = "did you mean '" + near[0] + "', an option of " +
             takers(d, near[0].substr(2)) + "?";
  }
  return "unrecognised option '" + given + "'; " +
         (hint.empty() ? "" : hint + " ") + help_of(c) +
         " lists the options of " + shown(c);
}

// Boost's error as the runner's message: what was wrong, what is accepted.
[[noreturn]] void refuse(const po::error& e, const Descriptions& d,
                         const CommandSpec& c) {
  if (const auto* u = dynamic_cast<const po::unknown_option*>(&e))
    throw UsageError(unknown_option(d, c, u->get_option_name()));
  if (dynamic_cast<const po::ambiguous_option*>(&e))
    throw UsageError(std::string(e.what()) +
                     "; give more of its name (" + help_of(c) +
                     " lists the options)");
  if (const auto* v = dynamic_cast<const po::validation_error*>(&e))
    // "the argument ('abc') for option '--window' is invalid": say what is.
    throw UsageError(std::string(e.what()) + "; accepted: " +
                     accepted_values(v->get_option_name()) + ". Run " +
                     help_of(c) + " for the accepted options");
  throw UsageError(std::string(e.what()) + ". Run " + help_of(c) +
                   " for the accepted options");
}

// What the command line asks for, before its options are parsed.
struct Choice {
  const CommandSpec* spec = nullptr;  // whose options apply
  bool help = false, version = false;
  const CommandSpec* help_of = nullptr;  // help of this command (else run)
};

// The command of the row a word names, history's action included.
const CommandSpec* named(const std::vector<std::string>& words) {
  if (words.empty()) return nullptr;
  if (words[0] == "list") return &spec_of("--list");
  if (words[0].rfind("--", 0) == 0) return nullptr;
  if (words[0] == "history" && words.size() > 1)
    if (const CommandSpec* action = find_spec("history " + words[1]))
      return action;
  return find_spec(words[0]);
}

// The words and flags, every option known to some command (one it does
// not take is refused in the second pass, by its own description).
Choice choose(const Descriptions& d, int argc, const char* const* argv) {
  po::options_description all;
  all.add(d.all());
  all.add_options()("args", po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  pos.add("args", -1);
  po::parsed_options parsed(&all);
  try {
    parsed = po::command_line_parser(argc, argv)
                 .options(all)
                 .positional(pos)
                 .allow_unregistered()
                 .run();
  } catch (const po::error& e) {
    refuse(e, d, spec_of("run"));
  }
  std::vector<std::string> words;
  bool unregistered = false, list = false, help_method = false;
  Choice c;
  for (const po::option& o : parsed.options) {
    unregistered |= o.unregistered;
    if (o.string_key == "args")
      words.insert(words.end(), o.value.begin(), o.value.end());
    c.help |= o.string_key == "help";
    c.version |= o.string_key == "version";
    list |= o.string_key == "list";
    help_method |= o.string_key == "help-method";
  }
  if (!words.empty() && words[0] == "help") {
    c.help = true;
    words.erase(words.begin());
    if (!words.empty() && !named(words))
      throw UsageError(unexpected_argument(words));
  }
  c.spec = list          ? &spec_of("--list")
           : help_method ? &spec_of("--help-method")
                         : named(words);
  if (!c.spec && !words.empty() && !unregistered && !c.help && !c.version)
    throw UsageError(unexpected_argument(words));
  if (!c.spec) c.spec = &spec_of("run");
  const std::string name = c.spec->name;
  c.help_of = &spec_of(name.substr(0, name.find(' ')));
  return c;
}

// 'runner --help' (a run's options) or 'runner NAME --help'.
std::string help_text(const Descriptions& d, const CommandSpec& c) {
  std::ostringstream out;
  if (c.command == Command::run) {
    out << kOverview;
    for (const CommandSpec& s : command_specs()) {
      std::string name = s.name;
      if (name.find(' ') != std::string::npos) continue;
      if (s.command == Command::run) name += " (default)";
      name.resize(std::max<std::size_t>(name.size(), 16), ' ');
      out << "  " << name << "  " << s.summary << "\n";
    }
    out << kOverviewEnd << d.of(c, "Options of a run");
  } else {
    out << "runner " << c.name << ": " << c.summary << "\n\nUsage:\n"
        << c.usage << "\n"
        << d.of(c, "Options of 'runner " + std::string(c.name) + "'");
  }
  // Its citations of docs/ spelt where the guides are (doc_dir.hpp).
  return cite_docs_wrapped(out.str(),
                           po::options_description::m_default_line_length);
}

}  // namespace

Options parse_options(int argc, const char* const* argv) {
  Options o;
  RawOptions raw;
  const Descriptions d(o, raw);
  // compare B1 B2 -- N1 N2: Boost eats "--" (every later word positional,
  // options included), so it is kept as a word of its own.
  std::vector<const char*> args(argv, argv + argc);
  for (const char*& a : args)
    if (std::string(a) == "--") a = kSideSeparator;
  argv = args.data();
  const Choice choice = choose(d, argc, argv);
  // --help wins over everything else: `runner report --help` shows the
  // help rather than complaining that the file is missing.
  if (choice.help) {
    o.help_text = help_text(d, *choice.help_of);
    o.command = Command::help;
    return o;
  }
  po::options_description own = d.of(*choice.spec);
  own.add_options()("args", po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  pos.add("args", -1);
  po::variables_map vm;
  try {
    po::store(
        po::command_line_parser(argc, argv).options(own).positional(pos).run(),
        vm);
    po::notify(vm);
  } catch (const po::error& e) {
    refuse(e, d, *choice.spec);
  }
  parse_command(vm, o);
  check_ab_options(vm, o);
  if (o.command == Command::validate) return o;  // only --log-level
  check_run_shape(vm, o, raw);
  check_sync(vm, o, raw);
  check_sampling(vm, o, raw);
  check_output(vm, o, raw);
  check_numbers(vm, o, raw);
  check_label(vm, o);
  check_profile(vm, o);
  if (vm.count("thread-level"))
    check_choice("--thread-level", o.thread_level,
                 {"single", "funneled", "serialized", "multiple"});
  return o;
}

}  // namespace mpiarena
