#include "query/positional.h"

#include <algorithm>
#include <map>
#include <memory>

#include "engine/positions.h"
#include "engine/schema.h"

namespace abstracts::query {
namespace {

// True if one position from each list, in list order and increasing, spans fewer
// than `window` positions. Taking the nearest next position at each step gives
// the shortest span from a given first position.
bool in_order_within(const std::vector<std::vector<Xapian::termpos>>& lists, Xapian::termcount window) {
  for (Xapian::termpos first : lists[0]) {
    Xapian::termpos at = first;
    for (std::size_t i = 1; i < lists.size(); ++i) {
      auto next = std::upper_bound(lists[i].begin(), lists[i].end(), at);
      if (next == lists[i].end()) return false;  // a later first position cannot do better
      at = *next;
    }
    if (at - first < window) return true;
  }
  return false;
}

// True if a window of fewer than `window` positions holds `need[k]` positions of
// lists[k] for every k (a word the query repeats needs as many occurrences).
bool any_order_within(const std::vector<std::vector<Xapian::termpos>>& lists, const std::vector<unsigned>& need,
                      Xapian::termcount window) {
  std::vector<std::pair<Xapian::termpos, std::size_t>> all;
  for (std::size_t k = 0; k < lists.size(); ++k) {
    for (auto p : lists[k]) all.emplace_back(p, k);
  }
  std::sort(all.begin(), all.end());
  std::vector<unsigned> have(lists.size(), 0);
  std::size_t missing = lists.size();
  for (std::size_t lo = 0, hi = 0; hi < all.size(); ++hi) {
    if (++have[all[hi].second] == need[all[hi].second]) --missing;
    while (all[hi].first - all[lo].first >= window) {
      if (have[all[lo].second]-- == need[all[lo].second]) ++missing;
      ++lo;
    }
    if (missing == 0) return true;
  }
  return false;
}

std::string describe_words(const Words& words) {
  std::string out;
  const std::string op = words.order == WordOrder::kAny ? " NEAR " : " PHRASE ";
  for (std::size_t i = 0; i < words.terms.size(); ++i) {
    if (i > 0) out += op + std::to_string(words.window) + " ";
    out += words.terms[i];
  }
  return out;
}

// The abstracts that have one of the spellings: each of its words, within its
// window. Used as the filter of a query over the same words (words_query,
// synonym_query), which does the ranking.
class PositionFilter : public Xapian::PostingSource {
 public:
  explicit PositionFilter(std::vector<Words> spellings) : spellings_(std::move(spellings)) {
    for (const auto& s : spellings_) {
      Spelling prepared;
      std::map<std::string, unsigned> count;
      for (const auto& t : s.terms) ++count[t];
      for (const auto& [term, n] : count) {
        prepared.words.push_back(index_of(term));
        prepared.need.push_back(n);
      }
      for (const auto& t : s.terms) {
        auto at = std::find(prepared.words.begin(), prepared.words.end(), index_of(t));
        prepared.slot_of.push_back(static_cast<std::size_t>(at - prepared.words.begin()));
      }
      prepared_.push_back(std::move(prepared));
    }
  }

  PositionFilter* clone() const override { return new PositionFilter(spellings_); }

  void init(const Xapian::Database& db) override {
    db_ = db;
    postings_.clear();
    for (const auto& w : words_) postings_.push_back(db.postlist_begin(w));
    termfreq_ = 0;
    for (const auto& s : spellings_) {
      Xapian::doccount rarest = db.get_doccount();
      for (const auto& t : s.terms) rarest = std::min(rarest, db.get_termfreq(t));
      termfreq_ = std::min<Xapian::doccount>(db.get_doccount(), termfreq_ + rarest);
    }
    values_ = db.valuestream_begin(schema::kPositionsSlot);
    last_asked_ = 0;
    current_ = 0;
    at_end_ = false;
  }

