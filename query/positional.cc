#include "query/positional.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "abstracts/error.h"
#include "engine/positions.h"
#include "engine/schema.h"
#include "query/deadline.h"

namespace abstracts::query {
namespace {

// True if one position from each of lists[order[0]], lists[order[1]], ..., in
// that order and increasing, spans fewer than `window` positions. Taking the
// nearest next position at each step gives the shortest span from a given first
// position.
bool in_order_within(const std::vector<std::vector<Xapian::termpos>>& lists,
                     const std::vector<std::size_t>& order, Xapian::termcount window) {
  for (Xapian::termpos first : lists[order[0]]) {
    Xapian::termpos at = first;
    for (std::size_t i = 1; i < order.size(); ++i) {
      const auto& list = lists[order[i]];
      auto next = std::upper_bound(list.begin(), list.end(), at);
      if (next == list.end()) return false;  // a later first position cannot do better
      at = *next;
    }
    if (at - first < window) return true;
  }
  return false;
}

// True if a window of fewer than `window` positions holds `need[k]` positions of
// lists[k] for every k (a word the query repeats needs as many occurrences).
bool any_order_within(const std::vector<std::vector<Xapian::termpos>>& lists,
                      const std::vector<unsigned>& need, Xapian::termcount window) {
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

}  // namespace

void PositionBudget::spend() {
  if (spent_.fetch_add(1, std::memory_order_relaxed) + 1 <= limit_) return;
  throw QueryError("the query's phrases and NEAR or ADJ groups need more than " + std::to_string(limit_) +
                       " checks of where their words are in an abstract",
                   1,
                   "use fewer phrases, or phrases with a rarer word: each checks every abstract that has all "
                   "its words");
}

class PositionValues {
 public:
  PositionValues(const Deadline* deadline, bool xapian_positions, PositionBudget* budget)
      : deadline_(deadline), xapian_positions_(xapian_positions), budget_(budget) {}

  const Deadline* deadline() const { return deadline_; }
  bool xapian_positions() const { return xapian_positions_; }

  // Counts one abstract checked for one spelling of a phrase or group: the
  // deadline's tick, and the budget's.
  void count_check() const {
    if (deadline_ != nullptr) deadline_->tick();
    if (budget_ != nullptr) budget_->spend();
  }

  // The number that stands for the check described as `description`
  // (PositionCheck::describe()): the same for the same phrase written twice.
  std::uint32_t key_of(const std::string& description) {
    return keys_.try_emplace(description, static_cast<std::uint32_t>(keys_.size())).first->second;
  }

  // The answer of check `key` for abstract `did`: 1 it holds, 0 it does not,
  // -1 not checked yet.
  int verdict(std::uint32_t key, Xapian::docid did) const { return verdicts_.find(key, did); }
  void keep_verdict(std::uint32_t key, Xapian::docid did, bool holds) { verdicts_.keep(key, did, holds); }

  // The value of abstract `did` if a check read it lately, else null.
  const std::string* find(Xapian::docid did) const {
    auto at = where_.find(did);
    return at == where_.end() ? nullptr : &kept_[at->second].second;
  }

  // Keeps `value`, the value of abstract `did`, in place of the oldest kept
  // once there are kKept, and returns it. Valid until the next keep().
  const std::string& keep(Xapian::docid did, std::string value) {
    std::size_t slot = kept_.size();
    if (slot < kKept) {
      kept_.emplace_back(did, std::move(value));
    } else {
      slot = oldest_;
      oldest_ = (oldest_ + 1) % kKept;
      where_.erase(kept_[slot].first);
      kept_[slot] = {did, std::move(value)};
    }
    where_[did] = slot;
    return kept_[slot].second;
  }

 private:
  // The checks of a query ask about nearby abstracts (its posting lists move
  // through the index together), a few at a time.
  static constexpr std::size_t kKept = 64;

