// Internal: the text of a file mpiarena reads (a result document, runner
// tune's decisions), decompressed when it is gzip data. Every file command
// reads through here, so a .json.gz archive is read like the .json it holds.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace mpiarena {

// A file that cannot be read or whose gzip data is corrupt or truncated;
// what() names the file and says what was wrong.
class ReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether `bytes` begin with gzip's magic number (1f 8b), whatever the name.
bool is_gzip(std::string_view bytes);

// `bytes` (gzip data) decompressed. A file of several gzip members (two .gz
// files concatenated) gives their texts one after the other, as gzip -d
// does. Throws std::invalid_argument saying what is wrong: corrupt data,
// data that ends inside a member (a truncated file), or bytes after the last
// member that are not another member.
std::string gunzip(std::string_view bytes);

// The text of the file `path`: its bytes, decompressed when they are gzip
// data (detected by the magic number, not by the name). Throws ReadError
// naming the file when it cannot be opened or read or its gzip data is
// bad.
std::string read_text_file(const std::string& path);

}  // namespace mpiarena
