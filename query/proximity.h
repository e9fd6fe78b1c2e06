// How close together an abstract has the words of a query: the share of the
// query's weight that the best stretch of `window` positions holds. Used to
// rescore a question's best hits (RankingOptions::proximity_weight).
#ifndef ABSTRACTS_QUERY_PROXIMITY_H_
#define ABSTRACTS_QUERY_PROXIMITY_H_

#include <string>
#include <utility>
#include <vector>

#include <xapian.h>

namespace abstracts::query {

class Proximity {
 public:
  // `words`: the query's word terms (each counted once), weighted by their idf
  // in `db` (a word in half the abstracts or more, or in none, weighs nothing).
  // A window of `window` positions (0: no window, so every coverage is 0).
  Proximity(const Xapian::Database& db, const std::vector<std::string>& words, unsigned window);

  // 0 to 1 for each of `docs`: the idf of the query words that its best window
  // holds, over the idf of all of them. Reads the words' posting lists and the
  // positions' value stream once each, in document order.
  std::vector<double> coverage(const std::vector<Xapian::docid>& docs) const;

 private:
  // The coverage of an abstract whose positions value is `value` and which has
  // the words marked in `present` (positions can only be looked up for those).
  double coverage(const std::string& value, const std::vector<bool>& present) const;

  Xapian::Database db_;
  std::vector<std::pair<std::string, double>> words_;  // term, idf
  double total_ = 0;
  unsigned window_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_PROXIMITY_H_
