#include "query/similar.h"

#include "engine/schema.h"
#include "query/document_list.h"
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
                      const std::vector<std::string>& ids, const SearchOptions& options, bool cluster, bool remote) {
  SearchResults results;
  results.exact_matches = true;  // until the search: none
  results.indexed_abstracts = db.get_doccount();
  std::vector<Xapian::docid> docs = documents_of(db, ids, !remote);
  if (docs.empty()) return results;
  Xapian::RSet rset;
  for (const Xapian::docid d : docs) rset.add_document(d);
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
  // The given abstracts left out (the right of an AND_NOT, which Xapian does
  // not weigh again as its terms run out: linear in the ids on a cluster too).
  const Xapian::Query given =
      cluster ? id_terms(ids) : Xapian::Query((new DocumentList(std::move(docs)))->release());
  query = Xapian::Query(Xapian::Query::OP_AND_NOT, query, given);
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
