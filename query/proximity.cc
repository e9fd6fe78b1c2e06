#include "query/proximity.h"

#include <algorithm>
#include <cmath>

#include "engine/positions.h"
#include "engine/schema.h"

namespace abstracts::query {

Proximity::Proximity(const Xapian::Database& db, const std::vector<std::string>& words, unsigned window)
    : window_(window) {
  const double n = db.get_doccount();
  for (const auto& w : words) {
    const double df = db.get_termfreq(w);
    if (df <= 0) continue;
    const double idf = std::max(0.0, std::log((n - df + 0.5) / (df + 0.5)));
    if (idf <= 0) continue;
    words_.emplace_back(w, idf);
    total_ += idf;
  }
}

double Proximity::coverage(const Xapian::Document& doc, const std::vector<std::string>& present) const {
  if (total_ <= 0) return 0;
  const std::string value = doc.get_value(schema::kPositionsSlot);
  if (value.empty()) return 0;
  std::vector<std::pair<Xapian::termpos, std::size_t>> hits;  // position, word
  std::vector<Xapian::termpos> positions;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (std::find(present.begin(), present.end(), words_[i].first) == present.end()) continue;
    if (!positions::find(value, words_[i].first, positions)) continue;
    for (auto p : positions) hits.emplace_back(p, i);
  }
  if (hits.empty()) return 0;
  std::sort(hits.begin(), hits.end());
  std::vector<unsigned> count(words_.size(), 0);
  double inside = 0, best = 0;
  std::size_t first = 0;
  for (std::size_t last = 0; last < hits.size(); ++last) {
    if (count[hits[last].second]++ == 0) inside += words_[hits[last].second].second;
    while (hits[last].first - hits[first].first >= window_) {
      if (--count[hits[first].second] == 0) inside -= words_[hits[first].second].second;
      ++first;
    }
    best = std::max(best, inside);
  }
  return best / total_;
}

}  // namespace abstracts::query
