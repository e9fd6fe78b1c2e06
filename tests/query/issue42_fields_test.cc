// Issue 42: Zotero's tags and collections as query fields and facets, and an
// item's link, on abstracts added through the library.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "tests/support/test_support.h"

namespace abstracts::testing::issue42_fields_test {
namespace {

Abstract item(std::string text, std::vector<std::string> tags, std::vector<std::string> collections,
              std::string key, std::int64_t group = 0) {
  Abstract a = make_abstract(std::move(text));
  a.tags = std::move(tags);
  a.collections = std::move(collections);
  a.zotero_key = std::move(key);
  a.zotero_group = group;
  return a;
}

class Issue42Fields : public ::testing::Test {
 protected:
  void SetUp() override {
    Writer w = Writer::open(dir_.path());
    w.add(item("Okapis browse at dusk.", {"Field work", "okapi"}, {"Thesis/Chapter 2"}, "AAAA2222"));
    w.add(item("Quolls climb at night.", {"okapi"}, {"Thesis"}, "BBBB3333", 4567));
    w.add(item("Numbats eat termites.", {"Élan"}, {"Reading/Later"}, "CCCC4444"));
    w.commit();
  }
  std::vector<std::string> ids(const std::string& query) {
    std::vector<std::string> out;
    for (const auto& h : Index::open(dir_.path()).search(query).hits) out.push_back(h.abstract.zotero_key);
    std::sort(out.begin(), out.end());
    return out;
  }
  TempDir dir_;
};

TEST_F(Issue42Fields, TagsMatchCaseAndAccentsFolded) {
  EXPECT_EQ(ids("tag:okapi"), (std::vector<std::string>{"AAAA2222", "BBBB3333"}));
  EXPECT_EQ(ids("tag:\"field work\""), std::vector<std::string>{"AAAA2222"});
  EXPECT_EQ(ids("tag:elan"), std::vector<std::string>{"CCCC4444"});
  EXPECT_EQ(ids("tag:fiel*"), std::vector<std::string>{"AAAA2222"});
}

TEST_F(Issue42Fields, ACollectionMatchesItsSubCollections) {
  EXPECT_EQ(ids("collection:Thesis"), (std::vector<std::string>{"AAAA2222", "BBBB3333"}));
  EXPECT_EQ(ids("collection:\"thesis/chapter 2\""), std::vector<std::string>{"AAAA2222"});
  EXPECT_EQ(ids("collection:\"Thesis/Chapter 2/\""), std::vector<std::string>{"AAAA2222"});
  EXPECT_TRUE(ids("collection:Chapter").empty());  // a path from the top, not any part of it
  EXPECT_EQ(ids("collection:reading okapis").size(), 0u);
  EXPECT_EQ(ids("collection:reading numbats"), std::vector<std::string>{"CCCC4444"});
}

TEST_F(Issue42Fields, TagsAndCollectionsAreFacets) {
  const Index index = Index::open(dir_.path());
  const auto tags = index.facet_counts(Facet::kTag);
  ASSERT_EQ(tags.size(), 3u);
  EXPECT_EQ(tags[0].value, "okapi");
  EXPECT_EQ(tags[0].abstracts, 2u);
  const auto collections = index.facet_counts(Facet::kCollection);
  ASSERT_EQ(collections.size(), 3u);
  EXPECT_EQ(collections[0].abstracts, 1u);
}

TEST_F(Issue42Fields, AnItemKeepsItsKeyAndLink) {
  const auto hits = Index::open(dir_.path()).search("quolls").hits;
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(zotero_link(hits[0].abstract), "zotero://select/groups/4567/items/BBBB3333");
  const auto mine = Index::open(dir_.path()).search("okapis").hits;
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(zotero_link(mine[0].abstract), "zotero://select/library/items/AAAA2222");
  EXPECT_EQ(mine[0].abstract.collections, std::vector<std::string>{"Thesis/Chapter 2"});
}

}  // namespace
}  // namespace abstracts::testing::issue42_fields_test
