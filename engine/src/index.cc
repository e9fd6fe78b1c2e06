#include "abstracts/index.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include <xapian.h>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "engine/xapian_errors.h"
#include "query/acronym_table.h"
#include "query/parser.h"
#include "query/positional.h"
#include "query/proximity.h"
#include "query/snippet.h"
#include "query/spelling.h"
#include "query/stopwords.h"

namespace abstracts {
namespace fs = std::filesystem;

namespace {

// How many expand-set terms describe the given abstracts in similar().
constexpr Xapian::termcount kSimilarTerms = 40;

// Xapian::Stem is not thread-safe, so each thread has its own analyzer.
const analysis::Analyzer& thread_analyzer() {
  thread_local analysis::Analyzer analyzer;
  return analyzer;
}

Xapian::Database open_database(const fs::path& dir) {
  layout::reject_flat_layout(dir);
  if (!layout::has_index(dir)) {
    throw IndexNotFound("no index at " + dir.string(),
                        "create it with `abstracts index --index " + dir.string() + " [PATH...]`");
  }
  Xapian::Database db(dir.string());  // through the stub, the current generation
  schema::require_version(db, dir);
  return db;
}

}  // namespace

struct Index::Impl {
  fs::path dir;
  // Xapian::Database is not safe to share between threads, so concurrent callers
  // each borrow their own handle from this pool.
  std::mutex mutex;
  // A database handle, and the version of the stub it was opened through: a
  // bulk build publishes a new generation, which reopen() alone would not see.
  struct Handle {
    std::unique_ptr<Xapian::Database> db;
    layout::StubVersion version;
    // Reads the stored abstracts; a generation's dictionary never changes.
    std::unique_ptr<compression::Decompressor> stored;
  };
  std::vector<Handle> idle;

  Handle open_handle() {
    Handle h;
    h.version = layout::stub_version(dir);
    h.db = std::make_unique<Xapian::Database>(open_database(dir));
    h.stored = std::make_unique<compression::Decompressor>(schema::dictionary_of(*h.db));
    return h;
  }

  class Lease {
   public:
    explicit Lease(Impl& impl) : impl_(impl) {
      {
        std::lock_guard lock(impl_.mutex);
        if (!impl_.idle.empty()) {
          h_ = std::move(impl_.idle.back());
          impl_.idle.pop_back();
        }
      }
      if (h_.db && h_.version == layout::stub_version(impl_.dir)) {
        h_.db->reopen();  // see what the writer committed since this handle last looked
      } else {
        h_ = impl_.open_handle();  // first use, or a new generation was published
      }
    }
    ~Lease() {
      if (!h_.db) return;
      std::lock_guard lock(impl_.mutex);
      impl_.idle.push_back(std::move(h_));
    }
    // Opens a fresh handle (the generation it had was removed under it).
    void refresh() { h_ = impl_.open_handle(); }
    Xapian::Database& operator*() { return *h_.db; }
    Xapian::Database* operator->() { return h_.db.get(); }
    const compression::Decompressor& stored() const { return *h_.stored; }

   private:
    Impl& impl_;
    Handle h_;
  };

