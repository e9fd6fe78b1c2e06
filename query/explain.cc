#include "query/explain.h"

#include "engine/schema.h"

namespace abstracts::query {

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

}  // namespace abstracts::query
