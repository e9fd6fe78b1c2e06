// Issue 19: an Index opened on a cluster file gives the answers of one index of
// the same abstracts. Here the shards are local (`auto PATH` lines), so the
// library's side of a cluster is tested without a server; tests/cli/cluster_test.cc
// runs the same over xapian-tcpsrv.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/error.h"
#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "engine/cluster.h"
#include "engine/layout.h"
#include "tests/support/corpus.h"
#include "tests/support/test_support.h"

namespace abstracts {
namespace {

using testing::TempDir;
using testing::write_file;

// The bundled corpus as one index and as three local shards.
class ClusterIndex : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    Writer::open(*dir_ / "whole").index({ABSTRACTS_CORPUS_DIR});
    for (unsigned k = 1; k <= 3; ++k) {
      Writer::open(*dir_ / ("shard-" + std::to_string(k)), WriterOptions{Shard{k, 3}}).index({ABSTRACTS_CORPUS_DIR});
    }
    write_file(*dir_ / "cluster", "auto shard-1\nauto shard-2\nauto shard-3\n");
  }
  static void TearDownTestSuite() { delete dir_; }

  static std::vector<std::pair<std::string, double>> top(const Index& index, const std::string& q,
                                                         SearchOptions options = {}) {
    options.limit = 20;
    std::vector<std::pair<std::string, double>> out;
    for (const auto& h : index.search(q, options).hits) out.emplace_back(h.abstract.id, h.score);
    return out;
  }

  static TempDir* dir_;
};

TempDir* ClusterIndex::dir_ = nullptr;

TEST_F(ClusterIndex, ShardsSplitTheCorpusByIdHash) {
  const Index whole = Index::open(*dir_ / "whole");
  std::set<std::string> seen;
  std::uint64_t total = 0;
  for (unsigned k = 1; k <= 3; ++k) {
    const Index shard = Index::open(*dir_ / ("shard-" + std::to_string(k)));
    total += shard.stats().abstracts;
    for (const auto& h : shard.search("year:2026", testing::literal(100)).hits) {
      EXPECT_EQ(cluster::shard_of(h.abstract.id, 3), k) << h.abstract.id;
      EXPECT_TRUE(seen.insert(h.abstract.id).second) << h.abstract.id << " in two shards";
    }
  }
  EXPECT_EQ(total, whole.stats().abstracts);
  EXPECT_EQ(seen.size(), whole.stats().abstracts);
}

TEST_F(ClusterIndex, EveryKindOfQueryAnswersAsOneIndex) {
  const Index whole = Index::open(*dir_ / "whole");
  const Index cluster = Index::open(*dir_ / "cluster");
  const char* queries[] = {
      "sparse attention", "LLMs", "large language models", "\"large language models\"",
      "LLMs reasoning benchmarks for agents", "\"language models\" NEAR/5 reasoning", "agents ADJ/3 mice",
      "diffus*", "title:attention", "venue:neurips diffusion", "year:2026", "reasonng about graphs",
      "(policy OR reward) AND NOT robot", "+reinforcement learning -robot", "text-only",
  };
  std::size_t found = 0;
  for (const char* q : queries) {
    const auto want = top(whole, q);
    const auto got = top(cluster, q);
    ASSERT_EQ(got.size(), want.size()) << q;
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(got[i].first, want[i].first) << q << " #" << i + 1;
      EXPECT_NEAR(got[i].second, want[i].second, 1e-6) << q << " #" << i + 1;
    }
    found += !want.empty();
  }
  EXPECT_GE(found, std::size(queries) - 1);
  const auto some = whole.search("learning", testing::literal(5)).hits;
  ASSERT_FALSE(some.empty());
  std::vector<std::string> ids{some[0].abstract.id};
  std::vector<std::string> want, got;
  for (const auto& h : whole.similar(ids).hits) want.push_back(h.abstract.id);
  for (const auto& h : cluster.similar(ids).hits) got.push_back(h.abstract.id);
  EXPECT_EQ(got, want);
  EXPECT_EQ(cluster.get(ids[0])->text, whole.get(ids[0])->text);
  EXPECT_EQ(cluster.stats().abstracts, whole.stats().abstracts);
  EXPECT_EQ(cluster.stats().terms, whole.stats().terms);
  EXPECT_EQ(cluster.acronyms().size(), whole.acronyms().size());
  const auto years = cluster.facet_counts(Facet::kYear);
  ASSERT_EQ(years.size(), 1u);
  EXPECT_EQ(years[0].abstracts, whole.stats().abstracts);
}

