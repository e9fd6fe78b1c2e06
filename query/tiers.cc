#include "query/tiers.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "engine/tiers.h"
#include "query/deadline.h"

namespace abstracts::query {
namespace {

// The highest weights of a tiered word's first tier, second tier and rest.
struct Bounds {
  double first, second, rest;
};

// The length of each abstract a tiered word has, by document number.
using Lengths = std::shared_ptr<const std::vector<Xapian::termcount>>;

// The number at `at` in `text` (strtod's), moving `at` past it.
double next_number(const char*& at, const std::string& text) {
  char* end = nullptr;
  const double d = std::strtod(at, &end);
  if (end == at || end >= text.c_str() + text.size()) throw Xapian::SerialisationError("bad TieredWord");
  at = end;
  return d;
}

// A tiered word: its whole list while the matcher may still need a posting of
// the rest's impact; then only its two tiers, merged; then only the first. The
// matcher's min_wt only grows during a match, so a tier left out stays out.
// Weighs each posting as Xapian::BM25Weight would (tiers::Bm25).
class TieredWord : public Xapian::PostingSource {
 public:
  TieredWord(Xapian::Database side, Lengths lengths, std::string word, tiers::Bm25 bm25, double termweight,
             Xapian::doccount tf, Bounds bounds, const Deadline* deadline)
      : side_(std::move(side)), lengths_(std::move(lengths)), word_(std::move(word)), bm25_(bm25),
        termweight_(termweight), tf_(tf), bounds_(bounds), deadline_(deadline) {}

  TieredWord* clone() const override {
    return new TieredWord(side_, lengths_, word_, bm25_, termweight_, tf_, bounds_, deadline_);
  }
  // A copy for another thread (query/parallel_match.h): the word and its
  // numbers, to the bit ("%a"); the side database and lengths are the
  // prototype's there (TierCopies).
  std::string name() const override { return std::string(kTieredWordName); }
  std::string serialise() const override {
    std::string out;
    for (double d : {bm25_.k1, bm25_.b, bm25_.len_factor, termweight_, bounds_.first, bounds_.second, bounds_.rest}) {
      char text[40];
      std::snprintf(text, sizeof text, "%a ", d);
      out += text;
    }
    out += std::to_string(bm25_.docs) + ' ' + std::to_string(tf_) + ' ' + word_;
    return out;
  }
  TieredWord* unserialise(const std::string& serialised) const override {
    const char* at = serialised.c_str();
    double d[7];
    for (double& x : d) x = next_number(at, serialised);
    const double docs = next_number(at, serialised), tf = next_number(at, serialised);
    if (*at != ' ') throw Xapian::SerialisationError("bad TieredWord");
    tiers::Bm25 bm25 = bm25_;
    bm25.k1 = d[0];
    bm25.b = d[1];
    bm25.len_factor = d[2];
    bm25.docs = static_cast<Xapian::doccount>(docs);
    return new TieredWord(side_, lengths_, std::string(at + 1), bm25, d[3], static_cast<Xapian::doccount>(tf),
                          Bounds{d[4], d[5], d[6]}, deadline_);
  }
  void init(const Xapian::Database& db) override {
    all_ = db.postlist_begin(word_);
    first_ = side_.postlist_begin(tiers::first_term(word_));
    second_ = side_.postlist_begin(tiers::second_term(word_));
    at_ = 0;
    done_ = false;
    on_all_ = true;
    walked_ = 3;
    set_maxweight(termweight_ * bounds_.first);
  }
  // It matches what the word's list has: the counts are the word's.
  Xapian::doccount get_termfreq_min() const override { return tf_; }
  Xapian::doccount get_termfreq_est() const override { return tf_; }
  Xapian::doccount get_termfreq_max() const override { return tf_; }
  void next(double min_wt) override {
    leave_out(min_wt);
    advance(at_ + 1);
  }
  void skip_to(Xapian::docid did, double min_wt) override {
    leave_out(min_wt);
    if (did > at_) advance(did);
  }
  // Xapian 1.4's AND_MAYBE, once it may become an AND, skips to one past where
  // its optional side stands: had this moved past `did` to the next posting,
  // that posting would be skipped. So it stays put unless `did` is there.
  bool check(Xapian::docid did, double min_wt) override {
    leave_out(min_wt);
    if (did <= at_) return true;
    advance(did);
    if (done_ || at_ == did) return true;
    at_ = did - 1;  // so next() moves to the first posting after did
    return false;
  }
  bool at_end() const override { return done_; }
  Xapian::docid get_docid() const override { return at_; }
  double get_weight() const override {
    if (deadline_ != nullptr) deadline_->tick();
    const Xapian::PostingIterator& at = on_all_ ? all_ : (first_ != end_ && *first_ == at_ ? first_ : second_);
    return termweight_ * bm25_.impact(at.get_wdf(), (*lengths_)[at_]);
  }
  std::string get_description() const override { return "TieredWord(" + word_ + ")"; }

