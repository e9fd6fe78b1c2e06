// Golden tests for the shared analyzer (text -> terms) and for the display
// helpers of abstracts/abstract.h (display_text, derive_title, content_id).
#include "engine/analysis/analyzer.h"
#include "engine/analysis/stop_words.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "abstracts/abstract.h"
#include "tests/support/test_support.h"

namespace abstracts::analysis {
namespace {

using Terms = std::vector<std::string>;

struct TermsCase {
  std::string_view text;
  Terms expected;
};

struct SameTermsCase {
  std::string_view text;
  std::string_view same_as;
};

class AnalyzerTest : public ::testing::Test {
 protected:
  void ExpectTerms(const std::vector<TermsCase>& table) const {
    for (const auto& c : table) {
      SCOPED_TRACE(::testing::Message() << "text: \"" << c.text << "\"");
      EXPECT_EQ(analyzer_.terms(c.text), c.expected);
    }
  }

  void ExpectSameTerms(const std::vector<SameTermsCase>& table) const {
    for (const auto& c : table) {
      SCOPED_TRACE(::testing::Message() << "text: \"" << c.text << "\" vs \"" << c.same_as << "\"");
      Terms got = analyzer_.terms(c.text);
      EXPECT_FALSE(got.empty());
      EXPECT_EQ(got, analyzer_.terms(c.same_as));
    }
  }

  Analyzer analyzer_;
};

// Rule: NFKC, case fold and diacritic fold before stemming.
TEST_F(AnalyzerTest, FoldsCaseDiacriticsAndCompatibilityForms) {
  ExpectTerms({
      {"Pokémon", {"pokemon"}},
      {"POKEMON", {"pokemon"}},
      {"pokemon", {"pokemon"}},
      {"POKÉMON", {"pokemon"}},
      {"Poke\u0301mon", {"pokemon"}},   // decomposed: e + combining acute
      {"\uFB01ne", {"fine"}},           // "ﬁ" ligature
      {"Ｐｏｋｅｍｏｎ", {"pokemon"}},  // full-width letters
      {"ＬＬＭ", {"llm"}},
      {"Grévy's", {"grevi"}},
      {"naïve café", {"naiv", "cafe"}},
  });
  ExpectSameTerms({
      {"Grévy's", "Grevy's"},
      {"Straße", "strasse"},  // full case folding: ß -> ss
      {"STRASSE", "Straße"},
      {"\uFB01ne", "fine"},
      {"Ｐｏｋéｍｏｎ", "Pokémon"},
      {"Schölkopf", "Scholkopf"},
      {"Erdős", "Erdos"},
  });
}

// Rule: a word ends where digits meet letters, so a model, gene or unit
// written with or without a hyphen or a space is the same words.
TEST_F(AnalyzerTest, DigitsAndLettersAreSeparateWords) {
  ExpectTerms({
      {"GPT4", {"gpt", "4"}},
      {"Qwen3-VL", {"qwen", "3", "vl"}},
      {"Llama-3.1-8B", {"llama", "3.1", "8", "b"}},
      {"40mg", {"40", "mg"}},
      {"3D", {"3", "d"}},
      {"p53", {"p", "53"}},
      {"1,000", {"1,000"}},  // a number's separators stay
      {"Poke\u0301mon2", {"pokemon", "2"}},  // the accent stays with its letter
  });
  ExpectSameTerms({
      {"GPT4", "GPT-4"},
      {"GPT4", "GPT 4"},
      {"COVID19", "COVID-19"},
      {"40mg", "40 mg"},
      {"IL6", "IL\u20116"},  // non-breaking hyphen
      // Superscript and subscript digits are digits (issue 43: LaTeX's "x^2" is shown "x²").
      {"CO\u2082", "CO2"},
      {"km\u00b2", "km 2"},
      {"x\u00b2", "x^2"},
      {"\u00b9\u2075N", "15 N"},
  });
  // Each part is a word of its own, at its own position and bytes.
  auto tokens = analyzer_.tokenize("Qwen3 models");
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].begin, 0u);
  EXPECT_EQ(tokens[0].end, 4u);
  EXPECT_EQ(tokens[1].begin, 4u);
  EXPECT_EQ(tokens[1].end, 5u);
  EXPECT_EQ(tokens[2].position, 3u);
}

