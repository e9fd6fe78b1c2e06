// Tests for the JSON readers' parser (indexer/json.h): simdjson's DOM, reading
// every text as nlohmann::json, the readers' parser before it, did. nlohmann
// stays here as the reference.
#include "indexer/json.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "indexer/reader.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer {
namespace json_test {

using abstracts::testing::TempDir;
using abstracts::testing::write_file;

// `j` as nlohmann would hold it: an object keeps the last value of a key.
nlohmann::json to_nlohmann(Json j) {
  switch (j.type()) {
    case simdjson::dom::element_type::OBJECT: {
      nlohmann::json out = nlohmann::json::object();
      simdjson::dom::object object;
      if (j.get(object) != simdjson::SUCCESS) return nullptr;
      for (const simdjson::dom::key_value_pair field : object) {
        out[std::string(field.key)] = to_nlohmann(field.value);
      }
      return out;
    }
    case simdjson::dom::element_type::ARRAY: {
      nlohmann::json out = nlohmann::json::array();
      simdjson::dom::array array;
      if (j.get(array) != simdjson::SUCCESS) return nullptr;
      for (const Json e : array) out.push_back(to_nlohmann(e));
      return out;
    }
    case simdjson::dom::element_type::STRING:
      return std::string(j.get_string().value_unsafe());
    case simdjson::dom::element_type::INT64:
      return j.get_int64().value_unsafe();
    case simdjson::dom::element_type::UINT64:
      return j.get_uint64().value_unsafe();
    case simdjson::dom::element_type::DOUBLE:
      return j.get_double().value_unsafe();
    case simdjson::dom::element_type::BOOL:
      return j.get_bool().value_unsafe();
    case simdjson::dom::element_type::NULL_VALUE:
      return nullptr;
  }
  return nullptr;
}

// What nlohmann made of `text`: its dump (which tells 1 from 1.0), or "refused".
std::string nlohmann_reading(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? "refused" : j.dump();
}

std::string our_reading(JsonParser& parser, const std::string& text) {
  const auto j = parser.parse(text);
  return j ? to_nlohmann(*j).dump() : "refused";
}

TEST(JsonParser, ReadsEveryTextAsNlohmannDid) {
  const std::vector<std::string> texts = {
      R"({"_id": "a", "text": "x"})",
      R"({"a": 1, "a": 2})",  // the last value counts
      "\xEF\xBB\xBF{\"a\": 1}",  // a byte order mark
      " \xEF\xBB\xBF{\"a\": 1}",  // not at the start: refused
      R"({"year": 18446744073709551615})",
      R"({"year": 18446744073709551616})",  // over 64 bits: a double
      R"({"year": -9223372036854775808})",
      R"({"year": -9223372036854775809})",
      R"({"year": 123456789012345678901234567890, "s": "123456789012345678901234567890"})",
      R"([1e2, -0, -0.0, 1E-400, 100000000000000000000.0, "\u00e9\ud83d\ude00", "\u0000"])",
      R"({"a": 1e400})",
      R"({"a": 01})",
      R"({"a": 01234567890123456789012})",  // a leading zero, over 64 bits: refused still
      R"({"a": "\ud800"})",
      R"({"a": "\udc00"})",
      R"({"a": "\x"})",
      "{\"a\": \"\x01\"}",
      R"({"a": 1,})",
      R"({"a": 1} x)",
      "{}\t\r\n ",
      "",
      "   ",
      R"("text")",
      std::string(2000, '[') + std::string(2000, ']'),  // deeper than simdjson's default 1,024
      std::string(1500, '[') + "12345678901234567890123" + std::string(1500, ']'),
      "{\"a\": [" + std::string(400, '9') + "]}",  // a double out of range: refused
  };
  JsonParser parser;
  for (const auto& text : texts) {
    SCOPED_TRACE(text.substr(0, 80));
    EXPECT_EQ(our_reading(parser, text), nlohmann_reading(text));
  }
}

// Random edits of real records (digits, quotes, brackets, escapes, byte order
// marks, long numbers) against nlohmann: the same texts refused, the same values
// read.
TEST(JsonParser, ReadsEditedRecordsAsNlohmannDid) {
  const std::vector<std::string> seeds = {
      R"({"_id": "2401.00001", "title": "On $\alpha$-divergences", "text": "We study \"x\" \u00e9."})",
      R"({"id": "0704.0001", "abstract": "A", "authors_parsed": [["Bal\u00e1zs", "C.", ""]], "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}], "year": 2007})",
      R"({"results": [{"abstract_inverted_index": {"We": [0], "study": [1, 3]}, "publication_year": 2021, "biblio": {"volume": null}}], "meta": {"count": 1}})",
  };
  const std::vector<std::string> pieces = {
      "0", "1", "-", ".", "e", "\"", "\\", "{", "}", "[", "]", ",", ":", " ", "\\u", "d800", "\xEF\xBB\xBF",
      "\xC3\xA9", "18446744073709551616", "-9223372036854775809", "1e400", "null", "true", "\"_id\": 1,"};
  std::mt19937 random(20260);
  JsonParser parser;
  int accepted = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text = seeds[round % seeds.size()];
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % (text.size() + 1);
      switch (random() % 3) {
        case 0:
          text.insert(at, pieces[random() % pieces.size()]);
          break;
        case 1:
          if (at < text.size()) text.erase(at, 1 + random() % 3);
          break;
        default:
          if (at < text.size()) text.replace(at, 1, pieces[random() % pieces.size()]);
      }
    }
    SCOPED_TRACE(text);
    const std::string want = nlohmann_reading(text);
    ASSERT_EQ(our_reading(parser, text), want);
    accepted += want != "refused";
  }
  EXPECT_GT(accepted, 300);  // the edits leave many texts valid, not only broken ones
}

