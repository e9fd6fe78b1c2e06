// Vectors of meaning (issue 46) through the public API: Writer::build_vectors on
// a real on-disk index of the bundled corpus, what it stores (read back with
// Xapian, engine/vectors.h's layout), and Index::search's semantic and hybrid
// modes. Training here uses few epochs and buckets: these tests check what is
// stored and how it is searched, not how good the vectors are.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/error.h"
#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "engine/layout.h"
#include "engine/neighbours.h"
#include "engine/schema.h"
#include "engine/vectors.h"
#include "tests/support/corpus.h"
#include "tests/support/test_support.h"

namespace abstracts::testing::vectors_test {
namespace {

namespace fs = std::filesystem;

// Quick to learn (a second or two under ASan) and the same every time (one thread).
VectorsOptions quick(unsigned dimensions = 100) {
  VectorsOptions o;
  o.epochs = 5;
  o.buckets = 20000;
  o.threads = 1;
  o.dimensions = dimensions;
  return o;
}

// What the index in `dir` holds of its vectors, read with Xapian through the
// stub file.
struct StoredVectors {
  std::map<std::string, std::string> values;  // abstract id -> its kVectorSlot value ("": none)
  std::string model;                          // metadata kModelKey
  std::map<std::string, std::string> words;   // metadata kWordKeyPrefix + term -> value
  bool operator==(const StoredVectors&) const = default;
};

StoredVectors stored_vectors(const fs::path& dir) {
  Xapian::Database db(dir.string());
  StoredVectors out;
  const std::string id_prefix(schema::kIdPrefix);
  for (auto d = db.postlist_begin(""); d != db.postlist_end(""); ++d) {
    const Xapian::Document doc = db.get_document(*d);
    auto t = doc.termlist_begin();
    t.skip_to(id_prefix);
    EXPECT_TRUE(t != doc.termlist_end() && (*t).starts_with(id_prefix))
        << "document " << *d << " has no id";
    if (t == doc.termlist_end()) continue;
    out.values[(*t).substr(id_prefix.size())] = doc.get_value(schema::kVectorSlot);
  }
  out.model = db.get_metadata(std::string(vectors::kModelKey));
  const std::string prefix(vectors::kWordKeyPrefix);
  for (auto k = db.metadata_keys_begin(prefix); k != db.metadata_keys_end(prefix); ++k) {
    out.words[*k] = db.get_metadata(*k);
  }
  return out;
}

// The length of a kVectorSlot value read as the unit vector it encodes (int8, x127).
double length_of(const std::string& value) {
  double sum = 0;
  for (char c : value) {
    const double x = static_cast<std::int8_t>(c) / 127.0;
    sum += x * x;
  }
  return std::sqrt(sum);
}

// An index of the bundled corpus in `dir`.
void index_corpus(const fs::path& dir) { ASSERT_EQ(Writer::open(dir).index(corpus_files()), 0u); }

// The bundled corpus indexed in `dir`, with vectors built (quick()), opened.
Index corpus_with_vectors(const fs::path& dir) {
  index_corpus(dir);
  Writer::open(dir).build_vectors(quick());
  return Index::open(dir);
}

SearchOptions in_mode(SearchMode mode, std::size_t limit = 10) {
  SearchOptions o = literal(limit);
  o.mode = mode;
  return o;
}

// Hits as (id, score), to compare two searches whole.
std::vector<std::pair<std::string, double>> ranked(const SearchResults& results) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto& h : results.hits) out.emplace_back(h.abstract.id, h.score);
  return out;
}

// Whether `line`'s abstract is among the 3 nearest its own text by meaning.
::testing::AssertionResult near_its_own_text(const Index& index, const CorpusLine& line) {
  const auto hits = hit_ids(index.search(line.raw, in_mode(SearchMode::kSemantic, 3)));
  if (std::find(hits.begin(), hits.end(), line.id()) != hits.end()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << line.id() << " is not among the 3 nearest its own text";
}

// Every file and its bytes below `dir`.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    out[fs::relative(e.path(), dir).string()] =
        e.is_regular_file() ? read_file(e.path()) : "(folder)";
  }
  return out;
}

