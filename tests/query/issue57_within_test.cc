// Issue 57, finding 9: a search within a list of ids (SearchOptions::within_ids)
// costs time linear in the ids. An OR of one id term per abstract, filtered,
// made Xapian 1.4 weigh the whole OR again each time one of its terms ran out
// (60,000 ids: 105 s). One index filters by the ids' document numbers (a
// DocumentList); a cluster by their terms, in groups, where Xapian does not
// weigh them again. Here: the hits are those of the whole index's ranking that
// are listed, however the list is made (many ids, repeats, unknown ids, none),
// on a real index and on a cluster of its shards; so are similar()'s given
// abstracts left out, and get() takes a list. The time is measured by
// scripts/bench-memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "engine/layout.h"
#include "query/document_list.h"
#include "query/parallel_match.h"
#include "tests/support/test_support.h"

namespace abstracts::testing::issue57_within_test {
namespace {

constexpr int kAbstracts = 1000;

// kAbstracts abstracts of the text format, weighing "okapis" differently, as
// one index and as a cluster of three local shards.
class Issue57Within : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const char* const kin[] = {"quolls", "numbats", "bilbies", "wombats", "dingoes"};
    std::string text = "NeurIPS 2026 Papers\n";
    for (int i = 0; i < kAbstracts; ++i) {
      text += "Okapis" + repeated("browse", 1 + i % 7) + repeated("okapis", i % 3) + " with " + kin[i % 5] +
              " in study number " + std::to_string(i) + ".\n";
    }
    write_file(*dir_ / "okapis.txt", text);
    Writer::open(*dir_ / "whole").index({*dir_ / "okapis.txt"});
    for (unsigned k = 1; k <= 3; ++k) {
      Writer::open(*dir_ / ("shard-" + std::to_string(k)), WriterOptions{Shard{k, 3}}).index({*dir_ / "okapis.txt"});
    }
    write_file(*dir_ / "cluster", "auto shard-1\nauto shard-2\nauto shard-3\n");
    SearchOptions all;
    all.limit = kAbstracts;
    for (const auto& h : Index::open(*dir_ / "whole").search("okapis", all).hits) {
      everything_->emplace_back(h.abstract.id, h.score);
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    everything_->clear();
  }

  using Ranked = std::vector<std::pair<std::string, double>>;

  // The hits of "okapis" within `ids`, all of them.
  static Ranked within(const std::string& index, const std::vector<std::string>& ids, SearchResults* results = nullptr) {
    SearchOptions options;
    options.limit = kAbstracts;
    options.within_ids = ids;
    options.count_matches_up_to = kAbstracts;
    const SearchResults r = Index::open(*dir_ / index).search("okapis", options);
    Ranked out;
    for (const auto& h : r.hits) out.emplace_back(h.abstract.id, h.score);
    if (results != nullptr) *results = r;
    return out;
  }

  // The whole index's ranking, kept to `ids`.
  static Ranked expected(const std::vector<std::string>& ids) {
    const std::set<std::string> keep(ids.begin(), ids.end());
    Ranked out;
    for (const auto& hit : *everything_) {
      if (keep.contains(hit.first)) out.push_back(hit);
    }
    return out;
  }

  // Every `step`-th id of the whole ranking, from the `first`.
  static std::vector<std::string> every(std::size_t step, std::size_t first = 0) {
    std::vector<std::string> ids;
    for (std::size_t i = first; i < everything_->size(); i += step) ids.push_back((*everything_)[i].first);
    return ids;
  }

  static TempDir* dir_;
  static Ranked* everything_;
};

TempDir* Issue57Within::dir_ = nullptr;
Issue57Within::Ranked* Issue57Within::everything_ = new Issue57Within::Ranked;

void expect_same(const std::vector<std::pair<std::string, double>>& got,
                 const std::vector<std::pair<std::string, double>>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].first, want[i].first) << "hit " << i;
    EXPECT_NEAR(got[i].second, want[i].second, 1e-6) << "hit " << i;
  }
}

TEST_F(Issue57Within, TheIndexHasEveryAbstract) { ASSERT_EQ(everything_->size(), std::size_t{kAbstracts}); }

