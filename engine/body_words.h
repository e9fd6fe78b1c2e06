// An abstract's body words as the index counts them: which words of its title
// and text make its body terms, with what wdf and positions. The indexer makes
// each abstract's terms from them (indexer/document.cc); a search on remote
// shards reads a hit's word counts back from its stored abstract
// (query/hit_reads.h), where its term list would cost a message per term.
#ifndef ABSTRACTS_ENGINE_BODY_WORDS_H_
#define ABSTRACTS_ENGINE_BODY_WORDS_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <xapian.h>

#include "engine/analysis/analyzer.h"

namespace abstracts::body_words {

// Positions of the text start this far after a separate title, so a phrase
// never spans the two.
inline constexpr Xapian::termpos kTitleGap = 100;

// A title word counts this many extra times in its body term's wdf, which BM25
// ranks like a field of its own (BM25F with one length): 2 measured best on
// SciFact train, Cranfield and CACM (docs/relevance.md), and costs queries nothing.
inline constexpr Xapian::termcount kTitleExtraWdf = 2;

// An occurrence that counts in the wdf but has no position (positions start at 1).
inline constexpr Xapian::termpos kNoPosition = 0;

// The first 8 bytes of `s`, big-endian and padded with zeros: in the same order
// as the strings themselves, where they differ. (Inline: once a word indexed.)
inline std::uint64_t leading_bytes(std::string_view s) {
  std::uint64_t v = 0;
  if (s.size() >= 8) {
    std::memcpy(&v, s.data(), 8);
    return std::endian::native == std::endian::little ? __builtin_bswap64(v) : v;
  }
  for (std::size_t i = 0; i < s.size(); ++i) v |= std::uint64_t{static_cast<unsigned char>(s[i])} << (56 - 8 * i);
  return v;
}

// One occurrence of a body word. `term` is a view into the analyzer that read it.
struct Occurrence {
  std::string_view term;
  Xapian::termpos position;  // kNoPosition: counts in the wdf, has no position
  Xapian::termcount wdf;
  std::uint64_t head = leading_bytes(term);  // orders most pairs without a memcmp
  // By term, then position: one sort groups a term's occurrences for its wdf and,
  // in the same order, for its positions.
  bool operator<(const Occurrence& o) const {
    if (head != o.head) return head < o.head;
    if (const int c = term.compare(o.term); c != 0) return c < 0;
    return position < o.position;
  }
};

// Appends the body words of an abstract with `title` and `text` to `body`, and
// its title's words (each occurrence, in order) to `title_words`: the words that
// are no stop words. `title_in_text`: the text starts with the title, which then
// counts its words once (as the abstract's record says, schema::decode()). The
// views are valid until `analyzer.end_document()`, which the caller calls (an
// analysis::DocumentScope).
void read(const analysis::Analyzer& analyzer, std::string_view title, std::string_view text, bool title_in_text,
          std::vector<Occurrence>& body, std::vector<std::string_view>& title_words);

// The body terms of an abstract and their wdf, in term order: what its term list
// holds of word terms (schema::is_word_term).
std::vector<std::pair<std::string, Xapian::termcount>> counts(const analysis::Analyzer& analyzer,
                                                               std::string_view title, std::string_view text,
                                                               bool title_in_text);

}  // namespace abstracts::body_words

#endif  // ABSTRACTS_ENGINE_BODY_WORDS_H_
