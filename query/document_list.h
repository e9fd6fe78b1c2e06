// A set of abstracts given by id or document number, as a filter on a match:
// a search `within` ids, the abstracts similar() leaves out, a ranking's
// second pass over its best candidates. Its cost grows with the ids, never
// with their square: Xapian 1.4 weighs an OR of one id term per abstract
// again whole each time one of its terms runs out, once the top hits are
// full (quadratic: 60,000 ids took 105 s), and holds each term's cursor.
#ifndef ABSTRACTS_QUERY_DOCUMENT_LIST_H_
#define ABSTRACTS_QUERY_DOCUMENT_LIST_H_

#include <memory>
#include <string>
#include <vector>

#include <xapian.h>

namespace abstracts::query {

class Deadline;

// Matches the given document numbers, weighing nothing. Clones share the
// list. Serialisable (name() "abstracts.DocumentList"), so a match copied to
// another thread (query/parallel_match.h) keeps it, with a registry that has
// one registered. Document numbers are those of one database: not for a
// Xapian::Database of several (a cluster's shards), whose posting sources
// see each shard's own numbers.
class DocumentList : public Xapian::PostingSource {
 public:
  // `docs` sorted, each once.
  explicit DocumentList(std::vector<Xapian::docid> docs);

  DocumentList* clone() const override;
  std::string name() const override;
  std::string serialise() const override;
  DocumentList* unserialise(const std::string& serialised) const override;
  void init(const Xapian::Database&) override;
  Xapian::doccount get_termfreq_min() const override;
  Xapian::doccount get_termfreq_est() const override;
  Xapian::doccount get_termfreq_max() const override;
  void next(double) override;
  void skip_to(Xapian::docid did, double) override;
  bool at_end() const override;
  Xapian::docid get_docid() const override;
  std::string get_description() const override;

 private:
  explicit DocumentList(std::shared_ptr<const std::vector<Xapian::docid>> docs) : docs_(std::move(docs)) {}

  std::shared_ptr<const std::vector<Xapian::docid>> docs_;
  std::size_t at_ = 0;
  bool started_ = false;
};

// The document numbers of the abstracts with these ids that `db` has, sorted,
// each once (unknown ids and repeats are left out). Each id's term is looked
// up (some 5 us each), or, for many ids against the size of `db` and with
// `scan` allowed, every abstract's id is read from its kDateIdSlot value
// (some 0.1 us an abstract) and looked for among the ids sorted. `scan` must
// be false for a database with remote shards, whose values are a message
// each. Checks `deadline` (may be null) as it goes.
std::vector<Xapian::docid> documents_of(const Xapian::Database& db, const std::vector<std::string>& ids, bool scan,
                                        const Deadline* deadline = nullptr);

// The ids' terms, each once, as a query that matches any of them where it
// weighs nothing (the right of an AND_NOT or a FILTER): on a cluster, where a
// DocumentList cannot go. Built in groups, so that Xapian 1.4 builds its tree
// in time linear in the ids; a match weighs it again whole each time one of
// its terms runs out, unless it stands on the right of an AND_NOT (see
// id_filter()).
Xapian::Query id_terms(const std::vector<std::string>& ids);

// What keeps a match to the abstracts with given ids, their weights as they
// are: `applied_to(query)`. Made once for the matches of a search.
struct IdFilter {
  Xapian::Query::op op = Xapian::Query::OP_FILTER;
  Xapian::Query filter;
  Xapian::Query applied_to(const Xapian::Query& query) const { return Xapian::Query(op, query, filter); }
};

// The filter to the abstracts of `db` with these ids: a DocumentList of
// documents_of(), or, `by_terms` (a cluster: its shards number their
// abstracts each their own way, and a remote one takes no posting source of
// ours), the ids' terms, each once. Those stand where Xapian 1.4 does not weigh
// them again as they run out (the right of an AND_NOT, twice), so the time
// stays linear in the ids; but each holds a cursor on the shards while a match
// runs (100,000 ids over two shards of 115k abstracts: 1.3 s, 130 MB).
IdFilter id_filter(const Xapian::Database& db, const std::vector<std::string>& ids, bool by_terms,
                   const Deadline* deadline = nullptr);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_DOCUMENT_LIST_H_
