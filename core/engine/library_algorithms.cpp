// The MPI library's algorithms through MPI_T (library_algorithms.hpp).
#include "core/engine/library_algorithms.hpp"

#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include "core/engine/mpi_tool.hpp"

namespace mpiarena {

namespace {

bool identifier_char(char c) {
  return std::islower(static_cast<unsigned char>(c)) ||
         std::isdigit(static_cast<unsigned char>(c)) || c == '_';
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(c));
  return s;
}

// The items of an enumeration as algorithms.
std::vector<LibraryAlgorithm> algorithm_items(MPI_T_enum e) {
  std::vector<LibraryAlgorithm> out;
  for (const auto& [value, name] : enum_items(e)) out.push_back({value, name});
  return out;
}

std::string name_of(const std::vector<LibraryAlgorithm>& items, int value) {
  for (const LibraryAlgorithm& a : items)
    if (a.value == value) return a.name;
  return std::to_string(value);
}

// Open MPI's coll/tuned: the enumeration, the launch's forced value when
// its dynamic rules are on.
void open_mpi(CollectiveAlgorithms& c) {
  c.variable = "coll_tuned_" + c.collective + "_algorithm";
  const int index = cvar_index(c.variable);
  MPI_T_enum e = MPI_T_ENUM_NULL;
  if (index < 0 || (cvar_description(index, e), e == MPI_T_ENUM_NULL)) {
    c.why_none = "Open MPI has no control variable " + c.variable +
                 " with an enumeration (is coll/tuned built?)";
    return;
  }
  const std::vector<LibraryAlgorithm> items = algorithm_items(e);
  for (const LibraryAlgorithm& a : items)
    if (a.value != 0) c.algorithms.push_back(a);
  int value = 0, dynamic = 0;
  const int rules = cvar_index("coll_tuned_use_dynamic_rules");
  if (cvar_read(index, value) && rules >= 0 && cvar_read(rules, dynamic) &&
      dynamic)
    c.launch_value = value;
  c.launch_name = name_of(items, c.launch_value);
  c.own_choice = name_of(items, 0);
  // Written after MPI_Init, the variable holds for the communicators
  // created after the write, and only with the dynamic rules on.
  c.at_creation = true;
  c.writable = dynamic && cvar_write(index, value) == MPI_SUCCESS;
  if (!dynamic)
    c.why_fixed = "coll_tuned_use_dynamic_rules is off in this launch";
  else if (!c.writable)
    c.why_fixed = "Open MPI refuses to write " + c.variable + " after MPI_Init";
}

void mpich(CollectiveAlgorithms& c) {
  c.variable = "MPIR_CVAR_" + upper(c.collective) + "_INTRA_ALGORITHM";
  const int index = cvar_index(c.variable);
  if (index < 0) {
    c.why_none = "MPICH has no control variable " + c.variable;
    return;
  }
  MPI_T_enum e = MPI_T_ENUM_NULL;
  std::string why;
  const std::vector<LibraryAlgorithm> items =
      parse_mpich_algorithms(cvar_description(index, e), why);
  if (items.empty() || items[0].name != "auto") {
    c.why_none = "the description of " + c.variable + " does not list its " +
                 "values as expected (" +
                 (why.empty() ? "no 'auto' first" : why) + ")";
    return;
  }
  int value = 0;
  if (!cvar_read(index, value) || value < 0 ||
      value >= static_cast<int>(items.size())) {
    c.why_none = c.variable + " cannot be read, or holds a value its " +
                 "description does not list";
    return;
  }
  for (const LibraryAlgorithm& a : items)
    if (a.value != 0) c.algorithms.push_back(a);
  c.launch_value = value;
  c.launch_name = name_of(items, value);
  c.own_choice = items[0].name;
  c.writable = cvar_write(index, value) == MPI_SUCCESS;
  if (!c.writable) c.why_fixed = "MPICH refuses to write " + c.variable;
}

}  // namespace

void prepare_library_algorithms() {
  setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 0);
}

