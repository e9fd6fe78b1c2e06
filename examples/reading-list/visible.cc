#include "visible.h"

#include <cstdio>

#include "utf8.h"

namespace reading_list {

namespace {

bool needs_escape(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

}  // namespace

std::string visible(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char buf[16];
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    char32_t c;
    if (!next_code_point(text, i, c)) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(text[start]));
      out += buf;
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
      out += buf;
    } else if (needs_escape(c)) {
      std::snprintf(buf, sizeof buf, "\\u{%x}", static_cast<unsigned>(c));
      out += buf;
    } else {
      out.append(text.substr(start, i - start));
    }
  }
  return out;
}

}  // namespace reading_list
