// Indexing and searching a real on-disk index of the bundled corpus, through the
// public API (Writer, Index). Expectations are derived from the corpus files
// themselves: counts, ids (content_id of each line) and line numbers.
#include "abstracts/index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
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
#include "tests/support/test_support.h"

namespace abstracts {
namespace {

namespace fs = std::filesystem;
using testing::hit_ids;
using testing::make_abstract;
using testing::read_file;
using testing::TempDir;
using testing::write_file;

// One abstract line of a corpus file, as the text format defines it: every
// non-blank line after the header line.
struct CorpusLine {
  fs::path file;
  std::uint32_t line = 0;  // 1-based
  std::string raw;         // trimmed
  std::string id() const { return content_id(raw); }
};

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\f\v\r");
  if (b == std::string::npos) return {};
  auto e = s.find_last_not_of(" \t\f\v\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> raw_lines(const fs::path& file) {
  std::vector<std::string> out;
  std::ifstream in(file, std::ios::binary);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<CorpusLine> abstracts_of(const fs::path& file) {
  std::vector<CorpusLine> out;
  auto lines = raw_lines(file);
  for (std::size_t i = 1; i < lines.size(); ++i) {  // line 1 is the header
    std::string t = trim(lines[i]);
    if (!t.empty()) out.push_back({file, static_cast<std::uint32_t>(i + 1), t});
  }
  return out;
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(ABSTRACTS_CORPUS_DIR)) {
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<CorpusLine> corpus_abstracts() {
  std::vector<CorpusLine> all;
  for (const auto& f : corpus_files()) {
    auto a = abstracts_of(f);
    all.insert(all.end(), a.begin(), a.end());
  }
  return all;
}

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

// The ids the index has, as seen through get(), for `lines`.
std::set<std::string> present_ids(const Index& index, const std::vector<CorpusLine>& lines) {
  std::set<std::string> ids;
  for (const auto& l : lines) {
    if (index.get(l.id())) ids.insert(l.id());
  }
  return ids;
}

// Copies the corpus files into `dir` and returns the copies, in name order.
std::vector<fs::path> copy_corpus(const fs::path& dir) {
  std::vector<fs::path> out;
  fs::create_directories(dir);
  for (const auto& f : corpus_files()) {
    fs::copy_file(f, dir / f.filename());
    out.push_back(dir / f.filename());
  }
  return out;
}

// Rewrites `file` with its lines, joined by '\n' (the corpus files end with one).
void write_lines(const fs::path& file, const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  write_file(file, text);
}

// Search options for the literal query: no acronym expansion ("LLM" <->
// "large language model"), no spelling correction.
SearchOptions literal(std::size_t limit = 1000) {
  SearchOptions o;
  o.limit = limit;
  o.expand_acronyms = false;
  o.correct_spelling = false;
  return o;
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
    index.search("sparse AND");
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

// ---------------------------------------------------------------------------
// Tests that write: each on its own index.

// The ids of an index's abstracts in Xapian document-number order, the order
// in which hits of equal score are listed.
std::vector<std::string> ids_in_docid_order(const fs::path& dir) {
  Xapian::Database db(layout::current_generation(dir).string());
  std::vector<std::string> ids;
  for (auto d = db.postlist_begin(""); d != db.postlist_end(""); ++d) {
    for (auto t = db.termlist_begin(*d); t != db.termlist_end(*d); ++t) {
      if ((*t).starts_with("Q")) ids.push_back((*t).substr(1));
    }
  }
  return ids;
}

// Building the same files twice gives the same document numbers, so ties rank
// the same (the workers once took batches in whatever order they got to them).
TEST(IndexWriter, BulkBuildIsTheSameEveryTime) {
  TempDir dir;
  std::string text = "NeurIPS 2026 Papers\n";
  for (int i = 0; i < 3000; ++i) text += "Abstract " + std::to_string(i) + " about zyzzyva ranking.\n";
  write_file(dir / "many.txt", text);
  std::vector<std::string> first;
  for (int build = 0; build < 3; ++build) {
    const fs::path index = dir / ("index" + std::to_string(build));
    IndexOptions options;
    options.threads = 3;
    ASSERT_EQ(Writer::open(index).index({dir / "many.txt"}, options), 0u);
    const auto ids = ids_in_docid_order(index);
    ASSERT_EQ(ids.size(), 3000u);
    if (build == 0) first = ids;
    EXPECT_EQ(ids, first) << "build " << build;
  }
}

TEST(IndexWriter, ReindexingIsIdempotent) {
  TempDir dir;
  const auto expected = corpus_abstracts();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR), 0u);

  std::vector<FileReport> again;
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR,
                                   [&](const FileReport& r) { again.push_back(r); }),
            0u);
  ASSERT_EQ(again.size(), corpus_files().size());
  for (const auto& r : again) {
    EXPECT_EQ(r.status, FileReport::Status::kUnchanged) << r.path;
    EXPECT_EQ(r.abstracts, abstracts_of(r.path).size()) << r.path;
    EXPECT_EQ(r.removed, 0u);
  }
  for (const auto& f : corpus_files()) {
    auto r = writer.index_file(f);
    EXPECT_EQ(r.status, FileReport::Status::kUnchanged) << f;
    EXPECT_EQ(r.abstracts, abstracts_of(f).size()) << f;
  }
  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, expected.size());
  EXPECT_EQ(index.stats().files, corpus_files().size());
  EXPECT_EQ(present_ids(index, expected).size(), expected.size());
}

