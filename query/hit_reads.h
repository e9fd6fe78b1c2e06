// What a search reads of its best hits, kept for its later passes.
#ifndef ABSTRACTS_QUERY_HIT_READS_H_
#define ABSTRACTS_QUERY_HIT_READS_H_

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <xapian.h>

namespace abstracts::compression {
class Decompressor;
}

namespace abstracts::query {

// Each abstract's term list (terms and wdf, in term order) and positions value,
// read once a search. A question's passes read mostly the same hits: proximity
// the first pass's 30 best, feedback its 10 best, proximity the final pass's 30
// best. On a cluster's remote shards every term list and every document is a
// message (Xapian 1.4 fetches one a request). `db` must outlive it, and not
// change meanwhile (one search). Not thread-safe: one per search.
class HitReads {
 public:
  // `remote`: `db` has remote shards (see which() and words()). `stored`, if
  // given, reads its stored abstracts, and must outlive this object.
  explicit HitReads(const Xapian::Database& db, bool remote = false,
                    const compression::Decompressor* stored = nullptr)
      : db_(db), remote_(remote), stored_(stored) {}

  using Terms = std::vector<std::pair<std::string, Xapian::termcount>>;  // in term order
  // `id`'s term list; the reference stays valid for the object's life.
  const Terms& terms(Xapian::docid id);

  // `id`'s id term and word terms (schema::is_word_term) with their wdf, in term
  // order, and maybe more: its term list (terms()); or, with remote shards and
  // `stored` given, those alone, counted again from its stored abstract
  // (engine/body_words.h) in the document read for proximity: a remote shard
  // sends a term list a message per term (about 0.8 ms a list over loopback).
  // The reference stays valid for the object's life.
  const Terms& words(Xapian::docid id);
  // `id`'s positions value (the schema's kPositionsSlot; "" if none), likewise.
  const std::string& positions(Xapian::docid id);

  // Which of `terms` each of `docs` has: entry [i][k] says whether docs[i] has
  // terms[k]. From their term lists; with remote shards, and at most 52 terms,
  // from one query instead (each term weighing 2^k under CoordWeight, filtered
  // to the hits' id terms): a shard answers it in one round trip, where a term
  // list is one each. The docs' documents must be kept() or read then.
  std::vector<std::vector<bool>> which(const std::vector<Xapian::docid>& docs, const std::vector<std::string>& terms);

  // Keeps `doc`, a hit's document as its MSet holds it (after MSet::fetch()), for
  // positions(), which() and document(), so that no pass reads it again: on a
  // remote shard each document read is a message.
  void keep(Xapian::docid id, const Xapian::Document& doc) { documents_.try_emplace(id, doc); }
  // Whether `id`'s document was kept or read.
  bool has(Xapian::docid id) const { return documents_.contains(id); }
  // `id`'s document: kept, or else read (and kept); the reference stays valid
  // for the object's life.
  const Xapian::Document& document(Xapian::docid id);

 private:
  const Xapian::Database& db_;
  bool remote_;
  const compression::Decompressor* stored_;
  std::unordered_map<Xapian::docid, Terms> terms_;
  std::unordered_map<Xapian::docid, Terms> counted_;  // words(), with remote shards
  std::unordered_map<Xapian::docid, std::string> positions_;
  std::unordered_map<Xapian::docid, Xapian::Document> documents_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_HIT_READS_H_
