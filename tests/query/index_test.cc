// Searching a real on-disk index of the bundled corpus through the public API
// (Index), and opening one. Expectations are derived from the corpus files
// themselves: counts, ids (content_id of each line) and line numbers.
#include "abstracts/index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <xapian.h>

#include "abstracts/abstract.h"
#include "abstracts/error.h"
#include "abstracts/writer.h"
#include "engine/analysis/analyzer.h"
#include "engine/layout.h"
#include "tests/support/corpus.h"
#include "tests/support/test_support.h"

namespace abstracts {
namespace {

namespace fs = std::filesystem;
using namespace testing;  // abstracts::testing: the corpus, temporary directories

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::size_t count_occurrences(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto p = haystack.find(needle); p != std::string::npos; p = haystack.find(needle, p + 1))
    ++n;
  return n;
}

// ---------------------------------------------------------------------------
// The whole corpus, indexed once, read by the tests that do not write.

class CorpusIndex : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    auto writer = Writer::open(dir_->path() / "index");
    std::size_t failed = writer.index_directory(
        ABSTRACTS_CORPUS_DIR, [](const FileReport& r) { reports_->push_back(r); },
        [](const std::exception& e) { ADD_FAILURE() << "indexing the corpus: " << e.what(); });
    ASSERT_EQ(failed, 0u);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
    reports_->clear();
  }
  static fs::path index_dir() { return dir_->path() / "index"; }

  static TempDir* dir_;
  static std::vector<FileReport>* reports_;
};
TempDir* CorpusIndex::dir_ = nullptr;
std::vector<FileReport>* CorpusIndex::reports_ = new std::vector<FileReport>;

TEST_F(CorpusIndex, HasEveryAbstractAndFile) {
  const auto expected = corpus_abstracts();
  const auto files = corpus_files();
  ASSERT_FALSE(expected.empty());
  auto stats = Index::open(index_dir()).stats();
  EXPECT_EQ(stats.abstracts, expected.size());
  EXPECT_EQ(stats.files, files.size());
  EXPECT_GT(stats.terms, 0u);
  EXPECT_GT(stats.size_bytes, 0u);
  EXPECT_GT(stats.average_length, 0.0);
  EXPECT_EQ(fs::path(stats.path), index_dir());

  ASSERT_EQ(reports_->size(), files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& r = (*reports_)[i];
    EXPECT_TRUE(fs::equivalent(r.path, files[i])) << r.path;
    EXPECT_TRUE(r.path.is_absolute()) << r.path;
    EXPECT_EQ(r.status, FileReport::Status::kIndexed) << r.path;
    EXPECT_EQ(r.abstracts, abstracts_of(files[i]).size()) << r.path;
    EXPECT_EQ(r.removed, 0u) << r.path;
  }
}

TEST_F(CorpusIndex, GetReturnsEveryAbstractWithItsSourceLine) {
  auto index = Index::open(index_dir());
  for (const auto& l : corpus_abstracts()) {
    auto a = index.get(l.id());
    ASSERT_TRUE(a.has_value()) << l.file << ":" << l.line;
    EXPECT_EQ(a->id, l.id());
    EXPECT_TRUE(fs::path(a->source).is_absolute()) << a->source;
    EXPECT_TRUE(fs::equivalent(a->source, l.file)) << a->source << " vs " << l.file;
    EXPECT_EQ(a->line, l.line) << l.file;
    EXPECT_EQ(a->text, display_text(l.raw));
    EXPECT_EQ(a->title, derive_title(a->text));
    // "NeurIPS 2026 Papers": venue and year from the header line.
    const std::string header = raw_lines(l.file).front();
    EXPECT_FALSE(a->venue.empty());
    EXPECT_EQ(header.rfind(a->venue + " " + std::to_string(a->year), 0), 0u)
        << "header '" << header << "', venue '" << a->venue << "', year " << a->year;
  }
  EXPECT_FALSE(index.get("0000000000zz").has_value());
  EXPECT_FALSE(index.get("").has_value());
}

