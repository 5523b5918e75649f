// The output formats, one class each, and the registry that holds them
// (reporters.hpp).
#include "runner/reporters.hpp"

#include <cstdio>
#include <iterator>

#include "core/analysis/report/report.hpp"
#include "core/results/formats.hpp"
#include "core/results/printable.hpp"
#include "core/results/suggest.hpp"
#include "runner/reporter_osu.hpp"

namespace mpiarena {

namespace {

// JSON as every command prints it: bytes that are not UTF-8 (a plugin's
// text) become U+FFFD; control characters are JSON's escapes, the C1
// controls and U+FFFE, U+FFFF too (raw UTF-8 only occurs in strings, where
// the escape reads back as the same character).
std::string json_text(const nlohmann::json& j) {
  const std::string raw =
      j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(raw.size() + 1);
  char buf[16];
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const auto b = [&](std::size_t k) {
      return i + k < raw.size() ? static_cast<unsigned char>(raw[i + k]) : 0;
    };
    if (b(0) == 0xC2 && b(1) >= 0x80 && b(1) <= 0x9F) {
      std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(b(1)));
      out += buf;
      ++i;
    } else if (b(0) == 0xEF && b(1) == 0xBF &&
               (b(2) == 0xBE || b(2) == 0xBF)) {
      out += b(2) == 0xBE ? "\\uFFFE" : "\\uFFFF";
      i += 2;
    } else {
      out += raw[i];
    }
  }
  return out + "\n";
}

class TableReporter : public Reporter {
 public:
  std::string name() const override { return "table"; }
  std::string help() const override { return "aligned text tables"; }
  unsigned kinds() const override { return kListing | kTables; }
  bool draws_tables() const override { return true; }
  std::string render(const Printout& out) const override {
    return safe_text(out.tables(Style::text));
  }
};

class SummaryReporter : public Reporter {
 public:
  std::string name() const override { return "summary"; }
  std::string help() const override {
    return "the fastest method per size and where it changes, in a few "
           "lines";
  }
  unsigned kinds() const override { return kRecords; }
  std::string render(const Printout& out) const override {
    return safe_text(render_brief(*out.document, *out.summary, out.source));
  }
};

class MarkdownReporter : public Reporter {
 public:
  std::string name() const override { return "markdown"; }
  std::string help() const override { return "the tables in markdown"; }
  unsigned kinds() const override { return kTables; }
  bool draws_tables() const override { return true; }
  std::string render(const Printout& out) const override {
    return safe_text(out.tables(Style::markdown));
  }
};

class JsonReporter : public Reporter {
 public:
  std::string name() const override { return "json"; }
  std::string help() const override {
    return "the data as JSON (a run: the whole document; report: its "
           "summary)";
  }
  unsigned kinds() const override { return kListing | kTables; }
  bool machine_read() const override { return true; }
  std::string render(const Printout& out) const override {
    return json_text(out.json());
  }
};

class CsvReporter : public Reporter {
 public:
  std::string name() const override { return "csv"; }
  std::string help() const override { return "one row per record"; }
  unsigned kinds() const override { return kRecords; }
  bool machine_read() const override { return true; }
  std::string render(const Printout& out) const override {
    return to_csv(*out.document);  // its fields made printable
  }
};

class GbenchReporter : public Reporter {
 public:
  std::string name() const override { return "gbench"; }
  std::string help() const override {
    return "Google Benchmark JSON, for its tools/compare.py";
  }
  unsigned kinds() const override { return kRecords; }
  bool machine_read() const override { return true; }
  std::string render(const Printout& out) const override {
    return json_text(to_gbench(*out.document));
  }
};

class OsuReporter : public Reporter {
 public:
  std::string name() const override { return "osu"; }
  std::string help() const override {
    return "OSU Micro-Benchmarks 7.4's tables, a table per benchmark in "
           "OSU's columns and widths (--osu-columns adds OSU's optional "
           "ones)";
  }
  unsigned kinds() const override { return kRecords; }
  bool machine_read() const override { return true; }
  std::string render(const Printout& out) const override {
    return safe_text(render_osu(*out.document, out.osu_columns));
  }
};

class HtmlReporter : public Reporter {
 public:
  std::string name() const override { return "html"; }
  std::string help() const override {
    return "one self-contained page of SVG charts and tables";
  }
  unsigned kinds() const override { return kPage; }
  std::string render(const Printout& out) const override {
    return out.page();  // svg::escape makes its strings safe
  }
};

