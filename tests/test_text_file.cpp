// The reader every file command reads a result file through
// (core/results/text_file.hpp): plain text as it is, gzip data decompressed
// (detected by its magic number, not by the name), several members one
// after the other, and a clear refusal of corrupt, truncated or trailing
// data that names the file.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/results/text_file.hpp"

using mpiarena::gunzip;
using mpiarena::is_gzip;
using mpiarena::read_text_file;
using mpiarena::ReadError;

namespace {

// `gzip -9n` of the text {"a": 1}\n and of second\n (written by gzip, so
// the reader is checked against another program's output, not only its
// own library's).
const unsigned char kFirst[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
                                0x02, 0x03, 0xab, 0x56, 0x4a, 0x54, 0xb2, 0x52,
                                0x30, 0xac, 0xe5, 0x02, 0x00, 0xfa, 0xa1, 0x47,
                                0x5c, 0x09, 0x00, 0x00, 0x00};
const unsigned char kSecond[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00,
                                 0x00, 0x02, 0x03, 0x2b, 0x4e, 0x4d, 0xce,
                                 0xcf, 0x4b, 0xe1, 0x02, 0x00, 0x7e, 0xc0,
                                 0x0f, 0x06, 0x07, 0x00, 0x00, 0x00};

std::string bytes(const unsigned char* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}
const std::string kFirstGz = bytes(kFirst, sizeof kFirst);
const std::string kSecondGz = bytes(kSecond, sizeof kSecond);

// `text` compressed by zlib in gzip format (for texts larger than the
// reader's 64 KiB buffer).
std::string gzip(const std::string& text) {
  z_stream s{};
  EXPECT_EQ(deflateInit2(&s, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&s, text.size()), '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  s.avail_in = static_cast<uInt>(text.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

// A file in the test's temporary directory holding `content`; removed
// with the object.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content)
      : path_(::testing::TempDir() + "mpiarena_text_file_" +
              std::to_string(::getpid()) + "_" + name) {
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The message read_text_file throws for `path`, or "" when it reads.
std::string refusal(const std::string& path) {
  try {
    read_text_file(path);
  } catch (const ReadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TextFile, MagicNumber) {
  EXPECT_TRUE(is_gzip(kFirstGz));
  EXPECT_TRUE(is_gzip("\x1f\x8b"));
  EXPECT_FALSE(is_gzip("\x1f"));
  EXPECT_FALSE(is_gzip(""));
  EXPECT_FALSE(is_gzip("{\"a\": 1}"));
  EXPECT_FALSE(is_gzip("\x8b\x1f"));
}

TEST(TextFile, GunzipsGzipsOutput) {
  EXPECT_EQ(gunzip(kFirstGz), "{\"a\": 1}\n");
  EXPECT_EQ(gunzip(kSecondGz), "second\n");
}

TEST(TextFile, ConcatenatedMembersReadOneAfterTheOther) {
  // As gzip -d does: cat a.gz b.gz is the gzip of a's text then b's.
  EXPECT_EQ(gunzip(kFirstGz + kSecondGz), "{\"a\": 1}\nsecond\n");
  EXPECT_EQ(gunzip(kSecondGz + kSecondGz + kFirstGz),
            "second\nsecond\n{\"a\": 1}\n");
}

TEST(TextFile, LargeTextRoundTrips) {
  // Several times the reader's output buffer, and not one repeated byte.
  std::string text;
  for (int i = 0; text.size() < 1000000; ++i)
    text += "{\"point\": " + std::to_string(i * 7919 % 100003) + "},\n";
  const std::string gz = gzip(text);
  ASSERT_LT(gz.size(), text.size());
  EXPECT_EQ(gunzip(gz), text);
}

TEST(TextFile, EveryTruncationIsRefused) {
  const std::string gz = gzip(std::string(200000, 'x') + "end\n");
  for (std::size_t keep = 2; keep < gz.size(); keep += 1 + keep / 7) {
    try {
      gunzip(gz.substr(0, keep));
      ADD_FAILURE() << "a gzip file cut to " << keep << " of " << gz.size()
                    << " bytes was read";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("gzip data"), std::string::npos)
          << e.what();
    }
  }
  // The last byte of the trailer missing too.
  EXPECT_THROW(gunzip(kFirstGz.substr(0, kFirstGz.size() - 1)),
               std::invalid_argument);
}

TEST(TextFile, CorruptDataIsRefused) {
  std::string bad = kFirstGz;
  bad[12] = static_cast<char>(bad[12] ^ 0xff);  // inside the deflate data
  EXPECT_THROW(gunzip(bad), std::invalid_argument);
  std::string crc = kFirstGz;
  crc[sizeof kFirst - 8] ^= 0x01;  // the CRC-32 of the text
  try {
    gunzip(crc);
    ADD_FAILURE() << "a wrong CRC was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("corrupt"), std::string::npos)
        << e.what();
  }
}

TEST(TextFile, TrailingBytesAreRefused) {
  try {
    gunzip(kFirstGz + "junk\n");
    ADD_FAILURE() << "bytes after the gzip data were ignored";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("5 byte(s) after the end"),
              std::string::npos)
        << e.what();
  }
}

TEST(TextFile, PlainFilePassesThrough) {
  const std::string text = "{\"records\": []}\n\x1f not at the start";
  TempFile plain("plain.json", text);
  EXPECT_EQ(read_text_file(plain.path()), text);
  TempFile empty("empty.json", "");
  EXPECT_EQ(read_text_file(empty.path()), "");
}

TEST(TextFile, GzipDetectedByContentNotName) {
  TempFile named("a.json.gz", kFirstGz);
  EXPECT_EQ(read_text_file(named.path()), "{\"a\": 1}\n");
  TempFile unnamed("a.json", kFirstGz);  // gzip data under a plain name
  EXPECT_EQ(read_text_file(unnamed.path()), "{\"a\": 1}\n");
  TempFile plain_named_gz("b.json.gz", "{\"b\": 2}\n");  // not gzip data
  EXPECT_EQ(read_text_file(plain_named_gz.path()), "{\"b\": 2}\n");
}

TEST(TextFile, RefusalsNameTheFile) {
  TempFile cut("cut.json.gz", kFirstGz.substr(0, 15));
  const std::string truncated = refusal(cut.path());
  EXPECT_NE(truncated.find("'" + cut.path() + "'"), std::string::npos)
      << truncated;
  EXPECT_NE(truncated.find("truncated"), std::string::npos) << truncated;

  std::string bad = kFirstGz;
  bad[12] = static_cast<char>(bad[12] ^ 0xff);
  TempFile corrupt("corrupt.json.gz", bad);
  const std::string corrupted = refusal(corrupt.path());
  EXPECT_NE(corrupted.find("'" + corrupt.path() + "'"), std::string::npos)
      << corrupted;
  EXPECT_NE(corrupted.find("corrupt gzip data"), std::string::npos)
      << corrupted;

  const std::string missing =
      refusal(::testing::TempDir() + "mpiarena_no_such_file.json.gz");
  EXPECT_NE(missing.find("mpiarena_no_such_file.json.gz"), std::string::npos)
      << missing;
}

// A text longer than the bound is refused as soon as it passes it: gzip
// data (a bomb of zeros), and a plain file alike; the message names the
// file, the bound and the variable that raises it.
TEST(TextFile, GunzipStopsAtItsLimit) {
  const std::string zeros(300000, '\0');
  const std::string gz = gzip(zeros);
  EXPECT_EQ(gunzip(gz, zeros.size()), zeros);
  EXPECT_THROW(gunzip(gz, zeros.size() - 1), mpiarena::TextTooLarge);
}

TEST(TextFile, TheBoundRefusesBombsAndLongPlainFiles) {
  ASSERT_EQ(::setenv(mpiarena::kMaxTextVariable, "1", 1), 0);
  const std::string long_text((1 << 20) + 1, ' ');
  TempFile bomb("bomb.json.gz", gzip(long_text));
  const std::string bombed = refusal(bomb.path());
  EXPECT_NE(bombed.find("'" + bomb.path() + "'"), std::string::npos) << bombed;
  EXPECT_NE(bombed.find("inflates to more than 1 MiB"), std::string::npos)
      << bombed;
  EXPECT_NE(bombed.find("MPIARENA_MAX_FILE_MIB"), std::string::npos) << bombed;
  TempFile plain("long.json", long_text);
  const std::string longer = refusal(plain.path());
  EXPECT_NE(longer.find("is longer than 1 MiB"), std::string::npos) << longer;
  // At the bound exactly: read.
  TempFile fits("fits.json.gz", gzip(long_text.substr(1)));
  EXPECT_EQ(read_text_file(fits.path()).size(), std::size_t{1} << 20);
  ASSERT_EQ(::setenv(mpiarena::kMaxTextVariable, "lots", 1), 0);
  const std::string bad = refusal(fits.path());
  EXPECT_NE(bad.find("MPIARENA_MAX_FILE_MIB='lots'"), std::string::npos)
      << bad;
  ASSERT_EQ(::unsetenv(mpiarena::kMaxTextVariable), 0);
  EXPECT_EQ(mpiarena::max_text_bytes(), std::size_t{1} << 30);
  EXPECT_EQ(read_text_file(bomb.path()).size(), long_text.size());
}

TEST(TextFile, CompressedTwiceIsSaidToBe) {
  TempFile twice("twice.json.gz", gzip(kFirstGz));
  const std::string said = refusal(twice.path());
  EXPECT_NE(said.find("'" + twice.path() + "': it is gzip-compressed twice"),
            std::string::npos)
      << said;
}

TEST(TextFile, GzipRoundTripsThroughGunzip) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i * 7919) + ",\n";
  const std::string packed = mpiarena::gzip(text);
  EXPECT_TRUE(is_gzip(packed));
  EXPECT_LT(packed.size(), text.size());
  EXPECT_EQ(gunzip(packed), text);
  EXPECT_EQ(gunzip(mpiarena::gzip("")), "");
  EXPECT_TRUE(mpiarena::gzip_name("a.json.gz"));
  EXPECT_FALSE(mpiarena::gzip_name(".gz"));
  EXPECT_FALSE(mpiarena::gzip_name("a.json"));
  EXPECT_FALSE(mpiarena::gzip_name("a.gz.md"));
}
