#include "query/meaning.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>
#include <queue>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/layout.h"
#include "engine/neighbours.h"
#include "engine/schema.h"
#include "engine/vectors.h"
#include "query/deadline.h"
#include "query/document_list.h"
#include "query/snippet.h"

namespace abstracts::query {
namespace {

struct Near {
  Xapian::docid id;
  float cosine;
};

// The `depth` nearest of the abstracts offered, best first (ties by document number).
class Nearest {
 public:
  explicit Nearest(std::size_t depth) : depth_(depth) {}
  void offer(Xapian::docid id, float cosine) {
    if (depth_ == 0) return;
    if (heap_.size() < depth_) {
      heap_.push({id, cosine});
    } else if (worse({id, cosine}, heap_.top())) {
      heap_.pop();
      heap_.push({id, cosine});
    }
  }
  std::vector<Near> take() {
    std::vector<Near> best(heap_.size());
    for (std::size_t i = heap_.size(); i-- > 0; heap_.pop()) best[i] = heap_.top();
    return best;
  }

 private:
  static bool worse(const Near& a, const Near& b) { return a.cosine > b.cosine || (a.cosine == b.cosine && a.id < b.id); }
  std::size_t depth_;
  std::priority_queue<Near, std::vector<Near>, decltype(&worse)> heap_{&worse};  // the worst on top
};

// Where a search by meaning looks, and what it keeps.
struct Seeking {
  const std::vector<float>& q;
  const std::vector<Xapian::docid>& within;         // sorted; if not empty, the only abstracts that count
  const std::vector<Xapian::docid>& leave_out;      // sorted; never count
  const std::unordered_set<Xapian::docid>& wanted;  // their cosines go in `of_wanted`
  std::unordered_map<Xapian::docid, float>& of_wanted;
  const Deadline& deadline;
  std::size_t counted = 0;  // abstracts seen that count
  // The cosine of abstract `id` (its vector `value`), kept as `wanted` says
  // and offered to `nearest` if it counts.
  void see(Xapian::docid id, std::string_view value, Nearest& nearest) {
    const float c = vectors::dot(value, q);
    if (wanted.contains(id)) of_wanted[id] = c;
    if ((within.empty() || std::binary_search(within.begin(), within.end(), id)) &&
        !std::binary_search(leave_out.begin(), leave_out.end(), id)) {
      ++counted;
      nearest.offer(id, c);
    }
  }
};

// Every abstract's cosine from document `from` on, read one by one. Returns
// how many it read.
std::size_t scan(const Xapian::Database& db, Seeking& seeking, Xapian::docid from, Nearest& nearest) {
  std::size_t seen = 0;
  auto v = db.valuestream_begin(schema::kVectorSlot);
  if (from > 1 && v != db.valuestream_end(schema::kVectorSlot)) v.skip_to(from);
  for (; v != db.valuestream_end(schema::kVectorSlot); ++v) {
    if (++seen % 16384 == 0) seeking.deadline.check();
    seeking.see(v.get_docid(), *v, nearest);
  }
  return seen;
}

// The `depth` abstracts nearest `seeking.q`, best first, and the cosines of
// those wanted. With a graph, the abstracts it finds and those added after it
// was built; else (or within a few abstracts, or with many deleted since it
// was built) every abstract. Returns how many abstracts count with a vector.
std::size_t nearest_of(const Xapian::Database& db, const neighbours::Graph* graph, Seeking& seeking,
                       std::size_t depth, std::vector<Near>& best) {
  Nearest nearest(depth);
  const std::uint64_t with_vectors = db.get_value_freq(schema::kVectorSlot);
  if (graph != nullptr && seeking.within.empty()) {
    const neighbours::Stamp& stamp = graph->stamp();
    const std::size_t added = scan(db, seeking, stamp.last + 1, nearest);
    const std::uint64_t kept = with_vectors - std::min<std::uint64_t>(with_vectors, added);
    const std::uint64_t deleted = stamp.size - std::min(stamp.size, kept);
    if (deleted <= stamp.size / 4) {
      // Enough candidates that those left out, and the share deleted, still leave `depth`.
      const std::size_t wanted_near = (depth + seeking.leave_out.size()) * stamp.size / (stamp.size - deleted) + 1;
      std::vector<Xapian::docid> read = graph->nearest(seeking.q, wanted_near);
      for (auto id : seeking.wanted) {
        if (id <= stamp.last) read.push_back(id);
      }
      std::sort(read.begin(), read.end());
      read.erase(std::unique(read.begin(), read.end()), read.end());
      auto v = db.valuestream_begin(schema::kVectorSlot);
      for (auto id : read) {
        if (v == db.valuestream_end(schema::kVectorSlot)) break;
        v.skip_to(id);
        if (v != db.valuestream_end(schema::kVectorSlot) && v.get_docid() == id) seeking.see(id, *v, nearest);
      }
      best = nearest.take();
      return with_vectors - std::min(with_vectors, static_cast<std::uint64_t>(seeking.leave_out.size()));
    }
    nearest = Nearest(depth);  // too many deleted: every vector
    seeking.of_wanted.clear();
    seeking.counted = 0;
  }
  scan(db, seeking, 1, nearest);
  best = nearest.take();
  return seeking.counted;
}

// The document numbers of abstracts by id (those the index has).
std::unordered_map<std::string, Xapian::docid> docids(const Xapian::Database& db, const std::vector<std::string>& ids) {
  std::unordered_map<std::string, Xapian::docid> out;
  for (const auto& id : ids) {
    const std::string term = schema::id_term(id);
    if (auto p = db.postlist_begin(term); p != db.postlist_end(term)) out.emplace(id, *p);
  }
  return out;
}

// Scales `x` from [low, high] to [0, 1] (1 when all are equal).
double scaled(double x, double low, double high) { return high > low ? (x - low) / (high - low) : 1.0; }

// What a search by meaning looks for.
struct Sought {
  std::vector<float> q;  // unit; empty: nothing
  std::vector<Xapian::docid> leave_out;  // sorted
  std::vector<std::string> terms;  // highlighted in the snippets
  std::string described;           // for --explain
  std::string none;                // why `q` is empty
};

// The search by meaning `seek` says, mixed with `lexical`'s for kHybrid.
SearchResults by_meaning(DatabasePool& pool, GraphCache& graphs, const SearchOptions& options,
                         const std::function<SearchResults(const SearchOptions&)>& lexical,
                         const std::function<Sought(Xapian::Database&, vectors::Embedder&)>& seek) {
  if (pool.local_shards() < pool.shards().size()) {
    throw Error("search by meaning is not possible on a cluster with remote shards: xapian-tcpsrv serves no vectors",
                "search by words (leave out --semantic and --hybrid)");
  }
  if (options.hybrid_weight < 0 || options.hybrid_weight > 1) throw Error("the hybrid weight must be from 0 to 1");
  const bool hybrid = options.mode == SearchMode::kHybrid;
  const std::size_t wanted_hits = options.offset + options.limit;
  SearchResults by_words;
  if (hybrid) {
    SearchOptions words = options;
    words.mode = SearchMode::kLexical;
    words.offset = 0;
    words.limit = std::max(kHybridDepth, wanted_hits);
    by_words = lexical(words);
  }
  const Deadline deadline(options.time_limit);
  return pool.with_db([&](Xapian::Database& db, const compression::Decompressor& stored) {
    auto embedder = vectors::Embedder::load(db);
    if (!embedder) {
      throw Error("the index has no vectors to search by meaning", "build them: abstracts vectors build");
    }
    const auto& analyzer = analysis::thread_analyzer();
    const Sought sought = seek(db, *embedder);
    const std::vector<float>& q = sought.q;
    const std::vector<std::string>& terms = sought.terms;
    SearchResults results;
    results.indexed_abstracts = db.get_doccount();
    if (hybrid) {
      results.suggestion = by_words.suggestion;
      results.corrected = by_words.corrected;
      results.notes = by_words.notes;
      results.parsed = by_words.parsed;
      results.expansions = by_words.expansions;
    }
    if (q.empty()) {
      results.notes.push_back(sought.none + ": " +
                              std::string(hybrid ? "ranked by words alone" : "nothing to search by meaning"));
    }
    const std::vector<Xapian::docid> within = documents_of(db, options.within_ids, true, &deadline);
    if (!options.within_ids.empty() && within.empty()) return results;

    // The lexical ranking's best kHybridDepth are mixed, whatever the limit
    // (so that the first hits do not change with it); the rest follow.
    const std::size_t mixed = std::min(kHybridDepth, by_words.hits.size());
    std::vector<std::string> lexical_ids;
    for (const auto& hit : by_words.hits) lexical_ids.push_back(hit.abstract.id);
    const auto lexical_docids = docids(db, lexical_ids);
    std::unordered_set<Xapian::docid> wanted;  // the mixed lexical hits: their cosines
    for (std::size_t i = 0; i < mixed; ++i) {
      if (auto d = lexical_docids.find(by_words.hits[i].abstract.id); d != lexical_docids.end()) wanted.insert(d->second);
    }
    std::vector<Near> nearest;
    std::unordered_map<Xapian::docid, float> cosine_of;
    std::size_t with_vectors = 0;
    if (!q.empty()) {
      const auto graph = pool.is_cluster() ? nullptr : graphs.of(pool.dir(), db, embedder->model().dimensions);
      Seeking seeking{q, within, sought.leave_out, wanted, cosine_of, deadline};
      with_vectors = nearest_of(db, graph.get(), seeking, hybrid ? kHybridDepth : wanted_hits, nearest);
    }

    // The hits in order: a document number (0 for a lexical hit no longer in
    // the index), the lexical hit it is (or none) and its score's parts.
    struct Ranked {
      Xapian::docid id = 0;
      const Hit* lexical = nullptr;
      double score = 0, lexical_part = 0, vector_part = 0;
    };
    std::vector<Ranked> ranked;
    const std::unordered_set<std::string> highlight(terms.begin(), terms.end());
    if (!hybrid) {
      for (const auto& n : nearest) ranked.push_back({n.id, nullptr, n.cosine, 0, n.cosine});
      results.estimated_matches = with_vectors;
      results.exact_matches = true;
    } else {
      results.estimated_matches = by_words.estimated_matches;
      double low = 0, high = 0;  // the mixed lexical scores' range
      if (mixed != 0) {
        high = by_words.hits.front().score;
        low = by_words.hits[mixed - 1].score;
      }
      std::unordered_map<Xapian::docid, std::size_t> at;  // in ranked
      for (std::size_t i = 0; i < mixed; ++i) {
        const Hit& hit = by_words.hits[i];
        auto d = lexical_docids.find(hit.abstract.id);
        const Xapian::docid id = d == lexical_docids.end() ? 0 : d->second;
        Ranked r{id, &hit, 0, scaled(hit.score, low, high), 0};
        if (id != 0) at.emplace(id, ranked.size());
        ranked.push_back(r);
      }
      for (const auto& n : nearest) {
        if (!at.contains(n.id)) {
          at.emplace(n.id, ranked.size());
          ranked.push_back({n.id, nullptr, 0, 0, 0});
        }
      }
      // The cosines' range over both lists; a lexical hit without a vector counts as the lowest.
      for (const auto& n : nearest) cosine_of.emplace(n.id, n.cosine);
      float cos_low = 1, cos_high = -1;
      for (const auto& [id, c] : cosine_of) cos_low = std::min(cos_low, c), cos_high = std::max(cos_high, c);
      const double w = options.hybrid_weight;
      for (auto& r : ranked) {
        auto c = cosine_of.find(r.id);
        const double cosine = c != cosine_of.end() ? c->second : cos_low;
        r.lexical_part = w * r.lexical_part;
        r.vector_part = q.empty() ? 0 : (1 - w) * scaled(cosine, cos_low, cos_high);
        r.score = r.lexical_part + r.vector_part;
      }
      // Ties: the lexical order, then the nearest's.
      std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) { return a.score > b.score; });
      // Past the mixed hits, the lexical ranking's rest in its order, with no
      // mixed score (0): below every mixed one.
      for (std::size_t i = mixed; i < by_words.hits.size(); ++i) {
        const Hit& hit = by_words.hits[i];
        auto d = lexical_docids.find(hit.abstract.id);
        if (d != lexical_docids.end() && at.contains(d->second)) continue;  // one of the nearest
        ranked.push_back({0, &hit, 0, 0, 0});
      }
      results.estimated_matches = std::max(results.estimated_matches, ranked.size());
      results.exact_matches = false;
      if (options.explain) {
        results.expansions.push_back("hybrid: the " + std::to_string(mixed) +
                                     " best by words and the " + std::to_string(nearest.size()) +
                                     " nearest by meaning, mixed " + std::to_string(w).substr(0, 4) + " to " +
                                     std::to_string(1 - w).substr(0, 4));
      }
    }
    if (options.explain && !hybrid) results.parsed = sought.described;

    for (std::size_t i = options.offset; i < ranked.size() && i < wanted_hits; ++i) {
      const Ranked& r = ranked[i];
      Hit hit;
      if (r.lexical != nullptr) {
        hit = *r.lexical;
      } else {
        hit.abstract = schema::stored_abstract(db.get_document(r.id), r.id, stored);
        if (options.snippets) {
          hit.snippet = make_snippet(hit.abstract.text, highlight, options.snippet_chars, analyzer);
        }
      }
      hit.rank = i + 1;
      hit.score = r.score;
      if (options.explain) {
        hit.explanation.clear();
        if (hybrid) hit.explanation.push_back({"lexical", r.lexical_part});
        hit.explanation.push_back({"vector", r.vector_part});
      }
      results.hits.push_back(std::move(hit));
    }
    return results;
  });
}

}  // namespace

