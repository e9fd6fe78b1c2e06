#include "query/document_list.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "engine/schema.h"
#include "query/deadline.h"

namespace abstracts::query {
namespace {

// documents_of() reads every abstract's id, not each id's term, from this many
// ids per abstract of the index on: a term looked up costs about 50 times an
// abstract's value read in order.
constexpr std::size_t kScanFromIdsPer = 32;

// The most terms id_terms() puts in one OR or OP_SYNONYM.
constexpr std::size_t kTermsPerGroup = 16;

// How often a loop over ids or abstracts looks at the clock.
constexpr std::size_t kCheckEvery = 4096;

void put_varint(std::string& out, Xapian::docid n) {
  while (n >= 0x80) {
    out += static_cast<char>((n & 0x7f) | 0x80);
    n >>= 7;
  }
  out += static_cast<char>(n);
}

bool get_varint(std::string_view& in, Xapian::docid& n) {
  n = 0;
  for (int shift = 0; shift < 35 && !in.empty(); shift += 7) {
    const auto byte = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    n |= static_cast<Xapian::docid>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

// Each id's term, looked up.
std::vector<Xapian::docid> looked_up(const Xapian::Database& db, const std::vector<std::string>& ids,
                                     const Deadline* deadline) {
  std::vector<Xapian::docid> docs;
  std::size_t done = 0;
  for (const auto& id : ids) {
    if (deadline != nullptr && ++done % kCheckEvery == 0) deadline->check();
    const std::string term = schema::id_term(id);
    if (auto p = db.postlist_begin(term); p != db.postlist_end(term)) docs.push_back(*p);
  }
  std::sort(docs.begin(), docs.end());
  docs.erase(std::unique(docs.begin(), docs.end()), docs.end());
  return docs;
}

// Every abstract's id (its kDateIdSlot value, read with its kDateSlot value),
// looked for among the ids.
std::vector<Xapian::docid> scanned(const Xapian::Database& db, const std::vector<std::string>& ids,
                                   const Deadline* deadline) {
  std::vector<std::string_view> wanted(ids.begin(), ids.end());
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<Xapian::docid> docs;
  auto date = db.valuestream_begin(schema::kDateSlot);
  const auto no_date = db.valuestream_end(schema::kDateSlot);
  const auto end = db.valuestream_end(schema::kDateIdSlot);
  std::size_t done = 0;
  for (auto v = db.valuestream_begin(schema::kDateIdSlot); v != end; ++v) {
    if (deadline != nullptr && ++done % kCheckEvery == 0) deadline->check();
    const Xapian::docid doc = v.get_docid();
    if (date != no_date && date.get_docid() < doc) date.skip_to(doc);
    const bool dated = date != no_date && date.get_docid() == doc;
    const std::string value = *v;
    const auto id = schema::id_in_date_then_id(value, dated ? *date : std::string());
    if (id && std::binary_search(wanted.begin(), wanted.end(), *id)) docs.push_back(doc);
  }
  return docs;  // in order of document number, each once
}

}  // namespace

DocumentList::DocumentList(std::vector<Xapian::docid> docs)
    : docs_(std::make_shared<const std::vector<Xapian::docid>>(std::move(docs))) {}

DocumentList* DocumentList::clone() const { return new DocumentList(docs_); }

std::string DocumentList::name() const { return "abstracts.DocumentList"; }

std::string DocumentList::serialise() const {
  std::string out;
  out.reserve(docs_->size() * 2);
  Xapian::docid last = 0;
  for (const Xapian::docid d : *docs_) {
    put_varint(out, d - last);
    last = d;
  }
  return out;
}

DocumentList* DocumentList::unserialise(const std::string& serialised) const {
  std::vector<Xapian::docid> docs;
  std::string_view in = serialised;
  Xapian::docid last = 0;
  while (!in.empty()) {
    Xapian::docid delta = 0;
    if (!get_varint(in, delta) || delta == 0) throw Xapian::SerialisationError("bad DocumentList");
    last += delta;
    docs.push_back(last);
  }
  return new DocumentList(std::move(docs));
}

void DocumentList::init(const Xapian::Database&) {
  at_ = 0;
  started_ = false;
}

Xapian::doccount DocumentList::get_termfreq_min() const { return 0; }
Xapian::doccount DocumentList::get_termfreq_est() const { return static_cast<Xapian::doccount>(docs_->size()); }
Xapian::doccount DocumentList::get_termfreq_max() const { return static_cast<Xapian::doccount>(docs_->size()); }

void DocumentList::next(double) {
  if (started_) ++at_;
  started_ = true;
}

void DocumentList::skip_to(Xapian::docid did, double) {
  started_ = true;
  const auto from = docs_->begin() + static_cast<long>(std::min(at_, docs_->size()));
  at_ = static_cast<std::size_t>(std::lower_bound(from, docs_->end(), did) - docs_->begin());
}

bool DocumentList::at_end() const { return started_ && at_ >= docs_->size(); }

Xapian::docid DocumentList::get_docid() const { return (*docs_)[at_]; }

std::string DocumentList::get_description() const {
  return "DocumentList(" + std::to_string(docs_->size()) + " abstracts)";
}

std::vector<Xapian::docid> documents_of(const Xapian::Database& db, const std::vector<std::string>& ids, bool scan,
                                        const Deadline* deadline) {
  if (ids.empty()) return {};
  if (scan && ids.size() >= db.get_doccount() / kScanFromIdsPer) return scanned(db, ids, deadline);
  return looked_up(db, ids, deadline);
}

Xapian::Query id_terms(const std::vector<std::string>& ids) {
  std::vector<std::string> terms;
  terms.reserve(ids.size());
  for (const auto& id : ids) terms.push_back(schema::id_term(id));
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  std::vector<Xapian::Query> listed;
  listed.reserve(terms.size());
  for (auto& term : terms) listed.emplace_back(std::exchange(term, std::string()));
  // In groups of kTermsPerGroup, nested: Xapian 1.4 builds an OR's tree of
  // all the terms of its ORs (nested or not), ordering them by an estimate of
  // their frequency that a part computes again, over its whole tree, each
  // time it is asked; terms of one frequency (0 for the ids a shard does not
  // have) make that tree deep, and its building quadratic (10,000 ids and
  // 10,000 unknown: 4.8 s; grouped, 0.12). An OP_SYNONYM is built on its own,
  // and, weighing nothing, matches as its OR does.
  while (listed.size() > kTermsPerGroup) {
    std::vector<Xapian::Query> groups;
    groups.reserve(listed.size() / kTermsPerGroup + 1);
    for (std::size_t i = 0; i < listed.size(); i += kTermsPerGroup) {
      const auto end = listed.begin() + static_cast<long>(std::min(listed.size(), i + kTermsPerGroup));
      groups.emplace_back(Xapian::Query::OP_SYNONYM, listed.begin() + static_cast<long>(i), end);
    }
    listed.swap(groups);
  }
  return Xapian::Query(Xapian::Query::OP_OR, listed.begin(), listed.end());
}

IdFilter id_filter(const Xapian::Database& db, const std::vector<std::string>& ids, bool by_terms,
                   const Deadline* deadline) {
  if (!by_terms) {
    auto* listed = new DocumentList(documents_of(db, ids, true, deadline));
    return {Xapian::Query::OP_FILTER, Xapian::Query(listed->release())};
  }
  // query AND NOT (everything AND NOT listed): Xapian recomputes a tree's
  // bounds from its root whenever a term of it runs out, and does not descend
  // into the right of an AND_NOT; in an OR or a FILTER the listed terms would
  // be weighed again, all of them, each time one runs out.
  return {Xapian::Query::OP_AND_NOT,
          Xapian::Query(Xapian::Query::OP_AND_NOT, Xapian::Query::MatchAll,
                        id_terms(ids))};
}

}  // namespace abstracts::query
