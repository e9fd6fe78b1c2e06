// How close together an abstract has the words of a query: the share of the
// query's weight that the best stretch of `window` positions holds. Used to
// rescore a question's best hits (RankingOptions::proximity_weight).
#ifndef ABSTRACTS_QUERY_PROXIMITY_H_
#define ABSTRACTS_QUERY_PROXIMITY_H_

#include <string>
#include <vector>

#include <xapian.h>

namespace abstracts::query {

class HitReads;

class Proximity {
 public:
  // The words of `query` (each counted once; words it excludes with NOT are not
  // its words), weighted by their idf in `db`: a word in half the abstracts or
  // more, or in none, weighs nothing. An acronym or a wildcard (OP_SYNONYM) is one
  // word, found where any of its alternatives is found whole ("LLM": `llm`, or
  // `larg`, `languag` and `model`), weighted as its first alternative's rarest
  // term. A window of `window` positions (0: no window, so every coverage is 0).
  // The words' abstract counts come from `counts` if given: the MSet of a search
  // whose query has them, which gathered them all at once (on a cluster, a round
  // trip to every shard each otherwise).
  Proximity(const Xapian::Database& db, const Xapian::Query& query, unsigned window,
            const Xapian::MSet* counts = nullptr);

  // 0 to 1 for each of `docs`: the weight of the query words that its best window
  // holds, over the weight of all of them. Reads which terms each hit has and its
  // positions value through `reads` (which keeps them for the search's other
  // passes), or afresh if null, in document order.
  std::vector<double> coverage(const std::vector<Xapian::docid>& docs, HitReads* reads = nullptr) const;

 private:
  struct Word {
    std::vector<std::vector<std::size_t>> alternatives;  // indexes into terms_
    double weight = 0;
  };

  // The coverage of an abstract whose positions value is `value` and which has
  // the terms marked in `present` (positions can only be looked up for those).
  double coverage(const std::string& value, const std::vector<bool>& present) const;

  Xapian::Database db_;
  std::vector<std::string> terms_;  // every term of every word, once
  std::vector<Word> words_;
  double total_ = 0;
  unsigned window_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_PROXIMITY_H_
