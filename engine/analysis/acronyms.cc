#include "engine/analysis/acronyms.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

namespace abstracts::analysis {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

bool is_stop_word(std::string_view w) {
  static const std::unordered_set<std::string_view> kStop = {
      "of", "the", "and", "for", "in", "on", "to", "a", "an", "with", "by", "from", "via", "&"};
  std::string l;
  for (char c : w) l += lower(c);
  return kStop.count(l) != 0;
}

bool is_short_form(std::string_view sf) {
  if (sf.size() < 2 || sf.size() > 10 || !is_alnum(sf[0])) return false;
  int capitals = 0;
  for (char c : sf) {
    if (std::isupper(static_cast<unsigned char>(c))) ++capitals;
    if (!is_alnum(c) && c != '-') return false;
  }
  return capitals >= 2;
}

struct Word {
  std::size_t begin, end;  // byte range in the text
};

// The words (split on spaces and hyphens) of text[0, end), last `max_words` of
// them, stopping at punctuation that ends a clause.
std::vector<Word> words_before(std::string_view text, std::size_t end, std::size_t max_words) {
  std::vector<Word> words;
  std::size_t i = end;
  while (i > 0 && words.size() < max_words) {
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '-')) --i;
    if (i == 0) break;
    char c = text[i - 1];
    if (c == ',' || c == '.' || c == ';' || c == ':' || c == '(' || c == ')' || c == '"') break;
    std::size_t e = i;
    while (i > 0 && text[i - 1] != ' ' && text[i - 1] != '-' && text[i - 1] != ',' &&
           text[i - 1] != '(' && text[i - 1] != ';' && text[i - 1] != ':') {
      --i;
    }
    words.push_back({i, e});
  }
  std::reverse(words.begin(), words.end());
  return words;
}

// Letters of the short form, lower case, without a plural "s" ("LLMs" -> "llm").
std::string letters_of(std::string_view sf) {
  std::string s;
  for (char c : sf) {
    if (std::isalpha(static_cast<unsigned char>(c))) s += lower(c);
  }
  if (sf.size() >= 3 && sf.back() == 's' && std::isupper(static_cast<unsigned char>(sf[sf.size() - 2]))) {
    s.pop_back();
  }
  return s;
}

// Initials: index of the first word of the long form, or -1.
long match_initials(std::string_view text, const std::vector<Word>& words, const std::string& letters) {
  long wi = static_cast<long>(words.size()) - 1;
  long si = static_cast<long>(letters.size()) - 1;
  while (si >= 0 && wi >= 0) {
    std::string_view w = text.substr(words[wi].begin, words[wi].end - words[wi].begin);
    if (lower(w[0]) == letters[si]) {
      --si;
      --wi;
    } else if (is_stop_word(w)) {
      --wi;
    } else {
      return -1;
    }
  }
  return si < 0 ? wi + 1 : -1;
}

// Schwartz & Hearst: byte offset in `lf` where the long form starts, or npos.
std::size_t match_letters(std::string_view lf, std::string_view sf) {
  long s = static_cast<long>(sf.size()) - 1;
  long l = static_cast<long>(lf.size()) - 1;
  while (s >= 0) {
    char c = lower(sf[s]);
    if (!is_alnum(c)) {
      --s;
      continue;
    }
    while ((l >= 0 && lower(lf[l]) != c) || (s == 0 && l > 0 && is_alnum(lf[l - 1]))) --l;
    if (l < 0) return std::string_view::npos;
    --l;
    --s;
  }
  auto space = lf.find_last_of(" -", static_cast<std::size_t>(l + 1));
  return space == std::string_view::npos ? 0 : space + 1;
}

}  // namespace

std::vector<AcronymDefinition> find_acronym_definitions(std::string_view text) {
  std::vector<AcronymDefinition> found;
  for (std::size_t open = text.find('('); open != std::string_view::npos; open = text.find('(', open + 1)) {
    std::size_t close = text.find(')', open);
    if (close == std::string_view::npos) break;
    std::string_view sf = text.substr(open + 1, close - open - 1);
    if (!is_short_form(sf) || open == 0) continue;
    std::string letters = letters_of(sf);
    if (letters.size() < 2) continue;
    std::size_t max_words = std::min(sf.size() + 5, sf.size() * 2);
    std::vector<Word> words = words_before(text, open, max_words);
    if (words.empty()) continue;
    std::size_t end = words.back().end;
    std::size_t begin = std::string_view::npos;
    if (long first = match_initials(text, words, letters); first >= 0) {
      begin = words[first].begin;
    } else {
      std::string_view span = text.substr(words.front().begin, end - words.front().begin);
      std::string sf_letters(sf);
      if (letters.size() < sf.size() && sf.back() == 's') sf_letters.pop_back();
      if (auto at = match_letters(span, sf_letters); at != std::string_view::npos) {
        begin = words.front().begin + at;
      }
    }
    if (begin == std::string_view::npos) continue;
    // Markdown emphasis around the long form ("**Discrete Latent Reasoning**") is not part of it.
    while (begin < end && !is_alnum(text[begin])) ++begin;
    while (end > begin && !is_alnum(text[end - 1])) --end;
    std::string_view lf = text.substr(begin, end - begin);
    if (lf.size() <= sf.size() || is_stop_word(lf.substr(0, lf.find(' ')))) continue;
    found.push_back({std::string(sf), std::string(lf)});
  }
  return found;
}

}  // namespace abstracts::analysis
