#include "query/snippet.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "engine/analysis/unicode_text.h"

namespace abstracts::query {
namespace {

constexpr std::string_view kEllipsis = "…";

// Characters in `s`: its bytes less its UTF-8 continuation bytes (10xxxxxx),
// counted eight at a time.
std::size_t count_chars(std::string_view s) {
  std::size_t continuation = 0, i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    // One bit a continuation byte, summed by one multiplication (std::popcount
    // is a library call without -mpopcnt).
    const std::uint64_t marks = (w & ~(w << 1) & 0x8080808080808080ull) >> 7;
    continuation += static_cast<std::size_t>((marks * 0x0101010101010101ull) >> 56);
  }
  for (; i < s.size(); ++i) continuation += (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
  return s.size() - continuation;
}

}  // namespace

Snippet make_snippet(std::string_view text, const std::unordered_set<std::string>& terms,
                     std::size_t max_chars, const analysis::Analyzer& analyzer) {
  const std::vector<std::string> wanted(terms.begin(), terms.end());
  std::vector<analysis::Token> tokens = analyzer.tokenize(text, wanted);
  std::vector<char> hit(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    hit[i] = !tokens[i].term.empty() && terms.count(tokens[i].term) != 0;
  }
  // Character offsets of each token's begin and end, for window lengths. Up to the
  // first non-ASCII byte a byte is a character; past it the bytes are counted.
  std::vector<std::size_t> char_begin(tokens.size()), char_end(tokens.size());
  {
    const std::size_t ascii_end = analysis::ascii_prefix(text);
    std::size_t byte = 0, chars = 0;
    auto advance = [&](std::size_t to) {
      chars = to <= ascii_end ? to : chars + count_chars(text.substr(byte, to - byte));
      byte = to;
      return chars;
    };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      char_begin[i] = advance(tokens[i].begin);
      char_end[i] = advance(tokens[i].end);
    }
  }

  // The window is tokens [best_first, best_last]; the whole text if it is short.
  std::size_t best_first = 0, best_last = tokens.empty() ? 0 : tokens.size() - 1;
  const bool too_long = count_chars(text) > max_chars;
  if (too_long && !tokens.empty()) {
    long best_score = -1;
    // Each matching token's term as a small number, for counting in a window.
    std::vector<std::string_view> names;
    std::vector<std::size_t> id(tokens.size(), 0);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (!hit[i]) continue;
      auto at = std::find(names.begin(), names.end(), tokens[i].term);
      id[i] = static_cast<std::size_t>(at - names.begin());
      if (at == names.end()) names.push_back(tokens[i].term);
    }
    // The window [lo, hi) slides: both its ends only move forward, each token
    // entering and leaving it once.
    std::vector<long> in_window(names.size(), 0);
    std::size_t lo = 0, hi = 0;
    long distinct = 0, matches = 0;
    auto enter = [&](std::size_t k) {
      if (!hit[k]) return;
      ++matches;
      if (in_window[id[k]]++ == 0) ++distinct;
    };
    auto leave = [&](std::size_t k) {
      if (!hit[k]) return;
      --matches;
      if (--in_window[id[k]] == 0) --distinct;
    };
    // Start a little before each match, so the match has some context before it.
    constexpr std::size_t kLeadChars = 40;
    for (std::size_t m = 0; m < tokens.size(); ++m) {
      if (!hit[m] && m != 0) continue;
      std::size_t first = m;
      while (first > 0 && char_begin[m] - char_begin[first - 1] <= kLeadChars) --first;
      for (; lo < first && lo < hi; ++lo) leave(lo);
      if (hi < first) lo = hi = first;
      for (; hi < tokens.size() && char_end[hi] - char_begin[first] <= max_chars; ++hi) enter(hi);
      const std::size_t last = hi > first ? hi - 1 : first;
      const long score = distinct * 1000 + matches;
      if (score > best_score) {
        best_score = score;
        best_first = first;
        best_last = last;
      }
    }
  }

  Snippet s;
  std::size_t begin = 0, end = text.size();
  if (!tokens.empty() && too_long) {
    // From the start of the first word (or the text), to the end of the last word
    // plus trailing punctuation up to the next space.
    begin = best_first == 0 ? 0 : tokens[best_first].begin;
    end = tokens[best_last].end;
    while (end < text.size() && text[end] != ' ') ++end;
    if (best_last + 1 < tokens.size() && end > tokens[best_last + 1].begin) end = tokens[best_last].end;
  }
  if (begin > 0) s.text += kEllipsis;
  std::size_t shift = s.text.size();
  s.text += text.substr(begin, end - begin);
  if (end < text.size()) s.text += kEllipsis;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!hit[i] || tokens[i].begin < begin || tokens[i].end > end) continue;
    s.highlights.push_back({tokens[i].begin - begin + shift, tokens[i].end - begin + shift});
  }
  return s;
}

}  // namespace abstracts::query
