// Xapian 1.4's matcher alone over the engine's own index: the floor under the
// engine's query time on this stack. The query's words become the engine's terms
// (for these lower-case ASCII words, their English Snowball stems), weighed by
// Xapian's BM25 with the engine's k1 and b; the top 10 ids and weights are all
// it takes: no positions checked, no abstract read, no snippet. No query of the
// engine's can be faster than matching its words.
#include <xapian.h>

#include <stdexcept>

#include "abstracts/search.h"
#include "bench/speed/system.h"

namespace abstracts::speed {
namespace {

class MatcherSearcher : public Searcher {
 public:
  explicit MatcherSearcher(const std::filesystem::path& dir) : db_(dir.string()), enquire_(db_), stem_("english") {
    const RankingOptions engine;  // the engine's defaults
    enquire_.set_weighting_scheme(Xapian::BM25Weight(engine.k1, 0, 1, engine.b, 0.5));
  }

  std::size_t search(const BenchQuery& query) override {
    try {
      std::vector<Xapian::Query> terms;
      for (const auto& w : query.words) terms.emplace_back(stem_(w));
      // A phrase's words must all be there before its positions can be checked.
      auto op = Xapian::Query::OP_OR;
      if (query.kind == BenchQuery::Kind::kPhrase || query.op == "AND") op = Xapian::Query::OP_AND;
      if (query.op == "NOT") op = Xapian::Query::OP_AND_NOT;
      enquire_.set_query(Xapian::Query(op, terms.begin(), terms.end()));
      const Xapian::MSet mset = enquire_.get_mset(0, kTopK);
      for (auto it = mset.begin(); it != mset.end(); ++it) sink_ += *it + static_cast<std::size_t>(it.get_weight());
      return mset.size();
    } catch (const Xapian::Error& e) {
      throw std::runtime_error(e.get_description());
    }
  }

 private:
  Xapian::Database db_;  // the index's stub file names its current generation
  Xapian::Enquire enquire_;
  Xapian::Stem stem_;
  std::size_t sink_ = 0;
};

}  // namespace

std::unique_ptr<Searcher> open_matcher(const std::filesystem::path& dir) {
  return std::make_unique<MatcherSearcher>(dir);
}

}  // namespace abstracts::speed