// Rule: a Greek letter in a word is spelled out, as science also writes it
// ("TNF-α" and "TNF-alpha"); a word of three or more Greek letters stays Greek.
TEST_F(AnalyzerTest, SpellsOutGreekLetters) {
  ExpectTerms({
      {"TNF-α", {"tnf", "alpha"}},
      {"IκB", {"ikappab"}},
      {"IL-1β", {"il", "1", "beta"}},
      {"Aβ42", {"abeta", "42"}},
      {"β-catenin", {"beta", "catenin"}},
      {"Δ", {"delta"}},
      {"αβ", {"alphabeta"}},
      {"λόγος", {"λογοσ"}},  // a Greek word: case and accents folded, not spelled out
  });
  ExpectSameTerms({
      {"TNF-α", "TNF-alpha"},
      {"IκB", "IkappaB"},
      {"Qβ", "Qbeta"},
      {"ϵ-greedy", "epsilon-greedy"},  // lunate epsilon folds to ε
      {"ς", "σ"},                      // final sigma
      {"Σ", "sigma"},
      {"ά", "alpha"},  // tonos dropped first
      {"\u00B5M", "\u03BCM"},  // micro sign and Greek mu
      {abstracts::display_text(R"($\alpha$-divergence)"), "alpha-divergence"},
  });
  EXPECT_EQ(Analyzer::fold("Aβ"), "abeta");
}

TEST_F(AnalyzerTest, FoldDoesNotStem) {
  EXPECT_EQ(Analyzer::fold("Pokémon"), "pokemon");
  EXPECT_EQ(Analyzer::fold("Poke\u0301mon"), "pokemon");
  EXPECT_EQ(Analyzer::fold("Models"), "models");
  EXPECT_EQ(Analyzer::fold("LLMs"), "llm");
  EXPECT_EQ(Analyzer::fold("\uFB01ne"), "fine");
  EXPECT_EQ(Analyzer::fold("Straße"), "strasse");
  EXPECT_EQ(analyzer_.stem("models"), "model");
  EXPECT_EQ(analyzer_.stem(Analyzer::fold("Benchmarks")), "benchmark");
}

// Rule: every hyphen, dash and other punctuation separates words.
TEST_F(AnalyzerTest, PunctuationSeparatesWords) {
  ExpectTerms({
      {"text only", {"text", "onli"}},
      {"text-only", {"text", "onli"}},
      {"text\u2010only", {"text", "onli"}},  // hyphen
      {"text\u2011only", {"text", "onli"}},  // non-breaking hyphen
      {"text\u2013only", {"text", "onli"}},  // en dash
      {"text\u2014only", {"text", "onli"}},  // em dash
      {"text/only", {"text", "onli"}},
      {"text_only", {"text", "onli"}},
      {"(text) [only]", {"text", "onli"}},
      {"text, only.", {"text", "onli"}},
      {"\u201Ctext only\u201D", {"text", "onli"}},  // curly double quotes
      {"\"text only\"", {"text", "onli"}},
      {"'text only'", {"text", "onli"}},  // quotes, not apostrophes between letters
      {"", {}},
      {" \t\n", {}},
      {"-- — … !?", {}},
  });
  ExpectSameTerms({
      {"text-only", "text only"},
      {"text\u2011only", "text only"},
      {"text\u2013only", "text only"},
      {"text\u2014only", "text only"},
      {"text\u2010only", "text only"},
      {"\u201Ctext only\u201D", "text only"},
  });
}

