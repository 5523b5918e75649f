// The output formats (-f): one registry of reporters, as Google Benchmark
// has one reporter interface and a class per format. Each command declares
// the kinds of output it produces; each format renders some kinds; so a
// command's accepted formats, their check and the --help text all come
// from here. A new format is one class and one registration line
// (docs/architecture.md, "Adding an output format"). No MPI.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/text/text_format.hpp"
#include "core/results/records.hpp"
#include "runner/options.hpp"

namespace mpiarena {

// The kinds of output: what a command produces, what a format renders.
enum Kind : unsigned {
  kListing = 1u,  // a plain table (text only), or its data as JSON
  kTables = 2u,   // tables in a style (text or markdown), or their JSON
  kRecords = 4u,  // a result document, record by record or in brief
  kPage = 8u,     // one self-contained page of charts and tables
};

// What a command has to print, in the shapes the formats take it from: a
// command fills the members of the kinds it declares (command_kinds).
struct Printout {
  // kListing, kTables: the data, as -f json prints it.
  std::function<nlohmann::json()> json;
  // kListing: Style::text only; kTables: text or markdown.
  std::function<std::string(Style)> tables;
  // kRecords: the document, its summary, and where it is kept (the file
  // read, or the run's -o; empty: nowhere).
  const Document* document = nullptr;
  const nlohmann::json* summary = nullptr;
  std::string source;
  // kRecords, -f osu: the columns --osu-columns adds ("full", "p50"...).
  std::vector<std::string> osu_columns;
  // kPage
  std::function<std::string()> page;
};

// One output format.
class Reporter {
 public:
  virtual ~Reporter() = default;
  // What -f takes.
  virtual std::string name() const = 0;
  // A phrase for --help ("csv (one row per record)").
  virtual std::string help() const = 0;
  // The kinds it renders (Kind, or-ed).
  virtual unsigned kinds() const = 0;
  // Data a program reads (JSON, CSV): stdout holds it alone, so what a
  // command says beside it goes to stderr.
  virtual bool machine_read() const { return false; }
  // Draws the tables a reader sees (table, markdown): --per-rank and
  // --percentiles add to them.
  virtual bool draws_tables() const { return false; }
  // The whole text, every string in it made safe for where it goes.
  virtual std::string render(const Printout& out) const = 0;
};

// Every format, in the order --help and the messages list them.
const std::vector<const Reporter*>& reporters();

// The format named `name`, which check_format accepted.
const Reporter& reporter(const std::string& name);

// The kinds `command` produces (0: it prints no format).
unsigned command_kinds(Command command);

// The formats that render one of `kinds`, in registry order.
std::vector<std::string> accepted_formats(unsigned kinds);

// Throws UsageError when `command` does not take `format`: the format,
// the command and the formats it takes; for a format other commands take,
// which.
void check_format(const std::string& format, Command command);

// The formats `command` takes as --help writes them: "table|markdown|json".
std::string format_choices(Command command);

// The names of the formats that draw tables ("table or markdown").
std::string table_formats();

// -f's --help text.
std::string format_help();

// `text` with what a terminal must not receive spelt out (printable.hpp),
// line by line: its newlines are kept.
std::string safe_text(const std::string& text);

}  // namespace mpiarena