TEST_F(CorpusIndex, EveryHitPointsToTheLineItCameFrom) {
  auto index = Index::open(index_dir());
  for (const char* query : {"model", "sparse attention", "\"large language models\"", "robot"}) {
    SCOPED_TRACE(query);
    auto results = index.search(query, {.limit = 1000});
    ASSERT_FALSE(results.hits.empty());
    for (const auto& hit : results.hits) {
      const auto lines = raw_lines(hit.abstract.source);
      ASSERT_GE(hit.abstract.line, 2u);
      ASSERT_LE(hit.abstract.line, lines.size());
      EXPECT_EQ(content_id(trim(lines[hit.abstract.line - 1])), hit.abstract.id)
          << hit.abstract.source << ":" << hit.abstract.line;
    }
  }
}

TEST_F(CorpusIndex, SparseAttentionRanksTheAbstractSayingItMostFirst) {
  // The abstract whose text says "sparse attention" most often.
  std::optional<CorpusLine> best;
  std::size_t best_count = 0;
  for (const auto& l : corpus_abstracts()) {
    std::size_t n = count_occurrences(lower(l.raw), "sparse attention");
    if (n > best_count) best_count = n, best = l;
  }
  ASSERT_TRUE(best.has_value()) << "the corpus never says 'sparse attention'";

  auto results = Index::open(index_dir()).search("sparse attention");
  ASSERT_FALSE(results.hits.empty());
  const Hit& first = results.hits[0];
  EXPECT_NE(lower(first.abstract.text).find("parse attention"), std::string::npos)
      << first.abstract.text;
  EXPECT_EQ(first.abstract.id, best->id()) << first.abstract.source << ":" << first.abstract.line;
  EXPECT_EQ(first.rank, 1u);
}

// --explain's per-term weights add up to the score, with title: terms and with
// the opt-in query-time title boost (whose explanation once scaled every title
// term by title_weight, user's title: words included).
TEST_F(CorpusIndex, ExplanationWeightsAddUpToTheScore) {
  auto index = Index::open(index_dir());
  for (double title_weight : {0.0, 0.5}) {
    for (const char* query : {"sparse attention", "title:attention sparse", "title:attention"}) {
      SearchOptions options;
      options.explain = true;
      options.ranking.title_weight = title_weight;
      auto results = index.search(query, options);
      ASSERT_FALSE(results.hits.empty()) << query;
      for (const Hit& hit : results.hits) {
        double sum = 0;
        for (const auto& w : hit.explanation) sum += w.weight;
        EXPECT_NEAR(sum, hit.score, 1e-6) << query << " with title weight " << title_weight;
      }
    }
  }
}

TEST_F(CorpusIndex, PhraseMatchesInflections) {
  // The corpus says "large language model" (singular) somewhere; the phrase
  // "large language models" must find it, since phrases match stems.
  std::vector<CorpusLine> singular, any;
  for (const auto& l : corpus_abstracts()) {
    std::string t = lower(l.raw);
    bool has_singular = false;
    for (auto p = t.find("large language model"); p != std::string::npos;
         p = t.find("large language model", p + 1)) {
      any.push_back(l);
      char next = p + 20 < t.size() ? t[p + 20] : ' ';
      has_singular = has_singular || next != 's';
    }
    if (has_singular) singular.push_back(l);
  }
  ASSERT_FALSE(singular.empty()) << "the corpus never says 'large language model' in the singular";

  auto index = Index::open(index_dir());
  auto hits = hit_ids(index.search("\"large language models\"", literal()));
  for (const auto& l : singular) {
    EXPECT_NE(std::find(hits.begin(), hits.end(), l.id()), hits.end()) << l.file << ":" << l.line;
  }
  // And every line saying it in either number, nothing else.
  std::set<std::string> expected;
  for (const auto& l : any) expected.insert(l.id());
  EXPECT_EQ(std::set<std::string>(hits.begin(), hits.end()), expected);
  // The singular query finds the same.
  EXPECT_EQ(hit_ids(index.search("\"large language model\"", literal())), hits);

  // With the default options (acronym expansion on) the phrase finds at least
  // as much: the singular lines are still among the hits.
  auto expanded = hit_ids(index.search("\"large language models\"", {.limit = 1000}));
  for (const auto& l : singular) {
    EXPECT_NE(std::find(expanded.begin(), expanded.end(), l.id()), expanded.end())
        << l.file << ":" << l.line;
  }
}

