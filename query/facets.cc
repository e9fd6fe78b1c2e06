#include "query/facets.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "engine/author_terms.h"
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

// One written form of a name: its facet term (prefix and all) and what it says.
struct NameForm {
  std::string term;
  Author author;
  std::vector<author_terms::GivenPart> given;
  std::string family;   // author_terms::family_key()
  std::string written;  // the whole name's folded words: one for "R. Granier" "de Cassagnac"
                        // and "R." "Granier de Cassagnac"
};

NameForm name_form(std::string term) {
  NameForm f;
  f.author = author_terms::parse_facet_value(
                 std::string_view(term).substr(schema::kAuthorFacetPrefix.size()))
                 .author;
  f.term = std::move(term);
  f.given = author_terms::given_parts(f.author.given);
  f.family = author_terms::family_key(f.author.family);
  f.written = author_terms::family_key(f.author.given + " " + f.author.family);
  return f;
}

// A family's forms past this many with one first initial are left unmerged:
// deciding costs the square of their number, and so many forms of one family
// and initial are too many to tell people apart anyway.
constexpr std::size_t kMaxFormsToMerge = 1000;

// The fullest of `forms`: more names written out, more given names, then the
// longer (accents kept: "José" over "Jose").
bool fuller(const NameForm& a, const NameForm& b) {
  auto full = [](const NameForm& f) {
    return std::count_if(f.given.begin(), f.given.end(), [](const auto& p) { return !p.initial; });
  };
  if (full(a) != full(b)) return full(a) > full(b);
  if (a.given.size() != b.given.size()) return a.given.size() > b.given.size();
  const std::size_t la = a.author.given.size() + a.author.family.size();
  const std::size_t lb = b.author.given.size() + b.author.family.size();
  return la != lb ? la > lb : a.term < b.term;
}

// The people among the forms of names of one facet key: forms of one family
// name merge when their given names are compatible (author_terms::compatible)
// and no form compatible with one of them is incompatible with another ("P.
// Romatschke" stays alone beside "Paul" and "Peter Romatschke"). Returns a
// group number per form.
std::vector<std::size_t> people(const std::vector<NameForm>& forms) {
  const std::size_t n = forms.size();
  std::vector<std::size_t> group(n);
  std::iota(group.begin(), group.end(), 0);
  auto find = [&](std::size_t i) {
    while (group[i] != i) i = group[i] = group[group[i]];
    return i;
  };
  // Forms of the same name (punctuation, case or accents apart) are one.
  std::vector<std::size_t> nodes;
  std::unordered_map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < n; ++i) {
    const auto [it, added] = by_name.emplace(forms[i].written, i);
    if (!added) {
      group[i] = it->second;
    } else if (!forms[i].given.empty()) {  // without a given name, no one to tell
      nodes.push_back(i);
    }
  }
  // Compatible forms share their family name and first initial: decide within each.
  std::unordered_map<std::string, std::vector<std::size_t>> by_initial;
  for (std::size_t i : nodes) {
    by_initial[forms[i].family + '\x1f' + forms[i].given[0].text.substr(0, 1)].push_back(i);
  }
  for (auto& [initial, ids] : by_initial) {
    const std::size_t m = ids.size();
    if (m < 2 || m > kMaxFormsToMerge) continue;
    std::vector<char> fits(m * m);
    for (std::size_t a = 0; a < m; ++a) {
      for (std::size_t b = a + 1; b < m; ++b) {
        fits[a * m + b] = fits[b * m + a] =
            author_terms::compatible(forms[ids[a]].given, forms[ids[b]].given);
      }
    }
    std::vector<char> ambiguous(m, 0);
    for (std::size_t a = 0; a < m; ++a) {
      std::vector<std::size_t> near;
      for (std::size_t b = 0; b < m; ++b) {
        if (fits[a * m + b]) near.push_back(b);
      }
      for (std::size_t x = 0; x < near.size() && !ambiguous[a]; ++x) {
        for (std::size_t y = x + 1; y < near.size(); ++y) {
          if (!fits[near[x] * m + near[y]]) {
            ambiguous[a] = 1;
            break;
          }
        }
      }
    }
    for (std::size_t a = 0; a < m; ++a) {
      for (std::size_t b = a + 1; b < m; ++b) {
        if (fits[a * m + b] && !ambiguous[a] && !ambiguous[b]) group[find(ids[a])] = find(ids[b]);
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) group[i] = find(i);
  return group;
}

// The name one author facet term says, as shown.
std::string shown_name(std::string_view term) {
  return display_name(author_terms::parse_facet_value(term.substr(schema::kAuthorFacetPrefix.size())).author);
}

// The key of an author's facet term: what comes before the first separator.
std::string_view key_of(std::string_view term) {
  term.remove_prefix(schema::kAuthorFacetPrefix.size());
  return term.substr(0, term.find('\x1f'));
}

// Counts one family's people. `count` gives a form's abstracts; `both` the
// abstracts a group's forms share (to count each of them once).
template <class Count, class Shared>
void count_people(const std::vector<NameForm>& forms, const Count& count, const Shared& both,
                  std::vector<FacetCount>& out) {
  const auto group = people(forms);
  std::unordered_map<std::size_t, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < forms.size(); ++i) members[group[i]].push_back(i);
  for (const auto& [g, ids] : members) {
    std::uint64_t n = 0;
    std::size_t shown = ids[0];
    for (std::size_t i : ids) {
      n += count(forms[i]);
      if (fuller(forms[i], forms[shown])) shown = i;
    }
    if (ids.size() > 1) n -= both(forms, ids);
    if (n > 0) out.push_back({display_name(forms[shown].author), n});
  }
}

