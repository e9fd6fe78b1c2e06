// Word positions kept in a value of each document (schema::kPositionsSlot), not
// in Xapian's position table. Glass keeps one B-tree item per (term, abstract)
// there, about 17 bytes each before the positions themselves: 207 of an arXiv
// index's 394 MB (docs/performance.md). Here an abstract's positions are one
// value of a few hundred bytes: each word is a short hash, unique within the
// abstract, and its positions as varint deltas.
//
// A hash names a word only among the abstract's own words, so a lookup is exact
// for a word the abstract has; callers make sure it has it (a phrase's words are
// ANDed, query/positional.h). For any other word a lookup may find a stranger's
// positions.
#ifndef ABSTRACTS_ENGINE_POSITIONS_H_
#define ABSTRACTS_ENGINE_POSITIONS_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <xapian.h>

namespace abstracts::positions {

// One word (a body term) at one position. The word is a view: its string must
// outlive the call to encode().
using Posting = std::pair<std::string_view, Xapian::termpos>;

// The value for an abstract with these postings (in any order; a word may repeat).
// Picks the shortest hash (2, 3 or 4 bytes) and a seed under which the abstract's
// words do not collide; an abstract with too many words for that keys each entry
// by the word itself.
std::string encode(std::vector<Posting> postings);

// An abstract's value, checked once (its checksum and header) for the lookups
// of many words: a phrase's, proximity's. Throws CorruptIndex when the value is
// damaged (its checksum does not match, or it is missing: callers ask only about
// abstracts that have words). The value's string must outlive this view.
class Value {
 public:
  explicit Value(std::string_view value);

  // Appends the positions of `term` to `out` (cleared first), in increasing
  // order. False when the value has no entry for its hash. Throws CorruptIndex
  // when an entry runs past the value's end.
  bool find(std::string_view term, std::vector<Xapian::termpos>& out) const;

 private:
  std::string_view entries_;  // after the header, before the checksum
  int width_;
  unsigned seed_;
};

}  // namespace abstracts::positions

#endif  // ABSTRACTS_ENGINE_POSITIONS_H_