TEST_F(CorpusIndex, SingularPhraseFindsPluralText) {
  std::set<std::string> expected;
  for (const auto& l : corpus_abstracts()) {
    if (lower(l.raw).find("hallucination detection benchmarks") != std::string::npos) {
      expected.insert(l.id());
    }
  }
  ASSERT_FALSE(expected.empty());
  auto hits =
      hit_ids(Index::open(index_dir()).search("\"hallucination detection benchmark\"", literal()));
  EXPECT_EQ(std::set<std::string>(hits.begin(), hits.end()), expected);
}

TEST_F(CorpusIndex, LatexInQueryAndTextMatch) {
  // Query-side LaTeX and diacritics fold like the text's: all spellings agree.
  auto index = Index::open(index_dir());
  auto plain = hit_ids(index.search("large language models", literal()));
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(hit_ids(index.search("Large Language Models", literal())), plain);
  EXPECT_EQ(hit_ids(index.search("LLMs", literal())), hit_ids(index.search("llm", literal())));
  EXPECT_EQ(hit_ids(index.search("LLMs", literal())), hit_ids(index.search("LLM", literal())));
}

TEST_F(CorpusIndex, OffsetAndLimitPageThroughTheSameRanking) {
  auto index = Index::open(index_dir());
  for (const char* query : {"model", "sparse attention", "web agents"}) {
    SCOPED_TRACE(query);
    auto all = index.search(query, {.limit = 1000});
    ASSERT_GE(all.hits.size(), 3u);
    for (std::size_t i = 0; i < all.hits.size(); ++i) {
      EXPECT_EQ(all.hits[i].rank, i + 1);
      if (i > 0) {
        EXPECT_LE(all.hits[i].score, all.hits[i - 1].score);
      }
      EXPECT_GT(all.hits[i].score, 0.0);
    }
    EXPECT_GE(all.estimated_matches, all.hits.size());

    auto two = index.search(query, {.limit = 2});
    auto second = index.search(query, {.limit = 1, .offset = 1});
    ASSERT_EQ(two.hits.size(), 2u);
    ASSERT_EQ(second.hits.size(), 1u);
    EXPECT_EQ(second.hits[0].abstract.id, two.hits[1].abstract.id);
    EXPECT_EQ(second.hits[0].rank, 2u);
    EXPECT_DOUBLE_EQ(second.hits[0].score, two.hits[1].score);

    // Pages of 2 put together are the whole ranking.
    std::vector<std::string> paged;
    for (std::size_t off = 0; off < all.hits.size(); off += 2) {
      for (const auto& h : index.search(query, {.limit = 2, .offset = off}).hits)
        paged.push_back(h.abstract.id);
    }
    EXPECT_EQ(paged, hit_ids(all));

    EXPECT_TRUE(index.search(query, {.limit = 5, .offset = all.hits.size()}).hits.empty());
    EXPECT_TRUE(index.search(query, {.limit = 0}).hits.empty());
  }
}

TEST_F(CorpusIndex, SnippetHighlightsAreQueryWords) {
  auto index = Index::open(index_dir());
  analysis::Analyzer analyzer;
  for (const char* query : {"sparse attention", "\"large language models\"", "web agents", "LLMs",
                            "hallucination OR benchmark"}) {
    SCOPED_TRACE(query);
    const auto words = analyzer.terms(query);
    const std::set<std::string> query_terms(words.begin(), words.end());
    SearchOptions options = literal(20);
    options.snippet_chars = 120;
    auto results = index.search(query, options);
    ASSERT_FALSE(results.hits.empty());
    std::size_t highlighted = 0;
    for (const auto& hit : results.hits) {
      const Snippet& s = hit.snippet;
      EXPECT_FALSE(s.text.empty());
      std::size_t prev_end = 0;
      for (const auto& h : s.highlights) {
        ASSERT_LT(h.begin, h.end);
        ASSERT_LE(h.end, s.text.size());
        EXPECT_GE(h.begin, prev_end) << "highlights overlap or are out of order";
        prev_end = h.end;
        auto terms = analyzer.terms(s.text.substr(h.begin, h.end - h.begin));
        ASSERT_EQ(terms.size(), 1u) << "'" << s.text.substr(h.begin, h.end - h.begin) << "'";
        EXPECT_TRUE(query_terms.count(terms[0])) << terms[0] << " in " << s.text;
        ++highlighted;
      }
      // Snippets are cut from the display text.
      const std::string ellipsis = "…";
      std::string inner = s.text;
      if (inner.rfind(ellipsis, 0) == 0) inner.erase(0, ellipsis.size());
      if (inner.size() >= ellipsis.size() &&
          inner.compare(inner.size() - ellipsis.size(), ellipsis.size(), ellipsis) == 0) {
        inner.erase(inner.size() - ellipsis.size());
      }
      EXPECT_NE(hit.abstract.text.find(inner), std::string::npos) << s.text;
    }
    EXPECT_GT(highlighted, 0u);
  }
}

