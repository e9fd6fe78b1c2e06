#include "engine/analysis/unicode_text.h"

#include <cstdint>
#include <cstring>

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

namespace abstracts::analysis {
namespace {

// Length of the white-space character at s[i], or 0 if it is not one.
std::size_t space_length(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || c < 0x20 || c == 0x7f) return 1;
  if (s.substr(i, 2) == "\u00a0") return 2;
  if (c == 0xe2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80) {
    auto c3 = static_cast<unsigned char>(s[i + 2]);
    if ((c3 >= 0x80 && c3 <= 0x8a) || c3 == 0xaf || c3 == 0xa8 || c3 == 0xa9) return 3;
  }
  if (s.substr(i, 3) == "\u205f" || s.substr(i, 3) == "\u3000") return 3;
  return 0;
}

// Bytes from `from` on that are ASCII, eight at a time: the length of the
// leading ASCII run of s.substr(from), rounded down to a multiple of eight.
std::size_t ascii_words(std::string_view s, std::size_t from) {
  std::size_t i = from;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if ((w & 0x8080808080808080ull) != 0) break;
  }
  return i - from;
}

}  // namespace

std::size_t ascii_prefix(std::string_view s) {
  std::size_t i = ascii_words(s, 0);
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

bool is_ascii(std::string_view s) { return ascii_prefix(s) == s.size(); }

std::string to_nfc(std::string s) {
  if (is_ascii(s)) return s;
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(s);
  if (U_FAILURE(status) || nfc->isNormalized(u, status)) return s;
  icu::UnicodeString normalized = nfc->normalize(u, status);
  if (U_FAILURE(status)) return s;
  std::string out;
  normalized.toUTF8String(out);
  return out;
}

std::string collapse_spaces(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending_space = false;
  for (std::size_t i = 0; i < s.size();) {
    // A run of printable ASCII other than the space, copied at once.
    std::size_t run = i;
    while (run < s.size() && static_cast<unsigned char>(s[run] - 0x21) < 0x5e) ++run;
    if (run > i) {
      if (pending_space) out += ' ';
      pending_space = false;
      out.append(s.substr(i, run - i));
      i = run;
      continue;
    }
    if (auto n = space_length(s, i); n > 0) {
      pending_space = !out.empty();
      i += n;
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += s[i++];
  }
  return out;
}

std::size_t find_invalid_utf8(std::string_view s) {
  const auto n = static_cast<int32_t>(s.size());
  int32_t i = 0;
  while (i < n) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      i += static_cast<int32_t>(ascii_words(s, static_cast<std::size_t>(i)));
      if (i < n && static_cast<unsigned char>(s[i]) < 0x80) ++i;
      continue;
    }
    int32_t start = i;
    UChar32 c;
    U8_NEXT(s.data(), i, n, c);
    if (c < 0) return static_cast<std::size_t>(start);
  }
  return std::string_view::npos;
}

}  // namespace abstracts::analysis