  Xapian::doccount get_termfreq_min() const override { return 0; }
  // At most the rarest word's abstracts (summed over spellings). Not less: the
  // words' own posting lists should lead the match, and this only check.
  Xapian::doccount get_termfreq_est() const override { return termfreq_; }
  Xapian::doccount get_termfreq_max() const override { return termfreq_; }

  void next(double min_wt) override { skip_to(current_ + 1, min_wt); }

  void skip_to(Xapian::docid did, double) override {
    if (at_end_ || did <= current_) return;
    for (;;) {
      Xapian::docid candidate = 0;
      for (const auto& s : prepared_) {
        const Xapian::docid d = with_every_word(s, did);
        if (d != 0 && (candidate == 0 || d < candidate)) candidate = d;
      }
      if (candidate == 0) {
        at_end_ = true;
        return;
      }
      if (matches(candidate)) {
        current_ = candidate;
        return;
      }
      did = candidate + 1;
    }
  }

  bool check(Xapian::docid did, double) override {
    current_ = did;  // if not a match, next() goes on from here
    return matches(did);
  }

  bool at_end() const override { return at_end_; }
  Xapian::docid get_docid() const override { return current_; }

  // As Xapian describes OP_PHRASE, OP_NEAR and OP_SYNONYM, without the outer
  // parentheses: "agent NEAR 3 mice", "(larg PHRASE 3 languag PHRASE 3 model) SYNONYM llm".
  std::string get_description() const override {
    if (spellings_.size() == 1) return describe_words(spellings_[0]);
    std::string out;
    for (const auto& s : spellings_) {
      if (!out.empty()) out += " SYNONYM ";
      out += s.terms.size() == 1 ? s.terms[0] : "(" + describe_words(s) + ")";
    }
    return out;
  }

 private:
  struct Spelling {
    std::vector<std::size_t> words;   // indexes into words_, distinct
    std::vector<unsigned> need;       // how often the spelling names each
    std::vector<std::size_t> slot_of; // each term's place in `words`, in query order
  };

  std::size_t index_of(const std::string& term) {
    auto at = std::find(words_.begin(), words_.end(), term);
    if (at != words_.end()) return static_cast<std::size_t>(at - words_.begin());
    words_.push_back(term);
    return words_.size() - 1;
  }

  // Calls come in increasing docid order within a match; a lower one (a new
  // match with this object) starts the iterators again.
  void rewind_for(Xapian::docid did) {
    if (did >= last_asked_) {
      last_asked_ = did;
      return;
    }
    for (std::size_t k = 0; k < words_.size(); ++k) postings_[k] = db_.postlist_begin(words_[k]);
    values_ = db_.valuestream_begin(schema::kPositionsSlot);
    last_asked_ = did;
  }

  // The first abstract from `did` on with word k, or 0 if none.
  Xapian::docid next_with(std::size_t k, Xapian::docid did) {
    rewind_for(did);
    auto& p = postings_[k];
    if (p == Xapian::PostingIterator()) return 0;
    p.skip_to(did);
    return p == Xapian::PostingIterator() ? 0 : *p;
  }

  bool has(std::size_t k, Xapian::docid did) { return next_with(k, did) == did; }

  // The first abstract from `did` on with every word of `s`, or 0 if none.
  Xapian::docid with_every_word(const Spelling& s, Xapian::docid did) {
    for (;;) {
      Xapian::docid highest = did;
      for (auto k : s.words) {
        const Xapian::docid d = next_with(k, did);
        if (d == 0) return 0;
        highest = std::max(highest, d);
      }
      if (highest == did) return did;
      did = highest;
    }
  }

  // The positions value of `did`, or empty.
  std::string value_of(Xapian::docid did) {
    rewind_for(did);
    if (values_ == Xapian::ValueIterator()) return {};
    values_.skip_to(did);
    if (values_ == Xapian::ValueIterator() || values_.get_docid() != did) return {};
    return *values_;
  }

