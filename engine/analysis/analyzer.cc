#include "engine/analysis/analyzer.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>
#include <xxhash.h>

#include "abstracts/error.h"

namespace abstracts::analysis {
namespace {

// What a byte is to the tokenizer's fast paths: an ASCII letter, an ASCII digit,
// any other ASCII character (a space, punctuation), or the lead or continuation
// byte of a longer UTF-8 character, for the slow path.
enum AsciiClass : unsigned char { kAsciiOther, kAsciiLetter, kAsciiDigit, kNotAscii };
constexpr std::array<unsigned char, 256> kAsciiClass = [] {
  std::array<unsigned char, 256> table{};
  for (int b = 0; b < 256; ++b) {
    if (b >= 0x80) {
      table[b] = kNotAscii;
    } else if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')) {
      table[b] = kAsciiLetter;
    } else if (b >= '0' && b <= '9') {
      table[b] = kAsciiDigit;
    } else {
      table[b] = kAsciiOther;
    }
  }
  return table;
}();

// Chinese and Japanese write words without spaces between them: each Han, Hiragana
// or Katakana character is a word of its own, as the unigrams of Xapian's
// FLAG_CJK_NGRAM and Lucene's StandardTokenizer, so a word typed in them is a
// phrase of its characters (a title of 22 characters was one 66-byte "word",
// too long to index, and no part of it could be found).
bool is_cjk(UChar32 c) {
  if (c < 0x3040) return false;  // before Hiragana: no Han, kana or their marks
  UErrorCode error = U_ZERO_ERROR;
  const UScriptCode script = uscript_getScript(c, &error);
  return U_SUCCESS(error) && (script == USCRIPT_HAN || script == USCRIPT_HIRAGANA || script == USCRIPT_KATAKANA);
}

bool is_word_char(UChar32 c) {
  // c < 0: a byte that starts no UTF-8 character.
  if (c < 0x80) return c >= 0 && (kAsciiClass[c] == kAsciiLetter || kAsciiClass[c] == kAsciiDigit);
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

// Superscript and subscript digits count as digits ("CO₂" is "CO 2", as "CO2"
// is; "x²" from LaTeX's "x^2" is "x 2"); NFKC makes them plain digits after.
bool is_digit(UChar32 c) {
  if (c < 0x80) return c >= '0' && c <= '9';
  return u_isdigit(c) != 0 || c == 0xb2 || c == 0xb3 || c == 0xb9 || (c >= 0x2070 && c <= 0x2079 && c != 0x2071 &&
                                                                      c != 0x2072 && c != 0x2073) ||
         (c >= 0x2080 && c <= 0x2089);
}

// "GPT4" is "GPT 4" and "GPT-4", "40mg" is "40 mg": a word ends where digits meet
// letters, as Lucene's WordDelimiterGraphFilter splits on numerics. A mark stays
// with what it marks.
bool digits_meet_letters(UChar32 last, UChar32 next) {
  return is_digit(last) != is_digit(next) && (U_GET_GC_MASK(next) & U_GC_M_MASK) == 0;
}

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

// "TNF-α" matches "TNF-alpha", "IκB" matches "IkappaB", "$\alpha$-divergence"
// matches "alpha-divergence": a Greek letter becomes its name, as PubMed indexes it.
// A word of three or more Greek letters and nothing else is Greek, not a symbol,
// and stays. `w` is case-folded and bare of diacritics ("ς" is "σ", "ά" is "α").
void spell_greek_letters(icu::UnicodeString& w) {
  static const char16_t* const kNames[] = {
      u"alpha", u"beta", u"gamma", u"delta", u"epsilon", u"zeta", u"eta", u"theta", u"iota",
      u"kappa", u"lambda", u"mu", u"nu", u"xi", u"omicron", u"pi", u"rho", u"sigma",
      u"sigma", u"tau", u"upsilon", u"phi", u"chi", u"psi", u"omega"};
  auto greek = [](UChar c) { return c >= u'α' && c <= u'ω'; };
  int32_t letters = 0;
  for (int32_t i = 0; i < w.length(); ++i) letters += greek(w.charAt(i)) ? 1 : 0;
  if (letters == 0 || (letters == w.length() && letters >= 3)) return;
  icu::UnicodeString spelled;
  for (int32_t i = 0; i < w.length(); ++i) {
    const UChar c = w.charAt(i);
    if (greek(c)) {
      spelled.append(icu::UnicodeString(kNames[c - u'α']));
    } else {
      spelled.append(c);
    }
  }
  w = spelled;
}

// True if a word whose term starts with `start` (its first one or two bytes) may
// have one of the `wanted` terms: stemming keeps the first two letters of a word,
// but for a "y" that becomes "i" ("dying" -> "die"). When `start` is the whole
// folded word, the term must also be no longer than it: stemming never lengthens
// a word ("at" cannot become "attent"; none of the 150,759 distinct words of the
// arXiv abstracts does).
bool may_be_wanted(std::string_view start, const std::vector<std::string>& wanted, bool whole_word = false) {
  for (const auto& t : wanted) {
    if (t.empty() || start.empty() || start[0] != t[0]) continue;
    if (whole_word && t.size() > start.size()) continue;
    if (t.size() == 1 || start.size() == 1 || start[1] == t[1] || (start[1] == 'y' && t[1] == 'i')) return true;
  }
  return false;
}

// Calls on_word(raw, verbatim, start, end) for each word of `text`, in order (the
// rules are tokenize()'s, in analyzer.h): `raw` is the word as analysed, the
// text's bytes [start, end) when `verbatim`, else `word` (a joiner or a curly
// apostrophe made it differ), whose view lasts until the next word.
template <typename OnWord>
void for_each_word(std::string_view text, std::string& word, OnWord&& on_word) {
  const auto n = static_cast<int32_t>(text.size());
  int32_t i = 0;
  while (i < n) {
    // Spaces and ASCII punctuation between words, skipped a byte at a time.
    if (kAsciiClass[static_cast<unsigned char>(text[i])] == kAsciiOther) {
      ++i;
      continue;
    }
    // A word: word characters, joined by invisible joiners, apostrophes between
    // letters, and '.' or ',' between digits. It is the text's bytes [start, end)
    // unless a joiner or a curly apostrophe made it differ (then it is `word`).
    const int32_t start = i;
    UChar32 last;
    if (const unsigned char cls = kAsciiClass[static_cast<unsigned char>(text[i])]; cls != kNotAscii) {
      // Most words start with a run of ASCII letters, or of ASCII digits, which
      // needs no decoding (and often is the whole word).
      do {
        ++i;
      } while (i < n && kAsciiClass[static_cast<unsigned char>(text[i])] == cls);
      last = static_cast<unsigned char>(text[i - 1]);
    } else {
      U8_NEXT(text.data(), i, n, last);
      if (!is_word_char(last)) continue;
    }
    const bool one_character = is_cjk(last);
    bool verbatim = true;
    auto differ = [&] {
      if (verbatim) word.assign(text.substr(start, i - start));
      verbatim = false;
    };
    int32_t end = i;
    while (i < n && !one_character) {
      // Fast path: a run of ASCII letters after a letter, or of ASCII digits
      // after a digit.
      const auto b = static_cast<unsigned char>(text[i]);
      if (const int cls = kAsciiClass[b]; cls == kAsciiLetter || cls == kAsciiDigit) {
        if ((cls == kAsciiDigit) != is_digit(last)) break;  // digits meet letters
        int32_t run = i + 1;
        while (run < n && kAsciiClass[static_cast<unsigned char>(text[run])] == cls) ++run;
        if (!verbatim) word.append(text.substr(i, run - i));
        last = static_cast<unsigned char>(text[run - 1]);
        i = end = run;
        continue;
      }
      if (b < 0x80 && b != '\'' && b != '.' && b != ',') break;
      int32_t next_i = i;
      UChar32 d;
      U8_NEXT(text.data(), next_i, n, d);
      // Checked first: U+02BC is a letter to ICU, but an apostrophe to readers.
      const bool apostrophe = is_apostrophe(d);
      if (!apostrophe && is_word_char(d)) {
        if (digits_meet_letters(last, d) || is_cjk(d)) break;
        if (!verbatim) word.append(text.substr(i, next_i - i));
        last = d;
        i = end = next_i;
        continue;
      }
      UChar32 after = peek(text, static_cast<std::size_t>(next_i));
      if (apostrophe && u_isalpha(last) && after >= 0 && u_isalpha(after)) {
        if (d != '\'') differ();
        if (!verbatim) word += '\'';
        i = next_i;
        continue;
      }
      if (apostrophe && is_word_char(d)) {  // U+02BC, not between letters: a letter after all
        if (!verbatim) word.append(text.substr(i, next_i - i));
        last = d;
        i = end = next_i;
        continue;
      }
      if (is_joiner(d) && after >= 0 && is_word_char(after)) {
        differ();
        i = next_i;
        continue;
      }
      if ((d == '.' || d == ',') && is_digit(last) && after >= 0 && is_digit(after)) {
        if (!verbatim) word += static_cast<char>(d);
        i = next_i;
        continue;
      }
      break;
    }
    on_word(verbatim ? text.substr(start, end - start) : std::string_view(word), verbatim, start, end);
  }
}

}  // namespace

// Terms cached per Analyzer (a power of two): 4 MB; 1 << 14 missed one word in ten.
constexpr std::size_t kCachedTerms = 1 << 16;
// Words an Analyzer reads before it makes its cache.
constexpr std::size_t kWordsBeforeCache = 1000;

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
  if (U_FAILURE(status)) {
    // Only missing ICU data fails here; folding nothing would index and search
    // other terms than every other build, so it is an error, not a fallback.
    throw Error(std::string("ICU cannot normalise text: ") + u_errorName(status),
                "ICU's data lacks NFKC's table (for the abstracts command: ABSTRACTS_ICU_DATA_ITEMS in "
                "cli/CMakeLists.txt)");
  }
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
  spell_greek_letters(bare);
  icu::UnicodeString composed = nfc->normalize(bare, status);
  std::string out;
  composed.toUTF8String(out);
  return U_SUCCESS(status) ? out : std::string(word);
}

