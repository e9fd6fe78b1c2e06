#include "engine/positions.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <xxhash.h>

#include "abstracts/error.h"

namespace abstracts::positions {
namespace {

// Layout: [width][seed] then one entry per word, then a checksum:
//   width 2-4: [hash, `width` bytes little-endian][varint byte count][positions]
//   width 0:   [varint length][the word][varint byte count][positions]
//   checksum:  the low 32 bits of XXH3-64 of all that comes before, little-endian
// Positions: the first, then the differences, as varints.
constexpr int kFullWord = 0;
constexpr int kSeedsPerWidth = 64;
constexpr std::size_t kChecksumBytes = 4;

std::uint32_t checksum(std::string_view payload) {
  return static_cast<std::uint32_t>(XXH3_64bits(payload.data(), payload.size()));
}

std::uint32_t hash(std::string_view term, unsigned seed, int width) {
  // FNV-1a, then murmur3's finaliser so every byte of the result mixes all input.
  std::uint32_t h = 2166136261u ^ (seed * 0x9e3779b1u);
  for (unsigned char c : term) {
    h ^= c;
    h *= 16777619u;
  }
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return width == 4 ? h : h & ((1u << (8 * width)) - 1);
}

[[noreturn]] void corrupt() { throw CorruptIndex("a document's word positions cannot be read"); }

std::uint32_t get_varint(std::string_view v, std::size_t& at) {
  std::uint32_t out = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (at >= v.size()) corrupt();
    const auto byte = static_cast<unsigned char>(v[at++]);
    out |= static_cast<std::uint32_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return out;
  }
  corrupt();
}

// True if no two of `hashes` (of two bytes) are equal: a bit each in a table of
// all 65,536, where sorting them was a third of encode()'s time.
bool distinct_two_byte(const std::vector<std::uint32_t>& hashes) {
  thread_local std::vector<std::uint64_t> seen(65536 / 64);
  std::size_t i = 0;
  for (; i < hashes.size(); ++i) {
    std::uint64_t& bits = seen[hashes[i] / 64];
    const std::uint64_t bit = std::uint64_t{1} << (hashes[i] % 64);
    if ((bits & bit) != 0) break;
    bits |= bit;
  }
  const bool distinct = i == hashes.size();
  for (std::size_t k = 0; k < i; ++k) seen[hashes[k] / 64] = 0;
  return distinct;
}

// A width and seed under which no two of `words` share a hash, with the words'
// hashes under them in `hashes`; {0, 0} if there is none.
std::pair<int, unsigned> choose_hash(const std::vector<std::string_view>& words, std::vector<std::uint32_t>& hashes) {
  hashes.resize(words.size());
  std::vector<std::uint32_t> sorted;
  for (int width = 2; width <= 4; ++width) {
    for (unsigned seed = 0; seed < kSeedsPerWidth; ++seed) {
      for (std::size_t i = 0; i < words.size(); ++i) hashes[i] = hash(words[i], seed, width);
      if (width == 2) {
        if (distinct_two_byte(hashes)) return {width, seed};
        continue;
      }
      sorted = hashes;
      std::sort(sorted.begin(), sorted.end());
      if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) return {width, seed};
    }
  }
  return {kFullWord, 0};
}

}  // namespace