 private:
  void leave_out(double min_wt) {
    if (walked_ == 3 && min_wt > termweight_ * bounds_.rest) walked_ = 2;
    if (walked_ == 2 && min_wt > termweight_ * bounds_.second) walked_ = 1;
  }
  // To the first posting at or after `did` of what is still walked (whose
  // iterator has its wdf and length).
  void advance(Xapian::docid did) {
    on_all_ = walked_ == 3;
    if (on_all_) {
      if (all_ != end_ && *all_ < did) all_.skip_to(did);
      done_ = all_ == end_;
      if (!done_) at_ = *all_;
      return;
    }
    Xapian::docid next = 0;
    if (first_ != end_ && *first_ < did) first_.skip_to(did);
    if (first_ != end_) next = *first_;
    if (walked_ == 2) {
      if (second_ != end_ && *second_ < did) second_.skip_to(did);
      if (second_ != end_ && (next == 0 || *second_ < next)) next = *second_;
    }
    done_ = next == 0;
    if (!done_) at_ = next;
  }

  Xapian::Database side_;
  Lengths lengths_;
  std::string word_;
  tiers::Bm25 bm25_;
  double termweight_;
  Xapian::doccount tf_;
  Bounds bounds_;
  const Deadline* deadline_;
  Xapian::PostingIterator all_, first_, second_;
  const Xapian::PostingIterator end_;
  Xapian::docid at_ = 0;
  bool done_ = false;
  bool on_all_ = true;  // at_ is the whole list's posting (else a tier's)
  int walked_ = 3;
};

// The lengths of a side database (`key`: its path and the index's last
// document), read once and shared by the threads that search it: 4 MB at 1M.
Lengths shared_lengths(const std::string& key, const Xapian::Database& side) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const std::vector<Xapian::termcount>>> read;
  const std::lock_guard lock(mutex);
  if (auto kept = read[key].lock()) return kept;
  auto lengths = std::make_shared<const std::vector<Xapian::termcount>>(
      tiers::decode_lengths(side.get_metadata(std::string(tiers::kLengthsKey))));
  read[key] = lengths;
  return lengths;
}

// One thread's side database of one index, for the index as it was when it
// was opened.
struct Side {
  Xapian::doccount docs = 0;
  Xapian::docid last = 0;
  std::filesystem::path path;          // of the generation's side database
  ino_t inode = 0;                     // of its folder when last opened
  std::optional<Xapian::Database> db;  // none: no tiers for the index as it is
  Lengths lengths;
  std::unordered_map<std::string, std::optional<Bounds>> bounds;  // by word, as read
};

// The side database for `db` as it is now, if there is one. Without one fit to
// use, the side database's folder is looked at again on each search (one stat):
// a process that searched before the writer built or rebuilt the tiers (a new
// folder, renamed into place) uses them once they are there.
Side& side_of(const std::filesystem::path& dir, const Xapian::Database& db) {
  thread_local std::map<std::string, Side> sides;
  Side& side = sides[dir.string()];
  const bool same = side.docs == db.get_doccount() && side.last == db.get_lastdocid() && !side.path.empty();
  if (same && side.db) return side;
  try {
    if (!same) {
      side = Side{};
      side.docs = db.get_doccount();
      side.last = db.get_lastdocid();
      side.path = tiers::side_path(layout::current_generation(dir));
    }
    struct stat folder {};
    if (::stat(side.path.c_str(), &folder) != 0 || folder.st_ino == side.inode) return side;  // none, or seen
    side.inode = folder.st_ino;
    Xapian::Database opened(side.path.string(), Xapian::DB_BACKEND_GLASS);
    const RankingOptions defaults;  // what the Writer builds them for
    if (opened.get_metadata(std::string(tiers::kStampKey)) == tiers::stamp(db, defaults.k1, defaults.b)) {
      side.lengths = shared_lengths(side.path.string() + '\n' + std::to_string(side.last), opened);
      if (side.lengths->size() == side.last + 1) side.db = std::move(opened);
    }
  } catch (const Xapian::Error&) {
    // Being replaced, or unreadable: plain terms, as without tiers.
  } catch (const Error&) {
  }
  return side;
}

// A tiered word's bounds, read once per side database; none for a word not
// tiered, or whose bounds do not read as numbers (a damaged side database: the
// word is weighed as a plain term).
std::optional<Bounds> bounds_of(Side& side, const std::string& word) {
  auto [it, added] = side.bounds.try_emplace(word);
  if (!added) return it->second;
  double bound[3];
  const char parts[3] = {tiers::kFirst, tiers::kSecond, tiers::kRest};
  for (int k = 0; k < 3; ++k) {
    const std::string text = side.db->get_metadata(tiers::bound_key(parts[k], word));
    char* end = nullptr;
    bound[k] = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(bound[k] >= 0)) return it->second;  // none
  }
  it->second = Bounds{bound[0], bound[1], bound[2]};
  return it->second;
}

