#include "indexer/names.h"

#include <charconv>

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

int number(std::string_view s) {
  int n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  return ec == std::errc() && end == s.data() + s.size() ? n : -1;
}

}  // namespace

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
  if (const auto comma = name.find(','); comma != std::string_view::npos) {
    // "Last, First" or "Last, Jr., First".
    Author a{std::string(trim(name.substr(0, comma), kSpaceAndLineBreaks)),
             std::string(trim(name.substr(comma + 1), kSpaceAndLineBreaks))};
    return a;
  }
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

std::vector<Author> parse_name_list(std::string_view names) {
  std::vector<Author> out;
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
        out.push_back(parse_name(part));
        continue;
      }
    }
    while (!part.empty()) {
      const auto next = part.find(',');
      std::string_view one = trim(part.substr(0, next), kSpaceAndLineBreaks);
      part = next == std::string_view::npos ? std::string_view() : part.substr(next + 1);
      if (one.empty()) continue;
      if (is_suffix(one) && !out.empty()) {  // "A. Smith, Jr., B. Jones"
        out.back().given += ", " + std::string(one);
        continue;
      }
      out.push_back(parse_name(one));
    }
  }
  return out;
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