TEST_F(CorpusIndex, SnippetsCanBeTurnedOff) {
  auto results = Index::open(index_dir()).search("model", {.snippets = false});
  ASSERT_FALSE(results.hits.empty());
  for (const auto& hit : results.hits) {
    EXPECT_TRUE(hit.snippet.text.empty());
    EXPECT_TRUE(hit.snippet.highlights.empty());
  }
}

TEST_F(CorpusIndex, BadQueryThrowsQueryError) {
  auto index = Index::open(index_dir());
  try {
    index.search("sparse title:");
    ADD_FAILURE() << "expected QueryError";
  } catch (const QueryError& e) {
    EXPECT_EQ(e.column(), 8u);
  }
  EXPECT_THROW(index.search(""), QueryError);
}

TEST_F(CorpusIndex, SearchesFromManyThreadsAgreeWithOneThread) {
  const auto index = Index::open(index_dir());
  const std::vector<std::string> queries = {"sparse attention",   "\"large language models\"",
                                            "web -agents",        "+robot policy",
                                            "LLMs AND benchmark", "model"};
  auto fingerprint = [&](const std::string& q) {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& h : index.search(q, {.limit = 20}).hits)
      out.emplace_back(h.abstract.id, h.score);
    return out;
  };
  std::map<std::string, std::vector<std::pair<std::string, double>>> expected;
  for (const auto& q : queries) expected[q] = fingerprint(q);

  constexpr int kThreads = 4, kSearches = 50;
  std::vector<int> mismatches(kThreads, 0), errors(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kSearches; ++i) {
        const auto& q = queries[(t + i) % queries.size()];
        try {
          if (fingerprint(q) != expected[q]) ++mismatches[t];
        } catch (...) {
          ++errors[t];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(mismatches[t], 0) << "thread " << t;
    EXPECT_EQ(errors[t], 0) << "thread " << t;
  }
}

// Issue 16: 4 threads sharing one Index while a Writer indexed 300 small files
// (it made ~300 commits then) saw 108 to 171 of ~1,200 calls throw
// DatabaseModifiedError. (A writer that commits many times a second can still
// make Xapian read a block while it is being rewritten; docs/library.md says so.)
TEST(Issue16, ReadersNeverFailWhileAWriterIndexes) {
  TempDir dir;
  testing::write_file(dir / "first.txt", "NeurIPS 2026 Papers\nThe first abstract about aardvarks and okapis.\n");
  for (int f = 0; f < 300; ++f) {
    std::string text = "NeurIPS 2026 Papers\n";
    for (int i = 0; i < 3; ++i) {
      text += "Abstract " + std::to_string(f) + "." + std::to_string(i) + " about aardvarks, okapis and grass.\n";
    }
    testing::write_file(dir / "papers" / ("f" + std::to_string(1000 + f) + ".txt"), text);
  }
  auto writer = Writer::open(dir / "index");
  writer.index_file(dir / "first.txt");
  const auto index = Index::open(dir / "index");
  std::atomic<bool> writing{true};
  constexpr int kThreads = 4;
  std::vector<int> calls(kThreads, 0), errors(kThreads, 0);
  std::vector<std::string> last_error(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::vector<std::string> queries = {"aardvarks", "okapis aardvarks savanna grass", "\"about aardvarks\""};
      for (int i = 0; writing || i < 10; ++i) {
        try {
          index.search(queries[i % queries.size()], {.limit = 5});
          if (i % 5 == 0) index.stats();
        } catch (const std::exception& e) {
          ++errors[t];
          last_error[t] = e.what();
        }
        ++calls[t];
      }
    });
  }
  EXPECT_EQ(writer.index({dir / "papers"}), 0u);
  writing = false;
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(errors[t], 0) << "thread " << t << ", of " << calls[t] << " calls; the last: " << last_error[t];
  }
  EXPECT_EQ(index.stats().abstracts, 901u);
}

