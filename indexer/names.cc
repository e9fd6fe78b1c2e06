#include "indexer/names.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <charconv>
#include <optional>

#include "engine/analysis/latex.h"
#include "engine/analysis/unicode_text.h"
#include "indexer/line_source.h"

namespace abstracts::indexer {
namespace {

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::string join(const std::vector<std::string_view>& parts, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (!out.empty()) out += ' ';
    out += parts[i];
  }
  return out;
}

bool is_suffix(std::string_view w) {
  return w == "Jr." || w == "Jr" || w == "Sr." || w == "Sr" || w == "II" || w == "III" || w == "IV";
}

// "van", "der", "de", "la": a word of the family name's particle (BibTeX's "von" part).
bool is_particle(std::string_view w) { return !w.empty() && w[0] >= 'a' && w[0] <= 'z'; }

// "ATLAS Collaboration", "World Health Organization", "Particle Data Group": a
// name with one of these words is an organisation's, one name that is never
// split into given and family names.
bool is_organisation(std::string_view name) {
  static constexpr std::string_view kWords[] = {
      "academy",    "agency",      "alliance",   "association", "board",       "center",
      "centre",     "collaboration", "collaborations", "commission", "committee", "company",
      "consortia",  "consortium",  "corporation", "council",    "department",  "federation",
      "foundation", "group",       "inc",        "initiative",  "institute",   "institution",
      "investigators", "laboratory", "ltd",      "ministry",    "network",     "office",
      "organisation", "organization", "programme", "project",   "society",     "team",
      "university"};
  std::size_t i = 0;
  while (i < name.size()) {
    while (i < name.size() && !analysis::is_ascii_letter(name[i])) ++i;
    const std::size_t start = i;
    while (i < name.size() && analysis::is_ascii_letter(name[i])) ++i;
    std::string word(name.substr(start, i - start));
    for (char& c : word) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords)) return true;
  }
  return false;
}

// An organisation's name as it should be kept: "on behalf of the ALICE
// collaboration" names the ALICE collaboration.
std::string organisation(std::string_view name) {
  for (std::string_view lead : {"on behalf of the ", "on behalf of "}) {
    if (name.size() > lead.size() && name.substr(0, lead.size()) == lead) {
      name.remove_prefix(lead.size());
      break;
    }
  }
  return std::string(name);
}

// Where a name's "Last, First" comma is: its first comma outside braces, as in
// BibTeX ("{University of California, Berkeley}," is one name, as `abstracts
// export` writes it to RIS); the first comma at all if a brace is left open.
std::size_t first_comma(std::string_view name) {
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '\\') {
      ++i;  // "\{", "\,": an escaped character
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      return i;
    }
  }
  return depth == 0 ? std::string_view::npos : name.find(',');
}

int number(std::string_view s) {
  int n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  return ec == std::errc() && end == s.data() + s.size() ? n : -1;
}

// The words of a BibTeX name list, one at a time: cut at white space and ties
// at brace depth 0; a comma at depth 0 is a word of its own. A brace left open
// holds the rest.
class BibtexWords {
 public:
  explicit BibtexWords(std::string_view s) : s_(s) {}

