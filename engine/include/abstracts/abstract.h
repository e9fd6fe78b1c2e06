// One abstract, as stored in and returned by the index.
#ifndef ABSTRACTS_ABSTRACT_H_
#define ABSTRACTS_ABSTRACT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace abstracts {

struct Abstract {
  // Stable short id. For the bundled text format it is derived from the text
  // (see content_id()); for JSON Lines input it is the record's "_id".
  std::string id;
  // Absolute path of the file the abstract was read from ("" if added directly).
  std::string source;
  // 1-based line of the abstract in `source` (0 if added directly).
  std::uint32_t line = 0;
  // Venue and year from the file's header line ("NeurIPS", 2026); "" and 0 if unknown.
  std::string venue;
  int year = 0;
  // Display title: the first sentence, LaTeX removed, cut on a word boundary.
  std::string title;
  // Display text: LaTeX commands removed, accents kept, white space collapsed.
  std::string text;
};

// The id abstracts derives from an abstract's text: the first 60 bits of
// XXH3-64 over the NFC-normalised, white-space-collapsed raw text, written as
// 12 characters of Crockford base32 (0-9, a-z without i, l, o, u). The same
// text gives the same id on every machine and every run.
std::string content_id(std::string_view raw_text);

// The display text of a raw abstract: LaTeX accent macros become accented
// letters, text and font commands keep their argument, math delimiters go,
// escaped characters unescape, white space collapses. "Pok\'emon" -> "Pokémon".
std::string display_text(std::string_view raw_text);

// The display title of a display text: its first sentence, cut on a word
// boundary to at most `max_chars` characters (with "…" when cut).
std::string derive_title(std::string_view display, std::size_t max_chars = 100);

}  // namespace abstracts

#endif  // ABSTRACTS_ABSTRACT_H_
