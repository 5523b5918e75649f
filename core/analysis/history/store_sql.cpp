// The compression of the documents the store keeps (store_sql.hpp).
#include "store_sql.hpp"

#include <zlib.h>

namespace mpiarena {

std::string deflate(const std::string& text) {
  uLongf size = compressBound(text.size());
  std::string out(8 + size, '\0');
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<char>(
        (static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xff);
  if (compress2(reinterpret_cast<Bytef*>(&out[8]), &size,
                reinterpret_cast<const Bytef*>(text.data()), text.size(),
                6) != Z_OK)
    throw StoreError("cannot compress the document");
  out.resize(8 + size);
  return out;
}

std::string inflate(const std::string& data) {
  if (data.size() < 8) throw StoreError("a stored document is truncated");
  std::uint64_t size = 0;
  for (int i = 0; i < 8; ++i)
    size |= static_cast<std::uint64_t>(static_cast<unsigned char>(data[i]))
            << (8 * i);
  if (size > (std::uint64_t{1} << 32))
    throw StoreError("a stored document claims " + std::to_string(size) +
                     " bytes");
  std::string out(size, '\0');
  uLongf got = size;
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &got,
                 reinterpret_cast<const Bytef*>(data.data() + 8),
                 data.size() - 8) != Z_OK ||
      got != size)
    throw StoreError("a stored document does not decompress");
  return out;
}

}  // namespace mpiarena