  // The next word; false after the last.
  bool next(std::string_view& word) {
    std::size_t start = std::string_view::npos;
    for (; i_ < s_.size(); ++i_) {
      const char c = s_[i_];
      const bool tie = c == '~' && (i_ == 0 || s_[i_ - 1] != '\\');  // "\~n" is an accent
      if (depth_ == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || tie)) {
        if (start == std::string_view::npos) continue;
        word = s_.substr(start, i_ - start);
        ++i_;
        return true;
      }
      if (depth_ == 0 && c == ',') {
        if (start != std::string_view::npos) {  // the word before it; the comma on the next call
          word = s_.substr(start, i_ - start);
        } else {
          word = s_.substr(i_, 1);
          ++i_;
        }
        return true;
      }
      if (start == std::string_view::npos) start = i_;
      if (c == '{') ++depth_;
      if (c == '}' && depth_ > 0) --depth_;
    }
    if (start == std::string_view::npos) return false;
    word = s_.substr(start);
    return true;
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

using analysis::is_ascii_letter;

// Whether the letter at `i` of UTF-8 `text` is in lower case, stepping `i` past
// it: true or false for a letter, nothing for any other character.
std::optional<bool> letter_case(std::string_view text, std::size_t& i) {
  UChar32 cp = 0;
  U8_NEXT(text.data(), i, text.size(), cp);
  if (cp < 0 || !u_isalpha(cp)) return std::nullopt;
  return u_islower(cp) != 0;
}

// Whether a word of a BibTeX name starts in lower case, as BibTeX tells it: by
// its first letter at brace depth 0. A group "{\...}" at depth 0 is a special
// character, whose case is that of the letter it makes ("{\o}", "{\'E}",
// "{\v{C}}": the LaTeX converter's ø, É, Č); another braced group has no case
// and is passed over.
bool starts_lower_case(std::string_view w) {
  int depth = 0;
  for (std::size_t i = 0; i < w.size();) {
    const char c = w[i];
    if (c == '{' && depth == 0 && w.substr(i + 1, 1) == "\\") {
      std::size_t end = i + 1;  // past the group's closing brace, or the word's end
      for (int d = 1; end < w.size() && d > 0; ++end) {
        if (w[end] == '{') ++d;
        if (w[end] == '}') --d;
      }
      const std::string made = analysis::latex_to_text(w.substr(i, end - i));
      for (std::size_t k = 0; k < made.size();) {
        if (const auto lower = letter_case(made, k)) return *lower;
      }
      return false;
    }
    if (c == '{' || c == '}') {
      depth = std::max(0, depth + (c == '{' ? 1 : -1));
      ++i;
      continue;
    }
    const auto lower = letter_case(w, i);
    if (depth == 0 && lower) return *lower;
  }
  return false;
}

// A name of one to three parts (its words between commas): "First von Last"
// (von, and so the family name, starts at the first word in lower case short of
// the last word), "von Last, First" or "von Last, Jr, First".
Author plain_name(const std::vector<std::vector<std::string_view>>& parts) {
  if (parts.size() == 1) {
    const auto& w = parts[0];
    if (const std::string whole = join(w, 0, w.size()); is_organisation(whole)) return {organisation(whole), {}};
    std::size_t family = w.empty() ? 0 : w.size() - 1;
    for (std::size_t k = 0; k + 1 < w.size(); ++k) {
      if (starts_lower_case(w[k])) {
        family = k;
        break;
      }
    }
    return {join(w, family, w.size()), join(w, 0, family)};
  }
  Author a{join(parts[0], 0, parts[0].size()), join(parts.back(), 0, parts.back().size())};
  // "{collaboration}, on behalf of the ALICE": an organisation's name cut in two.
  if (is_organisation(a.family)) return {organisation(a.given + " " + a.family), {}};
  if (parts.size() == 3 && !parts[1].empty()) {
    a.given += (a.given.empty() ? "" : ", ") + join(parts[1], 0, parts[1].size());
  }
  return a;
}

// biblatex's extended name format, as Zotero's Better BibTeX writes names with a
// prefix: "family=Jong, given=P., prefix=de, useprefix=true", each part key=value
// (a value may be quoted). False, and `a` untouched, unless every part is such a
// pair and one names the family or given names.
bool extended_name(const std::vector<std::vector<std::string_view>>& parts, Author& a) {
  std::string family, given, prefix, suffix;
  bool named = false;
  for (const auto& part : parts) {
    if (part.empty()) continue;
    const std::string text = join(part, 0, part.size());
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    const std::string_view key = trim(std::string_view(text).substr(0, eq), " ");
    if (!std::all_of(key.begin(), key.end(),
                     [](char c) { return is_ascii_letter(c) || c == '-'; })) {
      return false;
    }
    std::string_view value = trim(std::string_view(text).substr(eq + 1), " ");
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    std::string* slot = key == "family"   ? &family
                        : key == "given"  ? &given
                        : key == "prefix" ? &prefix
                        : key == "suffix" ? &suffix
                                          : nullptr;
    if (slot == nullptr) continue;  // useprefix, giveni, ...
    *slot = value;
    named = named || key == "family" || key == "given";
  }
  if (!named) return false;
  // "d'" (or "{d'}") joins the family name without a space: "d'Enterria".
  const std::string_view bare = trim(prefix, "{}");
  const bool elided = bare.ends_with('\'') || bare.ends_with("\u2019");
  a.family =
      prefix.empty() || family.empty() ? prefix + family : prefix + (elided ? "" : " ") + family;
  a.given = given;
  if (!suffix.empty()) a.given += (a.given.empty() ? "" : ", ") + suffix;
  return true;
}

}  // namespace

void split_bibtex_names(std::string_view names, Abstract& fields) {
  auto is_and = [](std::string_view w) {
    return w.size() == 3 && (w[0] | 0x20) == 'a' && (w[1] | 0x20) == 'n' && (w[2] | 0x20) == 'd';
  };
  BibtexWords words(names);
  std::vector<std::vector<std::string_view>> parts;  // of the name being read, split at its commas
  for (bool more = true; more;) {
    parts.assign(1, {});
    std::string_view w;
    while ((more = words.next(w)) && !is_and(w)) {
      if (w == ",") {
        parts.emplace_back();
      } else {
        parts.back().push_back(w);
      }
    }
    Author a;
    if (!extended_name(parts, a)) {
      // At most three parts (the commas past the second are spaces), and the
      // empty ones at the end dropped.
      for (std::size_t k = 3; k < parts.size(); ++k) {
        parts[2].insert(parts[2].end(), parts[k].begin(), parts[k].end());
      }
      parts.resize(std::min<std::size_t>(parts.size(), 3));
      while (parts.size() > 1 && parts.back().empty()) parts.pop_back();
      a = plain_name(parts);
    }
    if (a.family.empty() && a.given.empty()) continue;
    if (a.given.empty() && a.family == "others") continue;
    add_author(fields, [&] { return std::move(a); });
  }
}