// Rule: a soft hyphen joins; an apostrophe between letters stays in the word.
TEST_F(AnalyzerTest, SoftHyphenJoinsApostropheStaysInWord) {
  ExpectTerms({
      {"hyphenation", {"hyphen"}},
      {"hyph\u00ADenation", {"hyphen"}},
      {"model's", {"model"}},
      {"model\u2019s", {"model"}},  // ’
      {"model\u02BCs", {"model"}},  // ʼ
  });
  ExpectSameTerms({
      {"hyph\u00ADenation", "hyphenation"},
      {"model\u2019s", "model's"},
      {"model\u02BCs", "model's"},
      {"the model\u2019s output", "the model's output"},
  });
}

// Rule: an all-capitals acronym (2+ capitals) loses a plural "s".
TEST_F(AnalyzerTest, AcronymPluralLosesS) {
  ExpectTerms({
      {"LLMs", {"llm"}},
      {"LLM", {"llm"}},
      {"DNNs", {"dnn"}},
      {"INRs", {"inr"}},
      {"LVLMs", {"lvlm"}},
      {"GPUs", {"gpu"}},
  });
  ExpectSameTerms({
      {"LLMs", "LLM"},
      {"DNNs", "DNN"},
      {"INRs", "INR"},
      {"LVLMs", "LVLM"},
      {"LLMs", "llm"},
      {"Large LLMs and DNNs", "large LLM and DNN"},
  });
}

// Rule: ordinary words go through the English Snowball stemmer.
TEST_F(AnalyzerTest, StemsEnglishWords) {
  ExpectTerms({
      {"models", {"model"}},
      {"Models", {"model"}},
      {"benchmarks", {"benchmark"}},
      {"hallucination detection benchmarks", {"hallucin", "detect", "benchmark"}},
      {"studies", {"studi"}},
  });
  ExpectSameTerms({
      {"models", "model"},
      {"benchmarks", "benchmark"},
      {"hallucination detection benchmarks", "hallucination detection benchmark"},
  });
}

// Rule: '.' or ',' between digits stays inside a number.
TEST_F(AnalyzerTest, NumbersKeepTheirDecimalPoint) {
  ExpectTerms({
      {"3.5", {"3.5"}},
      {"GPT 3.5", {"gpt", "3.5"}},
      {"Llama-3.1", {"llama", "3.1"}},
      {"up by 3.5.", {"up", "by", "3.5"}},
      {"1,000", {"1,000"}},
      {"2026", {"2026"}},
      {"end. Then", {"end", "then"}},
      {"a,b", {"a", "b"}},
  });
  ExpectSameTerms({{"Llama-3.1", "llama 3.1"}});
}

TEST_F(AnalyzerTest, TokenPositionsAreConsecutiveFromOne) {
  const std::vector<std::string_view> texts = {
      "Pokémon rocks",
      "hallucination detection benchmarks",
      "text‑only — and  more, Llama-3.1 LLMs",
      "  leading white space and “quotes”",
  };
  for (auto text : texts) {
    SCOPED_TRACE(::testing::Message() << "text: \"" << text << "\"");
    auto tokens = analyzer_.tokenize(text);
    ASSERT_FALSE(tokens.empty());
    std::vector<std::string> terms;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      EXPECT_EQ(tokens[i].position, i + 1);
      terms.push_back(tokens[i].term);
    }
    EXPECT_EQ(terms, analyzer_.terms(text));
  }
}

struct ByteRangeCase {
  std::string_view text;
  std::vector<std::string_view> words;  // text.substr(begin, end - begin) of each token
};

