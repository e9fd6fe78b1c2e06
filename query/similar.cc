#include "query/similar.h"

#include "engine/schema.h"
#include "query/hits.h"
#include "query/positional.h"
#include "query/ranking.h"
#include "query/stopwords.h"

namespace abstracts::query {
namespace {

// How many expand-set terms describe the given abstracts in similar().
constexpr Xapian::termcount kSimilarTerms = 40;

// Terms worth expanding a relevance set with: words, not too short, not numbers,
// not the boilerplate every abstract uses.
class ExpandWords : public Xapian::ExpandDecider {
 public:
  bool operator()(const std::string& term) const override {
    if (!schema::is_word_term(term) || term.size() < 3) return false;
    if (term[0] >= '0' && term[0] <= '9') return false;
    return !is_boilerplate(term);
  }
};

}  // namespace

SearchResults similar(Xapian::Database& db, const compression::Decompressor& stored,
                      const std::vector<std::string>& ids, const SearchOptions& options) {
  SearchResults results;
  results.exact_matches = true;  // until the search: none
  results.indexed_abstracts = db.get_doccount();
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
  Xapian::ESet eset = enquire.get_eset(kSimilarTerms, rset, Xapian::Enquire::USE_EXACT_TERMFREQ, &decider);
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
  order_ties_by_id(enquire);
  Xapian::MSet mset = enquire.get_mset(static_cast<Xapian::doccount>(options.offset),
                                       static_cast<Xapian::doccount>(options.limit),
                                       check_at_least(db, options));
  if (options.explain) {
    results.parsed = describe(query);
    std::string line = "similar: by";
    for (const auto& c : chosen) {
      line += ' ';
      line += c;
    }
    results.expansions.push_back(line);
  }
  fill_hits(db, stored, query, query, {}, as_ranking(std::move(mset)), options, results);
  return results;
}

}  // namespace abstracts::query