// The authors of the whole index, one count per person.
std::vector<FacetCount> author_counts(const Xapian::Database& db) {
  std::vector<FacetCount> out;
  const std::string p(schema::kAuthorFacetPrefix);
  auto count = [&](const NameForm& f) -> std::uint64_t { return db.get_termfreq(f.term); };
  // Postings counted twice: the abstracts that name the person in several forms.
  auto both = [&](const std::vector<NameForm>& forms, const std::vector<std::size_t>& ids) {
    std::vector<Xapian::docid> docs;
    for (std::size_t i : ids) {
      for (auto d = db.postlist_begin(forms[i].term); d != db.postlist_end(forms[i].term); ++d)
        docs.push_back(*d);
    }
    std::sort(docs.begin(), docs.end());
    return static_cast<std::uint64_t>(docs.end() - std::unique(docs.begin(), docs.end()));
  };
  // One key's terms and their abstracts; most keys have one form, which needs
  // no more than its name.
  std::vector<std::pair<std::string, Xapian::doccount>> terms;
  std::vector<NameForm> forms;
  auto flush = [&] {
    if (terms.size() == 1) {
      out.push_back({shown_name(terms[0].first), terms[0].second});
    } else if (!terms.empty()) {
      forms.clear();
      for (const auto& [term, n] : terms) forms.push_back(name_form(term));
      count_people(forms, count, both, out);
    }
    terms.clear();
  };
  for (auto t = db.allterms_begin(p); t != db.allterms_end(p); ++t) {
    const std::string term = *t;
    if (!terms.empty() && key_of(term) != key_of(terms[0].first)) flush();
    terms.emplace_back(term, t.get_termfreq());
  }
  flush();
  return out;
}

// Records the matches it is shown, by docid, reading nothing of them.
class MatchIds : public Xapian::MatchSpy {
 public:
  explicit MatchIds(const Deadline& deadline) : deadline_(deadline) {}
  void operator()(const Xapian::Document& doc, double) override {
    deadline_.tick();
    ids_.push_back(doc.get_docid());
  }
  std::vector<Xapian::docid> ids_;

 private:
  const Deadline& deadline_;
};

// Counts the facet terms of abstracts, read from their term lists. For authors
// it also keeps, for the rare abstract that names one family in several forms,
// which forms.
class FacetSpy {
 public:
  explicit FacetSpy(std::string prefix) : prefix_(std::move(prefix)) {}
  void add(const Xapian::Database& db, Xapian::docid id) {
    auto t = db.termlist_begin(id);
    std::string last_key, previous;
    bool open = false;  // shared_.back() is this abstract's entry for last_key
    for (t.skip_to(prefix_); t != db.termlist_end(id) && (*t).starts_with(prefix_); ++t) {
      const std::string term = *t;
      ++counts_[term];
      if (prefix_ != schema::kAuthorFacetPrefix) continue;
      std::string key(key_of(term));
      if (key != last_key) {
        open = false;
      } else if (open) {
        shared_.back().second.push_back(term);
      } else {
        shared_.push_back({key, {previous, term}});
        open = true;
      }
      last_key = std::move(key);
      previous = term;
    }
  }
  std::unordered_map<std::string, Xapian::doccount> counts_;
  // One entry per abstract and family it names in several forms: the forms.
  std::vector<std::pair<std::string, std::vector<std::string>>> shared_;

 private:
  std::string prefix_;
};

// The facet terms with `prefix` in the index, if counting the matches among
// their posting lists costs less than reading the term lists of `matches`
// abstracts: a term list is one zlib-inflated entry (about 10 us an abstract at
// a million), a posting list costs about 1.5 us to open and 20 ns a posting.
// So a facet of few values (years, categories) over many matches is counted
// from its postings: "stats --by year graph" over 118,000 of a million
// abstracts read their term lists in 1.2 s.
std::optional<std::vector<std::string>> cheaper_by_postings(const Xapian::Database& db, const std::string& prefix,
                                                            std::size_t matches) {
  const double budget_us = 10.0 * static_cast<double>(matches);
  double cost_us = 0;
  std::vector<std::string> terms;
  for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) {
    cost_us += 1.5 + 0.02 * t.get_termfreq();
    if (cost_us > budget_us) return std::nullopt;
    terms.push_back(*t);
  }
  return terms;
}