TEST_F(AnalyzerTest, TokenByteRangesSliceTheOriginalWord) {
  const std::vector<ByteRangeCase> table = {
      {"Pokémon rocks", {"Pokémon", "rocks"}},
      {"Poke\u0301mon rocks", {"Poke\u0301mon", "rocks"}},
      {"\uFB01ne day", {"\uFB01ne", "day"}},
      {"text\u2011only", {"text", "only"}},
      {"Llama-3.1 LLMs", {"Llama", "3.1", "LLMs"}},
      {"the model\u2019s output", {"the", "model\u2019s", "output"}},
      {"  (Grévy's)  zebra.", {"Grévy's", "zebra"}},
      {"hyph\u00ADenation", {"hyph\u00ADenation"}},
  };
  for (const auto& c : table) {
    SCOPED_TRACE(::testing::Message() << "text: \"" << c.text << "\"");
    auto tokens = analyzer_.tokenize(c.text);
    ASSERT_EQ(tokens.size(), c.words.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      ASSERT_LE(tokens[i].begin, tokens[i].end);
      ASSERT_LE(tokens[i].end, c.text.size());
      EXPECT_EQ(c.text.substr(tokens[i].begin, tokens[i].end - tokens[i].begin), c.words[i]);
    }
  }
  auto tokens = analyzer_.tokenize("Pokémon rocks");
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].begin, 0u);
  EXPECT_EQ(tokens[0].end, 8u);  // "é" is two bytes
  EXPECT_EQ(tokens[1].begin, 9u);
  EXPECT_EQ(tokens[1].end, 14u);
}

TEST_F(AnalyzerTest, NoCommandNameBecomesATerm) {
  Terms terms = analyzer_.terms(abstracts::display_text(R"(\emph{WONN} and \textbf{bold})"));
  EXPECT_EQ(std::count(terms.begin(), terms.end(), "emph"), 0);
  EXPECT_EQ(std::count(terms.begin(), terms.end(), "textbf"), 0);
  EXPECT_EQ(std::count(terms.begin(), terms.end(), "wonn"), 1);
  EXPECT_EQ(std::count(terms.begin(), terms.end(), "bold"), 1);

  terms = analyzer_.terms(abstracts::display_text(R"(The \emph{Pok\'emon theorem})"));
  EXPECT_EQ(std::count(terms.begin(), terms.end(), "pokemon"), 1);
  for (std::string_view bad : {"emph", "pok", "emon", "\\"}) {
    EXPECT_EQ(std::count(terms.begin(), terms.end(), bad), 0) << bad;
  }
}

TEST_F(AnalyzerTest, OverlongWordsAreNotIndexed) {
  const std::string word64(kMaxTermBytes, 'x');
  const std::string word65(kMaxTermBytes + 1, 'x');
  EXPECT_EQ(analyzer_.terms(word64), Terms{word64});
  EXPECT_EQ(analyzer_.terms(word65), Terms{});
  EXPECT_EQ(analyzer_.terms("short " + word65 + " text"), (Terms{"short", "text"}));
  // A URL-like run of letters and digits well over the limit.
  EXPECT_EQ(analyzer_.terms(std::string(500, 'q')), Terms{});
}

// The display lines of the bundled corpus (header lines skipped).
std::vector<std::string> CorpusDisplayTexts() {
  std::vector<std::string> texts;
  for (const auto& entry : std::filesystem::directory_iterator(ABSTRACTS_CORPUS_DIR)) {
    if (entry.path().extension() != ".txt") continue;
    auto file_lines = abstracts::testing::lines(abstracts::testing::read_file(entry.path()));
    for (std::size_t i = 1; i < file_lines.size(); ++i) {
      if (!file_lines[i].empty()) texts.push_back(abstracts::display_text(file_lines[i]));
    }
  }
  return texts;
}

// Every token of real abstracts: a sane term, consecutive positions, and a byte
// range whose text alone analyses to the same term.
TEST_F(AnalyzerTest, CorpusTokensAreConsistent) {
  auto texts = CorpusDisplayTexts();
  ASSERT_EQ(texts.size(), 57u);
  for (const auto& text : texts) {
    SCOPED_TRACE(text.substr(0, 60));
    auto tokens = analyzer_.tokenize(text);
    ASSERT_GT(tokens.size(), 50u);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const Token& t = tokens[i];
      EXPECT_EQ(t.position, i + 1);
      EXPECT_FALSE(t.term.empty());
      EXPECT_LE(t.term.size(), kMaxTermBytes);
      EXPECT_EQ(t.term.find_first_of("\\{}$ "), std::string::npos) << t.term;
      ASSERT_LT(t.begin, t.end);
      ASSERT_LE(t.end, text.size());
      std::string_view word = std::string_view(text).substr(t.begin, t.end - t.begin);
      EXPECT_EQ(analyzer_.terms(word), Terms{t.term}) << "word: " << word;
    }
  }
}