std::string Analyzer::stem(const std::string& folded) const {
  // Numbers ("3.5", "2026") stay as written.
  if (folded.empty() || (folded[0] >= '0' && folded[0] <= '9')) return folded;
  return stemmer_(folded);
}

std::size_t Analyzer::slot_of(std::string_view raw) { return XXH3_64bits(raw.data(), raw.size()) & (kCachedTerms - 1); }

const std::string& Analyzer::cached_term(std::size_t slot, std::string_view raw) const {
  CachedTerm& cached = terms_[slot];
  if (cached.word != raw) {
    cached.word = raw;
    cached.term = stem(fold(raw));
  }
  return cached.term;
}

std::string Analyzer::term_of(std::string_view raw) const {
  if (terms_.empty()) {
    if (++words_ < kWordsBeforeCache) return stem(fold(raw));
    make_cache();
  }
  return cached_term(slot_of(raw), raw);
}

void Analyzer::make_cache() const {
  terms_.resize(kCachedTerms);
  claimed_.assign(kCachedTerms / 64, 0);
}

std::vector<Token> Analyzer::tokenize(std::string_view text) const { return tokenize(text, nullptr); }

std::vector<Token> Analyzer::tokenize(std::string_view text, const std::vector<std::string>& wanted) const {
  return tokenize(text, &wanted);
}