// A long record's buffers are not kept for the short ones after it.
TEST(JsonParser, ReadsALongTextThenShortOnes) {
  JsonParser parser;
  const std::string long_text = "{\"text\": \"" + std::string(3 * JsonParser::kRetainedBytes, 'x') + "\"}";
  ASSERT_TRUE(parser.parse(long_text));
  const auto j = parser.parse(R"({"text": "short"})");
  ASSERT_TRUE(j);
  EXPECT_EQ(text_of(*j, "text"), "short");
}

TEST(JsonParser, IntegersAsNlohmannGaveThem) {
  JsonParser parser;
  const auto j = parser.parse(R"({"a": 18446744073709551615, "b": -0, "c": 1.0, "d": 12345678901234567890123})");
  ASSERT_TRUE(j);
  ASSERT_TRUE(is_integer(*find(*j, "a")));
  EXPECT_EQ(integer(*find(*j, "a")), -1);  // get<long long>() wrapped it
  EXPECT_TRUE(is_integer(*find(*j, "b")));
  EXPECT_FALSE(is_integer(*find(*j, "c")));
  EXPECT_FALSE(is_integer(*find(*j, "d")));
  EXPECT_FALSE(find(*j, "e"));
}

// Lines that simdjson alone would refuse, read as they were before it.
TEST(JsonLinesReader, ReadsLinesSimdjsonAloneWouldRefuse) {
  TempDir dir;
  const auto file = dir / "edges.jsonl";
  write_file(file, std::string(R"({"_id": "a", "text": "first"})") + "\n" +
                       "\xEF\xBB\xBF{\"_id\": \"b\", \"text\": \"a mark before the object\"}\n" +
                       R"({"_id": "c", "text": "old", "text": "new", "n": 99999999999999999999999})" + "\n" +
                       R"({"_id": 18446744073709551615, "text": "wrapped id", "deep": )" + std::string(1100, '[') +
                       std::string(1100, ']') + "}\n");
  const auto records = read_all(file);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[1].fields.id, "b");
  EXPECT_EQ(records[2].raw_text, "new");
  EXPECT_EQ(records[3].fields.id, "-1");
  EXPECT_EQ(records[3].line, 4u);
}

}  // namespace json_test
}  // namespace abstracts::indexer
