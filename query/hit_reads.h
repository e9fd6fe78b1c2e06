// What a search reads of its best hits, kept for its later passes.
#ifndef ABSTRACTS_QUERY_HIT_READS_H_
#define ABSTRACTS_QUERY_HIT_READS_H_

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <xapian.h>

namespace abstracts::query {

// Each abstract's term list (terms and wdf, in term order) and positions value,
// read once a search. A question's passes read mostly the same hits: proximity
// the first pass's 30 best, feedback its 10 best, proximity the final pass's 30
// best. On a cluster's remote shards every term list and every document is a
// message (Xapian 1.4 fetches one a request). `db` must outlive it, and not
// change meanwhile (one search). Not thread-safe: one per search.
class HitReads {
 public:
  explicit HitReads(const Xapian::Database& db) : db_(db) {}

  struct Read {
    std::vector<std::pair<std::string, Xapian::termcount>> terms;  // in term order
    std::string positions;  // the schema's positions value; "" if none
    // Whether `term` is in the term list.
    bool has(const std::string& term) const;
  };
  // `id`'s reads; the reference stays valid for the object's life.
  const Read& of(Xapian::docid id);

  // Keeps `doc`, a hit's document as its MSet holds it, for of() to read its
  // values from: MSet::fetch() asks each remote shard for all of its hits'
  // documents in one go, where Database::get_document() asks for one.
  void keep(Xapian::docid id, const Xapian::Document& doc) { documents_.try_emplace(id, doc); }
  // Whether `id` was read, or its document kept.
  bool has(Xapian::docid id) const { return reads_.contains(id) || documents_.contains(id); }

 private:
  const Xapian::Database& db_;
  std::unordered_map<Xapian::docid, Read> reads_;
  std::unordered_map<Xapian::docid, Xapian::Document> documents_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_HIT_READS_H_