TEST_F(Issue57Within, ManyIdsKeepTheirHitsRankedAsInTheWholeIndex) {
  // Half the abstracts, and 40,000 ids the index does not have among them.
  std::vector<std::string> ids = every(2, 1);
  for (int i = 0; i < 40000; ++i) ids.push_back("unknown-" + std::to_string(i));
  std::rotate(ids.begin(), ids.begin() + 700, ids.end());
  SearchResults results;
  const Ranked got = within("whole", ids, &results);
  expect_same(got, expected(ids));
  EXPECT_EQ(results.estimated_matches, std::size_t{kAbstracts / 2});
  EXPECT_TRUE(results.exact_matches);
}

TEST_F(Issue57Within, AFewIdsKeepTheirHits) {
  const std::vector<std::string> ids = every(200, 3);
  ASSERT_EQ(ids.size(), 5u);
  expect_same(within("whole", ids), expected(ids));
}

TEST_F(Issue57Within, RepeatedIdsCountOnce) {
  const std::vector<std::string> once = every(300);
  std::vector<std::string> repeated_ids;
  for (int k = 0; k < 50; ++k) repeated_ids.insert(repeated_ids.end(), once.begin(), once.end());
  SearchResults results;
  expect_same(within("whole", repeated_ids, &results), expected(once));
  EXPECT_EQ(results.estimated_matches, once.size());
}

TEST_F(Issue57Within, UnknownIdsMatchNothing) {
  EXPECT_TRUE(within("whole", {"no-such-id"}).empty());
  EXPECT_TRUE(within("whole", {"", "Q", std::string(300, 'x')}).empty());
  const std::vector<std::string> one{(*everything_)[10].first, "no-such-id"};
  expect_same(within("whole", one), expected(one));
}

TEST_F(Issue57Within, AnEmptyListIsNoFilter) { expect_same(within("whole", {}), *everything_); }

TEST_F(Issue57Within, AClusterKeepsTheSameHits) {
  for (const std::vector<std::string>& ids : {every(2, 1), every(200, 3), std::vector<std::string>{"no-such-id"}}) {
    expect_same(within("cluster", ids), within("whole", ids));
  }
  // Terms a shard does not have, many: Xapian 1.4 built their OR in time
  // growing with their square (past the search's time limit).
  std::vector<std::string> many = every(2, 1);
  for (int i = 0; i < 20000; ++i) many.push_back("unknown-" + std::to_string(i));
  expect_same(within("cluster", many), expected(many));
  std::vector<std::string> repeated_ids = every(5);
  repeated_ids.insert(repeated_ids.end(), repeated_ids.begin(), repeated_ids.end());
  expect_same(within("cluster", repeated_ids), expected(every(5)));
}

// A match split over two threads (query/parallel_match.h; a phrase's is)
// copies the list of documents to its helper, and finds what one thread finds.
TEST_F(Issue57Within, ASplitMatchKeepsTheList) {
  SearchOptions options;
  options.limit = kAbstracts;
  options.within_ids = every(3, 1);
  const Index index = Index::open(*dir_ / "whole");
  const std::vector<std::string> one = hit_ids(index.search("\"browse browse\"", options));
  ASSERT_FALSE(one.empty());
  const query::ParallelPolicy policy = query::parallel_policy();
  query::set_parallel_policy({0, 64, 0});  // split whatever the index and the matches
  const std::uint64_t splits = query::ParallelMatch::splits();
  const std::vector<std::string> two = hit_ids(index.search("\"browse browse\"", options));
  query::set_parallel_policy(policy);
  EXPECT_GT(query::ParallelMatch::splits(), splits);
  EXPECT_EQ(two, one);
  const std::set<std::string> listed(options.within_ids.begin(), options.within_ids.end());
  for (const auto& id : two) EXPECT_TRUE(listed.contains(id)) << id;
}

// similar() leaves out the given abstracts, however many: on one index by
// their document numbers, on a cluster by their terms.
TEST_F(Issue57Within, SimilarLeavesOutManyGivenAbstracts) {
  SearchOptions options;
  options.limit = kAbstracts;
  options.mode = SearchMode::kLexical;
  const Index index = Index::open(*dir_ / "whole");
  const std::vector<std::string> quolls = hit_ids(index.search("quolls", options));
  ASSERT_EQ(quolls.size(), std::size_t{kAbstracts / 5});
  std::vector<std::string> given;
  for (std::size_t i = 0; i < quolls.size(); i += 2) given.push_back(quolls[i]);
  const SearchResults like = index.similar(given, options);
  ASSERT_GE(like.hits.size(), quolls.size() - given.size());
  const std::set<std::string> left_out(given.begin(), given.end());
  for (std::size_t i = 0; i < like.hits.size(); ++i) {
    EXPECT_FALSE(left_out.contains(like.hits[i].abstract.id)) << i;
    // The other quolls' abstracts first.
    if (i < quolls.size() - given.size()) {
      EXPECT_TRUE(contains(like.hits[i].abstract.text, "quolls")) << i;
    }
  }
  EXPECT_EQ(hit_ids(Index::open(*dir_ / "cluster").similar(given, options)), hit_ids(like));
}