TEST(IndexWriter, TouchedFileIsUnchanged) {
  TempDir dir;
  auto files = copy_corpus(dir.path() / "corpus");
  const auto expected = corpus_abstracts();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(dir / "corpus"), 0u);

  fs::last_write_time(files[0], fs::last_write_time(files[0]) + std::chrono::hours(1));
  auto r = writer.index_file(files[0]);
  EXPECT_EQ(r.status, FileReport::Status::kUnchanged);
  EXPECT_EQ(r.abstracts, abstracts_of(files[0]).size());
  EXPECT_EQ(r.removed, 0u);
  // The new time was remembered: still unchanged the next time.
  EXPECT_EQ(writer.index_file(files[0]).status, FileReport::Status::kUnchanged);

  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, expected.size());
  // No duplicate: each id once among all abstracts ("-word": everything but it).
  auto ids = hit_ids(index.search("-zyzzyvaquux", {.limit = 1000}));
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
  EXPECT_EQ(ids.size(), expected.size());
}

TEST(IndexWriter, AbstractRemovedFromFileLeavesTheIndex) {
  TempDir dir;
  const fs::path file = dir / "one.txt";
  fs::copy_file(corpus_files()[0], file);
  auto writer = Writer::open(dir / "index");
  auto first = writer.index_file(file);
  const auto before = abstracts_of(file);
  ASSERT_GE(before.size(), 3u);
  EXPECT_EQ(first.status, FileReport::Status::kIndexed);
  EXPECT_EQ(first.abstracts, before.size());

  // Drop the second abstract's line.
  const CorpusLine dropped = before[1];
  auto lines = raw_lines(file);
  lines.erase(lines.begin() + (dropped.line - 1));
  write_lines(file, lines);
  const auto after = abstracts_of(file);
  ASSERT_EQ(after.size(), before.size() - 1);

  auto r = writer.index_file(file);
  EXPECT_EQ(r.status, FileReport::Status::kIndexed);
  EXPECT_EQ(r.abstracts, after.size());
  EXPECT_EQ(r.removed, 1u);

  auto index = Index::open(dir / "index");
  EXPECT_FALSE(index.get(dropped.id()).has_value());
  EXPECT_EQ(index.stats().abstracts, after.size());
  // The abstracts after it moved up a line, and the index says so.
  for (const auto& l : after) {
    auto a = index.get(l.id());
    ASSERT_TRUE(a.has_value()) << l.line;
    EXPECT_EQ(a->line, l.line);
  }
}

TEST(IndexWriter, EditedAbstractReplacesTheOldOne) {
  TempDir dir;
  const fs::path file = dir / "one.txt";
  fs::copy_file(corpus_files()[0], file);
  auto writer = Writer::open(dir / "index");
  writer.index_file(file);
  const auto before = abstracts_of(file);
  ASSERT_GE(before.size(), 2u);

  const CorpusLine edited = before[0];
  auto lines = raw_lines(file);
  lines[edited.line - 1] = edited.raw + " We also release zyzzyvaquux.";
  write_lines(file, lines);
  const std::string new_id = content_id(lines[edited.line - 1]);
  ASSERT_NE(new_id, edited.id());

  auto r = writer.index_file(file);
  EXPECT_EQ(r.status, FileReport::Status::kIndexed);
  EXPECT_EQ(r.abstracts, before.size());
  EXPECT_EQ(r.removed, 1u);

  auto index = Index::open(dir / "index");
  EXPECT_FALSE(index.get(edited.id()).has_value());
  auto a = index.get(new_id);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->line, edited.line);
  EXPECT_EQ(index.stats().abstracts, before.size());
  EXPECT_EQ(hit_ids(index.search("zyzzyvaquux", literal())), std::vector<std::string>{new_id});
}

// The directory as the user may spell it: plain, with a trailing slash, with "./".
class FileDeletedFromDirectory : public ::testing::TestWithParam<const char*> {};

