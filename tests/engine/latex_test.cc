// Golden tests for latex_to_text: raw abstract text -> plain Unicode text.
#include "engine/analysis/latex.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::analysis {
namespace {

struct LatexCase {
  std::string_view raw;
  std::string_view expected;
};

void ExpectTable(const std::vector<LatexCase>& table) {
  for (const auto& c : table) {
    SCOPED_TRACE(::testing::Message() << "raw: \"" << c.raw << "\"");
    EXPECT_EQ(latex_to_text(c.raw), c.expected);
  }
}

TEST(LatexToText, AccentMacros) {
  ExpectTable({
      {R"(Pok\'emon)", "Pokémon"},
      {R"(\'e)", "é"},
      {R"(\'{e})", "é"},
      {R"({\'e})", "é"},
      {R"(\'E)", "É"},
      {R"(\"o)", "ö"},
      {R"(\"{o})", "ö"},
      {R"(Sch\"olkopf)", "Schölkopf"},
      {R"(Sch\"{o}lkopf)", "Schölkopf"},
      {R"(Sch{\"o}lkopf)", "Schölkopf"},
      {R"(\^a)", "â"},
      {R"(\`a)", "à"},
      {R"(\~n)", "ñ"},
      {R"(Espa\~na)", "España"},
      {R"(\c{c})", "ç"},
      {R"(Fran\c{c}ois)", "François"},
      {R"(\v{c})", "č"},
      {R"(\v{C}ech)", "Čech"},
      {R"(Erd\H{o}s)", "Erdős"},
      {R"(\ss)", "ß"},
      {R"(Gau{\ss})", "Gauß"},
      {R"(\o)", "ø"},
      {R"(Bj{\o}rn)", "Bjørn"},
      {R"(\ae)", "æ"},
      {R"(\l)", "ł"},
      {R"(Micha{\l})", "Michał"},
      // BibTeX's special characters side by side are one word, not two.
      {R"({\L}{\'o}d{\'z})", "Łódź"},
      {R"(Wa{\l}{\k{e}}sa)", "Wałęsa"},
      {R"(Stra{\ss}{\"e})", "Straßë"},
      // Inside math, as in the corpus: "The \emph{Pok\'emon theorem}".
      {R"(The \emph{Pok\'emon theorem} holds)", "The Pokémon theorem holds"},
  });
}

TEST(LatexToText, TextAndFontCommandsKeepTheirArgument) {
  ExpectTable({
      {R"(\emph{post-hoc de-centering})", "post-hoc de-centering"},
      {R"(we call it \emph{post-hoc de-centering}.)", "we call it post-hoc de-centering."},
      {R"($\textbf{Score Kalman Filter}$)", "Score Kalman Filter"},
      {R"(\textbf{80.1\% accuracy})", "80.1% accuracy"},
      {R"(\textit{sign code})", "sign code"},
      {R"($\textit{rank leakage}$)", "rank leakage"},
      {R"($\mathbf{x}$)", "x"},
      {R"(\mathbf{x})", "x"},
      {R"(\texttt{grep})", "grep"},
      {R"(\textsc{Abstracts})", "Abstracts"},
      {R"(\emph{\textbf{nested}} words)", "nested words"},
  });
}

TEST(LatexToText, GreekLettersAndSymbols) {
  ExpectTable({
      {R"($\Omega(1/T)$)", "Ω(1/T)"},
      {R"(rate $\Omega(1/T)$ and $O(1/T^2)$)", "rate Ω(1/T) and O(1/T²)"},
      {R"($\rightarrow$)", "→"},
      {R"(a \rightarrow b)", "a → b"},
      {R"($\alpha$)", "α"},
      {R"($\Sigma$)", "Σ"},
      {R"($a \leq b$)", "a ≤ b"},
  });
}

TEST(LatexToText, EscapedCharactersUnescape) {
  ExpectTable({
      {R"(20\% of)", "20% of"},
      {R"($94\%$)", "94%"},
      {R"(R\&D)", "R&D"},
      {R"(A \& B)", "A & B"},
      {R"(snake\_case)", "snake_case"},
      {R"(costs \$5)", "costs $5"},
      {R"(issue \#12)", "issue #12"},
  });
}

// Issue 43: math keeps the symbols Unicode has. "$\sqrt{s}=7$ TeV" was "s=7 TeV".
TEST(LatexToText, MathKeepsItsSymbolsWhereUnicodeHasThem) {
  ExpectTable({
      {R"($\sqrt{s}=7$ TeV)", "√s=7 TeV"},
      {"$x^2 + y^{10}$", "x² + y¹⁰"},
      {"$10^{-3}$ s", "10⁻³ s"},
      {"$H_2O$ and $x_{n+1}$", "H₂O and x_n+1"},
      {R"($^{15}$N($p,\gamma$))", "¹⁵N(p,γ)"},
      {R"(\(y^2\) and $x_i$)", "y² and x_i"},  // no subscript i in every font: as written
      {"$x^{ab}$", "x^ab"},
      {"text^2 and a_b outside math", "text^2 and a_b outside math"},
      {"costs $5 and x^2 is not math", "costs $5 and x^2 is not math"},
  });
}

TEST(LatexToText, MathDelimitersGoContentStays) {
  ExpectTable({
      {"$x$", "x"},
      {"$$x$$", "x"},
      {R"(\(x\))", "x"},
      {R"(\[x\])", "x"},
      {"$n=20$ samples", "n=20 samples"},
      {"$x$ and $y$", "x and y"},
      {"display $$E = mc^2$$ here", "display E = mc² here"},
      {R"(efficiency, Top-\(K\) also)", "efficiency, Top-K also"},
      {R"(see \[ a + b \] below)", "see a + b below"},
  });
}

TEST(LatexToText, LoneDollarStays) {
  ExpectTable({
      {"costs $5 today", "costs $5 today"},
      {"$", "$"},
      {"pay $5", "pay $5"},
  });
}

TEST(LatexToText, GroupingBracesGo) {
  ExpectTable({
      {"{Grouped} text", "Grouped text"},
      {"{{double}}", "double"},
      {"a{b}c", "abc"},
      {R"(\frac{a}{b})", "a b"},
      {R"(\frac{\alpha}{\beta})", "α β"},
  });
}

TEST(LatexToText, WhiteSpaceCollapsedAndTrimmed) {
  ExpectTable({
      {"", ""},
      {"   ", ""},
      {"  a   b  ", "a b"},
      {"a\tb\nc", "a b c"},
      {"a \t\n  b", "a b"},
      {"\t lead and trail \t", "lead and trail"},
  });
}

TEST(LatexToText, UnicodeTextUnchanged) {
  ExpectTable({
      {"Pokémon", "Pokémon"},
      {"naïve café — déjà vu", "naïve café — déjà vu"},
      {"text‑only and text–only", "text‑only and text–only"},
      {"model’s “quoted” text", "model’s “quoted” text"},
      {"Ω(1/T) → 0", "Ω(1/T) → 0"},
      {"plain ASCII text.", "plain ASCII text."},
      // The result is NFC: a decomposed é composes.
      {"Poke\u0301mon", "Pokémon"},
  });
}

// Unknown commands lose their name. Their argument handling is not part of
// the contract, so only the name is checked.
TEST(LatexToText, UnknownCommandNamesNeverSurvive) {
  const std::vector<std::string_view> raws = {
      R"(a \foo b)", R"(\foo{bar})", R"($\foo$)", R"(x \foo{} y)", R"(\foo\foo)",
  };
  for (auto raw : raws) {
    SCOPED_TRACE(::testing::Message() << "raw: \"" << raw << "\"");
    std::string out = latex_to_text(raw);
    EXPECT_EQ(out.find("foo"), std::string::npos) << out;
    EXPECT_EQ(out.find('\\'), std::string::npos) << out;
  }
  EXPECT_EQ(latex_to_text(R"(a \foo b)"), "a b");
}

// Whether `text` has `word` as a whole word (not inside a longer ASCII word),
// optionally requiring that no backslash precedes it.
bool HasWholeWord(std::string_view text, std::string_view word, bool reject_backslash) {
  auto is_letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    std::size_t end = at + word.size();
    bool left_ok = at == 0 || !is_letter(text[at - 1]);
    bool right_ok = end == text.size() || !is_letter(text[end]);
    if (reject_backslash && at > 0 && text[at - 1] == '\\') left_ok = false;
    if (left_ok && right_ok) return true;
  }
  return false;
}

