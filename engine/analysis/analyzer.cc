#include "engine/analysis/analyzer.h"

#include <cctype>

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

namespace abstracts::analysis {
namespace {

bool is_word_char(UChar32 c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  switch (u_charType(c)) {
    case U_UPPERCASE_LETTER: case U_LOWERCASE_LETTER: case U_TITLECASE_LETTER:
    case U_MODIFIER_LETTER: case U_OTHER_LETTER: case U_NON_SPACING_MARK:
    case U_COMBINING_SPACING_MARK: case U_ENCLOSING_MARK: case U_DECIMAL_DIGIT_NUMBER:
    case U_LETTER_NUMBER: case U_OTHER_NUMBER:
      return true;
    default:
      return false;
  }
}

bool is_digit(UChar32 c) { return u_isdigit(c) != 0; }

bool is_apostrophe(UChar32 c) { return c == '\'' || c == 0x2019 || c == 0x02BC; }

// Invisible characters inside a word that join rather than split it:
// soft hyphen ("hyph\u00adenation"), zero-width space and joiners, word joiner, BOM.
bool is_joiner(UChar32 c) {
  return c == 0x00AD || c == 0x200B || c == 0x200C || c == 0x200D || c == 0x2060 || c == 0xFEFF;
}

UChar32 peek(std::string_view s, std::size_t i) {
  if (i >= s.size()) return -1;
  UChar32 c;
  int32_t j = static_cast<int32_t>(i);
  U8_NEXT(s.data(), j, static_cast<int32_t>(s.size()), c);
  return c;
}

// "LLMs" -> "LLM": two or more capitals then a plural s.
bool is_acronym_plural(const icu::UnicodeString& w) {
  int32_t n = w.length();
  if (n < 3 || w.charAt(n - 1) != u's') return false;
  for (int32_t i = 0; i < n - 1; ++i) {
    if (!u_isupper(w.charAt(i))) return false;
  }
  return true;
}

bool is_ascii_acronym_plural(std::string_view w) {
  if (w.size() < 3 || w.back() != 's') return false;
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    if (w[i] < 'A' || w[i] > 'Z') return false;
  }
  return true;
}

// Letters that case folding and NFD leave alone but readers treat as plain
// Latin letters: "Ørsted" matches "Orsted", "Łukasz" matches "Lukasz".
void fold_special_letters(icu::UnicodeString& w) {
  static const struct {
    UChar from;
    const char16_t* to;
  } kSpecial[] = {{u'ø', u"o"}, {u'ł', u"l"}, {u'đ', u"d"}, {u'ð', u"d"}, {u'æ', u"ae"},
                  {u'œ', u"oe"}, {u'ı', u"i"}, {u'þ', u"th"}, {u'ħ', u"h"}, {u'ȷ', u"j"}};
  for (const auto& s : kSpecial) {
    if (w.indexOf(s.from) >= 0) w.findAndReplace(icu::UnicodeString(s.from), icu::UnicodeString(s.to));
  }
}

}  // namespace

Analyzer::Analyzer() : stemmer_("english") {}

std::string Analyzer::fold(std::string_view word) {
  bool ascii = true;
  for (unsigned char c : word) ascii = ascii && c < 0x80;
  if (ascii) {
    std::string out(word);
    if (is_ascii_acronym_plural(out)) out.pop_back();
    for (char& c : out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(status);
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) return std::string(word);
  icu::UnicodeString w = nfkc->normalize(icu::UnicodeString::fromUTF8(word), status);
  if (is_acronym_plural(w)) w.truncate(w.length() - 1);
  w.foldCase();
  // Diacritic folding: decompose, drop the combining marks, compose again.
  icu::UnicodeString decomposed = nfd->normalize(w, status);
  icu::UnicodeString bare;
  for (int32_t i = 0; i < decomposed.length();) {
    UChar32 c = decomposed.char32At(i);
    if (u_charType(c) != U_NON_SPACING_MARK) bare.append(c);
    i += U16_LENGTH(c);
  }
  fold_special_letters(bare);
  icu::UnicodeString composed = nfc->normalize(bare, status);
  std::string out;
  composed.toUTF8String(out);
  return U_SUCCESS(status) ? out : std::string(word);
}

std::string Analyzer::stem(const std::string& folded) const {
  // Numbers and codes ("3.5", "2026", "4b") stay as written.
  if (folded.empty() || (folded[0] >= '0' && folded[0] <= '9')) return folded;
  return stemmer_(folded);
}

std::vector<Token> Analyzer::tokenize(std::string_view text) const { return tokenize(text, {}); }

std::vector<Token> Analyzer::tokenize(std::string_view text, std::string_view initials) const {
  std::vector<Token> tokens;
  const auto n = static_cast<int32_t>(text.size());
  std::string word;
  std::uint32_t position = 0;
  int32_t i = 0;
  while (i < n) {
    UChar32 c;
    int32_t start = i;
    U8_NEXT(text.data(), i, n, c);
    if (!is_word_char(c)) continue;
    // A word: word characters, joined by invisible joiners, apostrophes between
    // letters, and '.' or ',' between digits.
    word.assign(text.substr(start, i - start));
    UChar32 last = c;
    int32_t end = i;
    while (i < n) {
      int32_t next_i = i;
      UChar32 d;
      U8_NEXT(text.data(), next_i, n, d);
      UChar32 after = peek(text, static_cast<std::size_t>(next_i));
      // Checked first: U+02BC is a letter to ICU, but an apostrophe to readers.
      if (is_apostrophe(d) && u_isalpha(last) && after >= 0 && u_isalpha(after)) {
        word += '\'';
        i = next_i;
        continue;
      }
      if (is_word_char(d)) {
        word.append(text.substr(i, next_i - i));
        last = d;
        i = end = next_i;
        continue;
      }
      if (is_joiner(d) && after >= 0 && is_word_char(after)) {
        i = next_i;
        continue;
      }
      if ((d == '.' || d == ',') && is_digit(last) && after >= 0 && is_digit(after)) {
        word += static_cast<char>(d);
        i = next_i;
        continue;
      }
      break;
    }
    ++position;
    if (!initials.empty()) {
      // A word starting with an ASCII letter or digit that no wanted term starts
      // with is only a position: no folding, no stemming, no term.
      auto first = static_cast<unsigned char>(word[0]);
      if (first < 0x80 && initials.find(static_cast<char>(std::tolower(first))) == std::string_view::npos) {
        tokens.push_back(Token{std::string(), static_cast<std::size_t>(start),
                               static_cast<std::size_t>(end), position});
        continue;
      }
    }
    std::string term = fold(word);
    if (initials.empty() || (!term.empty() && initials.find(term[0]) != std::string_view::npos)) {
      term = stem(term);
    }
    if (term.empty() || term.size() > kMaxTermBytes) continue;
    tokens.push_back(Token{std::move(term), static_cast<std::size_t>(start),
                           static_cast<std::size_t>(end), position});
  }
  return tokens;
}

std::vector<std::string> Analyzer::terms(std::string_view text) const {
  std::vector<std::string> out;
  for (auto& t : tokenize(text)) out.push_back(std::move(t.term));
  return out;
}

}  // namespace abstracts::analysis