TEST_P(FileDeletedFromDirectory, LeavesTheIndex) {
  TempDir dir;
  auto files = copy_corpus(dir.path() / "corpus");
  ASSERT_GE(files.size(), 2u);
  const fs::path spelled = dir.path().string() + GetParam();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(spelled), 0u);
  const auto gone = abstracts_of(files.back());
  const auto total = corpus_abstracts().size();

  fs::remove(files.back());
  ASSERT_EQ(writer.index_directory(spelled), 0u);

  auto index = Index::open(dir / "index");
  auto stats = index.stats();
  EXPECT_EQ(stats.abstracts, total - gone.size());
  EXPECT_EQ(stats.files, files.size() - 1);
  EXPECT_TRUE(present_ids(index, gone).empty());
  const auto kept = abstracts_of(files.front());
  EXPECT_EQ(present_ids(index, kept).size(), kept.size());
}

INSTANTIATE_TEST_SUITE_P(Spellings, FileDeletedFromDirectory,
                         ::testing::Values("/corpus", "/corpus/", "/./corpus"));

TEST(IndexWriter, RemoveFileForgetsItsAbstracts) {
  TempDir dir;
  auto files = copy_corpus(dir.path() / "corpus");
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(dir / "corpus"), 0u);
  const auto gone = abstracts_of(files.front());
  EXPECT_EQ(writer.remove_file(files.front()), gone.size());
  EXPECT_EQ(writer.remove_file(files.front()), 0u);
  writer.commit();
  auto index = Index::open(dir / "index");
  EXPECT_TRUE(present_ids(index, gone).empty());
  EXPECT_EQ(index.stats().files, files.size() - 1);
  EXPECT_EQ(index.stats().abstracts, corpus_abstracts().size() - gone.size());
  // Forgotten: indexing it again indexes it afresh.
  auto r = writer.index_file(files.front());
  EXPECT_EQ(r.status, FileReport::Status::kIndexed);
  EXPECT_EQ(r.abstracts, gone.size());
}

TEST(IndexWriter, SecondWriterIsLockedOut) {
  TempDir dir;
  const auto expected = corpus_abstracts();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR), 0u);

  EXPECT_THROW(Writer::open(dir / "index"), IndexLocked);
  try {
    Writer::open(dir / "index");
  } catch (const IndexLocked& e) {
    EXPECT_FALSE(e.hint().empty());
  }

  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, expected.size());
  EXPECT_EQ(present_ids(index, expected).size(), expected.size());
  // The first writer still works.
  const std::string id = writer.add(make_abstract("A note on zyzzyvaquux."));
  writer.commit();
  EXPECT_TRUE(index.get(id).has_value());
  EXPECT_EQ(index.stats().abstracts, expected.size() + 1);
}

TEST(IndexWriter, LockIsReleasedWhenTheWriterGoes) {
  TempDir dir;
  { auto writer = Writer::open(dir / "index"); }
  EXPECT_NO_THROW(Writer::open(dir / "index"));
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
// to rebuild.
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
      EXPECT_NE(e.hint().find("abstracts index"), std::string::npos) << e.hint();
    }
  }
}

TEST(IndexWriter, InvalidUtf8FileThrowsAndChangesNothing) {
  TempDir dir;
  const auto expected = corpus_abstracts();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR), 0u);

  const fs::path bad = dir / "bad.txt";
  write_file(bad,
             "NeurIPS 2026 Papers\n\nA fine abstract about zyzzyvaquux.\n\nCaf\xe9 au lait, in "
             "Latin-1.\n");
  try {
    writer.index_file(bad);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 5u) << e.what();
    EXPECT_TRUE(fs::equivalent(e.file(), bad)) << e.file();
    EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
  }
  writer.commit();

  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, expected.size());
  EXPECT_EQ(index.stats().files, corpus_files().size());
  EXPECT_EQ(present_ids(index, expected).size(), expected.size());
  EXPECT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
}

TEST(IndexWriter, FileThatTurnsBadKeepsItsOldAbstracts) {
  TempDir dir;
  const fs::path file = dir / "one.txt";
  fs::copy_file(corpus_files()[0], file);
  const auto before = abstracts_of(file);
  auto writer = Writer::open(dir / "index");
  writer.index_file(file);

  // Drop an abstract and add a bad byte: the whole file is refused.
  auto lines = raw_lines(file);
  lines.erase(lines.begin() + (before[0].line - 1));
  lines.push_back("Bad \xff byte.");
  write_lines(file, lines);
  EXPECT_THROW(writer.index_file(file), InputError);
  writer.commit();

  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, before.size());
  EXPECT_EQ(present_ids(index, before).size(), before.size());
}

