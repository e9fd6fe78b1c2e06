#include "query/facets.h"

#include <algorithm>
#include <string>

#include "engine/schema.h"

namespace abstracts::query {

std::vector<FacetCount> count_facet(const Xapian::Database& db, Facet by, std::size_t limit) {
  std::string_view prefix;
  switch (by) {
    case Facet::kYear:
      prefix = schema::kYearPrefix;
      break;
    case Facet::kVenue:
      prefix = schema::kVenueFacetPrefix;
      break;
    case Facet::kCategory:
      prefix = schema::kCategoryFacetPrefix;
      break;
    case Facet::kAuthor:
      prefix = schema::kAuthorFacetPrefix;
      break;
    case Facet::kTag:
      prefix = schema::kTagFacetPrefix;
      break;
    case Facet::kCollection:
      prefix = schema::kCollectionFacetPrefix;
      break;
  }
  const std::string p(prefix);
  std::vector<FacetCount> counts;
  for (auto t = db.allterms_begin(p); t != db.allterms_end(p); ++t) {
    counts.push_back({(*t).substr(p.size()), t.get_termfreq()});
  }
  auto before = [by](const FacetCount& a, const FacetCount& b) {
    // Years are four digits, so their strings sort as their numbers.
    if (by == Facet::kYear) return a.value > b.value;
    return a.abstracts != b.abstracts ? a.abstracts > b.abstracts : a.value < b.value;
  };
  if (limit != 0 && limit < counts.size()) {
    std::partial_sort(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(limit), counts.end(), before);
    counts.resize(limit);
  } else {
    std::sort(counts.begin(), counts.end(), before);
  }
  return counts;
}

}  // namespace abstracts::query