std::string mpi_library_name() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  const std::string v(version, static_cast<std::size_t>(len));
  if (v.find("Open MPI") != std::string::npos) return "Open MPI";
  if (v.find("MPICH") != std::string::npos) return "MPICH";
  return "other";
}

std::vector<LibraryAlgorithm> parse_mpich_algorithms(
    const std::string& description, std::string& why) {
  // The separators: "- " after at least one space; the first item's name
  // is glued to the heading ("...algorithmauto - ").
  std::vector<std::size_t> seps;
  for (std::size_t p = description.find(" - "); p != std::string::npos;
       p = description.find(" - ", p + 1))
    seps.push_back(p + 1);
  const std::string heading = "algorithm";
  // The first item's name: the identifier before its separator, less a
  // glued heading.
  std::size_t end = seps.empty() ? 0 : seps[0];
  while (end > 0 && description[end - 1] == ' ') --end;
  std::size_t begin = end;
  while (begin > 0 && identifier_char(description[begin - 1])) --begin;
  std::string first = description.substr(begin, end - begin);
  if (first.size() > heading.size() &&
      first.compare(0, heading.size(), heading) == 0)
    first.erase(0, heading.size());
  if (first.empty()) {
    why = "no first item 'name - text'";
    return {};
  }
  std::vector<LibraryAlgorithm> out{{0, first}};
  // The names after the first are left-aligned in a column: its width is
  // the smallest of (padding + the identifier before it, less a glued
  // "algorithm" ending the previous item's text). The second item follows
  // ")" (the first item's text), so one at least is exact.
  std::size_t width = std::string::npos;
  for (std::size_t i = 1; i < seps.size(); ++i) {
    std::size_t p = seps[i];
    std::size_t pad = 0;
    while (p > 0 && description[p - 1] == ' ') --p, ++pad;
    std::size_t start = p;
    while (start > 0 && identifier_char(description[start - 1])) --start;
    std::string run = description.substr(start, p - start);
    if (run.size() > heading.size() &&
        run.compare(0, heading.size(), heading) == 0)
      run.erase(0, heading.size());
    if (!run.empty()) width = std::min(width, pad + run.size());
  }
  for (std::size_t i = 1; i < seps.size(); ++i) {
    if (width == std::string::npos || seps[i] < width) {
      why = "no column of names";
      return {};
    }
    std::string field = description.substr(seps[i] - width, width);
    field.erase(field.find_last_not_of(' ') + 1);
    if (field.empty() ||
        !std::all_of(field.begin(), field.end(), identifier_char)) {
      why = "item " + std::to_string(i) + " is not 'name - text'";
      return {};
    }
    out.push_back({static_cast<int>(i), field});
  }
  return out;
}

// MPICH: an algorithm that cannot run with the call's arguments raises an
// error (the point fails with the library's reason) instead of falling
// back silently to the library's choice, which would be measured under the
// forced algorithm's name.
void mpich_fallback_error() {
  const std::string variable = "MPIR_CVAR_COLLECTIVE_FALLBACK";
  const int index = cvar_index(variable);
  if (index < 0) return;
  MPI_T_enum e = MPI_T_ENUM_NULL;
  std::string why;
  for (const LibraryAlgorithm& item :
       parse_mpich_algorithms(cvar_description(index, e), why))
    if (item.name == "error") cvar_write(index, item.value);
}

