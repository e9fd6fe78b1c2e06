#include "query/proximity.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>
#include <utility>

#include "engine/positions.h"
#include "engine/schema.h"
#include "query/hit_reads.h"
#include "query/positional.h"

namespace abstracts::query {
namespace {

// A word of the query: its alternatives, each the terms that must all be found.
using Spellings = std::vector<std::vector<std::string>>;

// The words of `query` in the order written, each once. A walk with a stack of
// its own: however deep the query, it needs no more of the thread's.
std::vector<Spellings> collect_words(const Xapian::Query& query) {
  std::set<Spellings> seen;
  std::vector<Spellings> out;
  auto add = [&](Spellings word) {
    if (!word.empty() && seen.insert(word).second) out.push_back(std::move(word));
  };
  std::vector<Xapian::Query> todo{query};  // the next one to visit at the back
  while (!todo.empty()) {
    const Xapian::Query q = std::move(todo.back());
    todo.pop_back();
    std::size_t visit = ranked_subqueries(q);
    switch (q.get_type()) {
      case Xapian::Query::LEAF_TERM:
        if (auto terms = schema::word_terms(q); !terms.empty()) add({terms});
        continue;
      case Xapian::Query::OP_SYNONYM: {
        Spellings word;
        for (std::size_t i = 0; i < q.get_num_subqueries(); ++i) {
          if (auto terms = schema::word_terms(q.get_subquery(i)); !terms.empty()) word.push_back(std::move(terms));
        }
        add(std::move(word));
        continue;
      }
      case Xapian::Query::OP_AND_NOT:  // what follows NOT is not asked for
        visit = std::min<std::size_t>(visit, 1);
        break;
      default:
        break;
    }
    for (std::size_t i = visit; i-- > 0;) todo.push_back(q.get_subquery(i));
  }
  return out;
}

}  // namespace

Proximity::Proximity(const Xapian::Database& db, const Xapian::Query& query, unsigned window,
                     const Xapian::MSet* counts)
    : db_(db), window_(window) {
  const std::vector<Spellings> words = collect_words(query);
  const double n = db.get_doccount();
  auto idf = [&](const std::string& term) {
    const double df = counts != nullptr ? counts->get_termfreq(term) : db.get_termfreq(term);
    return df <= 0 ? 0.0 : std::max(0.0, std::log((n - df + 0.5) / (df + 0.5)));
  };
  std::unordered_map<std::string, std::size_t> index;  // of terms_
  for (const auto& spellings : words) {
    Word word;
    for (const auto& term : spellings.front()) word.weight = std::max(word.weight, idf(term));
    if (word.weight <= 0) continue;
    for (const auto& alternative : spellings) {
      std::vector<std::size_t> indexes;
      for (const auto& term : alternative) {
        auto [at, added] = index.try_emplace(term, terms_.size());
        if (added) terms_.push_back(term);
        indexes.push_back(at->second);
      }
      word.alternatives.push_back(std::move(indexes));
    }
    total_ += word.weight;
    words_.push_back(std::move(word));
  }
}

std::vector<double> Proximity::coverage(const std::vector<Xapian::docid>& docs, HitReads* reads) const {
  std::vector<double> out(docs.size(), 0.0);
  if (total_ <= 0) return out;
  std::vector<std::size_t> order(docs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return docs[a] < docs[b]; });
  // Which terms each hit has (its term list, or on a cluster one query) and its
  // positions value: on the shards of a cluster a posting list would come over
  // the network whole (a message per posting), and a value stream document by
  // document anyway.
  HitReads own(db_);
  HitReads& from = reads != nullptr ? *reads : own;
  std::vector<Xapian::docid> sorted(docs.size());
  for (std::size_t i = 0; i < order.size(); ++i) sorted[i] = docs[order[i]];
  const std::vector<std::vector<bool>> present = from.which(sorted, terms_);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::string& positions = from.positions(sorted[i]);
    if (!positions.empty()) out[order[i]] = coverage(positions, present[i]);
  }
  return out;
}

double Proximity::coverage(const std::string& value, const std::vector<bool>& present) const {
  std::vector<std::pair<Xapian::termpos, std::size_t>> hits;  // position, term
  std::vector<Xapian::termpos> positions;
  const positions::Value checked(value);
  for (std::size_t t = 0; t < terms_.size(); ++t) {
    if (!present[t] || !checked.find(terms_[t], positions)) continue;
    for (auto p : positions) hits.emplace_back(p, t);
  }
  if (hits.empty()) return 0;
  std::sort(hits.begin(), hits.end());
  std::vector<unsigned> count(terms_.size(), 0);
  // The weight of the words found whole in the window.
  auto inside = [&] {
    double sum = 0;
    for (const auto& word : words_) {
      const bool found = std::any_of(word.alternatives.begin(), word.alternatives.end(), [&](const auto& terms) {
        return std::all_of(terms.begin(), terms.end(), [&](std::size_t t) { return count[t] > 0; });
      });
      if (found) sum += word.weight;
    }
    return sum;
  };
  double best = 0;
  std::size_t first = 0;
  for (std::size_t last = 0; last < hits.size(); ++last) {
    ++count[hits[last].second];
    while (first <= last && hits[last].first - hits[first].first >= window_) --count[hits[first++].second];
    best = std::max(best, inside());
  }
  return best / total_;
}

}  // namespace abstracts::query