// How many of `q`'s first subqueries weigh their words on their own: all of an
// OR, AND or AND_MAYBE's, the weighed side of AND_NOT and FILTER; none of a
// phrase's, a synonym's, a scaled or a wildcard's ...
std::size_t weighed_subqueries(const Xapian::Query& q) {
  switch (q.get_type()) {
    case Xapian::Query::OP_OR:
    case Xapian::Query::OP_AND:
    case Xapian::Query::OP_AND_MAYBE:
      return q.get_num_subqueries();
    case Xapian::Query::OP_AND_NOT:
    case Xapian::Query::OP_FILTER:
      return 1;
    default:
      return 0;
  }
}

// The word of a leaf `q`, if it is one (no prefixed term).
std::optional<std::string> leaf_word(const Xapian::Query& q) {
  if (q.get_type() != Xapian::Query::LEAF_TERM || q.get_terms_begin() == q.get_terms_end()) return std::nullopt;
  std::string term = *q.get_terms_begin();
  if (!schema::is_word_term(term)) return std::nullopt;
  return term;
}

// The words `q` weighs on their own (the leaves with_tiers() may replace), and
// whether it has other parts that weigh words (a phrase, a synonym ...).
void weighed_words(const Xapian::Query& q, std::unordered_set<std::string>& words, bool& other) {
  if (q.get_type() == Xapian::Query::LEAF_TERM) {
    if (auto word = leaf_word(q)) words.insert(std::move(*word));
    return;
  }
  const std::size_t n = weighed_subqueries(q);
  if (n == 0) other = true;
  for (std::size_t i = 0; i < n; ++i) weighed_words(q.get_subquery(i), words, other);
}

}  // namespace

