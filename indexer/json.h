// JSON values as the readers take them from JSON Lines and JSON arrays
// (indexer/reader.cc): parsed by simdjson's DOM parser, read through a few
// lookups that answer as nlohmann::json, the readers' parser before it, did.
#ifndef ABSTRACTS_INDEXER_JSON_H_
#define ABSTRACTS_INDEXER_JSON_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <simdjson.h>

namespace abstracts::indexer {

// A value of a parsed JSON text; valid until its parser parses again.
using Json = simdjson::dom::element;

// Parses JSON texts, one at a time, accepting exactly the texts nlohmann::json::parse
// accepts, so that a file reads as it always did:
//  - a UTF-8 byte order mark before the value is skipped;
//  - an integer outside 64 bits is a number but no integer (nlohmann made it a double;
//    simdjson refuses it);
//  - nesting is not limited (simdjson's default stops at 1024 levels).
// Not thread-safe. simdjson takes about 15 bytes of memory a byte of text and keeps
// them for the next text: the buffers of a text over kRetainedBytes go when a
// shorter one comes, so one long record does not hold its memory through a file.
class JsonParser {
 public:
  // The value `text` holds, valid until the next parse(); nullopt if `text` is not
  // one JSON value (and white space around it).
  std::optional<Json> parse(std::string_view text);

  // Texts up to this size leave the parser's memory as it is.
  static constexpr std::size_t kRetainedBytes = 1 << 16;

 private:
  simdjson::dom::parser parser_;
  std::string rewritten_;  // a text whose out-of-range integers were made decimals
};

// The value of `key` in the object `j`; nullopt if `j` is no object or has no such
// key. A key written twice gives its last value (nlohmann kept that one).
std::optional<Json> find(Json j, std::string_view key);

inline bool contains(Json j, std::string_view key) { return find(j, key).has_value(); }

// The value of `key` in the object `j` if it is an object; nullopt otherwise.
std::optional<Json> find_object(Json j, std::string_view key);

// The value of `key` in the object `j` if it is an array; nullopt otherwise.
std::optional<simdjson::dom::array> find_array(Json j, std::string_view key);

// The string at `key`, or "" when it is missing or no string.
std::string text_of(Json j, std::string_view key);

// True for an integer that fits 64 bits, signed or not (nlohmann's
// is_number_integer()); -0 is one, 1.0 and 1e2 are not.
bool is_integer(Json j);

// An integer's value as a long long: one over LLONG_MAX wraps, as nlohmann's
// get<long long>() did. 0 for a value that is no integer.
long long integer(Json j);

// The number of elements of an array, 0 for any other value.
std::size_t array_size(Json j);

// The element `i` of an array (i < array_size(j)).
Json array_at(Json j, std::size_t i);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_JSON_H_