TEST(Issue46Vectors, EveryAbstractGetsAUnitVectorOfTheModelsDimensions) {
  TempDir dir;
  const fs::path index = dir / "index";
  index_corpus(index);
  const VectorsReport report = Writer::open(index).build_vectors(quick());
  const auto expected = corpus_abstracts();
  EXPECT_EQ(report.abstracts, expected.size());
  EXPECT_EQ(report.abstracts, 57u);
  EXPECT_GT(report.words, 0u);
  EXPECT_EQ(report.training_abstracts, expected.size());
  EXPECT_GT(report.training_tokens, report.words);

  const StoredVectors stored = stored_vectors(index);
  ASSERT_EQ(stored.values.size(), expected.size());
  for (const auto& line : expected) {
    SCOPED_TRACE(line.file.filename().string() + ":" + std::to_string(line.line));
    ASSERT_EQ(stored.values.count(line.id()), 1u);
    const std::string& value = stored.values.at(line.id());
    EXPECT_EQ(value.size(), 100u);
    EXPECT_NEAR(length_of(value), 1.0, 0.03);
  }
  vectors::Model model;
  ASSERT_TRUE(vectors::decode(stored.model, model));
  EXPECT_EQ(model.dimensions, 100u);
  EXPECT_EQ(model.words, report.words);
  EXPECT_EQ(stored.words.size(), report.words);
}

TEST(Issue46Vectors, StoredVectorsReopenTheSame) {
  TempDir dir;
  const fs::path index = dir / "index";
  index_corpus(index);
  const std::string query = "attention in large language models";
  StoredVectors built;
  SearchResults found;
  {
    auto writer = Writer::open(index);
    writer.build_vectors(quick());
    built = stored_vectors(index);
    found = Index::open(index).search(query, in_mode(SearchMode::kSemantic, 20));
  }
  ASSERT_FALSE(built.model.empty());
  ASSERT_EQ(found.hits.size(), 20u);

  auto writer = Writer::open(index);
  EXPECT_TRUE(stored_vectors(index) == built)
      << "the vectors changed when the index was opened again";
  const SearchResults again = Index::open(index).search(query, in_mode(SearchMode::kSemantic, 20));
  EXPECT_EQ(ranked(again), ranked(found));
}

// Vectors are values and metadata: the words' ranking cannot change.
TEST(Issue46Vectors, SearchByWordsIsTheSameWithVectors) {
  TempDir dir;
  const fs::path index = dir / "index";
  index_corpus(index);
  const std::vector<std::string> queries = {
      "sparse attention",                                   // keywords
      "\"large language models\"",                          // a phrase
      "how do language models reason over long documents",  // a question: feedback and proximity
  };
  auto reader = Index::open(index);
  std::vector<SearchResults> before;
  for (const auto& q : queries) before.push_back(reader.search(q, {.limit = 57}));

  Writer::open(index).build_vectors(quick());
  auto reopened = Index::open(index);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    SCOPED_TRACE(queries[i]);
    ASSERT_FALSE(before[i].hits.empty());
    const SearchResults followed = reader.search(queries[i], {.limit = 57});
    const SearchResults fresh = reopened.search(queries[i], {.limit = 57});
    EXPECT_EQ(ranked(followed), ranked(before[i])) << "the reader open across the build";
    EXPECT_EQ(ranked(fresh), ranked(before[i])) << "a reader opened after it";
    EXPECT_EQ(fresh.estimated_matches, before[i].estimated_matches);
  }
}

TEST(Issue46Vectors, WithoutVectorsSearchByMeaningSaysHowToBuildThem) {
  auto index = Index::open(corpus_index());
  const auto before = ranked(index.search("sparse attention", literal()));
  ASSERT_FALSE(before.empty());
  for (SearchMode mode : {SearchMode::kSemantic, SearchMode::kHybrid}) {
    SCOPED_TRACE(mode == SearchMode::kSemantic ? "semantic" : "hybrid");
    try {
      index.search("sparse attention", in_mode(mode));
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_TRUE(contains(e.hint(), "vectors build")) << e.what() << " / hint: " << e.hint();
    }
  }
  EXPECT_EQ(ranked(index.search("sparse attention", literal())), before);
}