  bool matches(Xapian::docid did) {
    std::string value;
    bool have_value = false;
    for (std::size_t i = 0; i < prepared_.size(); ++i) {
      const Spelling& s = prepared_[i];
      bool all = true;
      for (auto k : s.words) all = all && has(k, did);
      if (!all) continue;
      if (spellings_[i].terms.size() == 1) return true;
      if (!have_value) {
        value = value_of(did);
        have_value = true;
      }
      // Exact: the abstract has every word, and a hash is unique among its words.
      lists_.resize(s.words.size());
      bool found = true;
      for (std::size_t j = 0; j < s.words.size() && found; ++j) {
        found = positions::find(value, words_[s.words[j]], lists_[j]);
      }
      if (!found) continue;
      if (spellings_[i].order == WordOrder::kAny) {
        if (any_order_within(lists_, s.need, spellings_[i].window)) return true;
        continue;
      }
      ordered_.clear();
      for (auto slot : s.slot_of) ordered_.push_back(lists_[slot]);
      if (in_order_within(ordered_, spellings_[i].window)) return true;
    }
    return false;
  }

  std::vector<Words> spellings_;
  std::vector<std::string> words_;  // every distinct term of every spelling
  std::vector<Spelling> prepared_;

  Xapian::Database db_;
  std::vector<Xapian::PostingIterator> postings_;  // one per word
  Xapian::ValueIterator values_;
  Xapian::docid last_asked_ = 0;
  Xapian::doccount termfreq_ = 0;
  Xapian::docid current_ = 0;
  bool at_end_ = false;
  std::vector<std::vector<Xapian::termpos>> lists_, ordered_;
};

// What ranks `words`: its term, or the AND of its terms.
Xapian::Query ranking_query(const Words& words) {
  if (words.terms.size() == 1) return Xapian::Query(words.terms[0]);
  return Xapian::Query(Xapian::Query::OP_AND, words.terms.begin(), words.terms.end());
}

bool positional(const Words& words) { return words.terms.size() > 1; }

}  // namespace

Xapian::Query words_query(const Words& words) {
  if (!positional(words)) return ranking_query(words);
  return Xapian::Query(Xapian::Query::OP_FILTER, ranking_query(words),
                       Xapian::Query((new PositionFilter({words}))->release()));
}

Xapian::Query synonym_query(const std::vector<Words>& spellings) {
  std::vector<Xapian::Query> parts;
  for (const auto& s : spellings) parts.push_back(ranking_query(s));
  Xapian::Query synonym(Xapian::Query::OP_SYNONYM, parts.begin(), parts.end());
  if (std::none_of(spellings.begin(), spellings.end(), positional)) return synonym;
  // Positions are checked outside the synonym: Xapian cannot estimate a filtered
  // alternative's frequency inside one.
  return Xapian::Query(Xapian::Query::OP_FILTER, synonym, Xapian::Query((new PositionFilter(spellings))->release()));
}

std::string describe(const Xapian::Query& query) {
  // "(<ranking> FILTER PostingSource(<d>))" becomes "(<d>)".
  static const std::string kFilter = " FILTER PostingSource(";
  std::string out = query.get_description();
  for (std::size_t at; (at = out.find(kFilter)) != std::string::npos;) {
    int depth = 0;
    std::size_t open = at;
    while (open > 0) {
      const char c = out[--open];
      if (c == ')') ++depth;
      if (c == '(' && depth-- == 0) break;
    }
    std::size_t close = at + kFilter.size();
    for (depth = 1; close < out.size() && depth > 0; ++close) {
      if (out[close] == '(') ++depth;
      if (out[close] == ')') --depth;
    }
    const std::string inner = out.substr(at + kFilter.size(), close - 1 - (at + kFilter.size()));
    out.replace(open, close + 1 - open, "(" + inner + ")");
  }
  return out;
}

}  // namespace abstracts::query
