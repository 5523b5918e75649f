// MPICH's selection table of the running library (selection_table.hpp).
#include "core/engine/selection_table.hpp"

#include <dlfcn.h>
#include <mpi.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/results/bounded_json.hpp"
#include "core/results/digest.hpp"

namespace mpiarena {

namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

bool parses(const std::string& text) {
  try {
    parse_bounded<nlohmann::ordered_json>(text, kSelectionTableDepth);
    return true;
  } catch (const std::exception&) {  // not JSON, or nested too deep
    return false;
  }
}

// The longest NUL-terminated string of `binary` that starts with
// {"collective= and names an MPIR_ algorithm.
std::string compiled_table(const std::string& binary) {
  static const std::string kStart = "{\"collective=";
  std::string best;
  for (std::size_t at = binary.find(kStart); at != std::string::npos;
       at = binary.find(kStart, at + 1)) {
    const std::size_t end = binary.find('\0', at);
    if (end == std::string::npos) break;
    const std::string s = binary.substr(at, end - at);
    if (s.size() > best.size() &&
        s.find("\"algorithm=MPIR_") != std::string::npos)
      best = s;
  }
  return best;
}

}  // namespace

SelectionTable mpich_selection_table() {
  SelectionTable t;
  const char* given = std::getenv("MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE");
  if (given && *given) {
    if (!read_file(given, t.text) || !parses(t.text)) {
      t.text.clear();
      t.why_none = std::string("the launch's selection file ") + given +
                   " cannot be read as JSON";
      return t;
    }
    t.source = given;
    return t;
  }
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&MPI_Init), &info) || !info.dli_fname) {
    t.why_none = "the MPI library's file was not found (dladdr)";
    return t;
  }
  std::string binary;
  if (!read_file(info.dli_fname, binary)) {
    t.why_none = std::string("cannot read ") + info.dli_fname;
    return t;
  }
  t.text = compiled_table(binary);
  if (t.text.empty() || !parses(t.text)) {
    t.text.clear();
    t.why_none =
        std::string("no MPIR selection table found in ") + info.dli_fname;
    return t;
  }
  t.source = info.dli_fname;
  return t;
}

std::optional<TuningFileContext> loaded_tuning_file(
    const std::string& library) {
  const auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v ? v : "");
  };
  std::string variable;
  if (library == "Open MPI") {
    std::string on = env("OMPI_MCA_coll_tuned_use_dynamic_rules");
    for (char& c : on) c = static_cast<char>(std::tolower(c));
    if (on == "1" || on == "true" || on == "yes" || on == "on" ||
        on == "enabled")
      variable = "coll_tuned_dynamic_rules_filename";
  } else if (library == "MPICH") {
    variable = "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE";
  }
  const std::string path =
      variable.empty()     ? ""
      : library == "MPICH" ? env(variable.c_str())
                           : env("OMPI_MCA_coll_tuned_dynamic_rules_filename");
  if (path.empty()) return std::nullopt;
  std::string text;
  return TuningFileContext{
      variable, path, read_file(path, text) ? text_digest(text) : ""};
}

}  // namespace mpiarena