TEST(Issue46Vectors, AbstractsIndexedLaterGetVectorsWithoutRetraining) {
  TempDir dir;
  const fs::path index = dir / "index";
  const auto files = corpus_files();
  ASSERT_EQ(files.size(), 3u);
  auto writer = Writer::open(index);
  ASSERT_EQ(writer.index({files[0], files[1]}), 0u);
  writer.build_vectors(quick());
  const StoredVectors built = stored_vectors(index);
  ASSERT_FALSE(built.model.empty());

  ASSERT_EQ(writer.index({files[2]}), 0u);
  writer.commit();
  const StoredVectors now = stored_vectors(index);
  EXPECT_EQ(now.model, built.model) << "the model changed";
  EXPECT_TRUE(now.words == built.words) << "the word vectors changed";
  for (const auto& [id, value] : built.values) {
    EXPECT_EQ(now.values.at(id), value) << id << ": an abstract indexed before changed its vector";
  }
  const auto later = abstracts_of(files[2]);
  ASSERT_FALSE(later.empty());
  for (const auto& line : later) {
    SCOPED_TRACE("line " + std::to_string(line.line));
    ASSERT_EQ(now.values.count(line.id()), 1u);
    EXPECT_EQ(now.values.at(line.id()).size(), 100u);
    EXPECT_NEAR(length_of(now.values.at(line.id())), 1.0, 0.03);
  }

  EXPECT_TRUE(near_its_own_text(Index::open(index), later[later.size() / 2]));
}

TEST(Issue46Vectors, BuildingAgainReplacesEveryVector) {
  TempDir dir;
  const fs::path index = dir / "index";
  index_corpus(index);
  auto writer = Writer::open(index);
  writer.build_vectors(quick(100));
  const std::size_t words = stored_vectors(index).words.size();
  ASSERT_GT(words, 0u);

  const VectorsReport report = writer.build_vectors(quick(16));
  const StoredVectors stored = stored_vectors(index);
  vectors::Model model;
  ASSERT_TRUE(vectors::decode(stored.model, model));
  EXPECT_EQ(model.dimensions, 16u);
  EXPECT_EQ(report.abstracts, 57u);
  ASSERT_EQ(stored.values.size(), 57u);
  for (const auto& [id, value] : stored.values) EXPECT_EQ(value.size(), 16u) << id;
  EXPECT_EQ(stored.words.size(), report.words) << "words of the old vectors are left";
  for (const auto& [key, value] : stored.words) {
    EXPECT_EQ(value.size(), 8u + 16u) << key;  // weight and scale, then one byte a dimension
    vectors::WordVector w;
    EXPECT_TRUE(vectors::decode(value, 16, w)) << key;
  }
}

// Hybrid: each hit's score is its two parts; weight 1 is the words' ranking; the
// ranking is the same whatever the limit.
TEST(Issue46Vectors, HybridScoresAreTheirTwoPartsAndDoNotDependOnTheLimit) {
  TempDir dir;
  auto reader = corpus_with_vectors(dir / "index");
  for (const std::string query :
       {"language models", "how do language models reason over long documents"}) {
    SCOPED_TRACE(query);
    SearchOptions hybrid = in_mode(SearchMode::kHybrid, 57);
    hybrid.explain = true;
    const SearchResults mixed = reader.search(query, hybrid);
    ASSERT_FALSE(mixed.hits.empty());
    for (std::size_t i = 0; i < mixed.hits.size(); ++i) {
      const Hit& h = mixed.hits[i];
      SCOPED_TRACE("hit " + std::to_string(i + 1) + ", " + h.abstract.id);
      EXPECT_EQ(h.rank, i + 1);
      ASSERT_EQ(h.explanation.size(), 2u);
      EXPECT_EQ(h.explanation[0].term, "lexical");
      EXPECT_EQ(h.explanation[1].term, "vector");
      EXPECT_NEAR(h.explanation[0].weight + h.explanation[1].weight, h.score, 1e-9);
      if (i > 0) {
        EXPECT_GE(mixed.hits[i - 1].score, h.score) << "not sorted by score";
      }
    }

    // Weight 1: the words' order.
    const auto by_words = hit_ids(reader.search(query, literal(57)));
    ASSERT_GE(by_words.size(), 10u);
    hybrid.hybrid_weight = 1;
    const auto words_only = hit_ids(reader.search(query, hybrid));
    ASSERT_GE(words_only.size(), by_words.size());
    EXPECT_EQ(std::vector<std::string>(words_only.begin(), words_only.begin() + by_words.size()),
              by_words);
    hybrid.limit = 10;
    EXPECT_EQ(hit_ids(reader.search(query, hybrid)),
              std::vector<std::string>(by_words.begin(), by_words.begin() + 10));

    // The default weight, whatever the limit and offset.
    SearchOptions first = in_mode(SearchMode::kHybrid, 50);
    const auto all = ranked(reader.search(query, first));
    ASSERT_GE(all.size(), 10u);
    first.limit = 5;
    EXPECT_EQ(ranked(reader.search(query, first)), decltype(all)(all.begin(), all.begin() + 5));
    first.offset = 5;
    EXPECT_EQ(ranked(reader.search(query, first)),
              decltype(all)(all.begin() + 5, all.begin() + 10));
  }
}

