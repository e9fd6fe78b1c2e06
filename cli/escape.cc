#include "cli/escape.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace abstracts::cli {
namespace {

// The length of the well-formed UTF-8 character at text[i] and its code point
// in `c`, or 0 if the bytes there are none (RFC 3629's table of well-formed
// sequences: no overlong forms, no surrogates, nothing past U+10FFFF).
std::size_t utf8_char(std::string_view text, std::size_t i, char32_t& c) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (b0 < 0x80) {
    c = b0;
    return 1;
  } else if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2, c = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3, c = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4, c = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (text.size() - i < n) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(text[i + k]);
    if (b < lo || b > hi) return 0;
    lo = 0x80, hi = 0xBF;
    c = (c << 6) | (b & 0x3F);
  }
  return n;
}

bool is_c1(char32_t c) { return c >= 0x80 && c <= 0x9F; }

// The explicit embeddings, overrides and isolates: what "Trojan Source"
// (CVE-2021-42574) hides text with. The marks (U+200E, U+200F) are left: they
// cannot reorder letters, and right-to-left names carry them.
bool is_bidi_control(char32_t c) { return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069); }

// `text` with each character that `escape(c, utf8, out)` escapes replaced by
// what it appends to `out`; `c` is the code point, or with `utf8` false a byte
// that is not part of a UTF-8 character. Copied in runs: text is mostly plain.
template <typename Escape>
std::string replace_special(std::string_view text, Escape escape) {
  std::string out;
  out.reserve(text.size());
  std::size_t copied = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7F) {
      ++i;
      continue;
    }
    char32_t c = 0;
    const std::size_t n = utf8_char(text, i, c);
    if (n == 0) c = b;
    const std::size_t at = i;
    i += n == 0 ? 1 : n;
    out.append(text.substr(copied, at - copied));
    if (!escape(c, n != 0, out)) out.append(text.substr(at, i - at));
    copied = i;
  }
  out.append(text.substr(copied));
  return out;
}

}  // namespace

std::string escape_controls(std::string_view text) {
  return replace_special(text, [](char32_t c, bool utf8, std::string& out) {
    char escape[16];
    if (!utf8 || c < 0x20 || c == 0x7F) {
      std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned>(c));
    } else if (is_c1(c) || is_bidi_control(c)) {
      std::snprintf(escape, sizeof escape, "\\u{%x}", static_cast<unsigned>(c));
    } else {
      return false;
    }
    out += escape;
    return true;
  });
}

std::string escape_json_controls(std::string json) {
  // Most documents have no byte that could start one (DEL, C1: C2, bidi: E2).
  if (json.find_first_of("\x7f\xc2\xe2") == std::string::npos) return json;
  return replace_special(json, [](char32_t c, bool utf8, std::string& out) {
    if (!utf8 || !(c == 0x7F || is_c1(c) || is_bidi_control(c))) return false;
    char escape[8];
    std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
    out += escape;
    return true;
  });
}

std::size_t find_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t c = 0;
    const std::size_t n = utf8_char(text, i, c);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      group = (group << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    }
    for (std::size_t k = 0; k < 4; ++k) {
      out += k <= n ? kDigits[(group >> (18 - 6 * k)) & 0x3F] : '=';
    }
  }
  return out;
}

}  // namespace abstracts::cli
