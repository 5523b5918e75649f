// The output formats' registry (runner/reporters.hpp): what each command
// takes, the message for what it does not, the --help text; and the
// writers making hostile strings safe as they write them (a run prints
// its document without making it printable first).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/analysis/report/report.hpp"
#include "core/analysis/report/summary.hpp"
#include "doc_fixtures.hpp"
#include "runner/options.hpp"
#include "runner/reporters.hpp"

namespace {

using mpiarena::Command;
using mpiarena::Printout;
using mpiarena::reporter;
using mpiarena::Style;

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string accepted(Command c) {
  return joined(mpiarena::accepted_formats(mpiarena::command_kinds(c)));
}

// The message check_format throws, or "" when it accepts.
std::string refusal(const std::string& format, Command c) {
  try {
    mpiarena::check_format(format, c);
  } catch (const mpiarena::UsageError& e) {
    return e.what();
  }
  return {};
}

// Characters a terminal must not receive raw: C0 controls but the line
// ends, DEL, and the C1 controls as UTF-8.
std::string raw_controls(const std::string& text) {
  std::string found;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f ||
        (c == 0xc2 && i + 1 < text.size() &&
         static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
         static_cast<unsigned char>(text[i + 1]) <= 0x9f))
      found += std::to_string(c) + " ";
  }
  return found;
}

TEST(Reporters, EachCommandTakesTheFormatsOfItsKinds) {
  EXPECT_EQ(accepted(Command::run), "table, summary, markdown, json, csv, "
                                    "gbench, osu");
  EXPECT_EQ(accepted(Command::report), "table, summary, markdown, json, "
                                       "csv, gbench, osu, html");
  EXPECT_EQ(accepted(Command::compare), "table, markdown, json");
  EXPECT_EQ(accepted(Command::ab), "table, markdown, json");
  EXPECT_EQ(accepted(Command::tune), "table, markdown, json");
  EXPECT_EQ(accepted(Command::history), "table, markdown, json");
  EXPECT_EQ(accepted(Command::trend), "table, markdown, json, html");
  EXPECT_EQ(accepted(Command::algorithms), "table, json");
  EXPECT_EQ(accepted(Command::clocks), "table, json");
  EXPECT_EQ(mpiarena::command_kinds(Command::validate), 0u);
  EXPECT_EQ(mpiarena::format_choices(Command::trend),
            "table|markdown|json|html");
}

TEST(Reporters, ARefusalNamesTheFormatAndWhatIsAccepted) {
  EXPECT_EQ(refusal("json", Command::clocks), "");
  EXPECT_EQ(refusal("html", Command::report), "");
  EXPECT_EQ(refusal("xml", Command::run),
            "--format 'xml' is not supported by run; accepted: table, "
            "summary, markdown, json, csv, gbench, osu");
  EXPECT_EQ(refusal("html", Command::run),
            "--format 'html' is not supported by run; accepted: table, "
            "summary, markdown, json, csv, gbench, osu (--format html is "
            "for report FILE and trend FILE...)");
  EXPECT_EQ(refusal("osu", Command::compare).rfind(
                "--format 'osu' is not supported by compare; accepted: "
                "table, markdown, json (--format osu is for a run and "
                "report FILE)",
                0),
            0u);
  EXPECT_EQ(refusal("markdown", Command::algorithms),
            "--format 'markdown' is not supported by algorithms; accepted: "
            "table, json (--format markdown is for a run, report FILE, "
            "compare, ab, trend FILE..., tune and history)");
  EXPECT_EQ(refusal("csv", Command::compare).rfind(
                "--format 'csv' is not supported by compare; accepted: "
                "table, markdown, json (",
                0),
            0u);
}

TEST(Reporters, TheHelpNamesEveryFormatAndWhoTakesIt) {
  const std::string help = mpiarena::format_help();
  for (const mpiarena::Reporter* r : mpiarena::reporters())
    EXPECT_NE(help.find(r->name() + " (" + r->help()), std::string::npos)
        << r->name();
  EXPECT_NE(help.find("html (one self-contained page of SVG charts and "
                      "tables; report, trend)"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("json (the data as JSON (a run: the whole document; "
                      "report: its summary); every command)"),
            std::string::npos)
      << help;
  EXPECT_EQ(mpiarena::table_formats(), "table or markdown");
}

// A hostile method name and note (a skip's reason; an escape sequence
// that would turn the terminal red, retitle it, clear it; a NUL, a tab, a
// newline, a C1 control) printed as a run prints them: no raw control character reaches
// the text, the markdown or the CSV, and each is spelt out.
TEST(Reporters, HostileStringsPrintSafely) {
  mpiarena::Document doc = mpiarena_test::sample_document();
  const std::string nasty = std::string("m\x1b[31mred\0nul\t|\n\xc2\x85", 18);
  doc.records[0].method = nasty;
  doc.records[0].notes.push_back("a note\x1b]0;title\x07 and \x1b[2J");
  doc.skipped[0].reason = "a note\x1b]0;title\x07 and \x1b[2J";
  doc.records[3].verification_message = "bad\x1b[1m row";
  doc.context.mpi_library = "Open MPI\x1b[2J";
  doc.summary = mpiarena::compute_summary(doc);
  Printout out;
  out.json = [&] { return mpiarena::to_json(doc); };
  out.tables = [&](Style style) {
    return mpiarena::render_report(doc, doc.summary, style, false);
  };
  out.document = &doc;
  out.summary = &doc.summary;
  for (const char* format : {"table", "markdown", "summary", "csv", "osu"}) {
    const std::string text = reporter(format).render(out);
    EXPECT_EQ(raw_controls(text), "") << format << ":\n" << text;
    EXPECT_NE(text.find("\\x1B[31mred\\x00nul"), std::string::npos)
        << format << ":\n" << text;
  }
  const std::string table = reporter("table").render(out);
  EXPECT_NE(table.find("a note\\x1B]0;title\\x07 and \\x1B[2J"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("Open MPI\\x1B[2J"), std::string::npos) << table;
  // The JSON keeps the strings, in JSON's own escapes.
  const std::string json = reporter("json").render(out);
  EXPECT_EQ(raw_controls(json), "");
  EXPECT_NE(json.find("m\\u001b[31mred\\u0000nul\\t|\\n\\u0085"),
            std::string::npos)
      << json;
  EXPECT_EQ(nlohmann::json::parse(json)["records"][0]["method"], nasty);
}

// Bytes that are not UTF-8 (a plugin's text) do not stop a JSON format.
TEST(Reporters, JsonSurvivesBytesThatAreNotUtf8) {
  mpiarena::Document doc = mpiarena_test::sample_document();
  doc.records[0].notes.push_back("cut \xe2\x82 here");
  Printout out;
  out.json = [&] { return mpiarena::to_json(doc); };
  out.document = &doc;
  std::string json, gbench;
  EXPECT_NO_THROW(json = reporter("json").render(out));
  EXPECT_NE(json.find("cut \xef\xbf\xbd here"), std::string::npos);
  EXPECT_NO_THROW(gbench = reporter("gbench").render(out));
}

TEST(Reporters, WhatAFormatIs) {
  for (const char* data : {"json", "csv", "gbench", "osu"})
    EXPECT_TRUE(reporter(data).machine_read()) << data;
  for (const char* shown : {"table", "markdown", "summary", "html"})
    EXPECT_FALSE(reporter(shown).machine_read()) << shown;
  EXPECT_TRUE(reporter("markdown").draws_tables());
  EXPECT_FALSE(reporter("summary").draws_tables());
}

}  // namespace