// `abstracts stats` says whether searches by meaning have vectors, and a graph.
TEST(Issue46Vectors, StatsCountTheVectorsAndTheGraph) {
  TempDir dir;
  const fs::path index = dir / "index";
  index_corpus(index);
  EXPECT_EQ(Index::open(index).stats().vectors, 0u);
  EXPECT_EQ(Index::open(index).stats().graph, 0u);
  Writer::open(index).build_vectors(quick());
  EXPECT_EQ(Index::open(index).stats().vectors, 57u);
  EXPECT_EQ(Index::open(index).stats().graph, 57u);
  fs::remove(neighbours::graph_path(layout::current_generation(index)));
  EXPECT_EQ(Index::open(index).stats().vectors, 57u);
  EXPECT_EQ(Index::open(index).stats().graph, 0u);
}

// Each hit a hybrid search shows that the search by words found has the
// snippet that search gave it (its words highlighted, an acronym's long form
// too), and none is made when none is asked for.
TEST(Issue46Vectors, HybridHitsFoundByWordsHaveTheSnippetsTheSearchByWordsGave) {
  TempDir dir;
  auto reader = corpus_with_vectors(dir / "index");
  auto snippet_of = [](const Hit& h) {
    std::string out = h.snippet.text;
    for (const auto& l : h.snippet.highlights) out += " " + std::to_string(l.begin) + "-" + std::to_string(l.end);
    return out;
  };
  std::size_t compared = 0;
  for (const std::string query : {"language models", "LLMs", "how do language models reason over long documents"}) {
    SCOPED_TRACE(query);
    SearchOptions words;  // acronyms expanded: "LLMs" highlights "large language models" too
    words.limit = 57;
    std::map<std::string, std::string> by_words;
    for (const auto& h : reader.search(query, words).hits) by_words[h.abstract.id] = snippet_of(h);
    ASSERT_FALSE(by_words.empty());
    SearchOptions hybrid = words;
    hybrid.mode = SearchMode::kHybrid;
    hybrid.limit = 20;
    const SearchResults mixed = reader.search(query, hybrid);
    ASSERT_FALSE(mixed.hits.empty());
    for (const auto& h : mixed.hits) {
      EXPECT_FALSE(h.snippet.text.empty()) << h.abstract.id;
      if (auto w = by_words.find(h.abstract.id); w != by_words.end()) {
        EXPECT_EQ(snippet_of(h), w->second) << h.abstract.id;
        ++compared;
      }
    }
    hybrid.snippets = false;
    for (const auto& h : reader.search(query, hybrid).hits) EXPECT_TRUE(h.snippet.text.empty()) << h.abstract.id;
  }
  EXPECT_GT(compared, 20u);
}

// A hybrid search of `query` on the index in `dir`, for each of `limits`, with
// explanations: fails unless each ranking is sorted by score and has the same
// first 5 hits (ids and scores).
void expect_hybrid_ranking_whatever_the_limit(const fs::path& dir, const std::string& query,
                                              const std::vector<std::size_t>& limits) {
  auto reader = Index::open(dir);
  std::vector<std::pair<std::string, double>> top5;
  for (std::size_t limit : limits) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    SearchOptions o = in_mode(SearchMode::kHybrid, limit);
    o.explain = true;
    const SearchResults mixed = reader.search(query, o);
    ASSERT_GE(mixed.hits.size(), 5u);
    for (std::size_t i = 0; i < mixed.hits.size(); ++i) {
      const Hit& h = mixed.hits[i];
      ASSERT_EQ(h.explanation.size(), 2u);
      EXPECT_NEAR(h.explanation[0].weight + h.explanation[1].weight, h.score, 1e-9);
      if (i > 0 && mixed.hits[i - 1].score < h.score) {
        ADD_FAILURE() << "hit " << i + 1 << " (" << h.abstract.id << ", score " << h.score
                      << ") ranks below hit " << i << " (score " << mixed.hits[i - 1].score << ")";
        break;
      }
    }
    const auto first = ranked(mixed);
    const decltype(top5) five(first.begin(), first.begin() + 5);
    if (top5.empty()) top5 = five;
    EXPECT_EQ(five, top5) << "the first 5 hits changed with the limit";
  }
}

