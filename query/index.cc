#include "abstracts/index.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <xapian.h>

#include "engine/analysis/analyzer.h"
#include "engine/cluster.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "engine/sources.h"
#include "engine/vectors.h"
#include "query/acronym_table.h"
#include "query/database_pool.h"
#include "query/deadline.h"
#include "query/document_list.h"
#include "query/facets.h"
#include "query/hit_reads.h"
#include "query/hits.h"
#include "query/identifiers.h"
#include "query/meaning.h"
#include "query/parallel_match.h"
#include "query/parser.h"
#include "query/positional.h"
#include "query/ranking.h"
#include "query/similar.h"
#include "query/spelling.h"
#include "query/tiers.h"

namespace abstracts {
namespace fs = std::filesystem;

using analysis::thread_analyzer;

struct Index::Impl {
  Impl(fs::path dir, query::ShardPolicy policy) : pool(std::move(dir), std::move(policy)) {}
  query::DatabasePool pool;
  query::GraphCache graphs;  // for searches by meaning
};

Index::Index(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Index::Index(Index&&) noexcept = default;
Index& Index::operator=(Index&&) noexcept = default;
Index::~Index() = default;

Index Index::open(const fs::path& dir, const OpenOptions& options) {
  return Index(std::make_unique<Impl>(dir, query::ShardPolicy{options.allow_partial, options.on_shard_left_out}));
}

const fs::path& Index::path() const { return impl_->pool.dir(); }

SearchResults Index::similar(const std::vector<std::string>& ids, const SearchOptions& options) const {
  if (options.mode == SearchMode::kAuto) {
    SearchOptions chosen = options;
    chosen.mode = query::has_vectors(impl_->pool) ? SearchMode::kHybrid : SearchMode::kLexical;
    return similar(ids, chosen);
  }
  if (options.mode != SearchMode::kLexical) {
    return query::similar_by_meaning(impl_->pool, impl_->graphs, ids, options,
                                     [&](const SearchOptions& words) { return similar(ids, words); });
  }
  return impl_->pool.with_db([&](Xapian::Database& db, const compression::Decompressor& stored) {
    return query::similar(db, stored, ids, options, impl_->pool.is_cluster(),
                          impl_->pool.local_shards() < impl_->pool.shards().size());
  });
}

namespace {

// What a search and a facet of a query both parse with.
struct QueryReading {
  QueryReading(Xapian::Database& db, const query::DatabasePool& pool, const query::Deadline& deadline,
               bool expand_acronyms)
      : acronyms(db, thread_analyzer()) {
    context.db = &db;
    context.deadline = &deadline;
    context.position_budget = &budget;
    context.xapian_positions = pool.is_cluster();
    context.refuse_xor = pool.local_shards() >= 2;
    if (expand_acronyms) context.acronyms = &acronyms;
  }
  query::PositionBudget budget;  // afresh if the search runs again (a writer's commit)
  query::AcronymLookup acronyms;
  query::ParserContext context;
};

// A query that is an identifier (a pasted DOI or link) asks for that paper:
// the identifier, with the terms of it that `db` has in `identified`; nullopt
// for a query of words (an uncertain identifier, a number or a word, that no
// abstract has, is words).
std::optional<query::IdentifierQuery> identifier_of(const Xapian::Database& db, std::string_view text,
                                                    std::vector<Xapian::Query>& identified) {
  auto identifier = query::read_identifier(text);
  if (!identifier) return std::nullopt;
  for (const auto& term : query::identifier_terms(*identifier)) {
    if (db.term_exists(term)) identified.push_back(query::boolean_term(&db, term));
  }
  if (identified.empty() && !identifier->certain) return std::nullopt;
  return identifier;
}

// The filter an identifier's terms make: which abstracts, weighing nothing.
Xapian::Query identifier_filter(const std::vector<Xapian::Query>& identified) {
  return Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT,
                       Xapian::Query(Xapian::Query::OP_OR, identified.begin(), identified.end()), 0);
}

}  // namespace

SearchResults Index::search(std::string_view text, const SearchOptions& options) const {
  if (options.mode != SearchMode::kLexical && options.mode != SearchMode::kAuto) {
    return query::search_by_meaning(impl_->pool, impl_->graphs, text, options,
                                     [&](const SearchOptions& words) { return search(text, words); });
  }
  const auto& analyzer = thread_analyzer();
  const query::Deadline deadline(options.time_limit);
  return impl_->pool.with_db([&](Xapian::Database& db, const compression::Decompressor& stored) {
    const query::InFlight in_flight;
    QueryReading reading(db, impl_->pool, deadline, options.expand_acronyms);
    // Before the runs' rankings, whose hits may read through its second handle.
    query::ParallelMatch parallel(impl_->pool, db, options.ranking, &deadline, &reading.budget);
    query::Parser parser(analyzer, reading.context);
    const bool language = options.syntax == QuerySyntax::kQueryLanguage;
    SearchResults results;
    // A query of words alone means what the same plain text means, and ranks so.
    std::vector<std::string> rereadings;
    const bool plain = !language || parser.only_words(text, &rereadings);
    const bool remote = impl_->pool.local_shards() < impl_->pool.shards().size();  // feedback's statistics
    // Runs `q`: the query as asked, as ranked, and its matches; its expansion
    // notes go to `notes` (for --explain), its rereadings to `reread`.
    struct Run {
      Xapian::Query asked, query;
      query::FeedbackWeights feedback;
      query::Ranking ranking;
      // What its passes read of their best hits, read again by the next pass
      // and for the hits shown.
      std::unique_ptr<query::HitReads> reads;
    };
    std::vector<Xapian::Query> identified;
    const auto identifier = language ? identifier_of(db, text, identified) : std::nullopt;
    // The abstracts the hits must be among, found once for every run.
    std::optional<query::IdFilter> within;
    if (!options.within_ids.empty()) {
      within = query::id_filter(db, options.within_ids, impl_->pool.is_cluster(), &deadline);
    }
    auto run = [&](std::string_view q, std::vector<std::string>& notes, std::vector<std::string>* reread) {
      auto* keep = options.explain ? &notes : nullptr;
      Run r;
      query::PositionChecks checks(db);  // phrases checked on the best candidates only
      if (identifier) {
        r.asked = identifier_filter(identified);
        if (keep != nullptr) keep->push_back("identifier: " + identifier->described());
      } else {
        r.asked = plain ? parser.parse_plain(q, keep, &checks) : parser.parse(q, keep, &checks, reread);
      }
      deadline.check();
      query::PositionChecks* decider = checks.empty() ? nullptr : &checks;
      r.reads = std::make_unique<query::HitReads>(db, remote, &stored);
      r.query = query::rank(db, r.asked, plain, options.ranking, decider, keep, &r.feedback, &deadline, remote,
                            r.reads.get(), &parallel);
      if (within) r.query = within->applied_to(r.query);
      Xapian::Enquire enquire(db);
      // One local database: common words walk their impact tiers, if it has them.
      enquire.set_query(impl_->pool.is_cluster()
                            ? r.query
                            : query::with_tiers(impl_->pool.dir(), db, r.query, options.ranking, &deadline));
      enquire.set_weighting_scheme(query::bm25(options.ranking, &deadline));
      RankingOptions ranking = options.ranking;
      if (options.sort == SortOrder::kDate || options.sort == SortOrder::kOldest) {
        // Newest (oldest) first; the score orders abstracts of one date. Proximity
        // would reorder the best hits by score: not wanted here.
        if (options.sort == SortOrder::kDate) {
          enquire.set_sort_by_value_then_relevance(schema::kDateSlot, true);
        } else {
          enquire.set_sort_by_value_then_relevance(schema::kOldestSlot, false);
        }
        ranking.proximity_weight = 0;
      }
      r.ranking = query::best_hits(db, enquire, r.asked, query::count_user_words(r.asked), ranking,
                                   options.offset, options.limit, decider, query::check_at_least(db, options),
                                   options.sort == SortOrder::kRelevance, r.reads.get(),
                                   options.sort == SortOrder::kRelevance ? &parallel : nullptr);
      if (options.sort == SortOrder::kDate && r.ranking.mset.get_max_possible() == 0 && !r.ranking.hits.empty()) {
        // Filters only, every hit weighs 0: newest first, then by id, which one
        // index and the shards of a cluster order alike (not by document number).
        enquire.set_sort_by_value(schema::kDateIdSlot, false);
        r.ranking = query::best_hits(db, enquire, r.asked, 0, ranking, options.offset, options.limit, decider,
                                     query::check_at_least(db, options), false);
      }
      if (keep != nullptr && r.ranking.rescored) {
        keep->push_back("proximity: the " + std::to_string(options.ranking.proximity_depth) +
                        " best hits scored up by how much of the query one stretch of " +
                        std::to_string(options.ranking.proximity_window) + " words holds");
      }
      return r;
    };
    Run ran = run(text, results.expansions, &rereadings);
    if (!identifier) results.notes = rereadings;  // an identifier's link or label is no prose
    if (identifier && identified.empty()) results.notes.push_back("no abstract has " + identifier->described());
    if (language && !identifier) {
      results.suggestion = query::correct_query(db, stored, text, analyzer, &ran.ranking.mset);
      // A correction that does not parse ("ICE NEAR/3 THE" with a word made lower
      // case no longer reads as prose in capitals) is no correction.
      try {
        query::PositionChecks unused(db);
        if (!results.suggestion.empty()) parser.parse(results.suggestion, nullptr, &unused, nullptr);
      } catch (const QueryError&) {
        results.suggestion.clear();
      }
    }
    if (ran.ranking.hits.empty() && options.correct_spelling && !results.suggestion.empty()) {
      std::vector<std::string> notes;
      try {
        Run corrected = run(results.suggestion, notes, nullptr);
        if (!corrected.ranking.hits.empty()) {
          ran = std::move(corrected);
          results.expansions = std::move(notes);  // explain the query whose hits are shown
          results.corrected = true;
        }
      } catch (const QueryError&) {
        // The correction's search failed (its time limit): the query's own
        // empty results stand.
      }
    }
    if (options.explain) {
      results.parsed = query::describe(ran.query);
      for (const auto& n : results.notes) results.expansions.push_back("note: " + n);
      if (results.corrected) {
        results.expansions.push_back("spelling: nothing found, searched for \"" + results.suggestion + "\" instead");
      } else if (!results.suggestion.empty()) {
        results.expansions.push_back("spelling: did you mean \"" + results.suggestion + "\"?");
      }
    }
    query::fill_hits(db, stored, ran.query, ran.asked, ran.feedback, ran.ranking, options, results, ran.reads.get());
    return results;
  });
}

std::vector<AcronymEntry> Index::acronyms() const {
  return impl_->pool.with_db([&](Xapian::Database& db, const compression::Decompressor&) {
    auto table = query::AcronymTable::load(db, thread_analyzer());
    std::vector<AcronymEntry> out;
    for (const auto& [term, a] : table.all()) {
      for (const auto& lf : a.long_forms) out.push_back({a.surface, lf.surface, lf.count, lf.used});
    }
    return out;
  });
}

namespace {

// The abstract with this id, or else an identifier in any form people write it
// (a DOI in capitals, a link, a key).
std::optional<Abstract> abstract_with_id(const Xapian::Database& db, const compression::Decompressor& stored,
                                         std::string_view id) {
  std::vector<std::string> terms{schema::id_term(id)};
  if (const auto identifier = query::read_identifier(id)) {
    for (auto& term : query::identifier_terms(*identifier)) terms.push_back(std::move(term));
  }
  // A key of letters alone ("GeBKMjSz", Manubot's) is a word to search, but show's argument is a key.
  if (!id.empty() && id.size() <= schema::kMaxFieldBytes) terms.push_back(schema::citation_key_term(id));
  for (const auto& term : terms) {
    auto it = db.postlist_begin(term);
    if (it != db.postlist_end(term)) return schema::stored_abstract(db.get_document(*it), *it, stored);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Abstract> Index::get(std::string_view id) const {
  return impl_->pool.with_db([&](Xapian::Database& db, const compression::Decompressor& stored) {
    return abstract_with_id(db, stored, id);
  });
}

std::vector<std::optional<Abstract>> Index::get(const std::vector<std::string>& ids) const {
  return impl_->pool.with_db([&](Xapian::Database& db, const compression::Decompressor& stored) {
    std::vector<std::optional<Abstract>> out;
    out.reserve(ids.size());
    for (const auto& id : ids) out.push_back(abstract_with_id(db, stored, id));
    return out;
  });
}

IndexStats Index::stats() const {
  return impl_->pool.with_db([&](Xapian::Database& db, const compression::Decompressor&) {
    IndexStats s;
    s.path = impl_->pool.dir().string();
    s.abstracts = db.get_doccount();
    s.average_length = db.get_avlength();
    const std::string file_prefix(schema::kFileKeyPrefix);
    for (auto k = db.metadata_keys_begin(file_prefix); k != db.metadata_keys_end(file_prefix); ++k) {
      if (!db.get_metadata(*k).empty()) ++s.files;
    }
    for (auto t = db.allterms_begin(); t != db.allterms_end(); ++t) {
      if (schema::is_word_term(*t)) ++s.terms;
    }
    s.vectors = db.get_value_freq(schema::kVectorSlot);
    const auto embedder = s.vectors > 0 && !impl_->pool.is_cluster() ? vectors::Embedder::load(db) : std::nullopt;
    if (embedder) {
      if (const auto graph = impl_->graphs.of(impl_->pool.dir(), db, embedder->model().dimensions)) {
        s.graph = graph->stamp().size;
      }
    }
    // The files of the index, or of a cluster's local shards (a remote shard's
    // are on its machine), that readers open: not a killed bulk build's leftovers.
    if (!impl_->pool.is_cluster()) {
      s.size_bytes = layout::size_on_disk(impl_->pool.dir());
    } else {
      for (const auto& m : impl_->pool.shards()) {
        if (m.kind == cluster::Member::Kind::kLocal) s.size_bytes += layout::size_on_disk(m.path);
      }
    }
    return s;
  });
}

std::vector<FacetCount> Index::facet_counts(Facet by, std::size_t limit) const {
  return impl_->pool.with_db([&](Xapian::Database& db, const compression::Decompressor&) {
    return query::count_facet(db, by, limit);
  });
}

std::vector<FacetCount> Index::facet_counts(Facet by, std::string_view text, std::size_t limit,
                                            double time_limit) const {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return facet_counts(by, limit);
  const query::Deadline deadline(time_limit);
  return impl_->pool.with_db([&](Xapian::Database& db, const compression::Decompressor&) {
    QueryReading reading(db, impl_->pool, deadline, true);
    query::Parser parser(thread_analyzer(), reading.context);
    query::PositionChecks checks(db);
    std::vector<Xapian::Query> identified;
    Xapian::Query q;
    if (identifier_of(db, text, identified)) {
      q = identifier_filter(identified);
    } else {
      q = parser.only_words(text, nullptr) ? parser.parse_plain(text, nullptr, &checks)
                                           : parser.parse(text, nullptr, &checks, nullptr);
    }
    Xapian::Enquire enquire(db);
    enquire.set_query(q);
    return query::count_facet_of_matches(db, enquire, checks.empty() ? nullptr : &checks, by, limit, deadline);
  });
}

std::vector<SourceStatus> Index::sources() const {
  return impl_->pool.with_db([&](Xapian::Database& db, const compression::Decompressor&) {
    std::vector<SourceStatus> out;
    for (auto& source : sources::of(db)) {
      SourceStatus& status = out.emplace_back();
      status.source = std::move(source);
      std::error_code ec;
      status.present = fs::exists(status.source.path, ec);
    }
    // A source's abstracts: those with a record from a file that lists it.
    std::vector<std::vector<Xapian::Query>> files(out.size());
    const std::string prefix(schema::kFileKeyPrefix);
    for (auto k = db.metadata_keys_begin(prefix); k != db.metadata_keys_end(prefix); ++k) {
      schema::FileState state;
      if (!schema::decode(db.get_metadata(*k), state)) continue;
      const std::string term = schema::file_term(std::string_view(*k).substr(prefix.size()));
      for (std::size_t i = 0; i < out.size(); ++i) {
        const std::string path = out[i].source.path.string();
        if (std::find(state.sources.begin(), state.sources.end(), path) != state.sources.end()) {
          files[i].push_back(query::boolean_term(&db, term));
        }
      }
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (files[i].empty()) continue;
      Xapian::Enquire enquire(db);
      enquire.set_query(Xapian::Query(Xapian::Query::OP_OR, files[i].begin(), files[i].end()));
      out[i].abstracts = enquire.get_mset(0, 0, db.get_doccount()).get_matches_estimated();
    }
    return out;
  });
}

}  // namespace abstracts