namespace {

// mpiarena's nine first, then every other collective the library names an
// algorithm variable for (Open MPI: coll_tuned_<c>_algorithm; MPICH:
// MPIR_CVAR_<C>_INTRA_ALGORITHM), in the order of its variables.
std::vector<std::string> exposed_collectives(const std::string& library,
                                             bool mpit) {
  std::vector<std::string> names = library_collectives();
  int count = 0;
  if (!mpit || MPI_T_cvar_get_num(&count) != MPI_SUCCESS) return names;
  const bool open_mpi = library == "Open MPI";
  const std::string head = open_mpi ? "coll_tuned_" : "MPIR_CVAR_";
  const std::string tail = open_mpi ? "_algorithm" : "_INTRA_ALGORITHM";
  for (int i = 0; i < count; ++i) {
    char name[256], desc[1];
    int name_len = sizeof name, desc_len = sizeof desc, verbosity = 0, bind = 0,
        scope = 0;
    MPI_Datatype type;
    MPI_T_enum e;
    if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &e, desc,
                            &desc_len, &bind, &scope) != MPI_SUCCESS)
      continue;
    const std::string v = name;
    if (v.size() <= head.size() + tail.size() || v.rfind(head, 0) != 0 ||
        v.compare(v.size() - tail.size(), tail.size(), tail) != 0)
      continue;
    std::string c = v.substr(head.size(), v.size() - head.size() - tail.size());
    for (char& ch : c) ch = static_cast<char>(std::tolower(ch));
    if (std::all_of(c.begin(), c.end(), identifier_char) &&
        std::find(names.begin(), names.end(), c) == names.end())
      names.push_back(c);
  }
  if (open_mpi) return names;
  // MPICH: not its shared-memory layer's variables (BCAST_POSIX...), nor a
  // nonblocking collective's (IBCAST beside BCAST): their descriptions glue
  // names of several columns to the text before them ("...algorithmssched_
  // recursive_doubling"), which no reading parses unambiguously, and a
  // wrong name would be shown and handed back to MPICH.
  std::vector<std::string> kept;
  for (const std::string& c : names) {
    const bool nonblocking =
        c.size() > 1 && c[0] == 'i' &&
        std::find(names.begin(), names.end(), c.substr(1)) != names.end();
    if (!nonblocking && c.find("posix") == std::string::npos) kept.push_back(c);
  }
  return kept;
}

}  // namespace

std::vector<CollectiveAlgorithms> discover_algorithms() {
  int provided = 0;
  const std::string library = mpi_library_name();
  std::vector<CollectiveAlgorithms> out;
  const bool mpit =
      MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS;
  for (const std::string& name : exposed_collectives(library, mpit)) {
    CollectiveAlgorithms c;
    c.collective = name;
    if (!mpit)
      c.why_none = "the MPI tool interface (MPI_T) could not be initialised";
    else if (library == "Open MPI")
      open_mpi(c);
    else if (library == "MPICH")
      mpich(c);
    else
      c.why_none = "mpiarena reads the algorithms of Open MPI and MPICH only";
    out.push_back(c);
  }
  if (mpit && library == "MPICH") mpich_fallback_error();
  return out;
}

AlgorithmSelector& AlgorithmSelector::instance() {
  static AlgorithmSelector selector;
  return selector;
}

void AlgorithmSelector::init(const std::vector<CollectiveAlgorithms>& found) {
  vars_.clear();
  for (const CollectiveAlgorithms& c : found)
    if (!c.variable.empty() && !c.algorithms.empty())
      vars_.push_back({c.collective, c.variable, cvar_index(c.variable),
                       c.launch_value, c.launch_value, c.writable});
}

void AlgorithmSelector::write(Var& v, int value) {
  if (v.current == value) return;
  if (!v.writable || v.index < 0)
    throw std::runtime_error(v.name + " cannot be changed after MPI_Init");
  const int err = cvar_write(v.index, value);
  if (err != MPI_SUCCESS)
    throw std::runtime_error("the MPI library refused " + v.name + " = " +
                             std::to_string(value) + " (MPI_T error " +
                             std::to_string(err) + ")");
  v.current = value;
}

void AlgorithmSelector::select(const std::string& collective, int value) {
  for (Var& v : vars_)
    if (v.collective != collective) write(v, v.launch);
  for (Var& v : vars_)
    if (v.collective == collective) write(v, value);
}

void AlgorithmSelector::restore() noexcept {
  for (Var& v : vars_) {
    try {
      write(v, v.launch);
    } catch (const std::exception&) {
    }
  }
}

}  // namespace mpiarena