// Past the lexical hits a hybrid search mixes (query/meaning.h's kHybridDepth,
// 100), beside the corpus: 100 short abstracts about the aardvark, which its
// word ranks first, and 50 long ones about language models that name it once,
// whose vectors are far from it.
TEST(Issue46Vectors, HybridFirstHitsAreTheSameForALimitPastTheMixedHits) {
  TempDir dir;
  const fs::path index = dir / "index";
  index_corpus(index);
  {
    auto writer = Writer::open(index);
    for (int i = 0; i < 100; ++i) {
      writer.add(make_abstract("Report " + std::to_string(i) + " on the aardvark" +
                               repeated("aardvark", i % 4) + repeated("burrow", i % 3) +
                               repeated("termite", i % 5) + repeated("savanna", i % 7) + "."));
    }
    for (int i = 0; i < 50; ++i) {
      writer.add(make_abstract(
          "Study " + std::to_string(i) +
          " of large language models: attention, transformers, benchmarks and reasoning"
          " over long documents, code and retrieval, with" +
          repeated("language models", 1 + i % 3) + ", and one aardvark."));
    }
    writer.build_vectors(quick());
  }
  ASSERT_EQ(Index::open(index).search("aardvark", literal(1000)).hits.size(), 150u);
  expect_hybrid_ranking_whatever_the_limit(index, "aardvark", {5, 50, 100, 120, 200});
}

// 150 abstracts of "okapi" that its words score alike (the same words, as many
// times), and a ranking past the 100 mixed.
TEST(Issue46Vectors, HybridHitsPastTheMixedOnesAreSortedWhenTheirWordsScoreAlike) {
  TempDir dir;
  const fs::path index = dir / "index";
  index_corpus(index);
  {
    auto writer = Writer::open(index);
    for (int i = 0; i < 150; ++i)
      writer.add(make_abstract("Field notes number " + std::to_string(i) + " on the okapi."));
    writer.build_vectors(quick());
  }
  const auto by_words = ranked(Index::open(index).search("okapi", literal(1000)));
  ASSERT_EQ(by_words.size(), 150u);
  ASSERT_EQ(by_words.front().second, by_words.back().second) << "the words do not score alike";
  expect_hybrid_ranking_whatever_the_limit(index, "okapi", {5, 100, 200});
}

TEST(Issue46Vectors, EmptyIndexHasNothingToLearnFromAndStaysAsItWas) {
  TempDir dir;
  const fs::path index = dir / "index";
  auto writer = Writer::open(index);
  const auto before = snapshot(index);
  try {
    writer.build_vectors(quick());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "no abstracts")) << e.what();
    EXPECT_FALSE(e.hint().empty());
  }
  EXPECT_EQ(snapshot(index), before);
  EXPECT_TRUE(stored_vectors(index).model.empty());
}

