// UTF-8 decoding for the list file and for printing, without ICU: the example
// sees only the library's public API.
#ifndef READING_LIST_UTF8_H_
#define READING_LIST_UTF8_H_

#include <cstddef>
#include <string_view>

namespace reading_list {

// Decodes the character that starts at s[i] into `c` and moves `i` past it.
// Returns false, moving `i` one byte on, when the bytes there are not UTF-8: a
// stray continuation byte, a sequence cut short, an overlong form, a surrogate
// or a value over U+10FFFF. `i` must be less than s.size().
bool next_code_point(std::string_view s, std::size_t& i, char32_t& c);

// The offset of the first byte of `s` that is not UTF-8, or npos.
std::size_t find_invalid_utf8(std::string_view s);

}  // namespace reading_list

#endif  // READING_LIST_UTF8_H_
