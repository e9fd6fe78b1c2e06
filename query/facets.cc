#include "query/facets.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "engine/schema.h"
#include "query/ranking.h"

namespace abstracts::query {

namespace {

std::string_view prefix_of(Facet by) {
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
  return prefix;
}

// Orders `counts` as Index::facet_counts documents, cut to `limit` (0: all).
std::vector<FacetCount> ordered(std::vector<FacetCount> counts, Facet by, std::size_t limit) {
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

// Counts the facet terms of each match it is shown.
class FacetSpy : public Xapian::MatchSpy {
 public:
  FacetSpy(std::string prefix, const Deadline& deadline) : prefix_(std::move(prefix)), deadline_(deadline) {}
  void operator()(const Xapian::Document& doc, double) override {
    deadline_.tick();
    auto t = doc.termlist_begin();
    for (t.skip_to(prefix_); t != doc.termlist_end() && (*t).starts_with(prefix_); ++t) ++counts_[*t];
  }
  std::unordered_map<std::string, Xapian::doccount> counts_;

 private:
  std::string prefix_;
  const Deadline& deadline_;
};

}  // namespace

std::vector<FacetCount> count_facet(const Xapian::Database& db, Facet by, std::size_t limit) {
  const std::string p(prefix_of(by));
  std::vector<FacetCount> counts;
  for (auto t = db.allterms_begin(p); t != db.allterms_end(p); ++t) {
    counts.push_back({(*t).substr(p.size()), t.get_termfreq()});
  }
  return ordered(std::move(counts), by, limit);
}

std::vector<FacetCount> count_facet_of_matches(const Xapian::Database& db, Xapian::Enquire& enquire,
                                               PositionChecks* checks, Facet by, std::size_t limit,
                                               const Deadline& deadline) {
  const std::string p(prefix_of(by));
  FacetSpy spy(p, deadline);
  enquire.add_matchspy(&spy);
  all_matches(enquire, checks, db.get_doccount());
  enquire.clear_matchspies();
  std::vector<FacetCount> counts;
  for (auto& [term, n] : spy.counts_) counts.push_back({term.substr(p.size()), n});
  return ordered(std::move(counts), by, limit);
}

}  // namespace abstracts::query