std::shared_ptr<const neighbours::Graph> GraphCache::of(const std::filesystem::path& dir,
                                                        const Xapian::Database& db, std::uint32_t dimensions) {
  const std::string file = neighbours::graph_path(layout::current_generation(dir)).string();
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return nullptr;
  const std::int64_t mtime_ns = st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  std::lock_guard lock(mutex_);
  if (file != file_ || st.st_ino != inode_ || static_cast<std::uint64_t>(st.st_size) != size_ ||
      mtime_ns != mtime_ns_ || (graph_ && graph_->stamp().dimensions != dimensions)) {
    file_ = file;
    inode_ = st.st_ino;
    size_ = static_cast<std::uint64_t>(st.st_size);
    mtime_ns_ = mtime_ns;
    graph_ = neighbours::Graph::open(file, db, dimensions);
  }
  return graph_;
}

bool has_vectors(DatabasePool& pool) {
  if (pool.local_shards() < pool.shards().size()) return false;
  return pool.with_db([](Xapian::Database& db, const compression::Decompressor&) {
    return !db.get_metadata(std::string(vectors::kModelKey)).empty();
  });
}

SearchResults search_by_meaning(DatabasePool& pool, GraphCache& graphs, std::string_view text,
                                const SearchOptions& options,
                                const std::function<SearchResults(const SearchOptions&)>& lexical) {
  if (options.sort != SortOrder::kRelevance) {
    throw Error("a search by meaning is ranked by meaning, not sorted by date",
                "sort by relevance, or search by words alone");
  }
  return by_meaning(pool, graphs, options, lexical, [&](Xapian::Database&, vectors::Embedder& embedder) {
    Sought s;
    s.terms = analysis::thread_analyzer().terms(text);
    s.q = embedder.of_terms(s.terms);
    s.described = "vector of:";
    for (const auto& t : s.terms) s.described += " " + t;
    s.none = "no word of the query has a vector";
    return s;
  });
}

SearchResults similar_by_meaning(DatabasePool& pool, GraphCache& graphs, const std::vector<std::string>& ids,
                                 const SearchOptions& options,
                                 const std::function<SearchResults(const SearchOptions&)>& lexical) {
  return by_meaning(pool, graphs, options, lexical, [&](Xapian::Database& db, vectors::Embedder& embedder) {
    Sought s;
    std::vector<float> sum(embedder.model().dimensions, 0.0f);
    bool any = false;
    s.leave_out = documents_of(db, ids, true);
    // Their vectors, read in order of document number.
    auto v = db.valuestream_begin(schema::kVectorSlot);
    const auto end = db.valuestream_end(schema::kVectorSlot);
    for (const Xapian::docid docid : s.leave_out) {
      if (v == end) break;
      v.skip_to(docid);
      if (v == end || v.get_docid() != docid) continue;
      const std::string value = *v;
      vectors::add_unit(value, sum);
      any = any || !value.empty();
    }
    if (any && vectors::finish(sum, {})) s.q = std::move(sum);
    s.described = "vector of: the given abstracts'";
    s.none = "no given abstract has a vector";
    return s;
  });
}

}  // namespace abstracts::query
