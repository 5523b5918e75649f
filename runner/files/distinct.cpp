// The files of a pool each once (files.hpp, distinct_files).
#include <filesystem>
#include <iostream>

#include "core/results/bounded_json.hpp"
#include "core/results/digest.hpp"
#include "core/results/text_file.hpp"
#include "runner/files/files.hpp"

namespace mpiarena {

namespace {

// The digest of the file's JSON content (of its bytes when it is not
// JSON), or "" when it is not a regular file (a named pipe would block the
// read) or cannot be read: the caller's reading then says why.
std::string content_digest(const std::string& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return "";
  // The text, decompressed when it is gzip data: a.json and a gzip of it
  // are the same launch.
  std::string text;
  try {
    text = read_text_file(file);
  } catch (const ReadError&) {
    return "";
  }
  // The content, not the bytes: a copy written again by another JSON
  // writer (other spaces, other key order) is the same launch.
  std::string canonical;
  try {
    canonical = parse_bounded(text, kResultDepth).dump();
  } catch (const std::exception&) {  // not JSON: its reading says so
    canonical = text;
  }
  return text_digest(canonical) + ":" + std::to_string(canonical.size());
}

}  // namespace

std::vector<std::string> distinct_files(const std::vector<std::string>& files,
                                        const std::string& pool) {
  std::vector<std::string> kept, digests;
  for (const std::string& file : files) {
    const std::string digest = content_digest(file);
    std::string same, how;
    for (std::size_t i = 0; i < kept.size() && same.empty(); ++i) {
      std::error_code ec;
      if (kept[i] == file) {
        same = kept[i], how = "given twice";
      } else if (std::filesystem::equivalent(kept[i], file, ec)) {
        same = kept[i], how = "the same file as '" + kept[i] + "'";
      } else if (!digest.empty() && digest == digests[i]) {
        same = kept[i], how = "a copy of '" + kept[i] + "' (the same content)";
      }
    }
    if (!same.empty()) {
      std::cerr << program_name() << ": warning: " << pool << ": '" << file
                << "' is " << how
                << ": one launch, counted once (a launch is one observation)\n";
      continue;
    }
    kept.push_back(file);
    digests.push_back(digest);
  }
  return kept;
}

}  // namespace mpiarena