// An analyzer that has made its cache of terms looks its words up after it has
// split the text: it gives the very tokens an analyzer without the cache gives
// (one made afresh for each text, which stays under the thousand words before it
// makes one), words written otherwise than the text (a soft hyphen, a curly
// apostrophe) and words too long to index included.
TEST_F(AnalyzerTest, WithItsCacheOfTermsTokenizesAsWithout) {
  auto texts = CorpusDisplayTexts();
  texts.push_back("hyph\u00adenation don\u2019t " + std::string(kMaxTermBytes + 1, 'x') +
                  " TNF-\u03b1 the LLMs of GPT4 3.5 \u57fa\u4e8e and " + std::string(kMaxTermBytes, 'y') + ".");
  for (int warm = 0; warm < 3; ++warm) {
    for (const auto& text : texts) analyzer_.tokenize(text);  // past the thousand words
  }
  for (const auto& text : texts) {
    SCOPED_TRACE(text.substr(0, 60));
    const auto with = analyzer_.tokenize(text);
    const auto without = Analyzer().tokenize(text);
    ASSERT_EQ(with.size(), without.size());
    for (std::size_t i = 0; i < with.size(); ++i) {
      EXPECT_EQ(with[i].term, without[i].term);
      EXPECT_EQ(with[i].begin, without[i].begin);
      EXPECT_EQ(with[i].end, without[i].end);
      EXPECT_EQ(with[i].position, without[i].position);
    }
  }
}

// index_words() gives tokenize()'s terms and positions, as views that hold for
// both texts of a document: one of 6,000 distinct words, twice, has many words
// that share a slot of the cache with another.
TEST_F(AnalyzerTest, IndexWordsAreTheTokensTermsAndPositions) {
  std::string many;
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 6000; ++i) many += "w" + std::to_string(i * 7919 % 6000) + "x ";
  }
  auto texts = CorpusDisplayTexts();
  const std::string tricky = "hyph\u00adenation don\u2019t " + std::string(kMaxTermBytes + 1, 'x') +
                             " TNF-\u03b1 the LLMs of GPT4 3.5 \u57fa\u4e8e.";
  const std::vector<std::pair<std::string, std::string>> documents = {
      {"", tricky}, {tricky, texts[0]}, {texts[1], many}, {many, texts[2]}, {texts[3], texts[4]}};
  for (int pass = 0; pass < 2; ++pass) {  // the second with the cache made
    for (const auto& [title, text] : documents) {
      SCOPED_TRACE(text.substr(0, 60));
      std::vector<IndexWord> title_words, text_words;
      analyzer_.index_words(title, title_words);
      analyzer_.index_words(text, text_words);
      const Analyzer fresh;
      for (const auto& [words, of] : {std::pair(&title_words, &title), std::pair(&text_words, &text)}) {
        const auto tokens = fresh.tokenize(*of);
        ASSERT_EQ(words->size(), tokens.size());
        for (std::size_t i = 0; i < tokens.size(); ++i) {
          EXPECT_EQ((*words)[i].term, tokens[i].term);
          EXPECT_EQ((*words)[i].position, tokens[i].position);
        }
      }
      analyzer_.end_document();
    }
  }
}

// ---------------------------------------------------------------------------
// display_text, derive_title, content_id

struct DisplayCase {
  std::string_view raw;
  std::string_view expected;
};