  // The answers of the checks, by check and abstract: an open-addressing table
  // of one 64-bit word each (key, abstract and answer), at most half full. It
  // holds no more answers than the budget lets the checks give (500,000 take
  // 8 MiB), and with no budget no more than the index has abstracts per check.
  class Verdicts {
   public:
    int find(std::uint32_t key, Xapian::docid did) const {
      if (slots_.empty()) return -1;
      const std::uint64_t want = entry(key, did, false) >> 1;
      for (std::size_t i = slot(want);; i = (i + 1) & (slots_.size() - 1)) {
        if (slots_[i] == 0) return -1;
        if (slots_[i] >> 1 == want) return static_cast<int>(slots_[i] & 1);
      }
    }
    void keep(std::uint32_t key, Xapian::docid did, bool holds) {
      if (2 * (size_ + 1) > slots_.size()) grow();
      if (insert(entry(key, did, holds))) ++size_;
    }

   private:
    // Never 0, which marks an empty slot: the key counts from 1.
    static std::uint64_t entry(std::uint32_t key, Xapian::docid did, bool holds) {
      return (std::uint64_t{key} + 1) << 33 | std::uint64_t{did} << 1 | (holds ? 1 : 0);
    }
    std::size_t slot(std::uint64_t id) const {
      return static_cast<std::size_t>((id * 0x9E3779B97F4A7C15ull) >> (64 - bits_));
    }
    bool insert(std::uint64_t e) {
      for (std::size_t i = slot(e >> 1);; i = (i + 1) & (slots_.size() - 1)) {
        if (slots_[i] == 0) {
          slots_[i] = e;
          return true;
        }
        if (slots_[i] >> 1 == e >> 1) return false;
      }
    }
    void grow() {
      std::vector<std::uint64_t> old = std::move(slots_);
      bits_ = old.empty() ? 10 : bits_ + 1;
      slots_.assign(std::size_t{1} << bits_, 0);
      for (std::uint64_t e : old) {
        if (e != 0) insert(e);
      }
    }

    std::vector<std::uint64_t> slots_;
    unsigned bits_ = 0;
    std::size_t size_ = 0;
  };

  const Deadline* deadline_;
  bool xapian_positions_;
  PositionBudget* budget_;
  std::unordered_map<std::string, std::uint32_t> keys_;  // a check's description -> its key
  Verdicts verdicts_;
  std::vector<std::pair<Xapian::docid, std::string>> kept_;
  std::unordered_map<Xapian::docid, std::size_t> where_;  // into kept_
  std::size_t oldest_ = 0;
};

PositionValuesRef position_values(const Deadline* deadline, bool xapian_positions, PositionBudget* budget) {
  return std::make_shared<PositionValues>(deadline, xapian_positions, budget);
}

// The spellings of one phrase, group or synonym, prepared for checking.
class PositionCheck {
 public:
  PositionCheck(std::vector<Words> spellings, PositionValuesRef values)
      : spellings_(std::move(spellings)), values_(values != nullptr ? std::move(values) : position_values(nullptr, false)) {
    key_ = values_->key_of(describe());
    std::unordered_map<std::string, std::size_t> index;  // of words_
    for (const auto& s : spellings_) {
      Spelling prepared;
      std::map<std::string, unsigned> count;
      for (const auto& t : s.terms) ++count[t];
      std::unordered_map<std::string_view, std::size_t> slot;  // of the spelling's distinct terms
      for (const auto& [term, n] : count) {
        auto [at, added] = index.try_emplace(term, words_.size());
        if (added) words_.push_back(term);
        slot.emplace(term, prepared.words.size());
        prepared.words.push_back(at->second);
        prepared.need.push_back(n);
      }
      for (const auto& t : s.terms) prepared.slot_of.push_back(slot.at(t));
      prepared_.push_back(std::move(prepared));
    }
  }

  const std::vector<Words>& spellings() const { return spellings_; }
  // Every distinct term of every spelling.
  const std::vector<std::string>& words() const { return words_; }
  // Indexes into words() of spelling i's distinct terms.
  const std::vector<std::size_t>& words_of(std::size_t i) const { return prepared_[i].words; }

