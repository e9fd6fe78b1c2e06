// The stored abstracts: zstd with a dictionary trained at bulk builds
// (engine/compression.h), on a real on-disk index.
#include "engine/compression.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <xapian.h>
#include <zstd.h>

#include "abstracts/error.h"
#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "tests/support/test_support.h"

namespace abstracts {
namespace {

using testing::TempDir;

// `n` distinct abstracts that share words, as real ones do.
std::vector<std::string> abstracts_like(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back("We study sparse attention for large language models (LLMs), case " + std::to_string(i) +
                  ". Our method prunes " + std::to_string(i % 97) + " heads and keeps " +
                  std::to_string(i * 7 % 1000) + " tokens, with Pokémon-style curricula.");
  }
  return out;
}

// Issue 19: each shard of a cluster trains its own dictionary; one
// Decompressor reads them all, document d of a multi-database with the
// dictionary of its database, (d - 1) % n.
TEST(Compression, OneDecompressorReadsTheDocumentsOfSeveralDatabases) {
  auto samples = abstracts_like(compression::kMinSamples);
  const std::string first = compression::train_dictionary(samples);
  for (auto& s : samples) s = "Graph neural networks for molecules: " + s;
  const std::string second = compression::train_dictionary(samples);
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());
  ASSERT_NE(first, second);
  const std::string text = "We study sparse attention, case 12345, with Pokémon-style curricula.";
  const std::vector<std::string> dictionaries{first, second, std::string()};
  const compression::Decompressor all(dictionaries);
  for (unsigned docid = 1; docid <= 6; ++docid) {
    const std::string stored = compression::Compressor(dictionaries[(docid - 1) % 3]).compress(text);
    EXPECT_EQ(all.decompress(stored, docid), text) << docid;
    // Read with another database's dictionary, a frame that needs one is
    // damage, not a garbled text.
    if (docid % 3 != 0) {
      EXPECT_THROW(all.decompress(stored, docid % 6 + 1), CorruptIndex) << docid;
    }
  }
}

TEST(Compression, RoundTripsWithAndWithoutADictionary) {
  const auto samples = abstracts_like(compression::kMinSamples);
  const std::string dictionary = compression::train_dictionary(samples);
  ASSERT_FALSE(dictionary.empty());
  for (const std::string& dict : {dictionary, std::string()}) {
    compression::Compressor compressor(dict);
    compression::Decompressor decompressor(dict);
    for (const std::string& text : {samples[3], std::string(), std::string("é\x1f\x00 x", 5)}) {
      EXPECT_EQ(decompressor.decompress(compressor.compress(text)), text);
    }
  }
  // The dictionary is what makes a short abstract small.
  EXPECT_LT(compression::Compressor(dictionary).compress(samples[5]).size(),
            compression::Compressor("").compress(samples[5]).size() / 2);
}

// Without a dictionary an abstract is stored as a zstd frame of raw blocks:
// its bytes as they are, which zstd's own decoder reads and checks. The sizes
// are the edges of the frame's content-size field and of a 128 KB block.
TEST(Compression, WithoutADictionaryFramesHoldTheBytesAsTheyAre) {
  const compression::Compressor compressor("");
  const compression::Decompressor decompressor("");
  for (const std::size_t size : {0u, 1u, 255u, 256u, 65791u, 65792u, 131072u, 131073u, 300000u}) {
    std::string text(size, '\0');
    for (std::size_t i = 0; i < size; ++i) text[i] = static_cast<char>((i * 2654435761u) >> 13);
    const std::string stored = compressor.compress(text);
    EXPECT_LE(stored.size(), size + 17 + 3 * (size / 131072)) << size;
    if (size <= 131072) {  // one block
      EXPECT_NE(stored.find(text), std::string::npos) << size;
    }
    EXPECT_EQ(decompressor.decompress(stored), text) << size;
    ASSERT_EQ(ZSTD_getFrameContentSize(stored.data(), stored.size()), size);
    std::string plain(size, '\0');
    const std::size_t n = ZSTD_decompress(plain.data(), plain.size(), stored.data(), stored.size());
    ASSERT_FALSE(ZSTD_isError(n)) << size << ": " << ZSTD_getErrorName(n);
    EXPECT_EQ(n, size);
    EXPECT_EQ(plain, text) << size;
    if (size > 0) {
      // One byte changed inside is damage, caught by the frame's checksum.
      std::string damaged = stored;
      damaged[stored.size() - 4 - size / 2 - 1] ^= 0x20;
      EXPECT_THROW(decompressor.decompress(damaged), CorruptIndex) << size;
    }
  }
}

TEST(Compression, TooFewSamplesTrainNoDictionary) {
  EXPECT_TRUE(compression::train_dictionary(abstracts_like(compression::kMinSamples - 1)).empty());
}

TEST(Compression, DamagedDataIsACorruptIndex) {
  compression::Compressor compressor("");
  compression::Decompressor decompressor("");
  std::string stored = compressor.compress("An abstract about sparse attention.");
  EXPECT_THROW(decompressor.decompress(stored.substr(0, stored.size() / 2)), CorruptIndex);
  EXPECT_THROW(decompressor.decompress("not zstd at all"), CorruptIndex);
  EXPECT_THROW(decompressor.decompress(""), CorruptIndex);
}

// A bulk build of more abstracts than the dictionary is trained on stores the
// dictionary, and every abstract reads back as written, before and after it.
TEST(Compression, BulkBuildStoresTheDictionaryAndEveryAbstractReadsBack) {
  TempDir dir;
  const auto texts = abstracts_like(3000);
  std::string file = "NeurIPS 2026 Papers\n";
  for (const auto& t : texts) file += t + "\n";
  testing::write_file(dir / "big.txt", file);
  {
    auto writer = Writer::open(dir / "index");
    ASSERT_EQ(writer.index({dir / "big.txt"}, {}), 0u);
    Abstract late;
    late.id = "late";
    late.text = texts[1] + " Added later.";
    writer.add(late);
    writer.commit();
  }
  Xapian::Database db(layout::current_generation(dir / "index").string());
  EXPECT_GT(schema::dictionary_of(db).size(), 1000u);

  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, 3001u);
  for (std::size_t i : {0u, 1999u, 2000u, 2999u}) {
    auto hit = index.search("\"case " + std::to_string(i) + "\"").hits;
    ASSERT_FALSE(hit.empty()) << i;
    EXPECT_EQ(hit[0].abstract.text, texts[i]);
  }
  EXPECT_EQ(index.get("late")->text, texts[1] + " Added later.");
}

}  // namespace
}  // namespace abstracts
