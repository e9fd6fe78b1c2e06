// Phrases, NEAR and ADJ over the positions the index keeps in a value
// (engine/positions.h): Xapian's OP_PHRASE and OP_NEAR read its position table,
// which this index does not write.
#ifndef ABSTRACTS_QUERY_POSITIONAL_H_
#define ABSTRACTS_QUERY_POSITIONAL_H_

#include <string>
#include <vector>

#include <xapian.h>

namespace abstracts::query {

enum class WordOrder { kAsWritten, kAny };

// Words that must be near each other: all of `terms` within a window of `window`
// positions, in the order given (a phrase, ADJ) or in any order (NEAR), each word
// at its own position, as Xapian's OP_PHRASE and OP_NEAR count windows. A single
// term is just that term.
struct Words {
  WordOrder order = WordOrder::kAsWritten;
  std::vector<std::string> terms;
  Xapian::termcount window = 0;
};

// The abstracts with `words`, ranked like the AND of its terms.
Xapian::Query words_query(const Words& words);

// The abstracts with any of `spellings`, ranked as one term (Xapian's OP_SYNONYM):
// an acronym and its long forms.
Xapian::Query synonym_query(const std::vector<Words>& spellings);

// Xapian's description of `query`, with each positional filter shown as the
// operator it stands for: "(agent NEAR 3 mice)", not the AND and filter that
// run it.
std::string describe(const Xapian::Query& query);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_POSITIONAL_H_
