// Reading an index: search, look up, statistics.
#ifndef ABSTRACTS_INDEX_H_
#define ABSTRACTS_INDEX_H_

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "abstracts/abstract.h"
#include "abstracts/error.h"
#include "abstracts/search.h"
#include "abstracts/source.h"

namespace abstracts {

struct IndexStats {
  std::string path;              // the index directory
  std::uint64_t abstracts = 0;   // documents in the index
  std::uint64_t files = 0;       // source files indexed
  std::uint64_t terms = 0;       // distinct searchable terms
  std::uint64_t size_bytes = 0;  // on disk, what readers open (for a cluster, its local shards only)
  double average_length = 0;     // terms per abstract
  std::uint64_t vectors = 0;     // abstracts with a vector, for search by meaning (Writer::build_vectors)
  std::uint64_t graph = 0;       // abstracts in the nearest-neighbour graph searches by meaning go
                                 // through (0: none fit to use, so they read every vector)
};

// What Index::facet_counts counts abstracts by.
enum class Facet {
  kYear,      // the year of publication
  kVenue,     // the venue or journal, as written
  kCategory,  // arXiv categories, keywords, MeSH headings
  kAuthor,    // each person, by their name's fullest form as written ("C. Balázs"; "P. Romatschke"
              // and "Paul Romatschke" are one when no other name makes it ambiguous)
  kTag,         // Zotero's tags, as written
  kCollection,  // Zotero's collections, by their paths ("Thesis/Chapter 2"); an item counts in its own
};

// The number of abstracts with one value of a facet.
struct FacetCount {
  std::string value;  // "2026", "NeurIPS", "hep-ph", "C. Balázs"
  std::uint64_t abstracts = 0;
};

// One learned acronym definition, with the number of abstracts that make it.
struct AcronymEntry {
  std::string short_form;  // "LLMs", as most often written
  std::string long_form;   // "large language models", lower case
  std::uint64_t count = 0;
  // Whether searches use it: an acronym with several long forms expands only to
  // those that make up at least a quarter of its definitions (at most three).
  bool used = false;
};

// How Index::open treats the shards of a cluster (docs/scale-out.md).
struct OpenOptions {
  // A shard that cannot be reached, does not answer within the cluster's
  // timeout, or fails during a call (its connection closes, it sends garbage)
  // is left out and the others are searched (statistics, counts and scores are
  // then those of the shards that answer). Unset: every call that meets such a
  // shard throws ShardUnavailable.
  bool allow_partial = false;
  // Told about each shard left out, once, on the thread that found it down.
  std::function<void(const ShardUnavailable&)> on_shard_left_out;
};

// A read-only view of an on-disk index.
//
// Thread-safe: one Index may serve searches from many threads at once (it keeps
// one Xapian handle per concurrent caller). Each call sees the index as last
// committed by a Writer when the call started; a call that a writer's commit
// disturbs runs again on the index as it then is (for up to 10 s), so writers
// never make a reader fail. Every call throws CorruptIndex if it meets damage.
// On an index of 250,000 abstracts or more, a question's search (four words or
// more) or a phrase's matches on two threads, its own and a helper with a second
// handle, while fewer searches run in the process than the machine has cores.
class Index {
 public:
  // Opens the index in `dir`, or the cluster that the cluster file `dir` lists:
  // shards built with Writer's WriterOptions::shard, served by xapian-tcpsrv or
  // local, which every call searches as one index, with the same answers. Throws
  // IndexNotFound if there is none; CorruptIndex if it cannot be read, was
  // written by an incompatible version, or the cluster file is wrong (a bad
  // line, a shard missing, a database that is no shard); ShardUnavailable if a
  // shard cannot be reached (see `options`).
  static Index open(const std::filesystem::path& dir, const OpenOptions& options = {});

  Index(Index&&) noexcept;
  Index& operator=(Index&&) noexcept;
  ~Index();

  // Searches the index; see docs/query-language.md for the syntax. Hits are
  // ranked by BM25. Throws QueryError (with the offending column) when `query`
  // cannot be parsed or goes past a limit (its length, nesting, terms or
  // position checks), and when the search runs past options.time_limit.
  SearchResults search(std::string_view query, const SearchOptions& options = {}) const;

  // Abstracts like the given ones (which are left out), best first: Xapian's
  // relevance feedback takes the given abstracts as the relevant set, picks the
  // terms that best tell them apart from the rest of the index (boilerplate
  // such as "propose", "approach", "results" is never picked), and ranks by
  // those terms with BM25. Unknown ids are ignored; none known gives no hits.
  // `options.syntax`, spelling and acronym settings do not apply.
  SearchResults similar(const std::vector<std::string>& ids, const SearchOptions& options = {}) const;

  // The abstract with this id, if the index has it.
  std::optional<Abstract> get(std::string_view id) const;

  // The abstracts with these ids, in their order (nullopt for an id the index
  // does not have), as get(id) finds each, in one call: each call sees the
  // index afresh, some 0.1 ms. All are in memory at once: for a long list, ask
  // a part at a time.
  std::vector<std::optional<Abstract>> get(const std::vector<std::string>& ids) const;

  IndexStats stats() const;

  // How many abstracts have each value of `by`, like a search engine's facet
  // over the whole index: years newest first, the other facets most abstracts
  // first (ties by value). At most `limit` values (0: all). An abstract counts
  // once for each of its authors and categories; abstracts without the field
  // are not counted. Cost: one scan of the facet's terms, not of the abstracts.
  std::vector<FacetCount> facet_counts(Facet by, std::size_t limit = 0) const;

  // The same over the abstracts that match `query` (every feature of the query
  // language, as search() reads it): who writes about this, and since when. A
  // blank query counts the whole index. Cost: a pass over the matches, reading
  // each one's terms (docs/performance.md). Throws QueryError as search() does,
  // and when the count runs past `time_limit` seconds.
  std::vector<FacetCount> facet_counts(Facet by, std::string_view query, std::size_t limit = 0,
                                       double time_limit = 10) const;

  // The acronyms learned from the abstracts, by short form, most frequent long
  // form first.
  std::vector<AcronymEntry> acronyms() const;

  // The files and folders the index was built from (Writer::index), in path
  // order, each with its abstracts and whether its path is there now. (For a
  // cluster: its first shard's.)
  std::vector<SourceStatus> sources() const;

  // The index directory or cluster file given to open().
  const std::filesystem::path& path() const;

 private:
  struct Impl;
  explicit Index(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace abstracts

#endif  // ABSTRACTS_INDEX_H_