TEST(LatexToText, CorpusLinesLoseEveryCommandName) {
  std::size_t lines_checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ABSTRACTS_CORPUS_DIR)) {
    if (entry.path().extension() != ".txt") continue;
    auto file_lines = abstracts::testing::lines(abstracts::testing::read_file(entry.path()));
    for (std::size_t i = 0; i < file_lines.size(); ++i) {
      const std::string& raw = file_lines[i];
      if (raw.empty()) continue;
      SCOPED_TRACE(::testing::Message() << entry.path().filename().string() << ":" << i + 1);
      std::string out = latex_to_text(raw);
      ++lines_checked;
      for (std::size_t k = 0; k + 1 < out.size(); ++k) {
        if (out[k] == '\\') {
          EXPECT_FALSE(std::isalpha(static_cast<unsigned char>(out[k + 1])))
              << "command name survives at byte " << k << ": " << out.substr(k, 20);
        }
      }
      for (std::string_view word : {"emph", "textbf", "textit", "mathbf", "mathrm", "mathcal"}) {
        if (HasWholeWord(out, word, /*reject_backslash=*/false)) {
          EXPECT_TRUE(HasWholeWord(raw, word, /*reject_backslash=*/true))
              << "\"" << word << "\" appears in the output only as a command name";
        }
      }
      // Every '$' in the corpus is a math delimiter (no currency, no "\$").
      EXPECT_EQ(out.find('$'), std::string::npos) << out;
      // Collapsed and trimmed.
      EXPECT_EQ(out.find("  "), std::string::npos);
      EXPECT_FALSE(out.empty());
      EXPECT_NE(out.front(), ' ');
      EXPECT_NE(out.back(), ' ');
    }
  }
  // Three files, a header and 19 abstracts each.
  EXPECT_EQ(lines_checked, 60u);
}

TEST(LatexToText, CorpusAccentMacroBecomesLetter) {
  // 000_c5f1a2025e9d36b7.txt spells "Pok\'emon" with an accent macro.
  auto text = abstracts::testing::read_file(std::filesystem::path(ABSTRACTS_CORPUS_DIR) /
                                            "000_c5f1a2025e9d36b7.txt");
  bool found = false;
  for (const auto& line : abstracts::testing::lines(text)) {
    if (line.find(R"(Pok\'emon)") == std::string::npos) continue;
    found = true;
    std::string out = latex_to_text(line);
    EXPECT_NE(out.find("Pokémon"), std::string::npos) << out;
    EXPECT_EQ(out.find("Pok\\"), std::string::npos) << out;
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace abstracts::analysis
