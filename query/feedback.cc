#include "query/feedback.h"

#include <algorithm>
#include <unordered_map>

#include "engine/schema.h"
#include "query/hit_reads.h"

namespace abstracts::query {
namespace {

// The relevance model of a query's best hits, `top` (RM3: Lavrenko and Croft's
// relevance model, as Anserini's Rm3Reranker runs it): each hit votes for its
// `terms` most frequent words, P(w|d) = wdf / the sum of those wdfs, weighted by
// P(d|Q), the hit's share of the scores; words in more than a tenth of the
// abstracts carry no topic and are never chosen. Returns the `terms` best words
// with P(w|Q), and adds the hits' id terms to `top_ids`. `remote`: see
// with_feedback().
std::vector<std::pair<std::string, double>> relevance_model(Xapian::Database& db, const std::vector<Ranked>& top,
                                                            unsigned terms, std::vector<Xapian::Query>& top_ids,
                                                            bool remote, HitReads* reads) {
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
  std::vector<std::vector<Vote>> all_votes;
  std::unordered_map<std::string, Xapian::doccount> termfreqs;
  HitReads own(db);
  HitReads& from = reads != nullptr ? *reads : own;
  for (const auto& [it, score] : top) {
    auto& votes = all_votes.emplace_back();
    for (const auto& [term, wdf] : from.words(*it)) {
      if (term.starts_with(schema::kIdPrefix)) top_ids.emplace_back(term);
      if (wdf == 0 || !schema::is_word_term(term) || term.size() < 2) continue;
      votes.push_back({term, wdf, 0});
    }
  }
  // Abstract counts are B-tree reads, each a round trip to every remote shard
  // of a cluster (a question on two shards took 136 ms, against 20 on one
  // index). So with remote shards every word's count is asked at once: one
  // get_mset(0, 0) over their OR gathers the statistics of all its terms, in
  // one reply a shard. Locally that costs more than it saves (it opens every
  // word's posting list), and a word is looked up when its wdf can be chosen.
  auto termfreq = [&](const std::string& term) {
    auto [f, fresh] = termfreqs.try_emplace(term, 0);
    if (fresh) f->second = db.get_termfreq(term);
    return f->second;
  };
  if (remote) {
    for (const auto& votes : all_votes) {
      for (const auto& v : votes) termfreqs.emplace(v.term, 0);
    }
    std::vector<Xapian::Query> words;
    words.reserve(termfreqs.size());
    for (const auto& [term, n] : termfreqs) words.emplace_back(term);
    Xapian::Enquire stats(db);
    stats.set_query(Xapian::Query(Xapian::Query::OP_OR, words.begin(), words.end()));
    const Xapian::MSet m = stats.get_mset(0, 0);
    for (auto& [term, n] : termfreqs) n = m.get_termfreq(term);
  }
  std::vector<Vote> chosen;
  for (std::size_t d = 0; d < top.size(); ++d) {
    const double score = top[d].score;
    auto& votes = all_votes[d];
    chosen.clear();
    // Most frequent first; of equally frequent words (most have wdf 1), the rarer.
    std::stable_sort(votes.begin(), votes.end(), [](const Vote& a, const Vote& b) { return a.wdf > b.wdf; });
    for (auto group = votes.begin(); group != votes.end() && chosen.size() < terms;) {
      auto end = std::find_if(group, votes.end(), [&](const Vote& v) { return v.wdf != group->wdf; });
      const std::size_t first = chosen.size();
      for (auto v = group; v != end; ++v) {
        v->termfreq = termfreq(v->term);
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

}  // namespace

Xapian::Query with_feedback(Xapian::Database& db, const Xapian::Query& query, const std::vector<Ranked>& top,
                            std::size_t words, bool plain, const RankingOptions& r,
                            std::vector<std::string>* notes, FeedbackWeights* feedback,
                            const Deadline* deadline, bool remote, HitReads* reads) {
  if (top.empty()) return query;
  std::vector<Xapian::Query> top_ids;
  const auto best = relevance_model(db, top, r.feedback_terms, top_ids, remote, reads);
  double mass = 0;
  for (const auto& [term, p] : best) mass += p;
  if (mass <= 0 || r.feedback_weight <= 0 || r.feedback_weight >= 1) return query;
  // The feedback query is the original words, each at weight 1, plus `expansion`:
  // the best words, which share feedback_weight / (1 - feedback_weight) of the
  // original words' total weight.
  const double share = r.feedback_weight / (1 - r.feedback_weight) * static_cast<double>(words);
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
  extra.set_weighting_scheme(bm25(r, deadline));
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


}  // namespace abstracts::query
