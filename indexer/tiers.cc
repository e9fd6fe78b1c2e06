#include "indexer/tiers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "abstracts/search.h"
#include "engine/schema.h"
#include "engine/scratch.h"
#include "engine/tiers.h"

namespace abstracts::indexer {
namespace fs = std::filesystem;

namespace {

bool built_for(const Xapian::Database& side, const Xapian::Database& db) {
  const RankingOptions defaults;
  return side.get_metadata(std::string(tiers::kStampKey)) == tiers::stamp(db, defaults.k1, defaults.b);
}

}  // namespace

bool tiers_due(const fs::path& generation, const Xapian::Database& db, Xapian::doccount min_abstracts) {
  if (db.get_doccount() < min_abstracts) return false;
  std::error_code ec;
  if (!fs::exists(tiers::side_path(generation), ec)) return true;
  try {
    return !built_for(Xapian::Database(tiers::side_path(generation).string()), db);
  } catch (const Xapian::Error&) {
    return true;  // unreadable: built again
  }
}

void build_tiers(const fs::path& generation, const Xapian::Database& db) {
  const RankingOptions defaults;
  const tiers::Bm25 bm25(defaults.k1, defaults.b, db);
  const auto min_tf = static_cast<Xapian::doccount>(std::ceil(tiers::kTieredShare * db.get_doccount()));
  const fs::path building = tiers::building_path(generation), final_path = tiers::side_path(generation);
  fs::remove_all(building);
  scratch::Folder scratch(building);  // until it is renamed into place
  Xapian::WritableDatabase side(building.string(), Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_NO_TERMLIST |
                                                       Xapian::DB_BACKEND_GLASS);
  // Each tier posting as document << 32 | word << 16 | second tier << 15 | wdf,
  // added as the documents' terms at the end, in document order (the cheapest
  // for Xapian to write): 8 bytes each, 96 MB for 12 million at 1M abstracts.
  // A word of more than kMaxWords, or of a wdf over kMaxWdf, is not tiered
  // (an abstract's words never come near).
  constexpr std::size_t kMaxWords = 1 << 16;
  constexpr Xapian::termcount kMaxWdf = (1 << 15) - 1;
  std::vector<std::string> words;
  std::vector<std::uint64_t> postings;
  std::vector<Xapian::termcount> lengths(db.get_lastdocid() + 1, 0);
  struct Posting {
    double impact;
    Xapian::docid docid;
    Xapian::termcount wdf;
    bool operator>(const Posting& o) const { return impact > o.impact || (impact == o.impact && docid < o.docid); }
  };
  std::vector<Posting> by_impact;
  // Every abstract's length, from one walk of the length list: a posting's
  // get_doclength() looks its length up afresh, which took 86% of the walks
  // below (12.7 of 14.9 s at 1M abstracts).
  for (auto p = db.postlist_begin(""); p != db.postlist_end(""); ++p) lengths[*p] = p.get_doclength();
  for (auto t = db.allterms_begin(); t != db.allterms_end() && words.size() < kMaxWords; ++t) {
    const std::string word = *t;
    if (!schema::is_word_term(word) || t.get_termfreq() < min_tf) continue;
    by_impact.clear();
    bool fits = true;
    for (auto p = db.postlist_begin(word); p != db.postlist_end(word); ++p) {
      const Xapian::termcount wdf = p.get_wdf();
      fits = fits && wdf <= kMaxWdf;
      by_impact.push_back({bm25.impact(wdf, lengths[*p]), *p, wdf});
    }
    if (!fits) continue;
    // Puts the postings from..k-1 in place, k being `share` of them (at least
    // `at_least`) and those of the same impact as the last: each one's impact
    // is at least any later one's. Returns k.
    auto cut = [&](double share, std::size_t from, std::size_t at_least) {
      const std::size_t n = by_impact.size();
      const std::size_t k = std::min(n, std::max(at_least, static_cast<std::size_t>(static_cast<double>(n) * share)));
      if (k <= from) return from;
      std::nth_element(by_impact.begin() + static_cast<long>(from), by_impact.begin() + static_cast<long>(k - 1),
                       by_impact.end(), std::greater<>());
      const double last = by_impact[k - 1].impact;
      const auto ties = std::partition(by_impact.begin() + static_cast<long>(k), by_impact.end(),
                                       [&](const Posting& p) { return p.impact >= last; });
      return static_cast<std::size_t>(ties - by_impact.begin());
    };
    const std::size_t first = cut(tiers::kFirstShare, 0, 1);
    const std::size_t second = cut(tiers::kSecondShare, first, first);
    auto highest = [&](std::size_t from, std::size_t to) {
      double h = 0;
      for (std::size_t i = from; i < to; ++i) h = std::max(h, by_impact[i].impact);
      return h;
    };
    side.set_metadata(tiers::bound_key(tiers::kFirst, word), tiers::exact(highest(0, first)));
    side.set_metadata(tiers::bound_key(tiers::kSecond, word), tiers::exact(highest(first, second)));
    side.set_metadata(tiers::bound_key(tiers::kRest, word), tiers::exact(highest(second, by_impact.size())));
    const std::uint64_t code = std::uint64_t{words.size()} << 16;
    for (std::size_t i = 0; i < second; ++i) {
      postings.push_back(std::uint64_t{by_impact[i].docid} << 32 | code | (i < first ? 0 : 1u << 15) |
                         by_impact[i].wdf);
    }
    words.push_back(word);
  }
  std::vector<Posting>().swap(by_impact);
  std::sort(postings.begin(), postings.end());
  for (std::size_t i = 0; i < postings.size();) {
    const auto docid = static_cast<Xapian::docid>(postings[i] >> 32);
    Xapian::Document doc;
    for (; i < postings.size() && postings[i] >> 32 == docid; ++i) {
      const std::string& word = words[(postings[i] >> 16) & 0xffff];
      const auto wdf = static_cast<Xapian::termcount>(postings[i] & kMaxWdf);
      doc.add_term((postings[i] & (1u << 15)) == 0 ? tiers::first_term(word) : tiers::second_term(word), wdf);
    }
    side.replace_document(docid, doc);
  }
  side.set_metadata(std::string(tiers::kLengthsKey), tiers::encode_lengths(lengths));
  side.set_metadata(std::string(tiers::kStampKey), tiers::stamp(db, defaults.k1, defaults.b));
  side.commit();
  side.close();
  // A reader holding the old side database open keeps reading its files.
  fs::remove_all(final_path);
  scratch.release();
  fs::rename(building, final_path);
}

}  // namespace abstracts::indexer
