#include "indexer/markup.h"

#include <charconv>
#include <cstdint>

#include "engine/analysis/unicode_text.h"

namespace abstracts::indexer {
namespace {

// Appends code point `cp` as UTF-8 (nothing for one out of range or a surrogate).
void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The entity at `s` (after its '&'), appended to `out`; returns its length
// with the ';', or 0 when it is none.
std::size_t entity(std::string_view s, std::string& out) {
  const auto semi = s.find(';');
  if (semi == std::string_view::npos || semi == 0 || semi > 10) return 0;
  const std::string_view name = s.substr(0, semi);
  if (name[0] == '#') {
    std::uint32_t cp = 0;
    const bool hex = name.size() > 1 && (name[1] == 'x' || name[1] == 'X');
    const std::string_view digits = name.substr(hex ? 2 : 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
    if (ec != std::errc() || end != digits.data() + digits.size()) return 0;
    if (cp == '\r' || cp == '\n' || cp == '\t') cp = ' ';
    append_utf8(out, cp);
    return semi + 1;
  }
  static constexpr std::pair<std::string_view, std::string_view> kNamed[] = {
      {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}, {"nbsp", "\u00a0"}};
  for (const auto& [n, text] : kNamed) {
    if (name == n) {
      out += text;
      return semi + 1;
    }
  }
  return 0;
}

}  // namespace

std::string strip_markup(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '&') {
      if (const std::size_t n = entity(text.substr(i + 1), out); n > 0) {
        i += n;
        continue;
      }
    }
    if (c == '<') {
      // A tag: "<p>", "</p>", "<br/>", "<mml:mi>", "<a href=...>".
      std::size_t j = i + 1;
      if (j < text.size() && text[j] == '/') ++j;
      const std::size_t name_start = j;
      while (j < text.size() && (analysis::is_ascii_letter(text[j]) ||
                                 (j > name_start && (text[j] == ':' || text[j] == '-' ||
                                                     (text[j] >= '0' && text[j] <= '9'))))) {
        ++j;
      }
      // The tag's '>', past quoted attribute values ("<a href=\"x>y\">").
      std::size_t close = j;
      while (close < text.size() && text[close] != '>') {
        if (text[close] == '"' || text[close] == '\'') {
          const auto end = text.find(text[close], close + 1);
          close = end == std::string_view::npos ? text.size() : end;
        }
        ++close;
      }
      if (close >= text.size()) close = std::string_view::npos;
      if (j > name_start && close != std::string_view::npos &&
          (j == close || text[j] == ' ' || text[j] == '/' || text[j] == '\n')) {
        const std::string_view name = text.substr(name_start, j - name_start);
        static constexpr std::string_view kBlocks[] = {"p", "br", "div", "li", "ul", "ol", "h1", "h2",
                                                        "h3", "h4", "h5", "h6", "tr", "td", "title"};
        for (auto block : kBlocks) {
          if (name == block) out += ' ';
        }
        i = close;
        continue;
      }
    }
    out += c;
  }
  return out;
}

}  // namespace abstracts::indexer