TEST_F(ClusterIndex, AShardKeepsItsSettingAndRefusesOthers) {
  const auto shard = *dir_ / "shard-1";
  EXPECT_THROW(Writer::open(shard), Error);                                 // none
  EXPECT_THROW(Writer::open(shard, WriterOptions{Shard{2, 3}}), Error);     // another
  EXPECT_THROW(Writer::open(*dir_ / "whole", WriterOptions{Shard{1, 3}}), Error);
  EXPECT_THROW(Writer::open(*dir_ / "new", WriterOptions{Shard{4, 3}}), Error);
  EXPECT_THROW(Writer::open(*dir_ / "new", WriterOptions{Shard{0, 3}}), Error);
  Writer writer = Writer::open(shard, WriterOptions{Shard{1, 3}});
  // Writer::add keeps to the shard too.
  Abstract a;
  a.id = "not-here";
  for (int i = 0; cluster::shard_of(a.id, 3) == 1; ++i) a.id = "not-here-" + std::to_string(i);
  a.text = "An abstract of another shard.";
  EXPECT_THROW(writer.add(a), Error);
}

TEST_F(ClusterIndex, AShardKeepsXapianPositionsAndALocalIndexDoesNot) {
  auto has_positions = [](const std::filesystem::path& dir) {
    Xapian::Database db(layout::current_generation(dir).string());
    return db.has_positions();
  };
  EXPECT_TRUE(has_positions(*dir_ / "shard-1"));
  EXPECT_FALSE(has_positions(*dir_ / "whole"));
}

TEST_F(ClusterIndex, AClusterMustListEachShardOfOneSplitOnce) {
  const std::pair<const char*, const char*> cases[] = {
      {"auto shard-1\nauto shard-2\n", "lacks shard 3/3"},
      {"auto shard-1\nauto shard-1\nauto shard-3\n", "again"},
      {"auto shard-1\nauto whole\nauto shard-3\n", "is not a shard"},
      {"auto shard-1\nauto shard-2\nauto shard-3\nauto two-1\n", "of another cluster"},
  };
  Writer::open(*dir_ / "two-1", WriterOptions{Shard{1, 2}}).index({ABSTRACTS_CORPUS_DIR});
  for (const auto& [text, why] : cases) {
    write_file(*dir_ / "bad", text);
    try {
      Index::open(*dir_ / "bad");
      ADD_FAILURE() << "opened: " << text;
    } catch (const CorruptIndex& e) {
      EXPECT_TRUE(testing::contains(e.what(), why)) << e.what();
    }
  }
}

TEST_F(ClusterIndex, ARemoteShardThatIsDownIsNamedOrLeftOut) {
  // Port 1 on loopback: nothing listens there, so the connection is refused.
  write_file(*dir_ / "down", "auto shard-1\nremote 127.0.0.1:1\nauto shard-3\n");
  try {
    Index::open(*dir_ / "down");
    ADD_FAILURE() << "opened";
  } catch (const ShardUnavailable& e) {
    EXPECT_EQ(e.shard(), "127.0.0.1:1");
  }
  OpenOptions partial;
  partial.allow_partial = true;
  std::vector<std::string> left_out;
  partial.on_shard_left_out = [&](const ShardUnavailable& e) { left_out.push_back(e.shard()); };
  const Index index = Index::open(*dir_ / "down", partial);
  EXPECT_EQ(left_out, std::vector<std::string>{"127.0.0.1:1"});
  const std::uint64_t two = Index::open(*dir_ / "shard-1").stats().abstracts +
                            Index::open(*dir_ / "shard-3").stats().abstracts;
  EXPECT_EQ(index.stats().abstracts, two);
}

// Each shard compresses with a dictionary trained on its own first 2,000
// abstracts: the cluster reads every shard's with its own.
TEST(ClusterDictionaries, EachShardsAbstractsReadBack) {
  TempDir dir;
  std::string text = "Synthetic Workshop 2026 Papers\n";
  for (int i = 0; i < 4400; ++i) {
    text += "We study sparse attention for model " + std::to_string(i) + ", pruning " + std::to_string(i % 97) +
            " heads of " + std::to_string(i * 7 % 1000) + " layers with graph neural networks.\n\n";
  }
  write_file(dir / "many.txt", text);
  Writer::open(dir / "whole").index({dir / "many.txt"});
  Writer::open(dir / "one", WriterOptions{Shard{1, 2}}).index({dir / "many.txt"});
  Writer::open(dir / "two", WriterOptions{Shard{2, 2}}).index({dir / "many.txt"});
  write_file(dir / "cluster", "auto one\nauto two\n");
  const Index whole = Index::open(dir / "whole");
  const Index cluster = Index::open(dir / "cluster");
  ASSERT_EQ(cluster.stats().abstracts, 4400u);
  SearchOptions all = testing::literal(5000);
  const auto hits = cluster.search("sparse attention", all).hits;
  ASSERT_EQ(hits.size(), 4400u);
  for (std::size_t i = 0; i < hits.size(); i += 7) {
    EXPECT_EQ(hits[i].abstract.text, whole.get(hits[i].abstract.id)->text);
  }
}

}  // namespace
}  // namespace abstracts