std::vector<Token> Analyzer::tokenize(std::string_view text, const std::vector<std::string>* wanted,
                                      std::string* overlong) const {
  std::vector<Token> tokens;
  std::string word;
  tokens.reserve(text.size() / 6 + 1);  // about one word per 6-7 bytes of English
  // With the cache made, each word of the text as written (most are) has its term
  // looked up after the text is split: the slots of all its words are asked of
  // memory at once, where one after the other each waited for its own (a 4 MB
  // table read at random: the load of the slot was 93% of the lookups' time).
  struct Deferred {
    std::size_t token;     // its Token, whose term is still to come
    std::string_view raw;  // in `text`
    std::size_t slot;
  };
  std::vector<Deferred> deferred;
  const bool defer = wanted == nullptr && overlong == nullptr && !terms_.empty();
  std::uint32_t position = 0;
  // The words that passed the `wanted` filter, with their terms: a text repeats
  // its query words, each folded and stemmed once.
  std::vector<std::pair<std::string, std::string>> met;
  for_each_word(text, word, [&](std::string_view raw, bool verbatim, int32_t start, int32_t end) {
    ++position;
    if (wanted != nullptr) {
      // A word whose first ASCII letters no wanted term starts with is only a
      // position: no folding, no stemming, no term.
      std::size_t ascii = 0;
      char lower[2] = {};
      while (ascii < 2 && ascii < raw.size() && static_cast<unsigned char>(raw[ascii]) < 0x80) {
        char ch = raw[ascii];
        lower[ascii] = ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch;
        ++ascii;
      }
      if (ascii > 0 && !may_be_wanted(std::string_view(lower, ascii), *wanted)) {
        tokens.push_back(Token{std::string(), static_cast<std::size_t>(start),
                               static_cast<std::size_t>(end), position});
        return;
      }
    }
    if (defer && verbatim) {
      deferred.push_back({tokens.size(), raw, 0});
      tokens.push_back(Token{std::string(), static_cast<std::size_t>(start), static_cast<std::size_t>(end), position});
      return;
    }
    std::string term;
    if (wanted == nullptr) {
      term = term_of(raw);
    } else if (auto seen = std::find_if(met.begin(), met.end(), [&](const auto& m) { return m.first == raw; });
               seen != met.end()) {
      term = seen->second;
    } else {
      term = fold(raw);
      if (may_be_wanted(term, *wanted, true)) term = stem(term);
      met.emplace_back(raw, term);
    }
    if (term.size() > kMaxTermBytes && overlong != nullptr && overlong->empty()) {
      *overlong = text.substr(start, end - start);
    }
    if (term.empty() || term.size() > kMaxTermBytes) return;
    tokens.push_back(Token{std::move(term), static_cast<std::size_t>(start),
                           static_cast<std::size_t>(end), position});
  });
  if (deferred.empty()) return tokens;
  for (auto& d : deferred) {
    d.slot = slot_of(d.raw);
    __builtin_prefetch(&terms_[d.slot]);
  }
  for (const auto& d : deferred) tokens[d.token].term = cached_term(d.slot, d.raw);
  // As the words looked up at once are: a term too long, or none, makes no token.
  std::erase_if(tokens, [](const Token& t) { return t.term.empty() || t.term.size() > kMaxTermBytes; });
  return tokens;
}

