// Small Unicode helpers shared by the analysis stages.
#ifndef ABSTRACTS_ENGINE_ANALYSIS_UNICODE_TEXT_H_
#define ABSTRACTS_ENGINE_ANALYSIS_UNICODE_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace abstracts::analysis {

bool is_ascii(std::string_view s);

// The length of the leading run of ASCII bytes of `s`.
std::size_t ascii_prefix(std::string_view s);

// An ASCII letter: a-z or A-Z (LaTeX command names, HTML tag names).
inline bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// The longest prefix of UTF-8 `s` of at most `max_bytes` bytes that cuts no
// character in two.
inline std::string_view utf8_prefix(std::string_view s, std::size_t max_bytes) {
  std::size_t cut = s.size() < max_bytes ? s.size() : max_bytes;
  while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut);
}

// NFC form of UTF-8 text (unchanged if already NFC).
std::string to_nfc(std::string s);

// Runs of white space (ASCII, control characters, NBSP and the other Unicode
// spaces) become one ASCII space; leading and trailing white space goes.
std::string collapse_spaces(std::string_view s);

// The byte offset of the first invalid UTF-8 sequence in `s`, or npos.
std::size_t find_invalid_utf8(std::string_view s);

}  // namespace abstracts::analysis

#endif  // ABSTRACTS_ENGINE_ANALYSIS_UNICODE_TEXT_H_
