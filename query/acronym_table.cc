#include "query/acronym_table.h"

#include <algorithm>

#include "engine/schema.h"

namespace abstracts::query {
namespace {

struct Definition {
  std::string written;  // "LLMs"
  std::string long_form;
  unsigned count;
};

// XD<sf term>\x1f<SF as written>\x1f<long form> -> (sf term, definition).
bool parse(const std::string& term, std::string& sf_term, Definition& d, unsigned count) {
  std::string_view rest = std::string_view(term).substr(schema::kAcronymPrefix.size());
  auto a = rest.find(schema::kAcronymSeparator);
  if (a == std::string_view::npos) return false;
  auto b = rest.find(schema::kAcronymSeparator, a + 1);
  if (b == std::string_view::npos) return false;
  sf_term = rest.substr(0, a);
  d = {std::string(rest.substr(a + 1, b - a - 1)), std::string(rest.substr(b + 1)), count};
  return true;
}

// One acronym from all its definitions: long forms grouped by their terms (so
// "large language model" and "large language models" are one), most frequent
// first, with the ambiguity rule applied.
Acronym build(const std::string& sf_term, const std::vector<Definition>& defs,
              const analysis::Analyzer& analyzer) {
  Acronym a;
  a.term = sf_term;
  std::map<std::string, unsigned> spellings;
  std::map<std::vector<std::string>, std::map<std::string, unsigned>> longs;
  for (const auto& d : defs) {
    spellings[d.written] += d.count;
    auto terms = analyzer.terms(d.long_form);
    if (!terms.empty()) longs[terms][d.long_form] += d.count;
  }
  if (spellings.empty()) return a;
  a.surface = std::max_element(spellings.begin(), spellings.end(), [](auto& x, auto& y) {
                return x.second < y.second;
              })->first;
  unsigned total = 0;
  for (auto& [terms, surfaces] : longs) {
    Acronym::LongForm lf;
    lf.terms = terms;
    unsigned best = 0;
    for (auto& [surface, n] : surfaces) {
      lf.count += n;
      if (n > best) {
        best = n;
        lf.surface = surface;
      }
    }
    total += lf.count;
    a.long_forms.push_back(std::move(lf));
  }
  std::stable_sort(a.long_forms.begin(), a.long_forms.end(),
                   [](const auto& x, const auto& y) { return x.count > y.count; });
  for (std::size_t i = 0; i < a.long_forms.size() && i < Acronym::kMaxLongForms; ++i) {
    a.long_forms[i].used = a.long_forms[i].count >= Acronym::kMinShare * total;
  }
  return a;
}

// The definitions of the acronym with this term, by a prefix scan.
std::vector<Definition> definitions_of(const Xapian::Database& db, const std::string& sf_term) {
  std::string prefix(schema::kAcronymPrefix);
  prefix += sf_term;
  prefix += schema::kAcronymSeparator;
  std::vector<Definition> defs;
  for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) {
    std::string sf;
    Definition d;
    if (parse(*t, sf, d, t.get_termfreq())) defs.push_back(std::move(d));
  }
  return defs;
}

// Whether `a` uses the long form with these terms.
bool uses(const Acronym& a, const std::vector<std::string>& terms) {
  return std::any_of(a.long_forms.begin(), a.long_forms.end(),
                     [&](const auto& lf) { return lf.used && lf.terms == terms; });
}

}  // namespace

AcronymTable AcronymTable::load(const Xapian::Database& db, const analysis::Analyzer& analyzer) {
  AcronymTable table;
  std::map<std::string, std::vector<Definition>> by_term;
  const std::string prefix(schema::kAcronymPrefix);
  for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) {
    std::string sf;
    Definition d;
    if (parse(*t, sf, d, t.get_termfreq())) by_term[sf].push_back(std::move(d));
  }
  for (const auto& [sf, defs] : by_term) table.by_term_.emplace(sf, build(sf, defs, analyzer));
  return table;
}

const Acronym* AcronymTable::find_short(const std::string& term) const {
  auto it = by_term_.find(term);
  return it == by_term_.end() ? nullptr : &it->second;
}

std::vector<const Acronym*> AcronymTable::find_long(const std::vector<std::string>& terms) const {
  std::vector<const Acronym*> out;
  for (const auto& [term, a] : by_term_) {
    if (uses(a, terms)) out.push_back(&a);
  }
  return out;
}

const Acronym* AcronymLookup::find_short(const std::string& term) const {
  auto it = found_.find(term);
  if (it == found_.end()) it = found_.emplace(term, build(term, definitions_of(db_, term), analyzer_)).first;
  return it->second.surface.empty() ? nullptr : &it->second;
}

std::vector<const Acronym*> AcronymLookup::find_long(const std::vector<std::string>& terms) const {
  std::string prefix(schema::kLongFormPrefix);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (i > 0) prefix += ' ';
    prefix += terms[i];
  }
  prefix += schema::kAcronymSeparator;
  std::vector<std::string> candidates;
  for (auto t = db_.allterms_begin(prefix); t != db_.allterms_end(prefix); ++t) {
    candidates.push_back((*t).substr(prefix.size()));
  }
  std::vector<const Acronym*> out;
  for (const auto& sf : candidates) {
    const Acronym* a = find_short(sf);
    if (a != nullptr && uses(*a, terms)) out.push_back(a);
  }
  return out;
}

}  // namespace abstracts::query
