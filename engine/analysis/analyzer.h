// The one text analyzer, shared by the indexer and the query side so that index
// terms and query terms never drift apart.
#ifndef ABSTRACTS_ENGINE_ANALYSIS_ANALYZER_H_
#define ABSTRACTS_ENGINE_ANALYSIS_ANALYZER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

namespace abstracts::analysis {

// One searchable word of a display text.
struct Token {
  std::string term;         // folded and stemmed: what the index stores
  std::size_t begin = 0;    // byte range of the word in the analysed text
  std::size_t end = 0;
  std::uint32_t position = 0;  // 1-based word position
};

// A word of a text as the indexer takes it (Analyzer::index_words): its term and
// its 1-based position.
struct IndexWord {
  std::string_view term;
  std::uint32_t position = 0;
};

// Splits display text (see abstracts::display_text) into index terms:
//  - words are runs of letters and marks, or of digits; every hyphen, dash and
//    other punctuation separates words ("text‑only" -> text, only), and so does
//    a change from digits to letters or back ("GPT4" -> gpt, 4, as "GPT-4"); a
//    soft hyphen joins, an apostrophe (' ’ ʼ) between letters stays inside the
//    word, a '.' or ',' between digits stays inside a number ("3.5");
//  - each word is NFKC-normalised, case-folded and diacritic-folded
//    ("Pokémon" -> "pokemon"), its Greek letters are spelled out ("TNF-α" ->
//    tnf, alpha; "IκB" -> "ikappab") unless it is a Greek word of three or more
//    letters, an all-capitals acronym loses a plural "s" ("LLMs" -> "llm"), then
//    it is stemmed with the English Snowball stemmer.
// Thread-compatible: it holds a Xapian::Stem and a cache of terms, so use one
// Analyzer per thread.
class Analyzer {
 public:
  Analyzer();

  std::vector<Token> tokenize(std::string_view text) const;

  // As tokenize(), but only for a caller looking for `wanted` terms (snippets):
  // a word whose term cannot be one of them keeps its folded form, or an empty
  // term when that is plain to see from its first ASCII letters. Stemming keeps a
  // word's first two letters (but for "dying" -> "die") and never lengthens it, so
  // the caller gets the same matches with far fewer words folded and stemmed.
  std::vector<Token> tokenize(std::string_view text, const std::vector<std::string>& wanted) const;

  // Just the terms of tokenize(), in order.
  std::vector<std::string> terms(std::string_view text) const;

  // For the indexer, which analyses every word of a corpus: the words of
  // tokenize(text) as terms and positions only, appended to `out` in order, with
  // no string made for a word. A term is a view into this analyzer (its cache of
  // terms), valid until end_document(), and only while nothing but index_words()
  // is called on it in between: a document's texts (a title, a text) are read
  // between two end_document() calls.
  void index_words(std::string_view text, std::vector<IndexWord>& out) const;

  // The end of the document index_words() read: its words' views are invalid.
  void end_document() const;

  // The first word of `text`, as written there, that tokenize() leaves out for
  // a term longer than kMaxTermBytes; "" if there is none. For saying why a
  // query has no words.
  std::string overlong_word(std::string_view text) const;

  // One word, normalised but not stemmed: NFKC, case fold, diacritic fold,
  // Greek letters spelled out, acronym plural. `word` is one word as found by tokenize().
  // Throws abstracts::Error when ICU has no NFKC data to fold a non-ASCII word with.
  static std::string fold(std::string_view word);

  std::string stem(const std::string& folded) const;

 private:
  // All terms when `wanted` is null. `overlong`, if given, gets the first word
  // left out for its length (overlong_word()).
  std::vector<Token> tokenize(std::string_view text, const std::vector<std::string>* wanted,
                              std::string* overlong = nullptr) const;

  // The term of `raw`, one word as tokenize() found it: stem(fold(raw)).
  std::string term_of(std::string_view raw) const;
  // The cache's slot for the word `raw`, and its term through the cache (made).
  static std::size_t slot_of(std::string_view raw);
  const std::string& cached_term(std::size_t slot, std::string_view raw) const;
  void make_cache() const;

  Xapian::Stem stemmer_;
  // Terms of the words seen last, direct-mapped by a hash of the word as
  // written: folding and Snowball cost about half a microsecond a word, and
  // abstracts repeat their words. Made on the thousandth word, so a query never
  // pays for it.
  struct CachedTerm {
    std::string word, term;
  };
  mutable std::vector<CachedTerm> terms_;
  mutable std::size_t words_ = 0;
  // For index_words(): a bit for each slot whose term a word of the document
  // being indexed points to (which no other word may take until
  // end_document()), those slots, the terms of its words that no slot holds,
  // and its words before they are looked up.
  mutable std::vector<std::uint64_t> claimed_;
  mutable std::vector<std::uint32_t> claimed_slots_;
  mutable std::deque<std::string> spare_terms_;
  struct Pending {
    std::string_view raw;   // the word as written, in the text
    std::string_view term;  // its term, if known already
    std::uint32_t position;
    std::uint32_t slot;
  };
  mutable std::vector<Pending> pending_;
};

// Ends `analyzer`'s document (Analyzer::end_document()) when it goes out of
// scope, however the scope is left: the views index_words() gave in it are
// valid until then.
struct DocumentScope {
  const Analyzer& analyzer;
  ~DocumentScope() { analyzer.end_document(); }
};

// The calling thread's analyzer, made on its first use: an Analyzer is not
// thread-safe (Xapian::Stem), so a reader serving many threads keeps one per thread.
const Analyzer& thread_analyzer();

// Words whose term (folded and stemmed) is longer than this, in bytes, are not indexed.
inline constexpr std::size_t kMaxTermBytes = 64;

}  // namespace abstracts::analysis

#endif  // ABSTRACTS_ENGINE_ANALYSIS_ANALYZER_H_
