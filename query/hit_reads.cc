#include "query/hit_reads.h"

#include <algorithm>

#include "engine/schema.h"

namespace abstracts::query {

bool HitReads::Read::has(const std::string& term) const {
  const auto it = std::lower_bound(terms.begin(), terms.end(), term,
                                   [](const auto& entry, const std::string& t) { return entry.first < t; });
  return it != terms.end() && it->first == term;
}

const HitReads::Read& HitReads::of(Xapian::docid id) {
  if (auto it = reads_.find(id); it != reads_.end()) return it->second;
  Read read;  // kept only once whole (a read that throws keeps nothing)
  for (auto t = db_.termlist_begin(id); t != db_.termlist_end(id); ++t) read.terms.emplace_back(*t, t.get_wdf());
  const auto kept = documents_.find(id);
  read.positions = (kept != documents_.end() ? kept->second : db_.get_document(id)).get_value(schema::kPositionsSlot);
  return reads_.emplace(id, std::move(read)).first->second;
}

}  // namespace abstracts::query
