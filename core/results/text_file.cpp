// The text of a file, decompressed when it is gzip data (text_file.hpp).
#include "text_file.hpp"

#include <zlib.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mpiarena {

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

namespace {

// One inflate stream over `bytes`, ended whatever happens.
class Inflater {
 public:
  explicit Inflater(std::string_view bytes) {
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream_.avail_in = static_cast<uInt>(bytes.size());
    // 15 + 16: a window of 32 KiB, gzip's header and trailer (not zlib's).
    if (inflateInit2(&stream_, 15 + 16) != Z_OK)
      throw std::runtime_error("cannot start zlib's decompressor");
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& stream() { return stream_; }

 private:
  z_stream stream_{};
};

std::string why(const z_stream& s, const char* otherwise) {
  return s.msg ? std::string(s.msg) : std::string(otherwise);
}

}  // namespace

std::string gunzip(std::string_view bytes) {
  if (bytes.size() > UINT_MAX)
    throw std::invalid_argument("gzip data over 4 GiB is not read here");
  Inflater inflater(bytes);
  z_stream& s = inflater.stream();
  std::string out;
  char buffer[1 << 16];
  for (;;) {
    s.next_out = reinterpret_cast<Bytef*>(buffer);
    s.avail_out = sizeof buffer;
    const int rc = inflate(&s, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - s.avail_out);
    if (rc == Z_STREAM_END) {
      if (s.avail_in == 0) return out;
      const std::string_view rest(reinterpret_cast<const char*>(s.next_in),
                                  s.avail_in);
      if (!is_gzip(rest))
        throw std::invalid_argument(
            std::to_string(rest.size()) +
            " byte(s) after the end of the gzip data that are not another "
            "gzip member");
      inflateReset(&s);  // the next member (gzip -d reads them all)
      continue;
    }
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT)
      throw std::invalid_argument("corrupt gzip data (" + why(s, "bad data") +
                                  ")");
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    // Z_BUF_ERROR, or Z_OK with every input byte used: the data ends
    // inside a member.
    if (s.avail_in == 0 && s.avail_out != 0)
      throw std::invalid_argument(
          "truncated gzip data (the file ends inside a compressed member)");
    if (rc != Z_OK)
      throw std::invalid_argument("corrupt gzip data (" + why(s, "zlib error") +
                                  ")");
  }
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ReadError("cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw ReadError("cannot read '" + path + "'");
  std::string text = bytes.str();
  if (!is_gzip(text)) return text;
  try {
    return gunzip(text);
  } catch (const std::invalid_argument& e) {
    throw ReadError("cannot read '" + path + "': " + e.what() +
                    "; a .gz file must be whole gzip data (gzip -t checks "
                    "it)");
  }
}

}  // namespace mpiarena
