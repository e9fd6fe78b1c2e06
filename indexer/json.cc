#include "indexer/json.h"

#include <algorithm>
#include <cstdint>

namespace abstracts::indexer {
namespace {

// True if the digits of an integer (no sign) are a number over `max`'s.
bool over(std::string_view digits, std::string_view max) {
  return digits.size() != max.size() ? digits.size() > max.size() : digits > max;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// `text` with ".0" after every integer literal that 64 bits do not hold, into
// `out`; false if it has none. nlohmann read such a number as a double (a 30-digit
// "year" is no year, but the record stands), simdjson refuses the whole text.
bool wide_integers_as_decimals(std::string_view text, std::string& out) {
  out.clear();
  std::size_t copied = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '"') {  // a string, up to its closing quote: no number inside counts
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      ++i;
      continue;
    }
    if (text[i] != '-' && !is_digit(text[i])) {
      ++i;
      continue;
    }
    // A number: [-]digits, then perhaps a fraction and an exponent.
    const bool negative = text[i] == '-';
    const std::size_t first = i + (negative ? 1 : 0);
    std::size_t end = first;
    while (end < text.size() && is_digit(text[end])) ++end;
    const std::string_view digits = text.substr(first, end - first);
    i = end;
    while (i < text.size() && (is_digit(text[i]) || text[i] == '.' || text[i] == 'e' || text[i] == 'E' ||
                               text[i] == '+' || text[i] == '-')) {
      ++i;
    }
    if (i == end && over(digits, negative ? "9223372036854775808" : "18446744073709551615")) {
      out.append(text.substr(copied, end - copied)).append(".0");
      copied = end;
    }
  }
  if (copied == 0) return false;
  out.append(text.substr(copied));
  return true;
}

}  // namespace

std::optional<Json> JsonParser::parse(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  // A long text's buffers (about 15 bytes a byte) go with the next short one.
  if (text.size() <= kRetainedBytes &&
      (parser_.capacity() > kRetainedBytes || parser_.max_depth() > simdjson::DEFAULT_MAX_DEPTH)) {
    parser_ = simdjson::dom::parser();
  }
  Json root;
  auto error = parser_.parse(text.data(), text.size()).get(root);
  // What simdjson refuses and nlohmann took, in whichever order the text meets it.
  bool deepened = false, rewritten = false;
  while (error != simdjson::SUCCESS) {
    if (error == simdjson::DEPTH_ERROR && !deepened) {
      deepened = true;
      // Every level of nesting takes two bytes of text at least.
      if (parser_.allocate(std::max(parser_.capacity(), text.size()), text.size() / 2 + 2) != simdjson::SUCCESS) {
        return std::nullopt;
      }
    } else if (error == simdjson::NUMBER_ERROR && !rewritten && wide_integers_as_decimals(text, rewritten_)) {
      rewritten = true;
      text = rewritten_;
    } else {
      return std::nullopt;
    }
    error = parser_.parse(text.data(), text.size()).get(root);
  }
  return root;
}

std::optional<Json> find(Json j, std::string_view key) {
  simdjson::dom::object object;
  if (j.get(object) != simdjson::SUCCESS) return std::nullopt;
  std::optional<Json> found;
  for (const simdjson::dom::key_value_pair field : object) {
    if (field.key == key) found = field.value;
  }
  return found;
}

std::optional<Json> find_object(Json j, std::string_view key) {
  const auto value = find(j, key);
  return value && value->is_object() ? value : std::nullopt;
}

std::optional<simdjson::dom::array> find_array(Json j, std::string_view key) {
  simdjson::dom::array array;
  if (const auto value = find(j, key); value && value->get(array) == simdjson::SUCCESS) return array;
  return std::nullopt;
}

std::string text_of(Json j, std::string_view key) {
  std::string_view text;
  if (const auto value = find(j, key); value && value->get(text) == simdjson::SUCCESS) return std::string(text);
  return {};
}

bool is_integer(Json j) {
  return j.type() == simdjson::dom::element_type::INT64 || j.type() == simdjson::dom::element_type::UINT64;
}

long long integer(Json j) {
  if (j.type() == simdjson::dom::element_type::INT64) return j.get_int64().value_unsafe();
  if (j.type() == simdjson::dom::element_type::UINT64) {
    return static_cast<long long>(j.get_uint64().value_unsafe());
  }
  return 0;
}

std::size_t array_size(Json j) {
  simdjson::dom::array array;
  return j.get(array) == simdjson::SUCCESS ? array.size() : 0;
}

Json array_at(Json j, std::size_t i) {
  simdjson::dom::array array;
  if (j.get(array) != simdjson::SUCCESS) return {};
  Json element;
  if (array.at(i).get(element) != simdjson::SUCCESS) return {};
  return element;
}

}  // namespace abstracts::indexer