void Analyzer::index_words(std::string_view text, std::vector<IndexWord>& out) const {
  // Split first, then looked up together, as tokenize() does: a word as written
  // waits for its term; one written otherwise (a soft hyphen, a curly
  // apostrophe) has it at once, in a string of its own.
  pending_.clear();
  std::string word;
  std::uint32_t position = 0;
  for_each_word(text, word, [&](std::string_view raw, bool verbatim, int32_t, int32_t) {
    ++position;
    if (verbatim) {
      pending_.push_back({raw, {}, position, 0});
    } else {
      pending_.push_back({{}, spare_terms_.emplace_back(stem(fold(raw))), position, 0});
    }
  });
  if (terms_.empty() && (words_ += pending_.size()) >= kWordsBeforeCache) make_cache();
  const bool cached = !terms_.empty();
  if (cached) {
    for (auto& p : pending_) {
      if (p.term.data() != nullptr) continue;
      p.slot = static_cast<std::uint32_t>(slot_of(p.raw));
      __builtin_prefetch(&terms_[p.slot]);
    }
  }
  for (auto& p : pending_) {
    if (p.term.data() == nullptr) {
      if (!cached) {
        p.term = spare_terms_.emplace_back(stem(fold(p.raw)));
      } else if (std::uint64_t& bits = claimed_[p.slot / 64]; (bits & (1ull << (p.slot % 64))) == 0) {
        // The slot's term is this document's from now on.
        bits |= 1ull << (p.slot % 64);
        claimed_slots_.push_back(p.slot);
        p.term = cached_term(p.slot, p.raw);
      } else if (terms_[p.slot].word == p.raw) {
        p.term = terms_[p.slot].term;
      } else {  // another word of the document has the slot
        p.term = spare_terms_.emplace_back(stem(fold(p.raw)));
      }
    }
    if (!p.term.empty() && p.term.size() <= kMaxTermBytes) out.push_back({p.term, p.position});
  }
}

void Analyzer::end_document() const {
  for (const std::uint32_t slot : claimed_slots_) claimed_[slot / 64] &= ~(1ull << (slot % 64));
  claimed_slots_.clear();
  spare_terms_.clear();
}

std::vector<std::string> Analyzer::terms(std::string_view text) const {
  std::vector<std::string> out;
  for (auto& t : tokenize(text)) out.push_back(std::move(t.term));
  return out;
}

std::string Analyzer::overlong_word(std::string_view text) const {
  std::string overlong;
  tokenize(text, nullptr, &overlong);
  return overlong;
}

const Analyzer& thread_analyzer() {
  thread_local Analyzer analyzer;
  return analyzer;
}

}  // namespace abstracts::analysis
