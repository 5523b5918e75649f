// Internal: the text of a file mpiarena reads (a result document, runner
// tune's decisions), decompressed when it is gzip data, and the gzip data
// of a file it writes under a .gz name. Every file command reads through
// here, so a .json.gz archive is read like the .json it holds.
#pragma once

#include <cstddef>
#include <cstdint>
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

// gzip data whose text would be longer than the bound it was read under
// (a gzip bomb: a small file of zeros that inflates to gigabytes).
class TextTooLarge : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The environment variable that sets the bound, in MiB, and its default:
// the longest text read from a file, plain or after decompression. A
// result document of the default survey is a few MB; one of 100 000
// repetitions (the most -r takes) holds about 9 MB per point.
inline constexpr const char* kMaxTextVariable = "MPIARENA_MAX_FILE_MIB";
inline constexpr std::uint64_t kDefaultMaxTextMiB = 1024;

// The bound in bytes: MPIARENA_MAX_FILE_MIB MiB, or 1 GiB when it is
// unset. Throws ReadError saying what is accepted when it is not a whole
// number from 1 on.
std::size_t max_text_bytes();

// Whether `bytes` begin with gzip's magic number (1f 8b), whatever the name.
bool is_gzip(std::string_view bytes);

// `bytes` (gzip data) decompressed. A file of several gzip members (two .gz
// files concatenated) gives their texts one after the other, as gzip -d
// does. Throws std::invalid_argument saying what is wrong: corrupt data,
// data that ends inside a member (a truncated file), or bytes after the last
// member that are not another member; TextTooLarge as soon as the text
// passes `limit` bytes (memory stays bounded: the text is inflated once
// only to measure it, 64 KiB at a time, then into a string of its size).
std::string gunzip(std::string_view bytes, std::size_t limit = SIZE_MAX);

// `text` as one gzip member (zlib's default level).
std::string gzip(std::string_view text);

// Whether `name` ends in ".gz": a file written under it is gzip data.
bool gzip_name(std::string_view name);

// The text of the file `path`: its bytes, decompressed when they are gzip
// data (detected by the magic number, not by the name). Throws ReadError
// naming the file when it cannot be opened or read, its gzip data is bad,
// it is gzip data of gzip data (compressed twice), or its text is longer
// than max_text_bytes() (found before that much is read or allocated).
std::string read_text_file(const std::string& path);

}  // namespace mpiarena
