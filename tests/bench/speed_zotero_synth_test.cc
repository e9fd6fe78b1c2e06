// Tests of `speed zotero-synth` (bench/speed/zotero_synth.h): a small synthetic
// library, written in the schema of a shared Zotero database (the oldest and the
// newest) from the shared arXiv abstracts, read back with the Zotero reader
// (indexer/zotero.h) item by item against the abstracts it was made of.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bench/speed/zotero_synth.h"
#include "indexer/markup.h"
#include "indexer/zotero.h"
#include "tests/support/test_support.h"

namespace abstracts::speed {
namespace zotero_synth_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kShared = ABSTRACTS_SHARED_DATA_DIR;

// The first `n` records of a gzip-compressed JSON Lines file, by the system's gzip.
std::vector<json> first_records(const fs::path& file, std::size_t n) {
  const auto result = abstracts::testing::run(
      "/bin/sh", {"-c", "gzip -dc '" + file.string() + "' | head -n " + std::to_string(n)});
  std::vector<json> out;
  for (const auto& line : abstracts::testing::lines(result.out)) out.push_back(json::parse(line));
  return out;
}

TEST(ZoteroSynth, AHundredItemsReadBackAsTheAbstractsTheyWereMadeOf) {
  const fs::path arxiv = kShared / "arxiv/arxiv_abstracts.jsonl.gz";
  const std::vector<fs::path> schemas = {kShared / "zotero/gglin001--Zotero.sqlite",
                                         kShared / "zotero/Chasing-Aurora--Paper.sqlite"};
  for (const auto& f : schemas) {
    if (!fs::exists(arxiv) || !fs::exists(f))
      GTEST_SKIP() << "the shared data is not there: " << arxiv << ", " << f;
  }
  const std::vector<json> papers = first_records(arxiv, 100);
  ASSERT_EQ(papers.size(), 100u);

  for (const fs::path& from : schemas) {
    SCOPED_TRACE(from.filename().string());
    abstracts::testing::TempDir dir;
    const fs::path out = dir / "zotero.sqlite";
    const json summary = synthesize_zotero({from, arxiv, out, 100, 20260});
    EXPECT_EQ(summary["items"], 100);
    EXPECT_GT(summary["trashed"].get<int>(), 0);
    // Trashed items with an abstract, which the reader must leave out.
    EXPECT_LT(summary["live_with_abstract"].get<int>(), summary["with_abstract"].get<int>());
    EXPECT_GT(summary["without_abstract"].get<int>(), 0);
    EXPECT_GT(summary["doi_extra_only"].get<int>(), 0);

    ASSERT_TRUE(indexer::zotero::is_zotero_database(out));
    const auto snapshot = indexer::zotero::Snapshot::take(out);
    const auto items = indexer::zotero::live_items(snapshot);
    EXPECT_EQ(items.size(), 100 - summary["trashed"].get<std::size_t>());
    std::vector<std::int64_t> ids;
    for (const auto& i : items) ids.push_back(i.item_id);
    std::size_t without = 0;
    const auto records = indexer::zotero::read_items(snapshot, ids, without);
    EXPECT_EQ(records.size(), summary["live_with_abstract"].get<std::size_t>());
    EXPECT_EQ(records.size() + without, items.size());

    std::set<std::string> types;
    std::size_t one_field = 0;
    for (const auto& r : records) {
      const json& paper = papers.at(r.line - 1);  // item i + 1 is the i-th abstract
      const std::string id = paper["_id"];
      SCOPED_TRACE(id);
      EXPECT_EQ(r.fields.title, paper["title"].get<std::string>());
      EXPECT_EQ(r.raw_text, indexer::strip_markup(paper["text"].get<std::string>()));
      EXPECT_EQ(r.fields.doi, "10.48550/arXiv." + id);
      EXPECT_EQ(r.fields.arxiv_id, id);
      EXPECT_GT(r.fields.year, 2000);
      EXPECT_FALSE(r.fields.authors.empty());
      EXPECT_EQ(r.fields.zotero_key.size(), 8u);
      const auto categories = paper["categories"].get<std::vector<std::string>>();
      for (const auto& c : categories)
        EXPECT_EQ(std::count(r.fields.tags.begin(), r.fields.tags.end(), c), 1);
      const std::string path =
          categories.front().substr(0, categories.front().find('.')) + "/" + categories.front();
      EXPECT_EQ(std::count(r.fields.collections.begin(), r.fields.collections.end(), path), 1);
      types.insert(r.fields.item_type);
      one_field += r.fields.authors.front().given.empty();
    }
    EXPECT_GE(types.size(), 2u);
    EXPECT_GT(one_field, 0u);
  }
}

}  // namespace
}  // namespace zotero_synth_test
}  // namespace abstracts::speed