TEST(DisplayText, RemovesLatexKeepsAccents) {
  const std::vector<DisplayCase> table = {
      {R"(Pok\'emon)", "Pokémon"},
      {"Pokémon", "Pokémon"},
      {R"(The \emph{Pok\'emon theorem} holds.)", "The Pokémon theorem holds."},
      {R"($\textbf{Score Kalman Filter}$ tracks)", "Score Kalman Filter tracks"},
      {R"(over 99\% in zero-shot)", "over 99% in zero-shot"},
      {"  extra   space\t\there  ", "extra space here"},
      {"Poke\u0301mon", "Pokémon"},
  };
  for (const auto& c : table) {
    SCOPED_TRACE(::testing::Message() << "raw: \"" << c.raw << "\"");
    EXPECT_EQ(abstracts::display_text(c.raw), c.expected);
  }
}

// Counts UTF-8 code points.
std::size_t CodePoints(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

struct TitleCase {
  std::string_view display;
  std::string_view starts_with;    // the title starts with this
  std::string_view must_not_have;  // and does not contain this (the second sentence)
};

TEST(DeriveTitle, TakesTheFirstSentence) {
  const std::vector<TitleCase> table = {
      {"We study X. Then Y.", "We study X", "Then"},
      // A one-letter word before the period is usually a math variable ("$d$.").
      {"We prove a bound for every dimension d. Experiments confirm it.",
       "We prove a bound for every dimension d", "Experiments"},
      {"We use tools, e.g. parsers and lexers, for text. Then we stop.",
       "We use tools, e.g. parsers and lexers, for text", "Then"},
      {"We study models, i.e. functions of data. Next we test.",
       "We study models, i.e. functions of data", "Next"},
      {"Accuracy improves by 3.5 points over the baseline. Then more.",
       "Accuracy improves by 3.5 points over the baseline", "Then"},
      {"Does scaling help? We find it does.", "Does scaling help", "We find"},
      {"Llama-3.1 beats GPT-4.0 on 12.5% of tasks. Surprising.",
       "Llama-3.1 beats GPT-4.0 on 12.5% of tasks", "Surprising"},
  };
  for (const auto& c : table) {
    SCOPED_TRACE(::testing::Message() << "display: \"" << c.display << "\"");
    std::string title = abstracts::derive_title(c.display);
    EXPECT_EQ(title.substr(0, c.starts_with.size()), c.starts_with) << title;
    EXPECT_EQ(title.find(c.must_not_have), std::string::npos) << title;
    EXPECT_EQ(title.find("…"), std::string::npos) << "short sentences are not cut: " << title;
  }
}

TEST(DeriveTitle, CorpusTitlesArePrefixesOfTheDisplayText) {
  for (const auto& display : CorpusDisplayTexts()) {
    SCOPED_TRACE(display.substr(0, 60));
    std::string title = abstracts::derive_title(display);
    EXPECT_FALSE(title.empty());
    EXPECT_LE(CodePoints(title), 100u) << title;
    std::string kept = title;
    if (EndsWith(kept, "…")) kept.resize(kept.size() - std::string_view("…").size());
    EXPECT_EQ(display.substr(0, kept.size()), kept) << title;
  }
}

TEST(DeriveTitle, ShortTextWithoutPeriodIsTheTitle) {
  EXPECT_EQ(abstracts::derive_title("No period here"), "No period here");
  EXPECT_EQ(abstracts::derive_title("Pokémon"), "Pokémon");
  EXPECT_EQ(abstracts::derive_title(""), "");
}

TEST(DeriveTitle, CutsALongSentenceOnAWordBoundary) {
  std::string display;
  const std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "epsilon"};
  for (int i = 0; i < 40; ++i) {
    if (!display.empty()) display += ' ';
    display += words[i % words.size()];
  }
  display += ". Second sentence.";

  for (std::size_t max_chars : {100u, 60u, 30u}) {
    SCOPED_TRACE(::testing::Message() << "max_chars: " << max_chars);
    std::string title = abstracts::derive_title(display, max_chars);
    EXPECT_LE(CodePoints(title), max_chars) << title;
    ASSERT_TRUE(EndsWith(title, "…")) << title;
    std::string kept = title.substr(0, title.size() - std::string_view("…").size());
    while (!kept.empty() && kept.back() == ' ') kept.pop_back();
    ASSERT_FALSE(kept.empty());
    // A prefix of the sentence that ends where a word ends.
    EXPECT_EQ(display.substr(0, kept.size()), kept);
    EXPECT_EQ(display[kept.size()], ' ') << "cut inside a word: " << title;
    // As much as fits: no more than one word (<= 7 chars) plus space and "…" lost.
    EXPECT_GE(CodePoints(kept) + 10, max_chars) << title;
  }
  EXPECT_EQ(abstracts::derive_title("one two three four five", 12), "one two…");
}

