#include "query/acronym_table.h"

#include <algorithm>

#include "engine/schema.h"

namespace abstracts::query {

AcronymTable AcronymTable::load(const Xapian::Database& db, const analysis::Analyzer& analyzer) {
  AcronymTable table;
  // Counts per written short form, to display the most common spelling.
  std::map<std::string, std::map<std::string, unsigned>> short_spellings;
  std::map<std::string, std::map<std::vector<std::string>, std::map<std::string, unsigned>>> longs;
  const std::string prefix(schema::kAcronymPrefix);
  for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) {
    const std::string term = *t;  // the iterator returns a temporary
    std::string_view rest = std::string_view(term).substr(prefix.size());
    auto sep = rest.find(schema::kAcronymSeparator);
    if (sep == std::string_view::npos) continue;
    std::string sf(rest.substr(0, sep));
    std::string lf(rest.substr(sep + 1));
    auto sf_terms = analyzer.terms(sf);
    auto lf_terms = analyzer.terms(lf);
    if (sf_terms.size() != 1 || lf_terms.empty()) continue;
    unsigned count = t.get_termfreq();
    short_spellings[sf_terms[0]][sf] += count;
    longs[sf_terms[0]][lf_terms][lf] += count;
  }
  for (auto& [term, forms] : longs) {
    Acronym a;
    a.term = term;
    const auto& spellings = short_spellings[term];
    a.surface = std::max_element(spellings.begin(), spellings.end(), [](auto& x, auto& y) {
                  return x.second < y.second;
                })->first;
    unsigned total = 0;
    for (auto& [terms, surfaces] : forms) {
      LongForm lf;
      lf.terms = terms;
      for (auto& [surface, n] : surfaces) {
        lf.count += n;
        if (lf.surface.empty() || n > surfaces.at(lf.surface)) lf.surface = surface;
      }
      total += lf.count;
      a.long_forms.push_back(std::move(lf));
    }
    std::stable_sort(a.long_forms.begin(), a.long_forms.end(),
                     [](const LongForm& x, const LongForm& y) { return x.count > y.count; });
    for (std::size_t i = 0; i < a.long_forms.size() && i < kMaxLongForms; ++i) {
      auto& lf = a.long_forms[i];
      lf.used = lf.count >= kMinShare * total;
      if (lf.used) table.short_by_long_[lf.terms].push_back(term);
    }
    table.by_term_.emplace(term, std::move(a));
  }
  return table;
}

const AcronymTable::Acronym* AcronymTable::find_short(const std::string& term) const {
  auto it = by_term_.find(term);
  return it == by_term_.end() ? nullptr : &it->second;
}

std::vector<const AcronymTable::Acronym*> AcronymTable::find_long(const std::vector<std::string>& terms) const {
  std::vector<const Acronym*> out;
  auto it = short_by_long_.find(terms);
  if (it == short_by_long_.end()) return out;
  for (const auto& t : it->second) out.push_back(find_short(t));
  return out;
}

}  // namespace abstracts::query
