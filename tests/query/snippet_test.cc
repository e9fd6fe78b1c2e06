// Snippets (query/snippet.h): the window shown is the best by the rule the
// header states, checked against every window the rule considers, over the
// bundled corpus's abstracts.
#include "query/snippet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "engine/analysis/analyzer.h"
#include "tests/support/corpus.h"

namespace abstracts::query {
namespace {

// Characters of `s` (UTF-8).
std::size_t chars(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// distinct * 1000 + matches of the query terms among `tokens` [first, last].
long score(const std::vector<analysis::Token>& tokens, const std::set<std::string>& terms, std::size_t first,
           std::size_t last) {
  std::set<std::string> seen;
  long matches = 0;
  for (std::size_t k = first; k <= last && k < tokens.size(); ++k) {
    if (!terms.contains(tokens[k].term)) continue;
    seen.insert(tokens[k].term);
    ++matches;
  }
  return static_cast<long>(seen.size()) * 1000 + matches;
}

TEST(Snippet, ShowsTheBestWindowOfEveryOneConsidered) {
  const analysis::Analyzer analyzer;
  std::size_t cut = 0;
  for (const auto& line : testing::corpus_abstracts()) {
    const std::string& text = line.raw;
    const std::vector<analysis::Token> all = analyzer.tokenize(text);
    // Query terms: the abstract's own 3rd, 10th and 25th words, one, two and three at a time.
    std::vector<std::string> picks;
    for (std::size_t i : {2, 9, 24}) {
      if (i < all.size()) picks.push_back(all[i].term);
    }
    for (std::size_t n = 1; n <= picks.size(); ++n) {
      const std::set<std::string> terms(picks.begin(), picks.begin() + static_cast<long>(n));
      const std::unordered_set<std::string> wanted(terms.begin(), terms.end());
      const std::vector<std::string> wanted_list(terms.begin(), terms.end());
      const std::vector<analysis::Token> tokens = analyzer.tokenize(text, wanted_list);
      for (std::size_t max_chars : {60, 150, 300}) {
        SCOPED_TRACE(text.substr(0, 40) + " / " + std::to_string(n) + " terms / " + std::to_string(max_chars));
        const Snippet s = make_snippet(text, wanted, max_chars, analyzer);
        if (chars(text) <= max_chars) {
          EXPECT_EQ(s.text, text);
          continue;
        }
        ++cut;
        // Every window the rule considers: from a little before each match (or
        // the start), as many words as fit.
        long best = -1;
        for (std::size_t m = 0; m < tokens.size(); ++m) {
          if (m != 0 && !terms.contains(tokens[m].term)) continue;
          std::size_t first = m;
          while (first > 0 && chars(text.substr(tokens[first - 1].begin, tokens[m].begin - tokens[first - 1].begin)) <= 40)
            --first;
          std::size_t last = first;
          while (last + 1 < tokens.size() &&
                 chars(text.substr(tokens[first].begin, tokens[last + 1].end - tokens[first].begin)) <= max_chars)
            ++last;
          best = std::max(best, score(tokens, terms, first, last));
        }
        // The window shown: the tokens inside the snippet's text.
        std::string shown = s.text;
        const std::string ellipsis = "…";
        if (shown.starts_with(ellipsis)) shown.erase(0, ellipsis.size());
        if (shown.ends_with(ellipsis)) shown.erase(shown.size() - ellipsis.size());
        const std::size_t at = text.find(shown);
        ASSERT_NE(at, std::string::npos) << s.text;
        std::size_t first = tokens.size(), last = 0;
        for (std::size_t k = 0; k < tokens.size(); ++k) {
          if (tokens[k].begin < at || tokens[k].end > at + shown.size()) continue;
          first = std::min(first, k);
          last = k;
        }
        ASSERT_LT(first, tokens.size()) << s.text;
        EXPECT_EQ(score(tokens, terms, first, last), best) << s.text;
      }
    }
  }
  EXPECT_GT(cut, 100u);  // the windows were tested, not only whole texts
}

}  // namespace
}  // namespace abstracts::query
