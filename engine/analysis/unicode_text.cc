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

// True if the eight bytes of `s` at `at` stay as they are in collapse_spaces():
// printable ASCII, spaces only single and between two such characters (the first
// byte may be one if `after_text`: the byte before it stays).
bool plain_words(std::string_view s, std::size_t at, bool after_text) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull, kLow = ~kHigh;
  std::uint64_t w;
  std::memcpy(&w, s.data() + at, 8);
  // No byte over 0x7f, so no sum carries into the next byte: each is at least
  // 0x20 if adding 0x60 sets its high bit, and under 0x7f if adding 1 does not.
  if ((w & kHigh) != 0 || ((w + 0x60 * kOnes) & kHigh) != kHigh || ((w + kOnes) & kHigh) != 0) return false;
  const std::uint64_t x = w ^ (0x20 * kOnes);                 // a space is a zero byte
  const std::uint64_t spaces = ~(((x & kLow) + kLow) | x | kLow);  // 0x80 where a space is
  if (spaces == 0) return true;
  const bool first = (spaces & 0x80) != 0, last = (spaces >> 56) != 0;
  return (spaces & (spaces << 8)) == 0 && !last && (after_text || !first);
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
  // A character that stays as it is: printable ASCII but the space, or one of
  // more bytes that is no white space.
  auto stays = [&](std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    return (c > 0x20 && c < 0x7f) || (c >= 0x80 && space_length(s, i) == 0);
  };
  bool pending_space = false;
  for (std::size_t i = 0; i < s.size();) {
    // Such characters, and single spaces between them, copied at once (most of
    // an abstract is one such span).
    std::size_t end = i;
    while (end < s.size()) {
      if (end + 8 <= s.size() && plain_words(s, end, end > i)) {
        end += 8;
      } else if (stays(end)) {
        ++end;
      } else if (s[end] == ' ' && end > i && end + 1 < s.size() && stays(end + 1)) {
        end += 2;
      } else {
        break;
      }
    }
    if (end > i) {
      if (pending_space) out += ' ';
      pending_space = false;
      out.append(s.substr(i, end - i));
      i = end;
      continue;
    }
    // White space, control characters among it: one space between words.
    pending_space = !out.empty();
    i += space_length(s, i);
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