// similar()'s default (kAuto) finds likeness by words in an index without
// vectors, and by words and meaning (as kHybrid) in one with them: the mix
// found more of SciFact's related abstracts (docs/relevance.md).
TEST(Issue46Vectors, SimilarMixesInMeaningByDefaultOnceTheIndexHasVectors) {
  TempDir tmp;
  const fs::path dir = tmp / "index";
  index_corpus(dir);
  const Index index = Index::open(dir);
  const std::string given = index.search("sparse attention").hits.at(0).abstract.id;
  SearchOptions by_default;
  by_default.explain = true;
  SearchOptions by_words = by_default;
  by_words.mode = SearchMode::kLexical;
  EXPECT_EQ(ranked(index.similar({given}, by_default)), ranked(index.similar({given}, by_words)));

  Writer::open(dir).build_vectors(quick());
  SearchOptions mixed = by_default;
  mixed.mode = SearchMode::kHybrid;
  const SearchResults auto_hits = index.similar({given}, by_default);
  EXPECT_EQ(ranked(auto_hits), ranked(index.similar({given}, mixed)));
  ASSERT_FALSE(auto_hits.hits.empty());
  ASSERT_EQ(auto_hits.hits[0].explanation.size(), 2u);
  EXPECT_EQ(auto_hits.hits[0].explanation[0].term, "lexical");
  EXPECT_EQ(auto_hits.hits[0].explanation[1].term, "vector");
  for (const auto& hit : auto_hits.hits) EXPECT_NE(hit.abstract.id, given);
  // A search's default stays words alone.
  EXPECT_EQ(ranked(index.search("sparse attention", by_default)), ranked(index.search("sparse attention", by_words)));
}

// --train-on: the word vectors are learned from the files given (up to the
// limit), and every abstract of the index still gets its vector; a file that
// cannot be read fails the build and leaves the vectors as they were.
TEST(Issue46Vectors, LearnsFromTheFilesItIsGiven) {
  TempDir tmp;
  const fs::path dir = tmp / "index";
  index_corpus(dir);
  const fs::path file = corpus_files().at(0);
  std::size_t abstracts_in_file = 0;  // its non-empty lines after the header line
  {
    std::istringstream in(read_file(file));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) abstracts_in_file += line.empty() ? 0 : 1;
  }
  VectorsOptions o = quick();
  o.train_on = {file};
  const VectorsReport r = Writer::open(dir).build_vectors(o);
  EXPECT_EQ(r.training_abstracts, abstracts_in_file);
  EXPECT_LT(r.training_abstracts, 57u);
  EXPECT_EQ(r.abstracts, 57u);
  o.max_training_abstracts = 5;
  EXPECT_EQ(Writer::open(dir).build_vectors(o).training_abstracts, 5u);
  const StoredVectors before = stored_vectors(dir);
  o.train_on = {tmp / "missing.txt"};
  EXPECT_THROW(Writer::open(dir).build_vectors(o), Error);
  EXPECT_EQ(stored_vectors(dir), before);
}

// A search by meaning is ranked by meaning: a sort by date is an error there,
// while the default mode (kAuto, by words) sorts by date as it always did.
TEST(Issue46Vectors, SortByDateIsForSearchesByWords) {
  auto index = Index::open(corpus_index());
  SearchOptions by_date = literal();
  by_date.sort = SortOrder::kDate;
  EXPECT_FALSE(index.search("attention", by_date).hits.empty());
  for (SearchMode mode : {SearchMode::kSemantic, SearchMode::kHybrid}) {
    by_date.mode = mode;
    try {
      index.search("attention", by_date);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_TRUE(contains(e.what(), "date")) << e.what();
    }
  }
}

// Vectors learned from a text that has few words: an abstract none of whose
// words has a vector gets none (the others do), and a text with no word twice
// is an Error with a hint, the vectors left as they were.
TEST(Issue46Vectors, AbstractsOfNoKnownWordGetNoVector) {
  TempDir tmp;
  const fs::path dir = tmp / "index";
  index_corpus(dir);
  const fs::path few = tmp / "few.txt";
  write_file(few, "NeurIPS 2026 Papers\nSparse attention for long contexts.\nSparse attention again.\n");
  VectorsOptions o = quick();
  o.train_on = {few};
  const VectorsReport r = Writer::open(dir).build_vectors(o);
  EXPECT_GT(r.abstracts, 0u);
  EXPECT_LT(r.abstracts, 57u);
  const StoredVectors learned = stored_vectors(dir);
  std::size_t with_vector = 0;
  for (const auto& [id, value] : learned.values) with_vector += value.empty() ? 0 : 1;
  EXPECT_EQ(with_vector, r.abstracts);

  const fs::path none_twice = tmp / "none-twice.txt";
  write_file(none_twice, "NeurIPS 2026 Papers\nOne lonely abstract about graphs.\n");
  o.train_on = {none_twice};
  try {
    Writer::open(dir).build_vectors(o);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "too little text")) << e.what();
    EXPECT_FALSE(e.hint().empty());
  }
  EXPECT_EQ(stored_vectors(dir), learned);
}