std::vector<Author> split_bibtex_names(std::string_view names) {
  Abstract fields;
  split_bibtex_names(names, fields);
  return std::move(fields.authors);
}

int month_number(std::string_view name) {
  static constexpr std::string_view kMonths[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                                 "jul", "aug", "sep", "oct", "nov", "dec"};
  if (name.size() < 3) return 0;
  std::string lower;
  for (char c : name.substr(0, 3)) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (int m = 0; m < 12; ++m) {
    if (lower == kMonths[m]) return m + 1;
  }
  return 0;
}

Author parse_name(std::string_view name) {
  name = trim(name, kSpaceAndLineBreaks);
  if (const auto comma = first_comma(name); comma != std::string_view::npos) {
    // "Last, First" or "Last, Jr., First".
    Author a{std::string(trim(name.substr(0, comma), kSpaceAndLineBreaks)),
             std::string(trim(name.substr(comma + 1), kSpaceAndLineBreaks))};
    // "Collaboration, ALICE", "The ATLAS Collaboration," (RIS's "Last, First").
    if (is_organisation(a.family)) return {organisation(a.given.empty() ? a.family : a.given + " " + a.family), {}};
    return a;
  }
  if (is_organisation(name)) return {organisation(name), {}};
  auto w = words(name);
  if (w.size() <= 1) return {std::string(name), {}};
  std::size_t last = w.size() - 1;
  std::string suffix;
  if (is_suffix(w[last]) && last > 0) {
    suffix = std::string(w[last]);
    --last;
  }
  std::size_t family_start = last;
  while (family_start > 1 && is_particle(w[family_start - 1])) --family_start;
  if (family_start == 1 && is_particle(w[0])) family_start = 0;  // "van Berg"
  Author a{join(w, family_start, last + 1), join(w, 0, family_start)};
  if (!suffix.empty()) a.given += (a.given.empty() ? "" : ", ") + suffix;
  return a;
}

void parse_name_list(std::string_view names, Abstract& fields) {
  // " and " separates names (BibTeX: only it); a part is one "Last, First" name
  // when one word (and its particles) comes before its comma, else a list
  // separated by commas ("C. Balázs, E. L. Berger and P. Nadolsky").
  std::string_view rest = names;
  while (!rest.empty()) {
    const auto and_at = rest.find(" and ");
    std::string_view part = trim(rest.substr(0, and_at), kSpaceAndLineBreaks);
    rest = and_at == std::string_view::npos ? std::string_view() : rest.substr(and_at + 5);
    const auto comma = part.find(',');
    if (comma != std::string_view::npos) {
      std::size_t capitalised = 0;
      for (auto w : words(part.substr(0, comma))) capitalised += !is_particle(w);
      if (capitalised == 1) {
        add_author(fields, [&] { return parse_name(part); });
        continue;
      }
    }
    while (!part.empty()) {
      const auto next = part.find(',');
      std::string_view one = trim(part.substr(0, next), kSpaceAndLineBreaks);
      part = next == std::string_view::npos ? std::string_view() : part.substr(next + 1);
      if (one.empty()) continue;
      // "A. Smith, Jr., B. Jones": the suffix of the name before, if it was kept.
      if (is_suffix(one) && fields.author_count != 0) {
        if (fields.authors.size() == fields.author_count) {
          fields.authors.back().given += ", " + std::string(one);
        }
        continue;
      }
      add_author(fields, [&] { return parse_name(one); });
    }
  }
}

std::vector<Author> parse_name_list(std::string_view names) {
  Abstract fields;
  parse_name_list(names, fields);
  return std::move(fields.authors);
}

bool parse_date(std::string_view text, int& year, int& month, int& day) {
  year = month = day = 0;
  // Split on anything that is not a letter or digit: "2007-04-02", "2007/04/02/",
  // "Mon, 2 Apr 2007 19:18:42 GMT".
  std::vector<std::string_view> parts;
  std::size_t i = 0;
  while (i < text.size()) {
    auto alnum = [&](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    while (i < text.size() && !alnum(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && alnum(text[i])) ++i;
    if (i > start) parts.push_back(text.substr(start, i - start));
  }
  std::size_t at = parts.size();
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const int n = number(parts[k]);
    if (parts[k].size() == 4 && n >= 1000 && n <= 2999) {
      year = n;
      at = k;
      break;
    }
  }
  if (year == 0) return false;
  if (at == 0) {  // ISO order: year, month, day
    if (parts.size() > 1) month = number(parts[1]) > 0 ? number(parts[1]) : month_number(parts[1]);
    if (parts.size() > 2) day = number(parts[2]);
  } else {  // "2 Apr 2007": day and month before the year
    month = month_number(parts[at - 1]);
    if (at >= 2) day = number(parts[at - 2]);
  }
  settle_date(year, month, day);
  return true;
}

void settle_date(int& year, int& month, int& day) {
  if (year < 1000 || year > 2999) year = month = day = 0;
  if (month < 1 || month > 12) month = day = 0;
  if (day < 1 || day > 31) day = 0;
}

}  // namespace abstracts::indexer