// get() of a list: each id's abstract, in order, as get(id) finds it (the CLI's
// show and export --ids ask a thousand a call).
TEST_F(Issue57Within, GetTakesAListOfIds) {
  const Index index = Index::open(*dir_ / "whole");
  const std::vector<std::string> ids{(*everything_)[7].first, "no-such-id", (*everything_)[3].first};
  const std::vector<std::optional<Abstract>> got = index.get(ids);
  ASSERT_EQ(got.size(), 3u);
  ASSERT_TRUE(got[0] && got[2]);
  EXPECT_EQ(got[0]->id, ids[0]);
  EXPECT_FALSE(got[1]);
  EXPECT_EQ(got[2]->text, index.get(ids[2])->text);
  EXPECT_TRUE(index.get(std::vector<std::string>{}).empty());
}

// What the search ran (--explain's query): one index filters by a list of
// document numbers, not by an OR of the ids' terms; a cluster by the terms on
// the right of an AND_NOT of an AND_NOT, which Xapian does not weigh again as
// they run out.
TEST_F(Issue57Within, TheFilterIsAListOfDocumentsOrTermsXapianDoesNotWeighAgain) {
  SearchOptions options;
  options.explain = true;
  options.within_ids = {(*everything_)[0].first, (*everything_)[1].first, "no-such-id"};
  const SearchResults one = Index::open(*dir_ / "whole").search("okapis", options);
  EXPECT_EQ(one.parsed, "Query((okapi FILTER PostingSource(DocumentList(2 abstracts))))");
  const SearchResults cluster = Index::open(*dir_ / "cluster").search("okapis", options);
  std::vector<std::string> terms;
  for (const auto& id : options.within_ids) terms.push_back("Q" + id);
  std::sort(terms.begin(), terms.end());
  EXPECT_EQ(cluster.parsed, "Query((okapi AND_NOT (<alldocuments> AND_NOT (" + terms[0] + " OR " + terms[1] +
                                " OR " + terms[2] + "))))");
}

// The two ways documents_of() finds the abstracts agree: each id's term, and
// every abstract's id read in order.
TEST_F(Issue57Within, LookedUpAndScannedIdsAgree) {
  const Xapian::Database db(layout::current_generation(*dir_ / "whole").string());
  std::vector<std::string> ids = every(3, 2);
  ids.push_back("no-such-id");
  ids.push_back(ids.front());
  const auto scanned = query::documents_of(db, ids, true);
  const auto looked_up = query::documents_of(db, std::vector<std::string>(ids.begin(), ids.begin() + 40), false);
  EXPECT_EQ(scanned.size(), std::size_t{kAbstracts / 3});
  EXPECT_TRUE(std::is_sorted(scanned.begin(), scanned.end()));
  // The first 40 ids' documents, looked up, are among those scanned.
  EXPECT_EQ(looked_up.size(), 40u);
  EXPECT_TRUE(std::includes(scanned.begin(), scanned.end(), looked_up.begin(), looked_up.end()));
  EXPECT_EQ(query::documents_of(db, ids, false), scanned);
}

// A DocumentList copied to another thread (serialised) lists the same documents.
TEST(Issue57DocumentList, SerialisesItsDocuments) {
  const std::vector<Xapian::docid> docs{1, 2, 3, 200, 70000, 4000000000u};
  const query::DocumentList list(docs);
  std::unique_ptr<query::DocumentList> copy(list.unserialise(list.serialise()));
  EXPECT_EQ(copy->name(), "abstracts.DocumentList");
  copy->init(Xapian::Database());
  std::vector<Xapian::docid> read;
  for (copy->next(0); !copy->at_end(); copy->next(0)) read.push_back(copy->get_docid());
  EXPECT_EQ(read, docs);
  copy->init(Xapian::Database());
  copy->skip_to(201, 0);
  ASSERT_FALSE(copy->at_end());
  EXPECT_EQ(copy->get_docid(), 70000u);
  EXPECT_THROW(list.unserialise(std::string(1, '\x80')), Xapian::SerialisationError);
}

}  // namespace
}  // namespace abstracts::testing::issue57_within_test