// The nearest-neighbour graph (engine/neighbours.h). `graph_of` is the
// graph file of the index in `dir`.
fs::path graph_of(const fs::path& dir) { return neighbours::graph_path(layout::current_generation(dir)); }

// Every corpus abstract's text searched by meaning (top 10), and each abstract's
// similar ones by meaning: to compare the graph's answers with reading every vector.
std::vector<std::vector<std::pair<std::string, double>>> searches_by_meaning(const fs::path& dir) {
  const Index index = Index::open(dir);
  std::vector<std::vector<std::pair<std::string, double>>> out;
  for (const auto& file : corpus_files()) {
    for (const auto& line : abstracts_of(file)) {
      out.push_back(ranked(index.search(line.raw, in_mode(SearchMode::kSemantic))));
      try {
        out.push_back(ranked(index.similar({line.id()}, in_mode(SearchMode::kSemantic))));
      } catch (const Error&) {
        out.push_back({});  // not in the index (removed)
      }
    }
  }
  return out;
}

// The same searches with the graph moved away (every vector read), then put back.
std::vector<std::vector<std::pair<std::string, double>>> searches_reading_every_vector(const fs::path& dir) {
  const fs::path graph = graph_of(dir), away = graph.string() + ".away";
  fs::rename(graph, away);
  auto out = searches_by_meaning(dir);
  fs::rename(away, graph);
  return out;
}

TEST(Issue46Vectors, GraphFindsTheNearestThatReadingEveryVectorFinds) {
  TempDir tmp;
  const fs::path dir = tmp / "index";
  index_corpus(dir);
  const VectorsReport report = Writer::open(dir).build_vectors(quick());
  EXPECT_GE(report.graph_seconds, 0.0);
  const fs::path graph = graph_of(dir);
  ASSERT_TRUE(fs::exists(graph)) << "vectors build made no graph";
  Xapian::Database db(dir.string());
  const auto stamp = neighbours::read_stamp(graph);
  ASSERT_TRUE(stamp.has_value());
  EXPECT_EQ(stamp->size, 57u);
  EXPECT_EQ(stamp->dimensions, 100u);
  EXPECT_EQ(stamp->last, db.get_lastdocid());
  const auto opened = neighbours::Graph::open(graph, db, 100);
  ASSERT_TRUE(opened) << "the graph vectors build made is not fit for its index";
  EXPECT_FALSE(neighbours::Graph::open(graph, db, 16)) << "a graph of 100 dimensions opened for 16";
  for (auto d = db.postlist_begin(""); d != db.postlist_end(""); ++d) {
    const std::string value = db.get_document(*d).get_value(schema::kVectorSlot);
    std::vector<float> q(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) q[i] = static_cast<std::int8_t>(value[i]) / 127.0f;
    const auto near = opened->nearest(q, 3);
    ASSERT_GE(near.size(), 3u);
    EXPECT_NE(std::find(near.begin(), near.begin() + 3, *d), near.begin() + 3) << "abstract " << *d << " not near itself";
  }

  const auto by_graph = searches_by_meaning(dir);
  ASSERT_EQ(by_graph.size(), 2 * 57u);
  EXPECT_EQ(by_graph, searches_reading_every_vector(dir));
}

TEST(Issue46Vectors, GraphLeavesOutAbstractsDeletedAndFindsThoseAddedAfterIt) {
  TempDir tmp;
  const fs::path dir = tmp / "index";
  const auto files = corpus_files();
  auto writer = Writer::open(dir);
  ASSERT_EQ(writer.index({files[0], files[1]}), 0u);
  writer.build_vectors(quick());
  const auto built = neighbours::read_stamp(graph_of(dir));
  ASSERT_TRUE(built.has_value());
  ASSERT_EQ(writer.index({files[2]}), 0u);
  EXPECT_EQ(writer.remove_file(files[0]), abstracts_of(files[0]).size());
  writer.commit();
  const auto now = neighbours::read_stamp(graph_of(dir));
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->last, built->last) << "the graph was built again for a few abstracts";
  EXPECT_LT(now->last, Xapian::Database(dir.string()).get_lastdocid());

  const auto by_graph = searches_by_meaning(dir);
  EXPECT_EQ(by_graph, searches_reading_every_vector(dir));
  std::set<std::string> removed;
  for (const auto& line : abstracts_of(files[0])) removed.insert(line.id());
  for (const auto& hits : by_graph) {
    for (const auto& [id, score] : hits) EXPECT_FALSE(removed.contains(id)) << id << " was removed";
  }
  const Index index = Index::open(dir);
  for (const auto& line : abstracts_of(files[2])) EXPECT_TRUE(near_its_own_text(index, line)) << "added after the graph";
}