  // Runs `f` with a database handle and the decompressor of its stored abstracts,
  // translating errors, and retrying once if a writer's commit invalidated the
  // revision being read.
  template <class F>
  auto with_db(F&& f) {
    return xapian_try(dir, [&] {
      Lease db(*this);
      try {
        return f(*db, db.stored());
      } catch (const Xapian::DatabaseModifiedError&) {
        db->reopen();
        return f(*db, db.stored());
      } catch (const Xapian::DatabaseOpeningError&) {
        db.refresh();  // a bulk build replaced the generation this handle had open
        return f(*db, db.stored());
      }
    });
  }
};

Index::Index(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Index::Index(Index&&) noexcept = default;
Index& Index::operator=(Index&&) noexcept = default;
Index::~Index() = default;

Index Index::open(const fs::path& dir) {
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  // Open one handle now, so a missing or unreadable index fails here.
  xapian_try(dir, [&] { impl->idle.push_back(impl->open_handle()); });
  return Index(std::move(impl));
}

const fs::path& Index::path() const { return impl_->dir; }

namespace {

// BM25 with the ranking options' parameters (k2 = 0, k3 = 1, min_normlen = 0.5 as in Xapian).
Xapian::BM25Weight bm25(const RankingOptions& r) {
  return Xapian::BM25Weight(r.k1, 0, 1, r.b, 0.5);
}

// The weights rank() gave the words pseudo-relevance feedback added (a word of
// the query may be one of them too).
using FeedbackWeights = std::unordered_map<std::string, double>;

// Each query term's BM25 weight in the document with this id, on its own. A
// title term counts once if the user asked for it (title:) and title_weight
// times if rank() boosted the title words (`asked_terms` are the terms of the
// query before rank()); a feedback word counts its feedback weight, plus once if
// the user asked for it.
std::vector<TermWeight> explain_hit(Xapian::Database& db, const Xapian::Query& query,
                                    const std::unordered_set<std::string>& asked_terms, const std::string& id,
                                    const RankingOptions& ranking, const FeedbackWeights& feedback) {
  std::vector<TermWeight> out;
  Xapian::Query only_this(schema::id_term(id));
  for (auto t = query.get_unique_terms_begin(); t != query.get_unique_terms_end(); ++t) {
    const bool title = schema::is_title_term(*t);
    if (!schema::is_word_term(*t) && !title) continue;  // filters weigh nothing
    Xapian::Enquire enquire(db);
    enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, Xapian::Query(*t), only_this));
    enquire.set_weighting_scheme(bm25(ranking));
    Xapian::MSet m = enquire.get_mset(0, 1);
    if (m.empty()) continue;
    if (title) {
      const std::string word = (*t).substr(schema::kTitlePrefix.size());
      const double times = (asked_terms.count(*t) != 0 ? 1.0 : 0.0) +
                           (ranking.title_weight > 0 && asked_terms.count(word) != 0 ? ranking.title_weight : 0.0);
      out.push_back({"title:" + word, m.begin().get_weight() * times});
    } else {
      const auto f = feedback.find(*t);
      const double times = (f == feedback.end() || asked_terms.count(*t) != 0 ? 1.0 : 0.0) +
                           (f == feedback.end() ? 0.0 : f->second);
      out.push_back({*t, m.begin().get_weight() * times});
    }
  }
  return out;
}

// A hit as ranked: where it is in its MSet, and its score, which is the MSet's
// weight unless proximity rescored it.
struct Ranked {
  Xapian::MSetIterator it;
  double score;
};

// Hits in ranked order, and the MSet they come from.
struct Ranking {
  Xapian::MSet mset;
  std::vector<Ranked> hits;
  bool rescored = false;  // by proximity
};

Ranking as_ranking(Xapian::MSet mset) {
  Ranking out{std::move(mset), {}};
  for (auto it = out.mset.begin(); it != out.mset.end(); ++it) out.hits.push_back({it, it.get_weight()});
  return out;
}

// The hits of `ranking`, with snippets highlighting the words of `query` (which
// was `asked` before rank()).
void fill_hits(Xapian::Database& db, const compression::Decompressor& stored, const Xapian::Query& query,
               const Xapian::Query& asked, const FeedbackWeights& feedback, const Ranking& ranking,
               const SearchOptions& options, SearchResults& results) {
  const std::unordered_set<std::string> asked_terms(asked.get_unique_terms_begin(), asked.get_unique_terms_end());
  std::unordered_set<std::string> terms;  // highlighted: the user's words, not feedback's
  for (auto t = query.get_unique_terms_begin(); t != query.get_unique_terms_end(); ++t) {
    if (feedback.contains(*t) && !asked_terms.contains(*t)) continue;
    if (schema::is_word_term(*t)) {
      terms.insert(*t);
    } else if (schema::is_title_term(*t)) {
      terms.insert((*t).substr(schema::kTitlePrefix.size()));  // title:word highlights the word
    }
  }
  results.estimated_matches = ranking.mset.get_matches_estimated();
  std::size_t rank = options.offset;
  for (const auto& [it, score] : ranking.hits) {
    Hit hit;
    hit.rank = ++rank;
    hit.score = score;
    hit.abstract = schema::stored_abstract(it.get_document(), stored);
    if (options.snippets) {
      hit.snippet = query::make_snippet(hit.abstract.text, terms, options.snippet_chars, thread_analyzer());
    }
    if (options.explain) {
      hit.explanation = explain_hit(db, query, asked_terms, hit.abstract.id, options.ranking, feedback);
      if (score > it.get_weight()) hit.explanation.push_back({"proximity", score - it.get_weight()});
    }
    results.hits.push_back(std::move(hit));
  }
}

// Terms worth expanding a relevance set with: words, not too short, not numbers,
// not the boilerplate every abstract uses.
class ExpandWords : public Xapian::ExpandDecider {
 public:
  bool operator()(const std::string& term) const override {
    if (!schema::is_word_term(term) || term.size() < 3) return false;
    if (term[0] >= '0' && term[0] <= '9') return false;
    return !query::is_boilerplate(term);
  }
};

// The relevance model of a query's best hits, `top` (RM3: Lavrenko and Croft's
// relevance model, as Anserini's Rm3Reranker runs it): each hit votes for its
// `terms` most frequent words, P(w|d) = wdf / the sum of those wdfs, weighted by
// P(d|Q), the hit's share of the scores; words in more than a tenth of the
// abstracts carry no topic and are never chosen. Returns the `terms` best words
// with P(w|Q), and adds the hits' id terms to `top_ids`.
std::vector<std::pair<std::string, double>> relevance_model(Xapian::Database& db, const std::vector<Ranked>& top,
                                                            unsigned terms, std::vector<Xapian::Query>& top_ids) {
  std::vector<std::pair<std::string, double>> best;
  double total_score = 0;
  for (const auto& h : top) total_score += h.score;
  if (total_score <= 0) return best;
  const double max_termfreq = 0.1 * db.get_doccount();
  struct Vote {
    std::string term;
    Xapian::termcount wdf;
    Xapian::doccount termfreq;
  };
  std::unordered_map<std::string, double> model;
  std::unordered_map<std::string, Xapian::doccount> termfreqs;  // lookups are B-tree reads
  std::vector<Vote> votes, chosen;
  for (const auto& [it, score] : top) {
    votes.clear();
    chosen.clear();
    for (auto t = db.termlist_begin(*it); t != db.termlist_end(*it); ++t) {
      if ((*t).starts_with(schema::kIdPrefix)) top_ids.emplace_back(*t);
      if (t.get_wdf() == 0 || !schema::is_word_term(*t) || (*t).size() < 2) continue;
      votes.push_back({*t, t.get_wdf(), 0});
    }
    // Most frequent first; of equally frequent words (most have wdf 1), the rarer.
    // A word's abstract count is looked up only when its wdf could still be chosen.
    std::stable_sort(votes.begin(), votes.end(), [](const Vote& a, const Vote& b) { return a.wdf > b.wdf; });
    for (auto group = votes.begin(); group != votes.end() && chosen.size() < terms;) {
      auto end = std::find_if(group, votes.end(), [&](const Vote& v) { return v.wdf != group->wdf; });
      const std::size_t first = chosen.size();
      for (auto v = group; v != end; ++v) {
        auto [f, fresh] = termfreqs.try_emplace(v->term, 0);
        if (fresh) f->second = db.get_termfreq(v->term);
        v->termfreq = f->second;
        if (v->termfreq <= max_termfreq) chosen.push_back(*v);
      }
      std::sort(chosen.begin() + static_cast<long>(first), chosen.end(), [](const Vote& a, const Vote& b) {
        if (a.termfreq != b.termfreq) return a.termfreq < b.termfreq;
        return a.term < b.term;
      });
      group = end;
    }
    if (chosen.size() > terms) chosen.resize(terms);
    double sum = 0;
    for (const auto& v : chosen) sum += v.wdf;
    const double p_doc = score / total_score;
    for (const auto& v : chosen) model[v.term] += p_doc * v.wdf / sum;
  }
  best.assign(model.begin(), model.end());
  const std::size_t n = std::min<std::size_t>(terms, best.size());
  std::partial_sort(best.begin(), best.begin() + static_cast<long>(n), best.end(),
                    [](const auto& a, const auto& b) { return a.second > b.second; });
  best.resize(n);
  return best;
}

// Adds the distinct words `q` was written with to `out`: an acronym's or a
// wildcard's expansion (OP_SYNONYM) counts as the one word that was expanded, its
// first alternative ("LLM agents" is two words, not five).
void add_user_words(const Xapian::Query& q, std::unordered_set<std::string>& out) {
  if (q.get_type() == Xapian::Query::LEAF_TERM) {
    if (q.get_terms_begin() == q.get_terms_end()) return;
    std::string term = *q.get_terms_begin();
    if (schema::is_title_term(term)) term.erase(0, schema::kTitlePrefix.size());
    if (schema::is_word_term(term)) out.insert(std::move(term));
    return;
  }
  std::size_t n = q.get_num_subqueries();
  if (q.get_type() == Xapian::Query::OP_SYNONYM) n = std::min<std::size_t>(n, 1);
  for (std::size_t i = 0; i < n; ++i) add_user_words(q.get_subquery(i), out);
}

std::size_t count_user_words(const Xapian::Query& q) {
  std::unordered_set<std::string> words;
  add_user_words(q, words);
  return words.size();
}

// Hits `offset` to `offset + limit` of `enquire`'s query. When `asked`, written
// with `user_words` distinct words (count_user_words), is a question or claim
// (RankingOptions::proximity_min_words), the best proximity_depth are first
// rescored by how close together they have its words.
Ranking best_hits(const Xapian::Database& db, const Xapian::Enquire& enquire, const Xapian::Query& asked,
                  std::size_t user_words, const RankingOptions& r, std::size_t offset, std::size_t limit,
                  const Xapian::MatchDecider* checks) {
  if (r.proximity_weight <= 0 || r.proximity_depth == 0 || r.proximity_min_words == 0 ||
      user_words < r.proximity_min_words) {
    return as_ranking(enquire.get_mset(static_cast<Xapian::doccount>(offset),
                                       static_cast<Xapian::doccount>(limit), nullptr, checks));
  }
  const auto wanted = std::max<std::size_t>(r.proximity_depth, offset + limit);
  Ranking ranking = as_ranking(enquire.get_mset(0, static_cast<Xapian::doccount>(wanted), nullptr, checks));
  ranking.rescored = true;
  const query::Proximity proximity(db, asked, r.proximity_window);
  auto& hits = ranking.hits;
  const std::size_t depth = std::min<std::size_t>(r.proximity_depth, hits.size());
  std::vector<Xapian::docid> docs;
  for (std::size_t i = 0; i < depth; ++i) docs.push_back(*hits[i].it);
  const std::vector<double> coverage = proximity.coverage(docs);
  for (std::size_t i = 0; i < depth; ++i) hits[i].score *= 1 + r.proximity_weight * coverage[i];
  // Scores only grow, so the rescored hits stay ahead of the rest.
  std::stable_sort(hits.begin(), hits.begin() + static_cast<long>(depth),
                   [](const Ranked& a, const Ranked& b) { return a.score > b.score; });
  hits.erase(hits.begin(), hits.begin() + static_cast<long>(std::min(offset, hits.size())));
  if (hits.size() > limit) hits.resize(limit);
  return ranking;
}

// The query as ranked: with a title boost and pseudo-relevance feedback when the
// options ask for them. The set of matches only grows for plain text (where
// everything is ORed anyway); query-language matches stay as the user wrote them.
// The feedback words' weights go to `feedback`.
Xapian::Query rank(Xapian::Database& db, Xapian::Query query, bool plain, const RankingOptions& r,
                   const Xapian::MatchDecider* checks, std::vector<std::string>* notes,
                   FeedbackWeights* feedback) {
  if (plain && r.plain_text_stopwords) {
    // A plain-text query is a flat OR of its terms: rebuild it without function words.
    std::vector<Xapian::Query> kept;
    for (auto t = query.get_terms_begin(); t != query.get_terms_end(); ++t) {
      if (!query::is_function_word(*t)) kept.emplace_back(*t);
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
  first.set_weighting_scheme(bm25(r));
  const Ranking first_pass = best_hits(db, first, query, user_words, r, 0, r.feedback_docs, checks);
  const std::vector<Ranked>& top = first_pass.hits;
  if (top.empty()) return query;
  std::vector<Xapian::Query> top_ids;
  const auto best = relevance_model(db, top, r.feedback_terms, top_ids);
  double mass = 0;
  for (const auto& [term, p] : best) mass += p;
  if (mass <= 0 || r.feedback_weight <= 0 || r.feedback_weight >= 1) return query;
  // The feedback query is the original words, each at weight 1, plus `expansion`:
  // the best words, which share feedback_weight / (1 - feedback_weight) of the
  // original words' total weight.
  const double share = r.feedback_weight / (1 - r.feedback_weight) * static_cast<double>(words.size());
  std::vector<Xapian::Query> parts;
  std::unordered_map<std::string, double> scale;
  for (const auto& [term, p] : best) {
    scale[term] = share * p / mass;
    parts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(term), scale[term]);
  }
  const Xapian::Query expansion(Xapian::Query::OP_OR, parts.begin(), parts.end());
  // A hit's score mixes the query's and the feedback query's, each divided by its
  // best hit's (CombSUM of the two rankings, which keeps the query's own top hits
  // better than ranking by the feedback query alone; docs/relevance.md):
  //   (1 - mix) * S / S_best + mix * (S + E) / (S + E)_best  ~  S + lambda * E,
  //   lambda = mix * S_best / ((1 - mix) * (S + E)_best + mix * S_best).
  // So one ranked pass does it. The feedback query's best hit is one of the
  // query's best hits, whose expansion scores one more small query reads.
  Xapian::Enquire extra(db);
  extra.set_query(Xapian::Query(Xapian::Query::OP_FILTER, expansion,
                                Xapian::Query(Xapian::Query::OP_OR, top_ids.begin(), top_ids.end())));
  extra.set_weighting_scheme(bm25(r));
  const Xapian::MSet expanded = extra.get_mset(0, top.size());
  std::unordered_map<Xapian::docid, double> expansion_score;
  for (auto it = expanded.begin(); it != expanded.end(); ++it) expansion_score[*it] = it.get_weight();
  double best_score = 0;
  for (const auto& h : top) best_score = std::max(best_score, h.it.get_weight());
  double best_feedback_score = 0;
  for (const auto& h : top) {
    best_feedback_score = std::max(best_feedback_score, h.it.get_weight() + expansion_score[*h.it]);
  }
  const double mix = std::min(r.feedback_mix, 1.0);
  const double lambda = mix * best_score / ((1 - mix) * best_feedback_score + mix * best_score);
  if (feedback != nullptr) {
    for (const auto& [term, s] : scale) (*feedback)[term] = lambda * s;
  }
  if (notes != nullptr) {
    std::string note = "feedback:";
    for (const auto& [term, p] : best) {
      note += ' ';
      note += term;
    }
    notes->push_back(note);
  }
  const Xapian::Query weighted(Xapian::Query::OP_SCALE_WEIGHT, expansion, lambda);
  // Plain text widens the matches; the query language's matches stay as the
  // user wrote them, and feedback only ranks them.
  return Xapian::Query(plain ? Xapian::Query::OP_OR : Xapian::Query::OP_AND_MAYBE, query, weighted);
}

}  // namespace

SearchResults Index::similar(const std::vector<std::string>& ids, const SearchOptions& options) const {
  return impl_->with_db([&](Xapian::Database& db, const compression::Decompressor& stored) {
    SearchResults results;
    Xapian::RSet rset;
    std::vector<Xapian::Query> given;
    for (const auto& id : ids) {
      std::string term = schema::id_term(id);
      auto it = db.postlist_begin(term);
      if (it == db.postlist_end(term)) continue;
      rset.add_document(*it);
      given.emplace_back(term);
    }
    if (rset.empty()) return results;
    Xapian::Enquire enquire(db);
    enquire.set_weighting_scheme(bm25(options.ranking));
    ExpandWords decider;
    Xapian::ESet eset = enquire.get_eset(kSimilarTerms, rset, &decider);
    std::vector<Xapian::Query> parts;
    std::vector<std::string> chosen;
    for (auto t = eset.begin(); t != eset.end(); ++t) {
      parts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(*t), t.get_weight());
      chosen.push_back(*t);
    }
    if (parts.empty()) return results;
    Xapian::Query query(Xapian::Query::OP_OR, parts.begin(), parts.end());
    query = Xapian::Query(Xapian::Query::OP_AND_NOT, query,
                          Xapian::Query(Xapian::Query::OP_OR, given.begin(), given.end()));
    enquire.set_query(query);
    Xapian::MSet mset = enquire.get_mset(static_cast<Xapian::doccount>(options.offset),
                                         static_cast<Xapian::doccount>(options.limit));
    if (options.explain) {
      results.parsed = query::describe(query);
      std::string line = "similar: by";
      for (const auto& c : chosen) {
        line += ' ';
        line += c;
      }
      results.expansions.push_back(line);
    }
    fill_hits(db, stored, query, query, {}, as_ranking(std::move(mset)), options, results);
    return results;
  });
}

