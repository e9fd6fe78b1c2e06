// How close together an abstract has the words of a query: the share of the
// query's weight that the best stretch of `window` positions holds. Used to
// rescore a question's best hits (RankingOptions::proximity_weight).
#ifndef ABSTRACTS_QUERY_PROXIMITY_H_
#define ABSTRACTS_QUERY_PROXIMITY_H_

#include <string>
#include <vector>

#include <xapian.h>

namespace abstracts::query {

class Proximity {
 public:
  // `words`: the query's word terms (each counted once), weighted by their idf
  // in `db`. A window of `window` positions.
  Proximity(const Xapian::Database& db, const std::vector<std::string>& words, unsigned window);

  // 0 to 1: the idf of the query words that the best window of `doc` holds,
  // over the idf of all of them. `present` lists the query words `doc` has
  // (positions can only be looked up for those).
  double coverage(const Xapian::Document& doc, const std::vector<std::string>& present) const;

  bool empty() const { return total_ <= 0; }

 private:
  std::vector<std::pair<std::string, double>> words_;  // term, idf
  double total_ = 0;
  unsigned window_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_PROXIMITY_H_
