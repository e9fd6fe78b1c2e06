#include "engine/author_terms.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>

#include "engine/analysis/analyzer.h"
#include "engine/schema.h"

namespace abstracts::author_terms {
namespace {

constexpr char kFacetSeparator = '\x1f';

// A letter, digit or combining mark: what a word of a name is made of.
bool in_word(UChar32 cp) { return u_isalnum(cp) || (U_GET_GC_MASK(cp) & U_GC_M_MASK) != 0; }

// The runs of word characters of `s`, as written.
std::vector<std::string_view> raw_words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = std::string_view::npos;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    UChar32 cp = 0;
    U8_NEXT(s.data(), i, s.size(), cp);
    const bool word = cp >= 0 && in_word(cp);
    if (word && start == std::string_view::npos) start = at;
    if (!word && start != std::string_view::npos) {
      out.push_back(s.substr(start, at - start));
      start = std::string_view::npos;
    }
  }
  if (start != std::string_view::npos) out.push_back(s.substr(start));
  return out;
}

// The words of `s` between spaces, punctuation kept ("J.-P.", "van").
std::vector<std::string_view> spaced_words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '~' || s[i] == '\t' || s[i] == '\n')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '~' && s[i] != '\t' && s[i] != '\n') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

// The particles of family names ("van Gils", "El-Sayed", "del Polo", "d'Enterria"):
// never a name by themselves, so a word of a family name of several that is one
// gets no term of its own.
bool is_particle(std::string_view folded) {
  static constexpr std::array<std::string_view, 36> kParticles = {
      "a",   "al",  "ap",    "av",  "ben", "bin", "d",  "da", "dal", "das", "de",  "degli",
      "dei", "del", "della", "den", "der", "des", "di", "do", "dos", "du",  "e",   "el",
      "ibn", "l",   "la",    "le",  "les", "lo",  "t",  "te", "ten", "ter", "van", "von"};
  return std::find(kParticles.begin(), kParticles.end(), folded) != kParticles.end();
}

// "van", "de" as a word of its own, in lower case as particles are written.
bool is_lower_particle(std::string_view written) {
  return !written.empty() && written[0] >= 'a' && written[0] <= 'z' &&
         is_particle(analysis::Analyzer::fold(written));
}

// The number of code points of `s`, and whether all its letters are upper case.
std::size_t code_points(std::string_view s, bool& upper) {
  std::size_t n = 0;
  upper = true;
  for (std::size_t i = 0; i < s.size(); ++n) {
    UChar32 cp = 0;
    U8_NEXT(s.data(), i, s.size(), cp);
    if (cp < 0 || (u_isalpha(cp) && !u_isupper(cp))) upper = false;
  }
  return n;
}

// The first character of folded `s`.
std::string first_letter(std::string_view s) {
  std::size_t i = 0;
  UChar32 cp = 0;
  U8_NEXT(s.data(), i, s.size(), cp);
  return std::string(s.substr(0, i));
}

bool is_suffix(std::string_view folded) {
  return folded == "jr" || folded == "sr" || folded == "ii" || folded == "iii" || folded == "iv";
}

// The family name forms an author is found by: the whole name's words, each
// word of a name of several but the particles, and the words run together;
// the same again without a suffix the source left in it ("Finger Jr.").
std::vector<std::string> family_forms(std::vector<std::string> family) {
  std::vector<std::string> forms;
  for (bool again = true; again && !family.empty();) {
    forms.push_back(join(family, " "));
    if (family.size() > 1) {
      for (std::size_t k = 0; k < family.size(); ++k) {
        // The last word always: "Le" of "Tran Le" is a name, "le" of "Le Roux" a particle.
        if ((k + 1 == family.size() || !is_particle(family[k])) && !is_suffix(family[k]))
          forms.push_back(family[k]);
      }
      forms.push_back(join(family, ""));
    }
    again = family.size() > 1 && is_suffix(family.back());
    family.pop_back();
  }
  std::sort(forms.begin(), forms.end());
  forms.erase(std::unique(forms.begin(), forms.end()), forms.end());
  return forms;
}

std::string name_term(std::string_view family, std::string_view given) {
  std::string value(family);
  value += ',';
  value += given;
  return schema::field_term(schema::kFullNamePrefix, value);
}

// The XN terms a query for `family` with `given` names looks for.
void add_query_terms(std::string_view family, std::string_view given,
                     std::vector<std::string>& out) {
  const std::string key = family_key(family);
  const auto parts = given_parts(given);
  if (key.empty() || parts.empty()) return;
  const std::string letter = first_letter(parts[0].text);
  if (parts[0].initial) {
    out.push_back(name_term(key, letter));  // any given name that starts with it
  } else {
    out.push_back(name_term(key, parts[0].text));
    out.push_back(name_term(key, letter + "."));  // a source that gives only the initial
  }
}

// Whether a word as typed is initials only: "P.", "P", "PM", "J.-P.".
bool initials_only(std::string_view written) {
  const auto parts = given_parts(written);
  return !parts.empty() &&
         std::all_of(parts.begin(), parts.end(), [](const GivenPart& p) { return p.initial; });
}

}  // namespace