  // Whether spelling i's words are within its window in the abstract whose
  // positions value is `value`. Exact when the abstract has every one of the
  // words: a hash is unique among the abstract's own words. (For an abstract
  // without them all, a stranger's positions may be found.)
  bool holds(std::size_t i, std::string_view value) const {
    const Spelling& s = prepared_[i];
    const Words& spelling = spellings_[i];
    if (spelling.terms.size() == 1) return true;
    values_->count_check();
    thread_local std::vector<std::vector<Xapian::termpos>> lists;
    lists.resize(s.words.size());
    const positions::Value checked(value);
    for (std::size_t j = 0; j < s.words.size(); ++j) {
      if (!checked.find(words_[s.words[j]], lists[j])) return false;
    }
    if (spelling.order == WordOrder::kAny) return any_order_within(lists, s.need, spelling.window);
    return in_order_within(lists, s.slot_of, spelling.window);
  }

  // As Xapian describes OP_PHRASE, OP_NEAR and OP_SYNONYM, without the outer
  // parentheses: "agent NEAR 3 mice", "(larg PHRASE 3 languag PHRASE 3 model) SYNONYM llm".
  std::string describe() const {
    if (spellings_.size() == 1) return describe_words(spellings_[0]);
    std::string out;
    for (const auto& s : spellings_) {
      if (!out.empty()) out += " SYNONYM ";
      if (s.terms.size() == 1) {
        out += s.terms[0];
      } else {  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "(" + string
        out += '(';
        out += describe_words(s);
        out += ')';
      }
    }
    return out;
  }

  // The values this and the query's other checks read lately.
  PositionValues& values() const { return *values_; }
  // What stands for this check among the query's (PositionValues::key_of).
  std::uint32_t key() const { return key_; }

  // Set once a PositionChecks checks this after ranking.
  bool deferred = false;

 private:
  struct Spelling {
    std::vector<std::size_t> words;    // indexes into words_, distinct
    std::vector<unsigned> need;        // how often the spelling names each
    std::vector<std::size_t> slot_of;  // each term's place in `words`, in query order
  };