SearchResults Index::search(std::string_view text, const SearchOptions& options) const {
  const auto& analyzer = thread_analyzer();
  return impl_->with_db([&](Xapian::Database& db, const compression::Decompressor& stored) {
    query::ParserContext context;
    context.db = &db;
    query::AcronymLookup acronyms(db, analyzer);
    if (options.expand_acronyms) context.acronyms = &acronyms;
    query::Parser parser(analyzer, context);
    const bool plain = options.syntax == QuerySyntax::kPlainText;
    SearchResults results;
    // Runs `q`: the query as asked, as ranked, and its matches; its expansion
    // notes go to `notes` (for --explain).
    struct Run {
      Xapian::Query asked, query;
      FeedbackWeights feedback;
      Ranking ranking;
    };
    auto run = [&](std::string_view q, std::vector<std::string>& notes) {
      auto* keep = options.explain ? &notes : nullptr;
      Run r;
      query::PositionChecks checks(db);  // the phrases every hit needs, checked on the best candidates only
      r.asked = plain ? parser.parse_plain(q, keep) : parser.parse(q, keep, &checks);
      const Xapian::MatchDecider* decider = checks.empty() ? nullptr : &checks;
      r.query = rank(db, r.asked, plain, options.ranking, decider, keep, &r.feedback);
      Xapian::Enquire enquire(db);
      enquire.set_query(r.query);
      enquire.set_weighting_scheme(bm25(options.ranking));
      r.ranking = best_hits(db, enquire, r.asked, count_user_words(r.asked), options.ranking, options.offset,
                            options.limit, decider);
      if (keep != nullptr && r.ranking.rescored) {
        keep->push_back("proximity: the " + std::to_string(options.ranking.proximity_depth) +
                        " best hits scored up by how much of the query one stretch of " +
                        std::to_string(options.ranking.proximity_window) + " words holds");
      }
      return r;
    };
    Run ran = run(text, results.expansions);
    if (!plain) results.suggestion = query::correct_query(db, stored, text, analyzer);
    if (ran.ranking.hits.empty() && options.correct_spelling && !results.suggestion.empty()) {
      std::vector<std::string> notes;
      Run corrected = run(results.suggestion, notes);
      if (!corrected.ranking.hits.empty()) {
        ran = std::move(corrected);
        results.expansions = std::move(notes);  // explain the query whose hits are shown
        results.corrected = true;
      }
    }
    if (options.explain) {
      results.parsed = query::describe(ran.query);
      if (results.corrected) {
        results.expansions.push_back("spelling: nothing found, searched for \"" + results.suggestion + "\" instead");
      } else if (!results.suggestion.empty()) {
        results.expansions.push_back("spelling: did you mean \"" + results.suggestion + "\"?");
      }
    }
    fill_hits(db, stored, ran.query, ran.asked, ran.feedback, ran.ranking, options, results);
    return results;
  });
}

