// "Did you mean": corrections built from the index's own vocabulary.
#ifndef ABSTRACTS_QUERY_SPELLING_H_
#define ABSTRACTS_QUERY_SPELLING_H_

#include <string>
#include <string_view>

#include <xapian.h>

#include "engine/analysis/analyzer.h"
#include "engine/compression.h"

namespace abstracts::query {

// The word (folded, as it appears in abstracts) closest to `folded_word` among
// the index's terms, when `folded_word` itself is not in the index; "" if it is,
// or if nothing is close. Close means a Damerau-Levenshtein distance between the
// stems of at most 1 for stems of up to 4 letters and 2 for longer ones, with the
// same first letter; ties go to the more frequent term. No spelling table is
// kept: the index's term list is the vocabulary, so it costs nothing at index
// time and never suggests a word the index does not have. `stored` reads the
// index's stored abstracts (for how a word is written). Whether the index has
// a word is asked of `counts` if given: the MSet of a search whose query has the
// word, which gathered its count already (on a cluster, each lookup is a round
// trip otherwise).
std::string suggest_word(const Xapian::Database& db, const compression::Decompressor& stored,
                         const std::string& folded_word, const analysis::Analyzer& analyzer,
                         const Xapian::MSet* counts = nullptr);

// `query` with each unknown word replaced by its suggestion (operators, field
// names and LaTeX left alone); "" if nothing was replaced. `counts`: as above.
std::string correct_query(const Xapian::Database& db, const compression::Decompressor& stored,
                          std::string_view query, const analysis::Analyzer& analyzer,
                          const Xapian::MSet* counts = nullptr);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_SPELLING_H_