TEST(Issue46Vectors, GraphIsBuiltAgainOnceAbstractsAddedComeToATenthOfIt) {
  TempDir tmp;
  const fs::path dir = tmp / "index";
  index_corpus(dir);
  auto writer = Writer::open(dir);
  writer.build_vectors(quick());
  // 1,100 new abstracts, each its own: corpus text and a made-up name.
  const char* syllables[] = {"ka", "lo", "mi", "nu", "pe", "ra", "si", "to", "vu", "ze"};
  std::vector<CorpusLine> lines;
  for (const auto& f : corpus_files()) {
    for (auto& l : abstracts_of(f)) lines.push_back(l);
  }
  std::string text = "NeurIPS 2026 Papers\n";
  for (int i = 0; i < 1100; ++i) {
    std::string name;
    for (int n = i + 1000; n > 0; n /= 10) name += syllables[n % 10];
    text += "We introduce " + name + ". " + lines[i % lines.size()].raw + "\n\n";
  }
  write_file(tmp / "more.txt", text);
  ASSERT_EQ(writer.index({tmp / "more.txt"}), 0u);
  const auto stamp = neighbours::read_stamp(graph_of(dir));
  ASSERT_TRUE(stamp.has_value());
  Xapian::Database db(dir.string());
  EXPECT_EQ(db.get_doccount(), 57u + 1100u);
  EXPECT_EQ(stamp->last, db.get_lastdocid()) << "the graph was not built again";
  EXPECT_EQ(stamp->size, 57u + 1100u);
  EXPECT_TRUE(neighbours::Graph::open(graph_of(dir), db, 100));
}

TEST(Issue46Vectors, DamagedGraphIsLeftUnusedAndSearchesReadEveryVector) {
  TempDir tmp;
  const fs::path dir = tmp / "index";
  index_corpus(dir);
  Writer::open(dir).build_vectors(quick());
  const fs::path graph = graph_of(dir);
  const std::string whole = read_file(graph);
  const auto reading = searches_reading_every_vector(dir);
  // hnswlib's file opens with a head of 96 bytes, then the first abstract's
  // count of links and its links. Damage to the file's parts makes it unfit;
  // a damaged link is found as it is followed, and not followed.
  struct Damage {
    std::string what, bytes;
    bool opens;
  };
  std::vector<Damage> damaged;
  damaged.push_back({"cut short by a byte", whole.substr(0, whole.size() - 1), false});
  damaged.push_back({"cut in half", whole.substr(0, whole.size() / 2), false});
  damaged.push_back({"empty", "", false});
  std::string count = whole;
  count.replace(16, 8, std::string(8, '\x7f'));
  damaged.push_back({"a count of abstracts out of range", count, false});
  damaged.push_back({"zeros", std::string(whole.size(), '\0'), false});
  std::string vector = whole;
  vector[96 + 4 + 32 * 4] ^= 0x55;  // the first abstract's vector, after its 32 links
  damaged.push_back({"a vector changed", vector, false});
  std::string links = whole;
  for (std::size_t i = 0; i < 57; ++i) {  // every abstract's first link, on the bottom layer
    links.replace(96 + i * (4 + 32 * 4 + 100 + 8) + 4, 4, std::string(4, '\xff'));
  }
  damaged.push_back({"links out of range", links, true});
  Xapian::Database db(dir.string());
  for (const auto& d : damaged) {
    SCOPED_TRACE(d.what);
    write_file(tmp / "damaged", d.bytes);
    fs::rename(tmp / "damaged", graph);  // a new file, as the Writer's
    EXPECT_EQ(static_cast<bool>(neighbours::Graph::open(graph, db, 100)), d.opens);
    EXPECT_EQ(searches_by_meaning(dir), reading);
  }
}

}  // namespace
}  // namespace abstracts::testing::vectors_test
