#include "utf8.h"

namespace reading_list {

bool next_code_point(std::string_view s, std::size_t& i, char32_t& c) {
  const auto lead = static_cast<unsigned char>(s[i]);
  if (lead < 0x80) {
    c = lead;
    ++i;
    return true;
  }
  // The sequence's length and the least value it may encode (anything less is
  // an overlong form, which could hide a '/' or a NUL).
  std::size_t length = 0;
  char32_t least = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    least = 0x80;
    c = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    least = 0x800;
    c = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    least = 0x10000;
    c = lead & 0x07;
  } else {
    ++i;
    return false;
  }
  if (s.size() - i < length) {
    ++i;
    return false;
  }
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(s[i + k]);
    if ((next & 0xC0) != 0x80) {
      ++i;
      return false;
    }
    c = (c << 6) | (next & 0x3F);
  }
  if (c < least || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
    ++i;
    return false;
  }
  i += length;
  return true;
}

std::size_t find_invalid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    char32_t c;
    if (!next_code_point(s, i, c)) return at;
  }
  return std::string_view::npos;
}

}  // namespace reading_list
