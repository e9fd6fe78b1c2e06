#include "query/proximity.h"

#include <algorithm>
#include <cmath>

#include "engine/positions.h"
#include "engine/schema.h"

namespace abstracts::query {

Proximity::Proximity(const Xapian::Database& db, const std::vector<std::string>& words, unsigned window)
    : db_(db), window_(window) {
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

std::vector<double> Proximity::coverage(const std::vector<Xapian::docid>& docs) const {
  std::vector<double> out(docs.size(), 0.0);
  if (total_ <= 0) return out;
  std::vector<std::size_t> order(docs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return docs[a] < docs[b]; });
  std::vector<Xapian::PostingIterator> postings;
  for (const auto& w : words_) postings.push_back(db_.postlist_begin(w.first));
  Xapian::ValueIterator values = db_.valuestream_begin(schema::kPositionsSlot);
  const Xapian::ValueIterator no_value = db_.valuestream_end(schema::kPositionsSlot);
  std::vector<bool> present(words_.size());
  for (std::size_t i : order) {
    const Xapian::docid did = docs[i];
    for (std::size_t w = 0; w < words_.size(); ++w) {
      if (postings[w] != Xapian::PostingIterator()) postings[w].skip_to(did);
      present[w] = postings[w] != Xapian::PostingIterator() && *postings[w] == did;
    }
    if (values != no_value) values.skip_to(did);
    if (values != no_value && values.get_docid() == did) out[i] = coverage(*values, present);
  }
  return out;
}

double Proximity::coverage(const std::string& value, const std::vector<bool>& present) const {
  std::vector<std::pair<Xapian::termpos, std::size_t>> hits;  // position, word
  std::vector<Xapian::termpos> positions;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (!present[i] || !positions::find(value, words_[i].first, positions)) continue;
    for (auto p : positions) hits.emplace_back(p, i);
  }
  if (hits.empty()) return 0;
  std::sort(hits.begin(), hits.end());
  std::vector<unsigned> count(words_.size(), 0);
  double inside = 0, best = 0;
  std::size_t first = 0;
  for (std::size_t last = 0; last < hits.size(); ++last) {
    if (count[hits[last].second]++ == 0) inside += words_[hits[last].second].second;
    while (first <= last && hits[last].first - hits[first].first >= window_) {
      if (--count[hits[first].second] == 0) inside -= words_[hits[first].second].second;
      ++first;
    }
    best = std::max(best, inside);
  }
  return best / total_;
}

}  // namespace abstracts::query
