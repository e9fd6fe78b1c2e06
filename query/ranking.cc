#include "query/ranking.h"

#include <algorithm>
#include <iterator>
#include <unordered_set>

#include "engine/schema.h"
#include "query/deadline.h"
#include "query/document_list.h"
#include "query/feedback.h"
#include "query/hit_reads.h"
#include "query/parallel_match.h"
#include "query/positional.h"
#include "query/proximity.h"
#include "query/stopwords.h"

namespace abstracts::query {

Bm25::Bm25(double k1, double b, const Deadline* deadline)
    : Xapian::BM25Weight(k1, 0, 1, b, 0.5), k1_(k1), b_(b), deadline_(deadline) {}

double Bm25::get_sumpart(Xapian::termcount wdf, Xapian::termcount doclen, Xapian::termcount uniqterms) const {
  if (deadline_ != nullptr) deadline_->tick();
  return Xapian::BM25Weight::get_sumpart(wdf, doclen, uniqterms);
}

Bm25* Bm25::clone() const { return new Bm25(k1_, b_, deadline_); }

Bm25 bm25(const RankingOptions& r, const Deadline* deadline) { return Bm25(r.k1, r.b, deadline); }

Ranking as_ranking(Xapian::MSet mset) {
  Ranking out{std::move(mset), {}};
  for (auto it = out.mset.begin(); it != out.mset.end(); ++it) out.hits.push_back({it, it.get_weight()});
  return out;
}

std::size_t count_user_words(const Xapian::Query& query) {
  std::unordered_set<std::string> words;
  // A walk with a stack of its own: however deep the query, it needs no more of the thread's.
  std::vector<Xapian::Query> todo{query};
  while (!todo.empty()) {
    const Xapian::Query q = std::move(todo.back());
    todo.pop_back();
    if (q.get_type() == Xapian::Query::LEAF_TERM) {
      if (q.get_terms_begin() == q.get_terms_end()) continue;
      std::string term = *q.get_terms_begin();
      if (schema::is_title_term(term)) term.erase(0, schema::kTitlePrefix.size());
      if (schema::is_word_term(term)) words.insert(std::move(term));
      continue;
    }
    std::size_t n = ranked_subqueries(q);
    if (q.get_type() == Xapian::Query::OP_SYNONYM) n = std::min<std::size_t>(n, 1);  // the word as written
    for (std::size_t i = 0; i < n; ++i) todo.push_back(q.get_subquery(i));
  }
  return words.size();
}

void order_ties_by_id(Xapian::Enquire& enquire) {
  enquire.set_sort_by_relevance_then_value(schema::kDateIdSlot, false);
}

namespace {

// Xapian's hits from..from+n of `enquire`'s query. Optional position checks
// (PositionChecks::defer_optional) are done on the best candidates only: a
// first pass ranks each abstract with a phrase's words as if it had the
// phrase, which weighs it at least as much as it truly weighs, and refuses the
// best ones without it (demoted). Every abstract ranked below the first pass's
// last hit truly weighs less, so the hits are the first pass's and the
// demoted, weighed again with the phrases checked in the query. A pass that
// counts every match (`check_at_least`) checks them all in the query. With
// `parallel` (may be null), each pass may be split over two threads, whose
// halves demote what each refuses: the abstracts not demoted and not among
// the first pass's hits weigh no more than its last, as on one thread.
Ranking checked_mset(Xapian::Enquire& enquire, std::size_t from, std::size_t n, Xapian::doccount check_at_least,
                     PositionChecks* checks, ParallelMatch* parallel = nullptr) {
  auto get = [&](std::size_t first, std::size_t count, Xapian::doccount at_least, ParallelMatch* split_by) {
    if (split_by != nullptr) {
      if (auto split = split_by->top(enquire.get_query(), first, count, at_least, checks)) return std::move(*split);
    }
    return as_ranking(enquire.get_mset(static_cast<Xapian::doccount>(first), static_cast<Xapian::doccount>(count),
                                       at_least, nullptr, checks));
  };
  if (checks == nullptr || !checks->has_optional()) return get(from, n, check_at_least, parallel);
  // While in scope: the optional checks run in the query's filters, and
  // `enquire` asks `query` (if given) instead of its own.
  struct Exactly {
    Exactly(PositionChecks* c, Xapian::Enquire& e, const Xapian::Query& query = Xapian::Query())
        : checks(c), enquire(e), own(e.get_query()) {
      checks->check_optional_in_query(true);
      if (!query.empty()) enquire.set_query(query);
    }
    ~Exactly() {
      checks->check_optional_in_query(false);
      enquire.set_query(own);
    }
    PositionChecks* checks;
    Xapian::Enquire& enquire;
    const Xapian::Query own;
  };
  if (check_at_least > 0) {
    Exactly exact(checks, enquire);
    return get(from, n, check_at_least, parallel);
  }
  checks->clear_demoted();
  Ranking first = get(0, from + n, 0, parallel);
  if (checks->demoted().empty()) {
    first.hits.erase(first.hits.begin(), first.hits.begin() + static_cast<long>(std::min(from, first.hits.size())));
    return first;
  }
  std::vector<Xapian::docid> docs = checks->demoted();
  for (const auto& hit : first.hits) docs.push_back(*hit.it);
  std::sort(docs.begin(), docs.end());
  docs.erase(std::unique(docs.begin(), docs.end()), docs.end());
  Exactly exact(checks, enquire,
                Xapian::Query(Xapian::Query::OP_FILTER, enquire.get_query(),
                              Xapian::Query((new DocumentList(std::move(docs)))->release())));
  const std::size_t demoted = checks->demoted().size();
  // A few abstracts, on this thread (a list of them is no query to copy).
  Ranking out = get(from, n, 0, nullptr);
  // Its estimate of the matches: the second pass saw only the best.
  out.mset = std::move(first.mset);
  out.matches = first.matches;
  // A split pass counts what its halves let through; the demoted match too.
  if (out.matches) out.matches->upper += static_cast<Xapian::doccount>(demoted);
  return out;
}

// Hits first..first+count of `enquire`'s query, in Xapian's order (by weight,
// then document number), or, when `ties_by_id` and two of them (or one and its
// neighbour outside the range) weigh the same, as order_ties_by_id() orders
// them. Ties are rare among ranked hits, and Xapian reads the value of every
// candidate it sorts so: 5% of a search's instructions over 115k arXiv
// abstracts (callgrind), so the value order is asked for only when needed.
Ranking fetch(Xapian::Enquire& enquire, std::size_t first, std::size_t count, Xapian::doccount check_at_least,
              PositionChecks* checks, bool ties_by_id, ParallelMatch* parallel = nullptr) {
  // In relevance order (the split match's), unless order_ties_by_id() set another.
  auto mset = [&](std::size_t from, std::size_t n, bool by_relevance = true) {
    return checked_mset(enquire, from, n, check_at_least, checks, by_relevance ? parallel : nullptr);
  };
  if (!ties_by_id) return mset(first, count);
  const std::size_t from = first > 0 ? first - 1 : 0;
  Ranking wide = mset(from, count + 1 + (first - from));
  bool tie = false;
  for (std::size_t i = 1; i < wide.hits.size() && !tie; ++i) tie = wide.hits[i].score == wide.hits[i - 1].score;
  if (tie) {
    order_ties_by_id(enquire);
    Ranking tied = mset(first, count, false);
    enquire.set_sort_by_relevance();
    return tied;
  }
  wide.hits.erase(wide.hits.begin(), wide.hits.begin() + static_cast<long>(std::min(first - from, wide.hits.size())));
  if (wide.hits.size() > count) wide.hits.resize(count);
  return wide;
}

}  // namespace

Xapian::MSet all_matches(Xapian::Enquire& enquire, PositionChecks* checks, Xapian::doccount doccount) {
  return checked_mset(enquire, 0, 0, std::max<Xapian::doccount>(doccount, 1), checks).mset;
}

Ranking best_hits(const Xapian::Database& db, Xapian::Enquire& enquire, const Xapian::Query& asked,
                  std::size_t user_words, const RankingOptions& r, std::size_t offset, std::size_t limit,
                  PositionChecks* checks, Xapian::doccount check_at_least, bool ties_by_id,
                  HitReads* reads, ParallelMatch* parallel) {
  if (r.proximity_weight <= 0 || r.proximity_depth == 0 || r.proximity_min_words == 0 ||
      user_words < r.proximity_min_words) {
    // A few words match fast on one thread (their tiers skip most postings);
    // a phrase's checks of every candidate are worth a second.
    return fetch(enquire, offset, limit, check_at_least, checks, ties_by_id, checks != nullptr ? parallel : nullptr);
  }
  const auto wanted = std::max<std::size_t>(r.proximity_depth, offset + limit);
  Ranking ranking = fetch(enquire, 0, wanted, check_at_least, checks, ties_by_id, parallel);
  ranking.rescored = true;
  const Proximity proximity(db, asked, r.proximity_window, &ranking.mset);
  auto& hits = ranking.hits;
  const std::size_t depth = std::min<std::size_t>(r.proximity_depth, hits.size());
  HitReads own(db);
  HitReads& from = reads != nullptr ? *reads : own;
  // The documents of the hits not read yet, through their MSet (on a remote
  // shard Xapian 1.4 still asks for them one at a time), kept for the passes.
  std::vector<std::size_t> unread;
  for (std::size_t i = 0; i < depth; ++i) {
    if (!from.has(*hits[i].it)) unread.push_back(i);
  }
  // (Each through its own MSet: a split match's hits come from two.)
  for (std::size_t i : unread) hits[i].it.mset.fetch(hits[i].it, std::next(hits[i].it));
  for (std::size_t i : unread) from.keep(*hits[i].it, hits[i].it.get_document());
  std::vector<Xapian::docid> docs;
  for (std::size_t i = 0; i < depth; ++i) docs.push_back(*hits[i].it);
  const std::vector<double> coverage = proximity.coverage(docs, &from);
  for (std::size_t i = 0; i < depth; ++i) hits[i].score *= 1 + r.proximity_weight * coverage[i];
  // Scores only grow, so the rescored hits stay ahead of the rest.
  std::stable_sort(hits.begin(), hits.begin() + static_cast<long>(depth),
                   [](const Ranked& a, const Ranked& b) { return a.score > b.score; });
  hits.erase(hits.begin(), hits.begin() + static_cast<long>(std::min(offset, hits.size())));
  if (hits.size() > limit) hits.resize(limit);
  return ranking;
}

Xapian::Query rank(Xapian::Database& db, Xapian::Query query, bool plain, const RankingOptions& r,
                   PositionChecks* checks, std::vector<std::string>* notes,
                   FeedbackWeights* feedback, const Deadline* deadline, bool remote, HitReads* reads,
                   ParallelMatch* parallel) {
  if (plain && r.plain_text_stopwords) {
    // A plain-text query is a flat OR of its words (an acronym's group among
    // them), a word written n times scaled by n: rebuild it without function words.
    const bool or_of_parts = query.get_type() == Xapian::Query::OP_OR;
    const std::size_t n = or_of_parts ? query.get_num_subqueries() : 1;
    std::vector<Xapian::Query> kept;
    for (std::size_t i = 0; i < n; ++i) {
      Xapian::Query part = or_of_parts ? query.get_subquery(i) : query;
      Xapian::Query word = part;
      if (word.get_type() == Xapian::Query::OP_SCALE_WEIGHT) word = word.get_subquery(0);
      const bool leaf = word.get_type() == Xapian::Query::LEAF_TERM;
      if (!leaf || !is_function_word(*word.get_terms_begin())) kept.push_back(std::move(part));
    }
    if (!kept.empty()) query = Xapian::Query(Xapian::Query::OP_OR, kept.begin(), kept.end());
  }
  const std::vector<std::string> words = schema::word_terms(query);
  if (r.title_weight > 0 && !words.empty()) {
    std::vector<Xapian::Query> title;
    for (const auto& w : words) title.emplace_back(std::string(schema::kTitlePrefix) + w);
    Xapian::Query boost(Xapian::Query::OP_SCALE_WEIGHT,
                        Xapian::Query(Xapian::Query::OP_OR, title.begin(), title.end()), r.title_weight);
    query = Xapian::Query(Xapian::Query::OP_AND_MAYBE, query, boost);
  }
  if (r.feedback_min_words == 0 || r.feedback_mix <= 0) return query;
  const std::size_t user_words = count_user_words(query);
  if (user_words < r.feedback_min_words) return query;
  Xapian::Enquire first(db);
  first.set_query(query);
  first.set_weighting_scheme(bm25(r, deadline));
  const Ranking first_pass =
      best_hits(db, first, query, user_words, r, 0, r.feedback_docs, checks, 0, true, reads, parallel);
  if (deadline != nullptr) deadline->check();
  return with_feedback(db, query, first_pass.hits, words.size(), plain, r, notes, feedback, deadline, remote, reads);
}

}  // namespace abstracts::query