std::vector<AcronymEntry> Index::acronyms() const {
  return impl_->with_db([&](Xapian::Database& db, const compression::Decompressor&) {
    auto table = query::AcronymTable::load(db, thread_analyzer());
    std::vector<AcronymEntry> out;
    for (const auto& [term, a] : table.all()) {
      for (const auto& lf : a.long_forms) out.push_back({a.surface, lf.surface, lf.count, lf.used});
    }
    return out;
  });
}

std::optional<Abstract> Index::get(std::string_view id) const {
  return impl_->with_db([&](Xapian::Database& db, const compression::Decompressor& stored) -> std::optional<Abstract> {
    std::string term = schema::id_term(id);
    auto it = db.postlist_begin(term);
    if (it == db.postlist_end(term)) return std::nullopt;
    return schema::stored_abstract(db.get_document(*it), stored);
  });
}

IndexStats Index::stats() const {
  return impl_->with_db([&](Xapian::Database& db, const compression::Decompressor&) {
    IndexStats s;
    s.path = impl_->dir.string();
    s.abstracts = db.get_doccount();
    s.average_length = db.get_avlength();
    const std::string file_prefix(schema::kFileKeyPrefix);
    for (auto k = db.metadata_keys_begin(file_prefix); k != db.metadata_keys_end(file_prefix); ++k) {
      if (!db.get_metadata(*k).empty()) ++s.files;
    }
    for (auto t = db.allterms_begin(); t != db.allterms_end(); ++t) {
      if (schema::is_word_term(*t)) ++s.terms;
    }
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(impl_->dir, ec)) {
      if (e.is_regular_file(ec)) s.size_bytes += e.file_size(ec);
    }
    return s;
  });
}

}  // namespace abstracts