std::vector<std::string> words(std::string_view name) {
  std::vector<std::string> out;
  for (auto w : raw_words(name)) {
    std::string folded = analysis::Analyzer::fold(w);
    if (!folded.empty()) out.push_back(std::move(folded));
  }
  return out;
}

std::vector<GivenPart> given_parts(std::string_view given) {
  std::vector<GivenPart> out;
  for (auto chunk : spaced_words(given)) {
    const bool dotted = chunk.find('.') != std::string_view::npos;
    for (auto w : raw_words(chunk)) {
      bool upper = false;
      const std::size_t n = code_points(w, upper);
      const std::string folded = analysis::Analyzer::fold(w);
      if (folded.empty()) continue;
      if (n == 1) {
        out.push_back({folded, true});
      } else if (!dotted && upper && n <= 3) {  // "KR": Web of Science's and PubMed's initials
        for (std::size_t i = 0; i < w.size();) {
          const std::size_t at = i;
          UChar32 cp = 0;
          U8_NEXT(w.data(), i, w.size(), cp);
          std::string letter = analysis::Analyzer::fold(w.substr(at, i - at));
          if (!letter.empty()) out.push_back({std::move(letter), true});
        }
      } else {
        out.push_back({folded, false});
      }
    }
  }
  return out;
}

std::string family_key(std::string_view family) { return join(words(family), " "); }

std::vector<std::string> index_terms(const Author& author) {
  std::string_view family = author.family, given = author.given;
  std::string moved;
  if (family.empty()) std::swap(family, given);
  // {family: "Gils", given: "Marc van"}: CSL's particle, written with the given
  // names, belongs to the family name as people type it.
  const auto given_words = spaced_words(given);
  std::size_t keep = given_words.size();
  while (keep > 1 && is_lower_particle(given_words[keep - 1])) --keep;
  if (keep < given_words.size()) {
    moved = std::string(
        given.substr(static_cast<std::size_t>(given_words[keep].begin() - given.begin())));
    (moved += ' ') += family;
    family = moved;
    given = given.substr(0, static_cast<std::size_t>(given_words[keep - 1].end() - given.begin()));
  }
  const auto forms = family_forms(words(family));
  std::vector<std::string> out;
  for (const auto& form : forms) out.push_back(schema::field_term(schema::kAuthorPrefix, form));
  const auto parts = given_parts(given);
  if (parts.empty()) return out;
  const std::string letter = first_letter(parts[0].text);
  for (const auto& form : forms) {
    out.push_back(name_term(form, letter));
    out.push_back(name_term(form, parts[0].initial ? letter + "." : parts[0].text));
  }
  return out;
}

std::vector<std::string> query_terms(std::string_view typed) {
  std::vector<std::string> out;
  const std::string key = family_key(typed);
  if (key.empty()) return out;
  out.push_back(schema::field_term(schema::kAuthorPrefix, key));
  if (const auto comma = typed.find(','); comma != std::string_view::npos) {
    add_query_terms(typed.substr(0, comma), typed.substr(comma + 1), out);
  } else {
    const auto w = spaced_words(typed);
    for (std::size_t k = 1; k < w.size(); ++k) {
      // "van der Berg" is a family name: "van" is no given name, nor "van der".
      if (is_lower_particle(w[k - 1])) continue;
      const auto split = static_cast<std::size_t>(w[k].begin() - typed.begin());
      const std::string_view before = typed.substr(0, split), after = typed.substr(split);
      add_query_terms(after, before, out);
      if (initials_only(after)) add_query_terms(before, after, out);  // "Romatschke P"
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string facet_term(const Author& author) {
  auto family = words(author.family.empty() ? author.given : author.family);
  while (family.size() > 1 && is_suffix(family.back())) family.pop_back();
  std::string value = family.empty() ? std::string() : family.back();
  value += kFacetSeparator;
  value += author.family;
  value += kFacetSeparator;
  value += author.given;
  return schema::field_term(schema::kAuthorFacetPrefix, value);
}

FacetName parse_facet_value(std::string_view value) {
  FacetName name;
  const auto first = value.find(kFacetSeparator);
  if (first == std::string_view::npos) {  // cut short within the key
    name.key = std::string(value);
    name.author.family = std::string(value);
    return name;
  }
  name.key = std::string(value.substr(0, first));
  const std::string_view rest = value.substr(first + 1);
  const auto second = rest.find(kFacetSeparator);
  name.author.family = std::string(rest.substr(0, second));
  if (second != std::string_view::npos) name.author.given = std::string(rest.substr(second + 1));
  return name;
}

bool compatible(const std::vector<GivenPart>& a, const std::vector<GivenPart>& b) {
  if (a.empty() || b.empty()) return false;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (!a[i].initial && !b[i].initial) {
      if (a[i].text != b[i].text) return false;
    } else if (first_letter(a[i].text) != first_letter(b[i].text)) {
      return false;
    }
  }
  return true;
}

}  // namespace abstracts::author_terms
