// Text made safe to print (printable.hpp).
#include "core/results/printable.hpp"

#include <cstdio>

namespace mpiarena {

namespace {

// The length of the UTF-8 sequence at `s[i]` and its code point, or 0 when
// the bytes there are not one (overlong, surrogate, beyond U+10FFFF, cut).
std::size_t sequence(const std::string& s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) {
    return static_cast<unsigned char>(s[i + k]);
  };
  const unsigned char c = b(0);
  std::size_t n;
  if (c < 0x80) {
    cp = c;
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

bool unsafe(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0xFFFE ||
         cp == 0xFFFF;
}

}  // namespace

std::string printable(const std::string& text) {
  if (is_printable(text)) return text;
  std::string out;
  out.reserve(text.size() + 16);
  char buf[16];
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t n = sequence(text, i, cp);
    if (n == 0 || (n == 1 && unsafe(cp))) {
      std::snprintf(buf, sizeof buf, "\\x%02X",
                    static_cast<unsigned char>(text[i]));
      out += buf;
      ++i;
    } else if (unsafe(cp)) {
      std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp));
      out += buf;
      i += n;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

bool is_printable(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t n = sequence(text, i, cp);
    if (n == 0 || unsafe(cp)) return false;
    i += n;
  }
  return true;
}

std::size_t make_printable(nlohmann::json& doc) {
  std::size_t changed = 0;
  if (doc.is_string()) {
    const std::string& s = doc.get_ref<const std::string&>();
    if (!is_printable(s)) {
      doc = printable(s);
      ++changed;
    }
  } else if (doc.is_array()) {
    for (nlohmann::json& item : doc) changed += make_printable(item);
  } else if (doc.is_object()) {
    bool keys = false;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      changed += make_printable(it.value());
      keys = keys || !is_printable(it.key());
    }
    if (keys) {
      nlohmann::json renamed = nlohmann::json::object();
      for (auto it = doc.begin(); it != doc.end(); ++it) {
        const bool bad = !is_printable(it.key());
        changed += bad;
        renamed[bad ? printable(it.key()) : it.key()] = std::move(it.value());
      }
      doc = std::move(renamed);
    }
  }
  return changed;
}

}  // namespace mpiarena