TEST(IndexWriter, DirectoryWithABadFileIndexesTheOthers) {
  TempDir dir;
  auto files = copy_corpus(dir.path() / "corpus");
  write_file(dir.path() / "corpus" / "zz_bad.txt", "NeurIPS 2026 Papers\n\nBad \xff byte.\n");
  auto writer = Writer::open(dir / "index");
  std::vector<std::string> errors;
  std::size_t failed = writer.index_directory(
      dir / "corpus", {}, [&](const std::exception& e) { errors.push_back(e.what()); });
  EXPECT_EQ(failed, 1u);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("zz_bad.txt"), std::string::npos) << errors[0];
  EXPECT_EQ(Index::open(dir / "index").stats().abstracts, corpus_abstracts().size());
}

TEST(IndexWriter, AddedAbstractComesBackWithDerivedFields) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  const std::string raw = R"(We teach Pok\'emon agents to trade. They trade well.)";
  const std::string id = writer.add(make_abstract(raw));
  EXPECT_EQ(id, content_id(raw));
  const std::string given = writer.add(make_abstract("Some text.", "my-id", "A \\textbf{bold} title"));
  EXPECT_EQ(given, "my-id");
  writer.commit();

  auto index = Index::open(dir / "index");
  auto a = index.get(id);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->id, id);
  EXPECT_EQ(a->text, "We teach Pokémon agents to trade. They trade well.");
  EXPECT_EQ(a->title, "We teach Pokémon agents to trade");
  EXPECT_EQ(a->source, "");
  EXPECT_EQ(a->line, 0u);
  EXPECT_EQ(a->venue, "");
  EXPECT_EQ(a->year, 0);
  EXPECT_EQ(hit_ids(index.search("pokemon")), std::vector<std::string>{id});
  EXPECT_EQ(hit_ids(index.search(R"(Pok\'emon)")), std::vector<std::string>{id});

  auto b = index.get("my-id");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->title, "A bold title");
  EXPECT_EQ(b->text, "Some text.");

  // Adding the same id again replaces, not duplicates.
  writer.add(make_abstract("Other text.", "my-id"));
  writer.commit();
  EXPECT_EQ(index.stats().abstracts, 2u);
  EXPECT_EQ(index.get("my-id")->text, "Other text.");
}

TEST(IndexWriter, RemoveReturnsWhetherThereWasOne) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  const std::string id = writer.add(make_abstract("An abstract about zyzzyvaquux."));
  writer.commit();
  EXPECT_TRUE(writer.remove(id));
  EXPECT_FALSE(writer.remove(id));
  EXPECT_FALSE(writer.remove("no-such-id"));
  writer.commit();
  auto index = Index::open(dir / "index");
  EXPECT_FALSE(index.get(id).has_value());
  EXPECT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
  EXPECT_EQ(index.stats().abstracts, 0u);
}

TEST(IndexWriter, StopWordsAreGapsInPhrases) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  const std::string art = writer.add(make_abstract("We beat the state of the art in zyzzyva ranking."));
  const std::string apart = writer.add(make_abstract("The state funds zyzzyva work, and the art is ours."));
  writer.commit();
  auto index = Index::open(dir / "index");
  // "of the" are not indexed; the phrase still needs state and art 3 positions apart.
  EXPECT_EQ(hit_ids(index.search("\"state of the art\"")), std::vector<std::string>{art});
  EXPECT_EQ(hit_ids(index.search("state-of-the-art")), std::vector<std::string>{art});
  EXPECT_EQ(hit_ids(index.search("\"the zyzzyva\"")).size(), 2u);
  EXPECT_THROW(index.search("the of"), QueryError);
  EXPECT_EQ(index.stats().abstracts, 2u);
  (void)apart;
}

TEST(IndexWriter, TitleWordsOutrankTheSameWordsInTheText) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  // Same words, same length: one has "zyzzyva" in its title, the other in its text.
  const std::string in_title = writer.add(make_abstract("Plain words about ranking here.", "t", "Zyzzyva ranking"));
  const std::string in_text = writer.add(make_abstract("Plain words about zyzzyva here.", "x", "Ranking words"));
  writer.commit();
  auto index = Index::open(dir / "index");
  EXPECT_EQ(hit_ids(index.search("zyzzyva")), (std::vector<std::string>{in_title, in_text}));
}

TEST(IndexWriter, ReaderSeesCommitsOnItsNextCall) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR), 0u);
  auto index = Index::open(dir / "index");
  // Use the reader once so it holds an open handle on the old revision.
  ASSERT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
  const auto count = index.stats().abstracts;

  const std::string id = writer.add(make_abstract("A study of zyzzyvaquux."));
  // Not visible before commit.
  EXPECT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
  writer.commit();

  EXPECT_EQ(hit_ids(index.search("zyzzyvaquux", literal())), std::vector<std::string>{id});
  EXPECT_TRUE(index.get(id).has_value());
  EXPECT_EQ(index.stats().abstracts, count + 1);

  ASSERT_TRUE(writer.remove(id));
  writer.commit();
  EXPECT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
}

}  // namespace
}  // namespace abstracts