// Issue 16: a search has a time limit (SearchOptions::time_limit), past which it
// is a QueryError that names the limit; 0 is none.
TEST_F(CorpusIndex, Issue16SearchPastItsTimeLimitIsAQueryError) {
  auto index = Index::open(index_dir());
  SearchOptions options;
  options.time_limit = 1e-9;  // over before the search has parsed its query
  for (const auto syntax : {QuerySyntax::kQueryLanguage, QuerySyntax::kPlainText}) {
    options.syntax = syntax;
    try {
      index.search("sparse attention", options);
      ADD_FAILURE() << "the search ran past its time limit";
    } catch (const QueryError& e) {
      EXPECT_NE(std::string(e.what()).find("time limit of 1e-09 s"), std::string::npos) << e.what();
      EXPECT_FALSE(e.hint().empty());
    }
  }
  options.time_limit = 0;
  EXPECT_FALSE(index.search("sparse attention", options).hits.empty());
  EXPECT_EQ(SearchOptions{}.time_limit, 10);
}

// Issue 17 (the query parser's fuzzer): a correction can change how the query
// reads. In capitals, "NEAR" beside a stop word is prose; with "DIFUSION" made
// "diffusion" the query is no longer in capitals, and NEAR an operator with a
// stop word for an operand. What "did you mean" offers must be a query.
TEST(Issue17, ACorrectionThatDoesNotParseIsNotOffered) {
  TempDir dir;
  {
    auto writer = Writer::open(dir / "index");
    writer.add(testing::make_abstract("Diffusion models diffuse noise."));
    writer.add(testing::make_abstract("Diffusion policies for control."));
    writer.commit();
  }
  const auto index = Index::open(dir / "index");
  EXPECT_EQ(index.search("DIFUSION MODELS").suggestion, "diffusion MODELS");
  EXPECT_THROW(index.search("\"diffusion MODELS\" NEAR \"THE\""), QueryError);
  const SearchResults results = index.search("\"DIFUSION MODELS\" NEAR \"THE\"");
  EXPECT_EQ(results.suggestion, "");
  EXPECT_FALSE(results.notes.empty()) << "read as prose in capitals";
}

// A phrase the query can match without (in an OR, or an acronym's long form
// among other words) is checked on the best candidates only, then those without
// it weighed again (query/ranking.cc). The hits, their order and their scores
// must be exactly those of checking every candidate, which a search that counts
// every match does.
void expect_same_hits(const Index& index, const std::string& query, SearchOptions options) {
  SCOPED_TRACE(query + " limit " + std::to_string(options.limit) + " offset " + std::to_string(options.offset) +
               (options.sort == SortOrder::kDate ? " by date" : ""));
  const SearchResults fast = index.search(query, options);
  options.count_matches_up_to = SIZE_MAX;
  const SearchResults exact = index.search(query, options);
  ASSERT_EQ(hit_ids(fast), hit_ids(exact));
  for (std::size_t i = 0; i < fast.hits.size(); ++i) EXPECT_DOUBLE_EQ(fast.hits[i].score, exact.hits[i].score) << i;
}