  std::vector<Words> spellings_;
  std::vector<std::string> words_;
  std::vector<Spelling> prepared_;
  PositionValuesRef values_;
  std::uint32_t key_ = 0;
};

namespace {

// A check's spellings as a string, for a query copied to another thread:
// numbers as "N:", terms as "length:bytes".
void put_number(std::string& out, std::size_t n) {
  out += std::to_string(n);
  out += ':';
}

std::size_t get_number(std::string_view& in) {
  const std::size_t colon = in.find(':');
  if (colon == std::string_view::npos || colon == 0) throw Xapian::SerialisationError("bad PositionFilter");
  std::size_t n = 0;
  for (char c : in.substr(0, colon)) {
    if (c < '0' || c > '9') throw Xapian::SerialisationError("bad PositionFilter");
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  in.remove_prefix(colon + 1);
  return n;
}

std::string serialise_spellings(const std::vector<Words>& spellings) {
  std::string out;
  put_number(out, spellings.size());
  for (const auto& s : spellings) {
    put_number(out, s.order == WordOrder::kAny ? 1 : 0);
    put_number(out, s.window);
    put_number(out, s.terms.size());
    for (const auto& t : s.terms) {
      put_number(out, t.size());
      out += t;
    }
  }
  return out;
}

std::vector<Words> unserialise_spellings(std::string_view in) {
  std::vector<Words> out(get_number(in));
  for (auto& s : out) {
    s.order = get_number(in) == 1 ? WordOrder::kAny : WordOrder::kAsWritten;
    s.window = static_cast<Xapian::termcount>(get_number(in));
    s.terms.resize(get_number(in));
    for (auto& t : s.terms) {
      const std::size_t n = get_number(in);
      if (n > in.size()) throw Xapian::SerialisationError("bad PositionFilter");
      t = std::string(in.substr(0, n));
      in.remove_prefix(n);
    }
  }
  if (!in.empty()) throw Xapian::SerialisationError("bad PositionFilter");
  return out;
}

// The abstracts that have one of the check's spellings: each of its words,
// within its window. Used as the filter of a query over the same words
// (words_query, synonym_query), which does the ranking.
class PositionFilter : public Xapian::PostingSource {
 public:
  // `copies_read`, for a registry's prototype (position_registry()): the
  // values of the filters it unserialises.
  explicit PositionFilter(PositionCheckRef check, PositionValuesRef copies_read = nullptr)
      : check_(std::move(check)), copies_read_(std::move(copies_read)) {}

  PositionFilter* clone() const override { return new PositionFilter(check_, copies_read_); }

  // A copy for another thread: the check's spellings, and whether it waits for
  // PositionChecks (a deferred filter passes everything, and the other thread
  // has its own PositionChecks::twin()).
  std::string name() const override { return "abstracts.PositionFilter"; }
  std::string serialise() const override {
    std::string out(1, check_->deferred ? 'd' : 'c');
    out += serialise_spellings(check_->spellings());
    return out;
  }
  PositionFilter* unserialise(const std::string& serialised) const override {
    if (serialised.empty() || copies_read_ == nullptr) throw Xapian::SerialisationError("bad PositionFilter");
    auto check = std::make_shared<PositionCheck>(unserialise_spellings(std::string_view(serialised).substr(1)),
                                                 copies_read_);
    check->deferred = serialised[0] == 'd';
    return new PositionFilter(std::move(check));
  }

  void init(const Xapian::Database& db) override {
    db_ = db;
    cursors_.assign(check_->spellings().size(), Cursor{});
    for (std::size_t i = 0; i < cursors_.size(); ++i) restart(i);
    doccount_ = db.get_doccount();
    last_docid_ = db.get_lastdocid();
    values_ = db.valuestream_begin(schema::kPositionsSlot);
    value_asked_ = 0;
    current_ = 0;
    at_end_ = false;
  }

  Xapian::doccount get_termfreq_min() const override { return 0; }
  // Half of the abstracts, so the match estimate halves the words' AND, as
  // Xapian estimates a phrase; and so the words' own posting lists lead the
  // match and this filter is only asked about the abstracts they agree on.
  Xapian::doccount get_termfreq_est() const override { return doccount_ / 2; }
  Xapian::doccount get_termfreq_max() const override { return doccount_; }

  void next(double min_wt) override { skip_to(current_ + 1, min_wt); }

  void skip_to(Xapian::docid did, double) override {
    if (at_end_ || did <= current_) return;
    if (check_->deferred) {
      // Every abstract passes (matches()): the query's own posting lists
      // find the ones with the words, and need no second reading here.
      current_ = did;
      at_end_ = did > last_docid_;
      return;
    }
    for (;;) {
      Xapian::docid candidate = 0;
      for (std::size_t i = 0; i < check_->spellings().size(); ++i) {
        const Xapian::docid d = first_with_all(i, did);
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

  // Whether abstract `did` has every word of one of the spellings.
  bool has_words(Xapian::docid did) {
    for (std::size_t i = 0; i < cursors_.size(); ++i) {
      if (first_with_all(i, did) == did) return true;
    }
    return false;
  }

  // Whether abstract `did`, which matches the query this filter ranks with, has
  // one of the spellings, deferred or not. For PositionChecks.
  bool verify(Xapian::docid did) {
    // Asked again by another pass of the ranking, or by the same phrase
    // written elsewhere in the query: the answer stands. Only answers that
    // read positions are kept, so the budget bounds how many there are.
    PositionValues& values = check_->values();
    if (const int known = values.verdict(check_->key(), did); known >= 0) return known == 1;
    bool read = false;
    const bool holds = verify_now(did, read);
    if (read) values.keep_verdict(check_->key(), did, holds);
    return holds;
  }

  bool at_end() const override { return at_end_; }
  Xapian::docid get_docid() const override { return current_; }
  std::string get_description() const override { return check_->describe(); }

  PositionCheck& position_check() const { return *check_; }

 private:
  // One spelling's words, read together. Each spelling has its own posting
  // iterators, so that no spelling moves another's past where it is asked.
  struct Cursor {
    std::vector<Xapian::PostingIterator> postings;  // one per distinct word
    Xapian::docid from = 0;  // the lowest abstract asked about since the last restart
    Xapian::docid at = 0;    // the first abstract from `from` on with every word
    bool ended = false;      // no abstract from `from` on has every word
  };

  void restart(std::size_t i) {
    Cursor& c = cursors_[i];
    c.postings.clear();
    for (auto k : check_->words_of(i)) c.postings.push_back(db_.postlist_begin(check_->words()[k]));
    c.from = c.at = 0;
    c.ended = false;
  }

  // The first abstract from `did` on with every word of spelling i, or 0 if
  // none. Asked in increasing order within a match, it reads each posting list
  // once: an answer stands for every `did` up to it. A lower `did` (a new match
  // with this object) starts the spelling's posting lists again.
  Xapian::docid first_with_all(std::size_t i, Xapian::docid did) {
    Cursor& c = cursors_[i];
    if (did < c.from) restart(i);
    c.from = std::max(c.from, did);
    if (c.ended) return 0;
    if (c.at >= did) return c.at;
    for (;;) {
      Xapian::docid highest = did;
      for (auto& p : c.postings) {
        if (p != Xapian::PostingIterator()) p.skip_to(did);
        if (p == Xapian::PostingIterator()) {
          c.ended = true;
          return 0;
        }
        highest = std::max(highest, *p);
      }
      if (highest == did) return c.at = did;
      did = highest;
    }
  }

  // verify() without the kept answers; `read` is set if it read positions.
  bool verify_now(Xapian::docid did, bool& read) {
    const std::size_t n = check_->spellings().size();
    const std::string* value = nullptr;
    for (std::size_t i = 0; i < n; ++i) {
      // The query's match rules out an abstract without a lone phrase's words;
      // alternatives must make sure the abstract has this one's words.
      if (n > 1 && first_with_all(i, did) != did) continue;
      if (check_->spellings()[i].terms.size() == 1) return true;
      if (value == nullptr) value = &value_of(did);
      read = true;
      if (check_->holds(i, *value)) return true;
    }
    return false;
  }

  // The positions value of `did` (empty if none), as the query's checks
  // read it lately or this one reads it now. Valid until the next value_of().
  const std::string& value_of(Xapian::docid did) {
    if (const std::string* kept = check_->values().find(did)) return *kept;
    if (did < value_asked_) values_ = db_.valuestream_begin(schema::kPositionsSlot);
    value_asked_ = did;
    std::string value;
    if (values_ != Xapian::ValueIterator()) values_.skip_to(did);
    if (values_ != Xapian::ValueIterator() && values_.get_docid() == did) value = *values_;
    return check_->values().keep(did, std::move(value));
  }

  // Deferred, the filter passes every abstract it is asked about (each has the
  // words of a spelling, or the query would not match it): PositionChecks
  // verifies the ones that rank high enough.
  bool matches(Xapian::docid did) { return check_->deferred || verify(did); }

  PositionCheckRef check_;
  PositionValuesRef copies_read_;
  Xapian::Database db_;
  std::vector<Cursor> cursors_;  // one per spelling
  Xapian::ValueIterator values_;
  Xapian::docid value_asked_ = 0;
  Xapian::doccount doccount_ = 0;
  Xapian::docid last_docid_ = 0;
  Xapian::docid current_ = 0;
  bool at_end_ = false;
};

// What ranks `words` as a spelling of a synonym: its term, or the AND of its terms.
Xapian::Query ranking_query(const Words& words) {
  if (words.terms.size() == 1) return Xapian::Query(words.terms[0]);
  return Xapian::Query(Xapian::Query::OP_AND, words.terms.begin(), words.terms.end());
}

// What ranks `words` alone: ranking_query(), but a term written n times is one
// term at n times its weight, as the AND of its n copies weighs it, read once:
// "model model model ..." costs one posting list, not one per copy.
Xapian::Query ranking_query_once(const Words& words) {
  std::vector<std::string> distinct;
  std::unordered_map<std::string, unsigned> times;
  for (const auto& t : words.terms) {
    if (times[t]++ == 0) distinct.push_back(t);
  }
  if (distinct.size() == words.terms.size()) return ranking_query(words);
  std::vector<Xapian::Query> parts;
  for (const auto& t : distinct) {
    parts.push_back(times[t] == 1 ? Xapian::Query(t) : Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(t), times[t]));
  }
  return parts.size() == 1 ? parts[0] : Xapian::Query(Xapian::Query::OP_AND, parts.begin(), parts.end());
}

bool positional(const Words& words) { return words.terms.size() > 1; }

// The check as Xapian's own operators: any of its spellings, each a term,
// OP_PHRASE (in order) or OP_NEAR, over Xapian's position table.
Xapian::Query xapian_check(const PositionCheck& check) {
  std::vector<Xapian::Query> spellings;
  for (const auto& s : check.spellings()) {
    if (s.terms.size() == 1) {
      spellings.emplace_back(s.terms[0]);
    } else {
      const auto op = s.order == WordOrder::kAny ? Xapian::Query::OP_NEAR : Xapian::Query::OP_PHRASE;
      spellings.emplace_back(op, s.terms.begin(), s.terms.end(), s.window);
    }
  }
  return spellings.size() == 1 ? spellings[0] : Xapian::Query(Xapian::Query::OP_OR, spellings.begin(), spellings.end());
}

// `ranking`, which ranks, filtered by `check` (OP_FILTER adds no weight).
Xapian::Query filtered(const Xapian::Query& ranking, const PositionCheckRef& check) {
  if (check->values().xapian_positions()) return Xapian::Query(Xapian::Query::OP_FILTER, ranking, xapian_check(*check));
  return Xapian::Query(Xapian::Query::OP_FILTER, ranking,
                       Xapian::Query((new PositionFilter(check))->release()));
}

}  // namespace

PositionalQuery words_query(const Words& words, const PositionValuesRef& values) {
  if (!positional(words)) return {ranking_query(words), nullptr};
  auto check = std::make_shared<PositionCheck>(std::vector<Words>{words}, values);
  return {filtered(ranking_query_once(words), check), check};
}

PositionalQuery synonym_query(const std::vector<Words>& spellings, const PositionValuesRef& values) {
  std::vector<Xapian::Query> parts;
  for (const auto& s : spellings) parts.push_back(ranking_query(s));
  Xapian::Query synonym(Xapian::Query::OP_SYNONYM, parts.begin(), parts.end());
  if (std::none_of(spellings.begin(), spellings.end(), positional)) return {synonym, nullptr};
  // Positions are checked outside the synonym: Xapian cannot estimate a filtered
  // alternative's frequency inside one.
  auto check = std::make_shared<PositionCheck>(spellings, values);
  return {filtered(synonym, check), check};
}

PositionChecks::PositionChecks(const Xapian::Database& db) : db_(db) {}
PositionChecks::~PositionChecks() = default;

std::unique_ptr<Xapian::PostingSource> PositionChecks::take(const PositionCheckRef& check) {
  if (check == nullptr || check->values().xapian_positions() || check->deferred) return nullptr;
  check->deferred = true;
  auto filter = std::make_unique<PositionFilter>(check);
  filter->init(db_);
  return filter;
}

void PositionChecks::defer(const PositionCheckRef& check) {
  if (auto filter = take(check)) checks_.push_back(std::move(filter));
}

void PositionChecks::defer_optional(const PositionCheckRef& check) {
  if (auto filter = take(check)) optional_.push_back(std::move(filter));
}

void PositionChecks::check_optional_in_query(bool in_query) {
  optional_in_query_ = in_query;
  for (const auto& c : optional_) static_cast<PositionFilter&>(*c).position_check().deferred = !in_query;
}

std::unique_ptr<PositionChecks> PositionChecks::twin(const Xapian::Database& db,
                                                     const PositionValuesRef& values) const {
  auto out = std::make_unique<PositionChecks>(db);
  auto copy = [&](const std::unique_ptr<Xapian::PostingSource>& c) {
    return std::make_shared<PositionCheck>(static_cast<PositionFilter&>(*c).position_check().spellings(), values);
  };
  for (const auto& c : checks_) out->defer(copy(c));
  for (const auto& c : optional_) out->defer_optional(copy(c));
  out->check_optional_in_query(optional_in_query_);
  return out;
}

void PositionChecks::take_demoted(PositionChecks& twin) {
  demoted_.insert(demoted_.end(), twin.demoted_.begin(), twin.demoted_.end());
  twin.demoted_.clear();
}

Xapian::Registry position_registry(const PositionValuesRef& values) {
  Xapian::Registry registry;
  registry.register_posting_source(PositionFilter(nullptr, values));
  return registry;
}

bool PositionChecks::operator()(const Xapian::Document& doc) const {
  const Xapian::docid did = doc.get_docid();
  for (const auto& c : checks_) {
    if (!static_cast<PositionFilter&>(*c).verify(did)) return false;
  }
  if (optional_in_query_) return true;
  for (const auto& c : optional_) {
    auto& filter = static_cast<PositionFilter&>(*c);
    if (filter.has_words(did) && !filter.verify(did)) {
      demoted_.push_back(did);
      return false;
    }
  }
  return true;
}

bool is_xapian_position_check(const Xapian::Query& q) {
  auto positional = [](const Xapian::Query& s) {
    return s.get_type() == Xapian::Query::OP_PHRASE || s.get_type() == Xapian::Query::OP_NEAR;
  };
  if (positional(q)) return true;
  if (q.get_type() != Xapian::Query::OP_OR) return false;
  bool any = false;
  for (std::size_t i = 0; i < q.get_num_subqueries(); ++i) {
    const Xapian::Query s = q.get_subquery(i);
    if (positional(s)) {
      any = true;
    } else if (s.get_type() != Xapian::Query::LEAF_TERM) {
      return false;
    }
  }
  return any;
}

std::size_t ranked_subqueries(const Xapian::Query& q) {
  const std::size_t n = q.get_num_subqueries();
  if (q.get_type() == Xapian::Query::OP_FILTER && n == 2 && is_xapian_position_check(q.get_subquery(1))) return 1;
  return n;
}

std::string describe(const Xapian::Query& query) {
  static constexpr std::string_view kFilter = " FILTER PostingSource(";
  static constexpr std::string_view kList = "DocumentList(";  // no positional filter: shown as it is
  const std::string in = query.get_description();
  // "(<ranking> FILTER PostingSource(<d>))" becomes "(<d>)", in one pass: `open`
  // holds where in `out` each '(' not yet closed is.
  std::string out;
  out.reserve(in.size());
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < in.size();) {
    if (!open.empty() && in.compare(i, kFilter.size(), kFilter) == 0 &&
        in.compare(i + kFilter.size(), kList.size(), kList) != 0) {
      const std::size_t begin = i + kFilter.size();
      std::size_t close = begin;  // the ')' of PostingSource(
      for (int depth = 1; close < in.size(); ++close) {
        if (in[close] == '(') ++depth;
        if (in[close] == ')' && --depth == 0) break;
      }
      out.resize(open.back());
      open.pop_back();
      out += '(';
      out.append(in, begin, close - begin);
      out += ')';
      i = close + 2;  // past that ')' and the group's own
      continue;
    }
    if (in[i] == '(') open.push_back(out.size());
    if (in[i] == ')' && !open.empty()) open.pop_back();
    out += in[i++];
  }
  // "0.14282837364287723214 * x" (a weight scale) becomes "0.143 * x": each
  // " * " after digits, a point and digits.
  static constexpr std::string_view kTimes = " * ";
  auto digit = [&](std::size_t k) { return std::isdigit(static_cast<unsigned char>(out[k])) != 0; };
  std::string rounded;
  std::size_t last = 0;   // copied to `rounded` up to here
  std::size_t floor = 0;  // the number cannot begin before here (the previous " * ")
  for (std::size_t at = out.find(kTimes); at != std::string::npos; at = out.find(kTimes, at + 1)) {
    const std::size_t from = floor;
    floor = at + kTimes.size();
    std::size_t fraction = at;
    while (fraction > from && digit(fraction - 1)) --fraction;
    if (fraction == at || fraction == from || out[fraction - 1] != '.') continue;
    std::size_t start = fraction - 1;
    while (start > from && digit(start - 1)) --start;
    if (start == fraction - 1) continue;
    char number[32];
    std::snprintf(number, sizeof number, "%.3g", std::strtod(out.substr(start, at - start).c_str(), nullptr));
    rounded.append(out, last, start - last);
    rounded += number;
    last = at;
  }
  rounded.append(out, last, std::string::npos);
  return rounded;
}

}  // namespace abstracts::query
