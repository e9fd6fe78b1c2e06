#include "abstracts/abstract.h"

#include <xxhash.h>

#include <cstdint>
#include <cstdio>

#include "engine/analysis/latex.h"
#include "engine/analysis/unicode_text.h"

namespace abstracts {
namespace {

constexpr std::string_view kCrockford = "0123456789abcdefghjkmnpqrstvwxyz";

bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Byte offset just past the first `max_chars` code points of `s` (or s.size()).
std::size_t offset_of_char(std::string_view s, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (is_utf8_continuation(s[i])) continue;
    if (chars++ == max_chars) return i;
  }
  return s.size();
}

bool is_upper_or_digit_start(std::string_view s, std::size_t i) {
  // Skip an opening quote or parenthesis: ". (We show" and ". “We" start sentences.
  while (i < s.size() && (s[i] == '(' || s[i] == '"' || s[i] == '\'' || s[i] == '*')) ++i;
  if (s.substr(i, 3) == "\u201c" || s.substr(i, 3) == "\u2018") i += 3;
  if (i >= s.size()) return false;
  auto c = static_cast<unsigned char>(s[i]);
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0xC0;
}

// Words after which a period does not end a sentence.
bool is_abbreviation(std::string_view word) {
  for (std::string_view a : {"e.g", "i.e", "al", "vs", "cf", "etc", "Fig", "Figs", "Eq",
                             "Eqs", "Sec", "approx", "resp", "Dr", "Prof", "No", "Vol", "St",
                             "Jr", "Inc", "Ltd", "et", "viz", "ca", "w.r.t", "a.k.a"}) {
    if (word == a) return true;
  }
  // A single letter before a period is a math variable ending a sentence ("for
  // every dimension d. Experiments", "We study X. Then"), far more often than an
  // author's initial in an abstract.
  return false;
}

// End (exclusive) of the first sentence of `s`.
std::size_t first_sentence_end(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c != '.' && c != '?' && c != '!') continue;
    std::size_t end = i + 1;
    // Closing quotes, brackets and emphasis belong to the sentence.
    while (end < s.size() && (s[end] == '"' || s[end] == '\'' || s[end] == ')' || s[end] == '*')) ++end;
    if (s.substr(end, 3) == "\u201d" || s.substr(end, 3) == "\u2019") end += 3;
    if (end >= s.size()) return s.size();
    if (s[end] != ' ' || !is_upper_or_digit_start(s, end + 1)) continue;
    if (c == '.') {
      std::size_t w = i;
      while (w > 0 && s[w - 1] != ' ' && s[w - 1] != '(') --w;
      if (is_abbreviation(s.substr(w, i - w))) continue;
    }
    return end;
  }
  return s.size();
}

}  // namespace

std::string content_id(std::string_view raw_text) {
  std::string normal = analysis::collapse_spaces(analysis::to_nfc(std::string(raw_text)));
  std::uint64_t h = XXH3_64bits(normal.data(), normal.size());
  std::string id(12, '0');
  for (int i = 0; i < 12; ++i) id[i] = kCrockford[(h >> (59 - 5 * i)) & 31];
  return id;
}

std::string display_text(std::string_view raw_text) { return analysis::latex_to_text(raw_text); }

std::string derive_title(std::string_view display, std::size_t max_chars) {
  std::string_view sentence = display.substr(0, first_sentence_end(display));
  // A title reads better without its final period ("?" and "!" stay).
  if (!sentence.empty() && sentence.back() == '.') sentence.remove_suffix(1);
  std::size_t cut = offset_of_char(sentence, max_chars);
  if (cut == sentence.size()) return std::string(sentence);
  // Too long: cut on the last word boundary that leaves room for the ellipsis.
  std::size_t room = offset_of_char(sentence, max_chars > 1 ? max_chars - 1 : 0);
  std::size_t space = sentence.rfind(' ', room);
  std::string_view head = sentence.substr(0, space == std::string_view::npos || space == 0 ? room : space);
  while (!head.empty() && (head.back() == ',' || head.back() == ':' || head.back() == ';' ||
                           head.back() == ' ' || head.back() == '(')) {
    head.remove_suffix(1);
  }
  return std::string(head) + "…";
}

std::string display_name(const Author& author) {
  if (author.given.empty()) return author.family;
  if (author.family.empty()) return author.given;
  return author.given + " " + author.family;
}

std::string zotero_link(const Abstract& a) {
  if (a.zotero_key.empty()) return {};
  if (a.zotero_group == 0) return "zotero://select/library/items/" + a.zotero_key;
  return "zotero://select/groups/" + std::to_string(a.zotero_group) + "/items/" + a.zotero_key;
}

std::string iso_date(const Abstract& a) {
  if (a.year == 0) return {};
  char buf[16];
  if (a.month < 1 || a.month > 12) {
    std::snprintf(buf, sizeof buf, "%04d", a.year);
  } else if (a.day < 1 || a.day > 31) {
    std::snprintf(buf, sizeof buf, "%04d-%02d", a.year, a.month);
  } else {
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", a.year, a.month, a.day);
  }
  return buf;
}

}  // namespace abstracts
