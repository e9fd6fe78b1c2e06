// The bulk build's shard parts: however many shard databases the workers write
// (a new one every `part_abstracts` abstracts), the merged index holds the
// same documents, duplicates merged and a file that failed half-way left out
// across every part. (Their order may differ: the merged papers go into the last
// part; hits of equal score are ordered by date and id, not by document number.)
#include "indexer/bulk_build.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <compare>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <xapian.h>

#include "engine/layout.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer {
namespace {

namespace fs = std::filesystem;
using abstracts::testing::TempDir;
using abstracts::testing::write_file;

// Everything Xapian holds of one document: its terms with their wdf and its values.
struct Stored {
  std::vector<std::pair<std::string, Xapian::termcount>> terms;
  std::vector<std::pair<Xapian::valueno, std::string>> values;
  auto operator<=>(const Stored&) const = default;
};

// The documents of the index in `dir`, sorted.
std::vector<Stored> documents(const fs::path& dir) {
  Xapian::Database db(layout::current_generation(dir).string());
  std::vector<Stored> out;
  for (auto d = db.postlist_begin(""); d != db.postlist_end(""); ++d) {
    Stored s;
    for (auto t = db.termlist_begin(*d); t != db.termlist_end(*d); ++t) s.terms.emplace_back(*t, t.get_wdf());
    const Xapian::Document doc = db.get_document(*d);
    for (auto v = doc.values_begin(); v != doc.values_end(); ++v) s.values.emplace_back(v.get_valueno(), *v);
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A one-abstract-per-line file of `count` abstracts, numbered from `first`.
std::string abstracts_file(int first, int count) {
  static const char* const kTopics[] = {"sparse attention", "graph neural networks", "protein folding",
                                        "diffusion models", "galaxy surveys"};
  std::string text = "NeurIPS 2026 Papers\n";
  for (int i = first; i < first + count; ++i) {
    text += "Abstract " + std::to_string(i) + " studies " + kTopics[i % 5] + " with method M" +
            std::to_string(i % 37) + ". We measure " + kTopics[(i / 5) % 5] + " again.\n";
  }
  return text;
}

TEST(BulkBuild, ManyPartsMakeTheSameIndexAsOne) {
  TempDir dir;
  std::vector<fs::path> files = {dir / "a.txt", dir / "b.txt", dir / "bad.txt"};
  write_file(files[0], abstracts_file(0, 300));
  // b.txt repeats 20 of a.txt's abstracts, from the middle of the first batch
  // (256 abstracts) and so of a worker's parts: each is kept once, from b.txt.
  write_file(files[1], abstracts_file(100, 20) + abstracts_file(300, 200).substr(20));
  // bad.txt fails on its 602nd line, after its first 512 abstracts went to the
  // workers (in batches of 256).
  write_file(files[2], abstracts_file(1000, 600) + "Latin-1 caf\xe9.\n" + abstracts_file(2000, 10).substr(20));

  IndexOptions options;
  options.threads = 2;
  std::vector<std::vector<Stored>> built;
  for (Xapian::doccount part : {kPartAbstracts, Xapian::doccount{7}}) {
    const fs::path index = dir / ("index-" + std::to_string(part));
    fs::create_directories(index);
    std::vector<std::string> failed;
    bulk_build(index, files, options, {}, [&](const InputError& e) { failed.push_back(e.what()); }, part);
    ASSERT_EQ(failed.size(), 1u) << "part size " << part;
    EXPECT_NE(failed[0].find("bad.txt:602"), std::string::npos) << failed[0];
    built.push_back(documents(index));
  }
  ASSERT_EQ(built[0].size(), 500u);  // 300 + 220 - 20 repeated; nothing of bad.txt
  ASSERT_EQ(built[1].size(), built[0].size());
  for (std::size_t i = 0; i < built[0].size(); ++i) {
    EXPECT_TRUE(built[1][i] == built[0][i]) << "the " << i + 1 << "th document";
  }
}

}  // namespace
}  // namespace abstracts::indexer