std::string encode(std::vector<Posting> postings) {
  // The indexer hands them over sorted already, and a word's postings sharing
  // one string, which same_word() tells without reading it.
  auto same_word = [](std::string_view a, std::string_view b) {
    return a.size() == b.size() && (a.data() == b.data() || a == b);
  };
  // Most neighbours differ in their first byte, told without a call of memcmp.
  auto before = [](std::string_view a, std::string_view b) {
    if (!a.empty() && !b.empty() && a[0] != b[0]) {
      return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
    }
    return a < b;
  };
  bool sorted = true;
  for (std::size_t i = 1; i < postings.size() && sorted; ++i) {
    const Posting& a = postings[i - 1];
    const Posting& b = postings[i];
    sorted = same_word(a.first, b.first) ? a.second <= b.second : before(a.first, b.first);
  }
  if (!sorted) std::sort(postings.begin(), postings.end());
  std::vector<std::string_view> words;
  std::size_t word_bytes = 0;
  for (const auto& p : postings) {
    if (words.empty() || !same_word(words.back(), p.first)) {
      words.push_back(p.first);
      word_bytes += p.first.size();
    }
  }
  std::vector<std::uint32_t> hashes;
  const auto [width, seed] = choose_hash(words, hashes);
  // Written through a pointer into room for the longest it can be (a varint is at
  // most 5 bytes), then cut to size: appending a byte at a time checked the
  // string's capacity for every byte.
  constexpr std::size_t kMaxVarint = 5;
  const std::size_t most = 2 + kMaxVarint * postings.size() +
                           words.size() * (kMaxVarint + (width == kFullWord ? kMaxVarint : width)) +
                           (width == kFullWord ? word_bytes : 0) + kChecksumBytes;
  std::string out(most, '\0');
  char* at = out.data();
  auto put = [&at](std::uint32_t v) {
    while (v >= 0x80) {
      *at++ = static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    *at++ = static_cast<char>(v);
  };
  auto varint_bytes = [](std::uint32_t v) {
    std::size_t n = 1;
    for (; v >= 0x80; v >>= 7) ++n;
    return n;
  };
  *at++ = static_cast<char>(width);
  *at++ = static_cast<char>(seed);
  for (std::size_t i = 0, w = 0; i < postings.size(); ++w) {
    const std::string_view word = postings[i].first;
    std::size_t end = i + 1;
    while (end < postings.size() && same_word(postings[end].first, word)) ++end;
    // The same word twice at one position counts once.
    std::size_t bytes = 0;
    for (std::size_t k = i; k < end; ++k) {
      if (k > i && postings[k].second == postings[k - 1].second) continue;
      bytes += varint_bytes(postings[k].second - (k > i ? postings[k - 1].second : 0));
    }
    if (width == kFullWord) {
      put(static_cast<std::uint32_t>(word.size()));
      at = std::copy(word.begin(), word.end(), at);
    } else {
      const std::uint32_t h = hashes[w];  // words[w] is `word`
      for (int b = 0; b < width; ++b) *at++ = static_cast<char>((h >> (8 * b)) & 0xff);
    }
    put(static_cast<std::uint32_t>(bytes));
    for (std::size_t k = i; k < end; ++k) {
      if (k > i && postings[k].second == postings[k - 1].second) continue;
      put(postings[k].second - (k > i ? postings[k - 1].second : 0));
    }
    i = end;
  }
  out.resize(static_cast<std::size_t>(at - out.data()));
  const std::uint32_t sum = checksum(out);
  for (std::size_t b = 0; b < kChecksumBytes; ++b) out += static_cast<char>((sum >> (8 * b)) & 0xff);
  return out;
}

Value::Value(std::string_view value) {
  // A damaged value (a flipped byte, or none where the abstract has words) must
  // not pass for positions that are not there.
  if (value.size() < 2 + kChecksumBytes) corrupt();
  std::uint32_t sum = 0;
  for (std::size_t b = 0; b < kChecksumBytes; ++b) {
    sum |= static_cast<std::uint32_t>(static_cast<unsigned char>(value[value.size() - kChecksumBytes + b])) << (8 * b);
  }
  value.remove_suffix(kChecksumBytes);
  if (checksum(value) != sum) corrupt();
  width_ = static_cast<unsigned char>(value[0]);
  seed_ = static_cast<unsigned char>(value[1]);
  if (width_ != kFullWord && (width_ < 2 || width_ > 4)) corrupt();
  entries_ = value.substr(2);
}

bool Value::find(std::string_view term, std::vector<Xapian::termpos>& out) const {
  out.clear();
  const std::string_view value = entries_;
  const int width = width_;
  const std::uint32_t wanted = width == kFullWord ? 0 : hash(term, seed_, width);
  std::size_t at = 0;
  while (at < value.size()) {
    bool match;
    if (width == kFullWord) {
      const std::size_t length = get_varint(value, at);
      if (length > value.size() - at) corrupt();
      match = value.substr(at, length) == term;
      at += length;
    } else {
      if (value.size() - at < static_cast<std::size_t>(width)) corrupt();
      std::uint32_t h = 0;
      for (int b = 0; b < width; ++b)
        h |= static_cast<std::uint32_t>(static_cast<unsigned char>(value[at + b])) << (8 * b);
      at += static_cast<std::size_t>(width);
      match = h == wanted;
    }
    const std::size_t bytes = get_varint(value, at);
    if (bytes > value.size() - at) corrupt();
    if (!match) {
      at += bytes;
      continue;
    }
    const std::string_view deltas = value.substr(at, bytes);
    std::size_t d = 0;
    Xapian::termpos pos = 0;
    while (d < deltas.size()) {
      pos += get_varint(deltas, d);
      out.push_back(pos);
    }
    return true;
  }
  return false;
}

}  // namespace abstracts::positions