TEST(DeriveTitle, CountsCodePointsNotBytes) {
  // 90 code points but 120 bytes: fits in 100 characters, so no cut.
  std::string sentence;
  while (CodePoints(sentence) < 90) sentence += "éé ";
  sentence.resize(sentence.size() - 1);  // drop the trailing space
  ASSERT_GT(sentence.size(), 100u);
  ASSERT_LE(CodePoints(sentence), 100u);
  std::string title = abstracts::derive_title(sentence, 100);
  EXPECT_EQ(title, sentence);

  // Well over 100 code points: cut to at most 100 code points.
  std::string longer;
  for (int i = 0; i < 60; ++i) longer += "Pokémon ";
  longer += "end.";
  title = abstracts::derive_title(longer, 100);
  EXPECT_LE(CodePoints(title), 100u) << title;
  EXPECT_GE(CodePoints(title), 85u) << title;
  EXPECT_TRUE(EndsWith(title, "…")) << title;
  EXPECT_EQ(title.find("Pokémo…"), std::string::npos) << "cut inside a word: " << title;
}

TEST(ContentId, IsTwelveCrockfordBase32Characters) {
  const std::vector<std::string_view> texts = {
      "", "abc", R"(The \emph{Pok\'emon theorem} holds.)", "Pokémon", "We study X. Then Y.",
  };
  std::set<std::string> ids;
  for (auto text : texts) {
    SCOPED_TRACE(::testing::Message() << "text: \"" << text << "\"");
    std::string id = abstracts::content_id(text);
    ASSERT_EQ(id.size(), 12u) << id;
    EXPECT_EQ(id.find_first_not_of("0123456789abcdefghjkmnpqrstvwxyz"), std::string::npos) << id;
    EXPECT_EQ(abstracts::content_id(text), id) << "not deterministic";
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), texts.size()) << "different texts share an id";
}

// The id is stored in indexes and printed to users, so it is pinned: the top
// 60 bits of XXH3_64bits("abc") = 0x78af5f94892f3950, most significant first.
TEST(ContentId, GoldenValue) {
  EXPECT_EQ(abstracts::content_id("abc"), "f2qnz5495wwn");
  EXPECT_EQ(abstracts::content_id("Pokémon theory."), "46qdqd05jwbn");
}

TEST(ContentId, IgnoresWhiteSpaceDifferencesAndNormalisation) {
  const std::vector<SameTermsCase> same = {
      {"We study X. Then Y.", "We  study X.   Then Y."},
      {"We study X. Then Y.", "We study X. Then Y.\r"},
      {"We study X. Then Y.", "We study X.\tThen Y."},
      {"We study X. Then Y.", " We study X. Then Y. "},
      {"Pokémon theory.", "Poke\u0301mon theory."},  // NFC
  };
  for (const auto& c : same) {
    SCOPED_TRACE(::testing::Message() << "\"" << c.text << "\" vs \"" << c.same_as << "\"");
    EXPECT_EQ(abstracts::content_id(c.text), abstracts::content_id(c.same_as));
  }
  EXPECT_NE(abstracts::content_id("We study X."), abstracts::content_id("We study Y."));
  EXPECT_NE(abstracts::content_id("We study X."), abstracts::content_id("We studyX."));
  // The raw text, not the display text: LaTeX differences give different ids.
  EXPECT_NE(abstracts::content_id(R"(Pok\'emon)"), abstracts::content_id("Pokémon"));
}

