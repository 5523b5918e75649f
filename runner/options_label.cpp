// --label: the run's label (options_parse.hpp).
#include <string>

#include "core/results/printable.hpp"
#include "runner/options_parse.hpp"

namespace mpiarena {

void describe_label(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("label", po::value<std::string>(&o.label),
     "a run and runner ab: a name for the run (e.g. nightly-42), 1 to "
     "64 printable characters, kept in the result file's context and "
     "shown by history, trend and compare");
  // clang-format on
}

void check_label(const po::variables_map& vm, const Options& o) {
  if (!vm.count("label")) return;
  std::size_t characters = 0;  // UTF-8: the bytes that start one
  for (const char c : o.label)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++characters;
  const bool blank =
      o.label.find_first_not_of(' ') == std::string::npos;
  if (characters < 1 || characters > kMaxLabel || blank ||
      !is_printable(o.label))
    throw UsageError("--label '" + printable(o.label) +
                     "': a label is 1 to " + std::to_string(kMaxLabel) +
                     " printable characters, not only spaces (no control "
                     "characters, tabs or newlines)");
}

}  // namespace mpiarena
