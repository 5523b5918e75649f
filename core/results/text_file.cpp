// The text of a file, decompressed when it is gzip data (text_file.hpp).
#include "core/results/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace mpiarena {

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

bool gzip_name(std::string_view name) {
  return name.size() > 3 && name.substr(name.size() - 3) == ".gz";
}

std::size_t max_text_bytes() {
  const char* env = std::getenv(kMaxTextVariable);
  if (!env || !*env) return kDefaultMaxTextMiB << 20;
  char* end = nullptr;
  errno = 0;
  const unsigned long long mib = std::strtoull(env, &end, 10);
  // At most 2^43 MiB, so that the bytes fit in 64 bits.
  if (*env < '0' || *env > '9' || *end || errno || mib == 0 ||
      mib > (1ULL << 43))
    throw ReadError(std::string(kMaxTextVariable) + "='" + env +
                    "': give the longest text a file command reads as a "
                    "whole number of MiB from 1 on (unset: " +
                    std::to_string(kDefaultMaxTextMiB) + ")");
  return static_cast<std::size_t>(mib << 20);
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

// "1024 MiB", or the bytes when the bound is not whole MiB.
std::string size_words(std::size_t bytes) {
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// Inflates `bytes`, handing the text to `sink` 64 KiB at a time; throws
// TextTooLarge as soon as the text passes `limit` bytes. Its length.
std::size_t inflate_into(
    std::string_view bytes, std::size_t limit,
    const std::function<void(const char*, std::size_t)>& sink) {
  if (bytes.size() > UINT_MAX)
    throw std::invalid_argument("gzip data over 4 GiB is not read here");
  Inflater inflater(bytes);
  z_stream& s = inflater.stream();
  std::size_t length = 0;
  char buffer[1 << 16];
  for (;;) {
    s.next_out = reinterpret_cast<Bytef*>(buffer);
    s.avail_out = sizeof buffer;
    const int rc = inflate(&s, Z_NO_FLUSH);
    const std::size_t got = sizeof buffer - s.avail_out;
    if (got > limit - length)
      throw TextTooLarge("its gzip data inflates to more than " +
                         size_words(limit));
    length += got;
    sink(buffer, got);
    if (rc == Z_STREAM_END) {
      if (s.avail_in == 0) return length;
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

// Inflates `bytes` twice: once to measure the text (and see whether it is
// gzip data again: `twice`), then into a string of that length. A bomb
// costs no memory beyond its own bytes.
std::string inflate_measured(std::string_view bytes, std::size_t limit,
                             bool& twice) {
  std::string start;
  const std::size_t length =
      inflate_into(bytes, limit, [&start](const char* data, std::size_t n) {
        if (start.size() < 2)
          start.append(data, std::min(n, 2 - start.size()));
      });
  twice = is_gzip(start);
  std::string out;
  out.reserve(length);
  inflate_into(bytes, limit, [&out](const char* data, std::size_t n) {
    out.append(data, n);
  });
  return out;
}

}  // namespace

std::string gunzip(std::string_view bytes, std::size_t limit) {
  bool twice = false;
  return inflate_measured(bytes, limit, twice);
}

std::string gzip(std::string_view text) {
  z_stream s{};
  // 15 + 16: gzip's header and trailer; memory level 8, zlib's default.
  if (deflateInit2(&s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("cannot start zlib's compressor");
  std::string out;
  char buffer[1 << 16];
  int rc = Z_OK;
  // In pieces of at most 1 GiB: avail_in is 32 bits.
  std::size_t done = 0;
  do {
    const std::size_t piece =
        std::min<std::size_t>(text.size() - done, 1u << 30);
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data() + done));
    s.avail_in = static_cast<uInt>(piece);
    done += piece;
    const int flush = done == text.size() ? Z_FINISH : Z_NO_FLUSH;
    do {
      s.next_out = reinterpret_cast<Bytef*>(buffer);
      s.avail_out = sizeof buffer;
      rc = deflate(&s, flush);
      out.append(buffer, sizeof buffer - s.avail_out);
    } while (flush == Z_FINISH ? rc == Z_OK : s.avail_out == 0);
  } while (done < text.size());
  deflateEnd(&s);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib's compressor failed");
  return out;
}

std::string read_text_file(const std::string& path) {
  const std::size_t limit = max_text_bytes();
  auto fail = [&path](const std::string& what) {
    return ReadError("cannot read '" + path + "': " + what);
  };
  const std::string raise =
      "; no result document approaches it (" + std::string(kMaxTextVariable) +
      "=MIB raises the bound)";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw fail(std::strerror(errno));
  std::string text;
  struct stat st;
  int err = 0;
  bool over = false;
  if (::fstat(fd, &st) == 0 && st.st_size > 0 &&
      static_cast<unsigned long long>(st.st_size) > limit) {
    over = true;
  } else {
    // Read to the end (a file may grow meanwhile), never past the bound.
    if (::fstat(fd, &st) == 0 && st.st_size > 0)
      text.reserve(static_cast<std::size_t>(st.st_size));
    char buffer[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) err = errno;
      if (n <= 0) break;
      if (static_cast<std::size_t>(n) > limit - text.size()) {
        over = true;
        break;
      }
      text.append(buffer, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  if (over)
    throw fail("it is longer than " + size_words(limit) +
               ", the most a file command reads" + raise);
  if (err) throw fail(std::strerror(err));
  if (!is_gzip(text)) return text;
  try {
    bool twice = false;
    std::string inner = inflate_measured(text, limit, twice);
    if (twice)
      throw fail(
          "it is gzip-compressed twice (its gzip data holds gzip data "
          "again); decompress it once (zcat '" +
          path + "' > FILE) and give FILE");
    return inner;
  } catch (const TextTooLarge& e) {
    throw fail(e.what() + (", the most a file command reads" + raise));
  } catch (const std::invalid_argument& e) {
    throw fail(e.what() +
               std::string("; a .gz file must be whole gzip data (gzip -t "
                           "checks it)"));
  }
}

}  // namespace mpiarena