// The authors of the matches the spy saw, one count per person: the people
// are told apart by every form of their family names in the index.
std::vector<FacetCount> author_counts_of(const Xapian::Database& db, const FacetSpy& spy) {
  std::unordered_map<std::string, std::vector<std::size_t>> shared_by_key;
  for (std::size_t k = 0; k < spy.shared_.size(); ++k)
    shared_by_key[spy.shared_[k].first].push_back(k);
  std::unordered_set<std::string> keys;
  for (const auto& [term, n] : spy.counts_) keys.insert(std::string(key_of(term)));
  auto count = [&](const NameForm& f) -> std::uint64_t {
    const auto it = spy.counts_.find(f.term);
    return it == spy.counts_.end() ? 0 : it->second;
  };
  // Each key's forms in the index: a B-tree seek a key, or, when the matches
  // name people by the hundred thousand, one walk over every
  // author's term (about 4 us a seek against 0.15 us a term walked, and some
  // five terms an abstract): at a million abstracts, 400,000 seeks took 1.5 s.
  const bool walk = keys.size() * 25 > db.get_doccount();
  std::unordered_map<std::string, std::vector<std::string>> walked;
  if (walk) {
    const std::string p(schema::kAuthorFacetPrefix);
    for (auto t = db.allterms_begin(p); t != db.allterms_end(p); ++t) {
      std::string term = *t;
      const std::string_view key = key_of(term);
      if (p.size() + key.size() == term.size()) continue;  // cut short: added below, as its own family
      if (auto it = keys.find(std::string(key)); it != keys.end()) walked[*it].push_back(std::move(term));
    }
  }
  std::vector<FacetCount> out;
  for (const auto& key : keys) {
    auto both = [&](const std::vector<NameForm>& forms, const std::vector<std::size_t>& ids) {
      std::uint64_t extra = 0;
      const auto it = shared_by_key.find(key);
      if (it == shared_by_key.end()) return extra;
      for (std::size_t k : it->second) {
        std::size_t in = 0;
        for (const auto& term : spy.shared_[k].second) {
          in += std::any_of(ids.begin(), ids.end(),
                            [&](std::size_t i) { return forms[i].term == term; });
        }
        if (in > 1) extra += in - 1;
      }
      return extra;
    };
    std::vector<std::string> terms;
    if (walk) {
      terms = std::move(walked[key]);
    } else {
      const std::string head = std::string(schema::kAuthorFacetPrefix) + key + '\x1f';
      for (auto t = db.allterms_begin(head); t != db.allterms_end(head); ++t) terms.push_back(*t);
    }
    // A term cut short within its key has no separator: it is its own family.
    if (const std::string cut = std::string(schema::kAuthorFacetPrefix) + key; spy.counts_.contains(cut)) {
      terms.push_back(cut);
    }
    // Most keys have one form, which needs no more than its name.
    if (terms.size() == 1) {
      if (const auto it = spy.counts_.find(terms[0]); it != spy.counts_.end()) {
        out.push_back({shown_name(terms[0]), it->second});
      }
      continue;
    }
    std::vector<NameForm> forms;
    for (auto& term : terms) forms.push_back(name_form(std::move(term)));
    count_people(forms, count, both, out);
  }
  return out;
}

}  // namespace

std::vector<FacetCount> count_facet(const Xapian::Database& db, Facet by, std::size_t limit) {
  if (by == Facet::kAuthor) return ordered(author_counts(db), by, limit);
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
  MatchIds matches(deadline);
  enquire.add_matchspy(&matches);
  all_matches(enquire, checks, db.get_doccount());
  enquire.clear_matchspies();
  std::vector<FacetCount> counts;
  if (by != Facet::kAuthor) {
    if (auto terms = cheaper_by_postings(db, p, matches.ids_.size())) {
      std::vector<bool> matched(db.get_lastdocid() + 1);
      for (Xapian::docid id : matches.ids_) matched[id] = true;
      for (const auto& term : *terms) {
        Xapian::doccount n = 0;
        for (auto d = db.postlist_begin(term); d != db.postlist_end(term); ++d) n += matched[*d];
        deadline.tick();
        if (n > 0) counts.push_back({term.substr(p.size()), n});
      }
      return ordered(std::move(counts), by, limit);
    }
  }
  FacetSpy spy(p);
  // In docid order, the term lists are read as they lie in the table.
  std::sort(matches.ids_.begin(), matches.ids_.end());
  for (Xapian::docid id : matches.ids_) {
    deadline.tick();
    spy.add(db, id);
  }
  if (by == Facet::kAuthor) return ordered(author_counts_of(db, spy), by, limit);
  for (auto& [term, n] : spy.counts_) counts.push_back({term.substr(p.size()), n});
  return ordered(std::move(counts), by, limit);
}

}  // namespace abstracts::query