TEST(Issue20, PhraseInAnOrRanksAsIfEveryCandidateWereChecked) {
  TempDir dir;
  // Abstracts that repeat "alpha" and "beta" apart weigh most for the words but
  // lack the phrase; a few have it; others have only "delta".
  std::string text = "NeurIPS 2026 Papers\n";
  for (int i = 0; i < 40; ++i) {
    text += "Alpha gamma beta alpha gamma beta alpha omega beta number " + std::to_string(i) + ".\n";
    if (i % 4 == 0) text += "We study the alpha beta problem once, case " + std::to_string(i) + ", with delta.\n";
    if (i % 3 == 0) text += "Delta rays and delta waves, study " + std::to_string(i) + ".\n";
    if (i % 5 == 0) text += "Large language models (LLMs) as agents, and beta agents " + std::to_string(i) + ".\n";
    if (i % 2 == 0) text += "Large models of language, language agents, trial " + std::to_string(i) + ".\n";
  }
  write_file(dir.path() / "crafted.txt", text);
  {
    auto writer = Writer::open(dir.path() / "index");
    writer.index_file(dir.path() / "crafted.txt");
  }
  const auto index = Index::open(dir.path() / "index");
  const auto only_words = index.search("\"alpha beta\" delta", {.limit = 1000, .count_matches_up_to = SIZE_MAX});
  for (const auto& h : only_words.hits) {
    const std::string t = lower(h.abstract.text);
    EXPECT_TRUE(t.find("alpha beta") != std::string::npos || t.find("delta") != std::string::npos) << h.abstract.text;
  }
  for (const char* q : {"\"alpha beta\" delta", "\"alpha beta\" OR delta", "(\"alpha beta\" AND study) OR rays",
                        "LLM agents", "LLMs", "\"alpha beta\" +study", "\"alpha beta\" delta -waves"}) {
    for (std::size_t limit : {1, 3, 10, 100}) {
      for (std::size_t offset : {0, 2}) {
        expect_same_hits(index, q, {.limit = limit, .offset = offset});
      }
    }
    expect_same_hits(index, q, {.limit = 5, .sort = SortOrder::kDate});
  }
}

TEST_F(CorpusIndex, Issue20PhraseInAnOrRanksAsIfEveryCandidateWereChecked) {
  const auto index = Index::open(index_dir());
  for (const char* q : {"\"language models\" agents", "LLM agents", "\"neural networks\" OR graph",
                        "(\"sparse attention\" AND long) OR memory", "\"reinforcement learning\" reward policy"}) {
    for (std::size_t limit : {1, 5, 20}) expect_same_hits(index, q, {.limit = limit});
    expect_same_hits(index, q, {.limit = 3, .offset = 3});
  }
}

TEST(IndexOpen, MissingIndexThrowsIndexNotFound) {
  TempDir dir;
  EXPECT_THROW(Index::open(dir / "nothing-here"), IndexNotFound);
  try {
    Index::open(dir / "nothing-here");
  } catch (const IndexNotFound& e) {
    EXPECT_NE(std::string(e.what()).find("nothing-here"), std::string::npos) << e.what();
    EXPECT_FALSE(e.hint().empty());
  }
  // Opening for reading does not create it.
  EXPECT_FALSE(fs::exists(dir / "nothing-here"));
}

TEST(IndexOpen, DirectoryThatIsNotAnIndexThrowsIndexNotFound) {
  // error.h: "There is no index at the given directory (or it is not a Xapian database)."
  TempDir dir;
  fs::create_directory(dir / "empty");
  EXPECT_THROW(Index::open(dir / "empty"), IndexNotFound);
}

// An index written with another analysis (schema 6 kept "Qwen3" one word and
// "γ" a letter) would answer with drifted terms: both sides refuse it and say how
// to rebuild, in the library's terms (the CLI's own hint: tests/cli/hints_test.cc).
TEST(IndexOpen, IndexOfAnotherSchemaVersionThrowsCorruptIndex) {
  TempDir dir;
  {
    auto files = copy_corpus(dir.path() / "corpus");
    auto writer = Writer::open(dir / "index");
    writer.index_file(files[0]);
  }
  {
    Xapian::WritableDatabase db(layout::current_generation(dir / "index").string(), Xapian::DB_OPEN);
    db.set_metadata("abstracts:schema", "6");
    db.commit();
  }
  for (const auto& open : {std::function<void()>([&] { Index::open(dir / "index"); }),
                           std::function<void()>([&] { Writer::open(dir / "index"); })}) {
    try {
      open();
      ADD_FAILURE() << "opened an index of schema 6";
    } catch (const CorruptIndex& e) {
      EXPECT_NE(std::string(e.what()).find("another version"), std::string::npos) << e.what();
      EXPECT_NE(e.hint().find("build it again with abstracts::Writer"), std::string::npos) << e.hint();
      EXPECT_EQ(e.hint().find("abstracts index"), std::string::npos) << e.hint();
    }
  }
}

}  // namespace
}  // namespace abstracts
