#include "query/hit_reads.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "engine/analysis/analyzer.h"
#include "engine/body_words.h"
#include "engine/schema.h"

namespace abstracts::query {
namespace {

// Bits of a weight that sums distinct powers of two exactly (a double's 53),
// less the one that marks the hit itself.
constexpr std::size_t kMaxTermBits = 52;

// Where `term` is, or would be, in `terms` (in term order).
HitReads::Terms::const_iterator term_at(const HitReads::Terms& terms, const std::string& term) {
  return std::lower_bound(terms.begin(), terms.end(), term,
                          [](const auto& entry, const std::string& t) { return entry.first < t; });
}

}  // namespace

const HitReads::Terms& HitReads::terms(Xapian::docid id) {
  if (auto it = terms_.find(id); it != terms_.end()) return it->second;
  Terms read;  // kept only once whole (a read that throws keeps nothing)
  for (auto t = db_.termlist_begin(id); t != db_.termlist_end(id); ++t) read.emplace_back(*t, t.get_wdf());
  return terms_.emplace(id, std::move(read)).first->second;
}

const HitReads::Terms& HitReads::words(Xapian::docid id) {
  if (!remote_ || stored_ == nullptr) return terms(id);
  if (auto it = counted_.find(id); it != counted_.end()) return it->second;
  bool title_in_text = false;
  const Abstract a = schema::stored_abstract(document(id), id, *stored_, &title_in_text);
  Terms read = body_words::counts(analysis::thread_analyzer(), a.title, a.text, title_in_text);
  std::string id_term = schema::id_term(a.id);
  const auto at = term_at(read, id_term);
  read.emplace(at, std::move(id_term), 0);  // in term order, as a term list has it
  return counted_.emplace(id, std::move(read)).first->second;
}

const Xapian::Document& HitReads::document(Xapian::docid id) {
  if (auto it = documents_.find(id); it != documents_.end()) return it->second;
  return documents_.emplace(id, db_.get_document(id)).first->second;
}

const std::string& HitReads::positions(Xapian::docid id) {
  if (auto it = positions_.find(id); it != positions_.end()) return it->second;
  return positions_.emplace(id, document(id).get_value(schema::kPositionsSlot)).first->second;
}

std::vector<std::vector<bool>> HitReads::which(const std::vector<Xapian::docid>& docs,
                                               const std::vector<std::string>& terms) {
  std::vector<std::vector<bool>> out(docs.size(), std::vector<bool>(terms.size(), false));
  std::vector<bool> known(docs.size(), false);
  if (remote_ && terms.size() <= kMaxTermBits && !docs.empty()) {
    // Each hit by its id term, weighing 2^52, and each term weighing 2^k: under
    // CoordWeight (a leaf weighs its scale factor) a hit's weight spells which
    // terms it has. A hit whose id cannot be read, or that does not come back,
    // is read from its term list below.
    std::vector<Xapian::Query> ids, weighed;
    std::unordered_map<Xapian::docid, std::size_t> at;
    for (std::size_t i = 0; i < docs.size(); ++i) {
      const Xapian::Document& doc = document(docs[i]);
      const std::string date_id = doc.get_value(schema::kDateIdSlot);
      const auto id = schema::id_in_date_then_id(date_id, doc.get_value(schema::kDateSlot));
      if (!id) continue;
      ids.emplace_back(schema::id_term(*id));
      at.emplace(docs[i], i);
    }
    for (std::size_t k = 0; k < terms.size(); ++k) {
      weighed.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(terms[k]), static_cast<double>(1ULL << k));
    }
    if (!ids.empty()) {
      const double hit = static_cast<double>(1ULL << kMaxTermBits);
      Xapian::Enquire enquire(db_);
      enquire.set_weighting_scheme(Xapian::CoordWeight());
      enquire.set_query(Xapian::Query(
          Xapian::Query::OP_AND_MAYBE,
          Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(Xapian::Query::OP_OR, ids.begin(), ids.end()),
                        hit),
          Xapian::Query(Xapian::Query::OP_OR, weighed.begin(), weighed.end())));
      const Xapian::MSet m = enquire.get_mset(0, 2 * docs.size());
      for (auto it = m.begin(); it != m.end(); ++it) {
        const auto i = at.find(*it);
        const double w = it.get_weight();
        if (i == at.end() || w < hit) continue;
        const auto bits = static_cast<std::uint64_t>(w - hit);
        for (std::size_t k = 0; k < terms.size(); ++k) out[i->second][k] = (bits >> k) & 1;
        known[i->second] = true;
      }
    }
  }
  for (std::size_t i = 0; i < docs.size(); ++i) {
    if (known[i]) continue;
    const Terms& has = this->terms(docs[i]);
    for (std::size_t k = 0; k < terms.size(); ++k) {
      const auto t = term_at(has, terms[k]);
      out[i][k] = t != has.end() && t->first == terms[k];
    }
  }
  return out;
}

}  // namespace abstracts::query
