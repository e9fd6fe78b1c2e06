// Word positions kept in a value per abstract (engine/positions.h).
#include "engine/positions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "abstracts/error.h"

namespace abstracts {
namespace {

using Positions = std::vector<Xapian::termpos>;

Positions find(const std::string& value, const std::string& term) {
  Positions out;
  EXPECT_TRUE(positions::Value(value).find(term, out)) << term;
  return out;
}

TEST(Positions, RoundTripInOrderWhateverTheInputOrder) {
  const std::string value = positions::encode(
      {{"model", 9}, {"larg", 1}, {"model", 3}, {"languag", 2}, {"model", 300}, {"larg", 1}});
  EXPECT_EQ(find(value, "larg"), (Positions{1}));  // the same position twice counts once
  EXPECT_EQ(find(value, "languag"), (Positions{2}));
  EXPECT_EQ(find(value, "model"), (Positions{3, 9, 300}));
}

// The bytes of a value, as the index has held them since positions left Xapian's
// table: writing them faster must not change one (an index built before is read
// with the same code). A word twice at one position, varints of one to three bytes.
TEST(Positions, TheValueAsItWasWritten) {
  const std::string value = positions::encode({{"model", 9}, {"larg", 1}, {"model", 3}, {"languag", 2},
                                               {"model", 300}, {"larg", 1}, {"attent", 2000000}});
  EXPECT_EQ(value,
            std::string("\x02\x00\xf8\xe7\x03\x80\x89\x7a\x11\x96\x01\x02\xf5\xe5\x01\x01\xf7\xca\x04\x03\x06"
                        "\xa3\x02\x0f\x68\xb7\x46",
                        27));
}

TEST(Positions, ShortHashesWhileTheyAreUnique) {
  const std::string value = positions::encode({{"sparse", 1}, {"attent", 2}});
  EXPECT_EQ(value[0], 2);  // two-byte hashes
  EXPECT_LT(value.size(), 16u);
}

// 3,000 words cannot all have distinct 16-bit hashes under any of the seeds
// tried, so the value takes longer ones; every word still finds its own positions.
TEST(Positions, ManyWordsTakeLongerHashes) {
  std::vector<std::string> words;
  for (int i = 0; i < 3000; ++i) words.push_back("w" + std::to_string(i));
  std::vector<positions::Posting> postings;
  for (Xapian::termpos i = 0; i < 3000; ++i) {
    postings.emplace_back(words[i], i + 1);
    postings.emplace_back(words[i], i + 5000);
  }
  const std::string value = positions::encode(postings);
  EXPECT_GE(value[0], 3);
  for (Xapian::termpos i = 0; i < 3000; ++i) {
    EXPECT_EQ(find(value, "w" + std::to_string(i)), (Positions{i + 1, i + 5000}));
  }
}

TEST(Positions, AnAbstractWithNoWordsHasNoEntries) {
  Positions out{7};
  EXPECT_FALSE(positions::Value(positions::encode({})).find("model", out));
  EXPECT_TRUE(out.empty());
}

// Issue 16: an empty positions value (where the abstract has words) made a phrase
// search find nothing, silently.
TEST(Positions, AMissingValueIsACorruptIndex) {
  Positions out;
  EXPECT_THROW(positions::Value("").find("model", out), CorruptIndex);
}

// Issue 16: any one flipped byte is caught by the checksum.
TEST(Positions, EveryFlippedByteIsACorruptIndex) {
  const std::string value = positions::encode({{"sparse", 1}, {"attent", 2}, {"sparse", 9}});
  for (std::size_t i = 0; i < value.size(); ++i) {
    for (unsigned char flip : {0x01, 0x80}) {
      std::string bad = value;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      Positions out;
      EXPECT_THROW(positions::Value(bad).find("sparse", out), CorruptIndex) << "byte " << i;
    }
  }
}

TEST(Positions, ADamagedValueIsACorruptIndex) {
  const std::string value = positions::encode({{"a", 1}, {"b", 200}, {"b", 90000}});
  Positions out;
  EXPECT_THROW(positions::Value(value.substr(0, value.size() - 1)).find("b", out), CorruptIndex);
  std::string bad_width = value;
  bad_width[0] = 7;
  EXPECT_THROW(positions::Value(bad_width).find("a", out), CorruptIndex);
}

}  // namespace
}  // namespace abstracts