// One line per format: the order of --help and of every message.
const TableReporter kTable;
const SummaryReporter kSummary;
const MarkdownReporter kMarkdown;
const JsonReporter kJson;
const CsvReporter kCsv;
const GbenchReporter kGbench;
const OsuReporter kOsu;
const HtmlReporter kHtml;
const std::vector<const Reporter*> kReporters = {
    &kTable, &kSummary, &kMarkdown, &kJson, &kCsv, &kGbench, &kOsu, &kHtml};

// What each command prints, and how a message names it.
struct CommandOutput {
  Command command;
  const char* name;
  const char* usage;
  unsigned kinds;
};
const CommandOutput kCommands[] = {
    {Command::run, "run", "a run", kTables | kRecords},
    {Command::report, "report", "report FILE", kTables | kRecords | kPage},
    {Command::compare, "compare", "compare", kTables},
    {Command::ab, "ab", "ab", kTables},
    {Command::trend, "trend", "trend FILE...", kTables | kPage},
    {Command::tune, "tune", "tune", kTables},
    {Command::history, "history", "history", kTables},
    {Command::algorithms, "algorithms", "algorithms", kListing},
    {Command::clocks, "clocks", "clocks", kListing},
};

const Reporter* find(const std::string& name) {
  for (const Reporter* r : kReporters)
    if (r->name() == name) return r;
  return nullptr;
}

std::string joined(const std::vector<std::string>& items,
                   const std::string& last) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? last : ", ") + items[i];
  return out;
}

// The usages of the commands that take `r`; `names`: their names instead.
std::vector<std::string> takers(const Reporter& r, bool names) {
  std::vector<std::string> out;
  for (const CommandOutput& c : kCommands)
    if (c.kinds & r.kinds()) out.push_back(names ? c.name : c.usage);
  return out;
}

}  // namespace

const std::vector<const Reporter*>& reporters() { return kReporters; }

const Reporter& reporter(const std::string& name) {
  const Reporter* r = find(name);
  return r ? *r : kTable;
}

unsigned command_kinds(Command command) {
  for (const CommandOutput& c : kCommands)
    if (c.command == command) return c.kinds;
  return 0;
}

std::vector<std::string> accepted_formats(unsigned kinds) {
  std::vector<std::string> out;
  for (const Reporter* r : kReporters)
    if (r->kinds() & kinds) out.push_back(r->name());
  return out;
}

void check_format(const std::string& format, Command command) {
  const unsigned kinds = command_kinds(command);
  const Reporter* r = find(format);
  if (kinds == 0 || (r && (r->kinds() & kinds))) return;
  const char* name = "";
  for (const CommandOutput& c : kCommands)
    if (c.command == command) name = c.name;
  const std::vector<std::string> accepted = accepted_formats(kinds);
  // A format of another command needs no guess (it is said below).
  const std::string hint = r ? std::string() : did_you_mean(format, accepted);
  std::string message = "--format '" + format + "' is not supported by " +
                        name + (hint.empty() ? "" : " (" + hint + ")") +
                        "; accepted: " + joined(accepted, ", ");
  if (r)
    message += " (--format " + format + " is for " +
               joined(takers(*r, false), " and ") + ")";
  throw UsageError(message);
}

std::string format_choices(Command command) {
  std::string out;
  for (const std::string& name : accepted_formats(command_kinds(command)))
    out += (out.empty() ? "" : "|") + name;
  return out;
}

std::string table_formats() {
  std::vector<std::string> names;
  for (const Reporter* r : kReporters)
    if (r->draws_tables()) names.push_back(r->name());
  return joined(names, " or ");
}

std::string format_help() {
  std::string text =
      "what a command prints on stdout (a run: rank 0, at the end); each "
      "format with the commands that take it: ";
  for (std::size_t i = 0; i < kReporters.size(); ++i) {
    const Reporter& r = *kReporters[i];
    const std::vector<std::string> who = takers(r, true);
    text += (i == 0 ? "" : ", ") + r.name() + " (" + r.help() + "; " +
            (who.size() == std::size(kCommands) ? std::string("every command")
                                                : joined(who, ", ")) +
            ")";
  }
  return text;
}

std::string safe_text(const std::string& text) {
  std::string out;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t end = text.find('\n', from);
    if (end == std::string::npos) {
      out += printable(text.substr(from));
      break;
    }
    out += printable(text.substr(from, end - from)) + "\n";
    from = end + 1;
  }
  return out;
}

}  // namespace mpiarena