Xapian::Query with_tiers(const std::filesystem::path& dir, const Xapian::Database& db, const Xapian::Query& query,
                         const RankingOptions& r, const Deadline* deadline) {
  std::unordered_set<std::string> words;
  bool other = false;
  weighed_words(query, words, other);
  if (words.empty() || words.size() + (other ? 1 : 0) > kMostTieredWords) return query;
  const RankingOptions defaults;  // the tiers' bounds are impacts under these
  if (r.k1 != defaults.k1 || r.b != defaults.b) return query;
  Side& side = side_of(dir, db);
  if (!side.db) return query;
  const tiers::Bm25 bm25(r.k1, r.b, db);
  // Rebuilds what has a tiered word in it; the rest is kept as it is.
  auto rewrite = [&](auto& self, const Xapian::Query& q) -> Xapian::Query {
    if (q.get_type() == Xapian::Query::LEAF_TERM) {
      // A leaf of wqf 1 only ("Query(word)" or "Query(word@3)"; Xapian 1.4
      // shows any other wqf as "#N"), weighed with factor 1.
      const auto word = leaf_word(q);
      if (!word || q.get_description().find('#') != std::string::npos) return q;
      const auto bounds = bounds_of(side, *word);
      if (!bounds) return q;
      const Xapian::doccount tf = db.get_termfreq(*word);
      return Xapian::Query(
          (new TieredWord(*side.db, side.lengths, *word, bm25, bm25.termweight(tf), tf, *bounds, deadline))->release());
    }
    const std::size_t rewritten = weighed_subqueries(q);
    if (rewritten == 0) return q;
    std::vector<Xapian::Query> subs;
    bool changed = false;
    for (std::size_t i = 0; i < q.get_num_subqueries(); ++i) {
      const Xapian::Query sub = q.get_subquery(i);
      subs.push_back(i < rewritten ? self(self, sub) : sub);
      changed = changed || subs.back().internal.get() != sub.internal.get();
    }
    if (!changed) return q;
    return Xapian::Query(q.get_type(), subs.begin(), subs.end());
  };
  return rewrite(rewrite, query);
}

namespace {

// Side database handles no thread is using, by path: a TierCopies takes one
// (or opens one) and gives it back, so a search that splits does not open one.
constexpr std::size_t kMostSpare = 8;
std::mutex spare_mutex;
std::map<std::string, std::vector<Xapian::Database>> spare_sides;

}  // namespace

TierCopies::TierCopies(const std::filesystem::path& dir, const Xapian::Database& db) {
  const Side& side = side_of(dir, db);
  if (!side.db) return;
  path_ = side.path.string();
  try {
    std::optional<Xapian::Database> handle;
    {
      const std::lock_guard lock(spare_mutex);
      auto& spare = spare_sides[path_];
      if (!spare.empty()) {
        handle = std::move(spare.back());
        spare.pop_back();
      }
    }
    if (handle) {
      handle->reopen();
    } else {
      handle.emplace(path_, Xapian::DB_BACKEND_GLASS);
    }
    const RankingOptions defaults;
    // Not if a writer has replaced them since: their bounds would be another index's.
    if (handle->get_metadata(std::string(tiers::kStampKey)) != tiers::stamp(db, defaults.k1, defaults.b)) return;
    side_ = std::move(handle);
    lengths_ = side.lengths;
  } catch (const Xapian::Error&) {
    // Being replaced: no copy can be read, and the match stays on one thread.
  }
}

TierCopies::~TierCopies() {
  if (!side_) return;
  const std::lock_guard lock(spare_mutex);
  // Only the latest generation's: an older one's are not asked for again.
  std::erase_if(spare_sides, [&](const auto& kept) { return kept.first != path_; });
  auto& spare = spare_sides[path_];
  if (spare.size() < kMostSpare) spare.push_back(std::move(*side_));
}

bool TierCopies::add_to(Xapian::Registry& registry, const Deadline* deadline) const {
  if (!side_) return false;
  const RankingOptions defaults;
  registry.register_posting_source(
      TieredWord(*side_, lengths_, "", tiers::Bm25(defaults.k1, defaults.b, *side_), 0, 0, Bounds{}, deadline));
  return true;
}

}  // namespace abstracts::query