// Filtering for wanted terms (snippets) finds exactly the tokens that have them:
// every term of every corpus abstract, and the stems that change a word's second
// letter ("dying" -> "die").
TEST_F(AnalyzerTest, WantedTermsAreFoundAsTheFullTokenizeFindsThem) {
  auto texts = CorpusDisplayTexts();
  texts.push_back("Dying stars, lying agents and TYING knots: skies, \u2018rock\u2019n\u2019roll\u2019 and 3.5 LLMs.");
  for (const auto& text : texts) {
    SCOPED_TRACE(text.substr(0, 60));
    const auto all = analyzer_.tokenize(text);
    std::set<std::string> distinct;
    for (const auto& t : all) distinct.insert(t.term);
    for (const auto& term : distinct) {
      const auto filtered = analyzer_.tokenize(text, std::vector<std::string>{term});
      ASSERT_EQ(filtered.size(), all.size());
      for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(filtered[i].begin, all[i].begin);
        EXPECT_EQ(filtered[i].position, all[i].position);
        EXPECT_EQ(filtered[i].term == term, all[i].term == term) << all[i].term << " for " << term;
      }
    }
  }
}

TEST(StopWords, AreTheTermsTheAnalyzerMakesOfThem) {
  Analyzer analyzer;
  // Lucene's English list, as written: each must be its own index term.
  for (const char* word : {"a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if",
                           "in", "into", "is", "it", "no", "not", "of", "on", "or", "such",
                           "that", "the", "their", "then", "there", "these", "they", "this",
                           "to", "was", "will", "with"}) {
    auto terms = analyzer.terms(word);
    ASSERT_EQ(terms.size(), 1u) << word;
    EXPECT_TRUE(is_stop_word(terms[0])) << word << " -> " << terms[0];
  }
  for (const char* word : {"The", "OF", "Into"}) EXPECT_TRUE(is_stop_word(analyzer.terms(word)[0])) << word;
  for (const char* word : {"attention", "one", "we", "model", "theory"}) {
    EXPECT_FALSE(is_stop_word(analyzer.terms(word)[0])) << word;
  }
  // No other term of up to three letters is one, nor the empty one.
  const std::set<std::string> stop = {"a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if",
                                      "in", "is", "it", "no", "not", "of", "on", "or", "the", "to", "was"};
  EXPECT_FALSE(is_stop_word(""));
  std::string term;
  for (char a = 'a'; a <= 'z'; ++a) {
    for (char b = '`'; b <= 'z'; ++b) {
      for (char c = '`'; c <= 'z'; ++c) {
        term.assign(1, a);
        if (b != '`') term += b;
        if (b != '`' && c != '`') term += c;
        EXPECT_EQ(is_stop_word(term), stop.count(term) == 1) << term;
      }
    }
  }
}

// Chinese and Japanese have no spaces between words: each Han or kana character
// is a word, so any word of a title is a phrase of its characters; Latin words
// and Korean (which has spaces) are words as before.
TEST_F(AnalyzerTest, HanAndKanaCharactersAreWordsOfTheirOwn) {
  ExpectTerms({
      {"基于机器视觉", {"基", "于", "机", "器", "视", "觉"}},
      {"线性二次型调节器(LQR)", {"线", "性", "二", "次", "型", "调", "节", "器", "lqr"}},
      {"GPU的加速", {"gpu", "的", "加", "速"}},
      {"トランスフォーマーを", {"ト", "ラ", "ン", "ス", "フ", "ォ", "ー", "マ", "ー", "を"}},
      {"한국어 논문", {"한국어", "논문"}},
  });
  // A title of 22 characters was one word of 66 bytes, too long to index.
  EXPECT_EQ(analyzer_.terms("基于机器视觉的手写数字识别与目标追踪技术研究").size(), 22u);
}

}  // namespace
}  // namespace abstracts::analysis
