// Fuzzes the analyzer (engine/analysis/analyzer.h): tokenize(), terms() and
// fold() on any bytes. The query side hands it what the user typed, after
// display_text() and without a UTF-8 check, so invalid UTF-8 is a real input.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/analysis/analyzer.h"
#include "tests/fuzz/fuzz_check.h"

using abstracts::analysis::Analyzer;
using abstracts::analysis::Token;
using abstracts::fuzz::check;
using abstracts::fuzz::is_utf8;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Analyzer& analyzer = abstracts::analysis::thread_analyzer();

  const std::vector<Token> tokens = analyzer.tokenize(text);
  for (const auto& t : tokens) {
    check(t.begin < t.end && t.end <= text.size(), "a token's byte range lies inside the text");
    // Terms are shown (--explain, JSON), and nlohmann::json refuses invalid UTF-8.
    check(is_utf8(t.term), "a term is UTF-8, whatever the text");
    Analyzer::fold(text.substr(t.begin, t.end - t.begin));  // as the parser's stem notes do
  }
  std::vector<std::string> terms = analyzer.terms(text);
  check(terms.size() == tokens.size(), "terms() has the terms of tokenize()");
  for (std::size_t i = 0; i < terms.size(); ++i) {
    check(terms[i] == tokens[i].term, "terms() has the terms of tokenize()");
  }

  // Snippets tokenize with the query's terms only; a word with one of them must
  // come out as tokenize() makes it, or a hit loses its highlight.
  std::vector<std::string> wanted;
  for (std::size_t i = 0; i < tokens.size(); i += 2) wanted.push_back(tokens[i].term);
  const std::set<std::string> wanted_set(wanted.begin(), wanted.end());
  const std::vector<Token> partial = analyzer.tokenize(text, wanted);
  std::size_t p = 0;
  for (const auto& t : tokens) {
    if (wanted_set.count(t.term) == 0) continue;
    while (p < partial.size() && partial[p].position < t.position) ++p;
    check(p < partial.size() && partial[p].position == t.position && partial[p].term == t.term &&
              partial[p].begin == t.begin && partial[p].end == t.end,
          "tokenize(text, wanted) finds every wanted term that tokenize(text) finds");
  }

  // The parser folds whole field values (venue:, source:).
  const std::string folded = Analyzer::fold(text);
  if (is_utf8(text)) check(is_utf8(folded), "fold() of UTF-8 is UTF-8");
  return 0;
}
