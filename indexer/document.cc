#include "indexer/document.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "engine/analysis/acronyms.h"
#include "engine/author_terms.h"
#include "engine/body_words.h"
#include "engine/cluster.h"
#include "engine/positions.h"
#include "engine/schema.h"

namespace abstracts::indexer {
namespace {

// Bounds of what a stored record holds (beyond them a value is cut, at a
// character's boundary, with "…").
constexpr std::size_t kMaxStoredTextBytes = 1 << 20;
constexpr std::size_t kMaxStoredFieldBytes = 16 << 10;

void cut_utf8(std::string& s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return;
  std::size_t at = max_bytes - 3;  // room for the "…"
  while (at > 0 && (static_cast<unsigned char>(s[at]) & 0xc0) == 0x80) --at;
  s.resize(at);
  s += "\u2026";
}

// The paper's DOI as the index keeps it. arXiv's snapshot may give two
// ("10.1364/JOSAA.23.002578 10.1364/JOSAA.32.002407"): the first is the paper's,
// not the two run together.
std::string paper_doi(std::string_view doi) {
  const auto begin = std::min(doi.size(), doi.find_first_not_of(" \t\r\n"));
  doi.remove_prefix(begin);
  return schema::normalise_identifier("doi", doi.substr(0, doi.find_first_of(" \t\r\n")));
}

}  // namespace

std::string abstract_id(const Record& record) {
  const Abstract& f = record.fields;
  if (!f.id.empty()) return f.id;
  // The source's own identifier when it has one, so the same paper read from
  // two files (an arXiv listing and a BibTeX export) is one abstract.
  for (std::string id : {paper_doi(f.doi), schema::normalise_identifier("arxiv", f.arxiv_id),
                         schema::normalise_identifier("pmid", f.pmid), f.citation_key}) {
    if (!id.empty() && id.size() <= schema::kMaxFieldBytes) return id;
  }
  return content_id(record.raw_text);
}

bool in_shard(const Record& record, const Shard& shard) {
  return shard.count == 0 || cluster::shard_of(abstract_id(record), shard.count) == shard.index;
}

Abstract make_abstract(const Record& record, const std::string& source, const std::string& venue,
                       int year) {
  Abstract a = record.fields;
  a.text = display_text(record.raw_text);
  a.doi = paper_doi(a.doi);
  a.arxiv_id = schema::normalise_identifier("arxiv", a.arxiv_id);
  a.pmid = schema::normalise_identifier("pmid", a.pmid);
  // "PMC5584645" however the source writes it (OpenAlex: a link to the digits).
  if (const auto pmcid = schema::normalise_identifier("pmcid", a.pmcid); pmcid.starts_with("pmc")) {
    a.pmcid = "PMC" + pmcid.substr(3);
  }
  a.id = abstract_id(record);
  a.title = a.title.empty() ? derive_title(a.text) : display_text(a.title);
  // Names and venues carry LaTeX in BibTeX ("Bal\'azs", "\textendash").
  a.venue = display_text(a.venue);
  for (auto& author : a.authors) {
    author.family = display_text(author.family);
    author.given = display_text(author.given);
    // ", Plato" (BibTeX, RIS): a given name alone is the one name, the family name.
    if (author.family.empty()) std::swap(author.family, author.given);
  }
  // "AU  - et al." (Cochrane), "and others" (BibTeX), and a name of LaTeX that
  // shows nothing ("{\relax}"): no one's name.
  const std::size_t named = a.authors.size();
  std::erase_if(a.authors, [](const Author& author) {
    return author.given.empty() && (author.family.empty() || author.family == "et al." ||
                                    author.family == "et al" || author.family == "others");
  });
  // The readers keep kMaxAuthors and count the rest; an Abstract given to
  // Writer::add may hold any number.
  a.author_count = std::max(a.author_count, named) - (named - a.authors.size());
  if (a.authors.size() > kMaxAuthors) a.authors.resize(kMaxAuthors);
  // What is stored of a record stays bounded whatever the record holds (a real
  // abstract is a few kilobytes, its title a line, its keywords a few dozen).
  cut_utf8(a.text, kMaxStoredTextBytes);
  cut_utf8(a.title, kMaxStoredFieldBytes);
  cut_utf8(a.venue, kMaxStoredFieldBytes);
  // As the readers keep them (Writer::add may be given any number).
  if (a.categories.size() > kMaxCategories) a.categories.resize(kMaxCategories);
  if (a.tags.size() > kMaxCategories) a.tags.resize(kMaxCategories);
  if (a.collections.size() > kMaxCategories) a.collections.resize(kMaxCategories);
  for (auto& category : a.categories) category = display_text(category);
  for (auto& editor : a.editors) {
    editor.family = display_text(editor.family);
    editor.given = display_text(editor.given);
    if (editor.family.empty()) std::swap(editor.family, editor.given);
  }
  a.source = source;
  a.line = record.line;
  // The record's own venue and date, or else the file's header's.
  if (a.venue.empty()) a.venue = venue;
  if (a.year == 0) {
    a.year = year;
    a.month = a.day = 0;  // a month without its year is no date
  }
  return a;
}

Xapian::Document make_document(const Abstract& a, bool title_in_text, const analysis::Analyzer& analyzer,
                               const compression::Compressor& compressor, bool xapian_positions) {
  using namespace schema;
  Xapian::Document doc;
  // Each term is added once with its whole wdf: Xapian keeps a document's terms
  // in a std::map, and an abstract repeats its words. One sort by (term,
  // position) groups a term's occurrences for its wdf and, in the same order,
  // for the positions value.
  {
    // The words' terms are views into the analyzer, until this block ends; the
    // acronyms below analyse again.
    const analysis::DocumentScope document{analyzer};
    std::vector<body_words::Occurrence> body;
    std::vector<std::string_view> title;
    body_words::read(analyzer, a.title, a.text, title_in_text, body, title);
    std::sort(title.begin(), title.end());
    for (std::size_t i = 0, j; i < title.size(); i = j) {
      for (j = i + 1; j < title.size() && title[j] == title[i];) ++j;
      doc.add_term(std::string(kTitlePrefix).append(title[i]), static_cast<Xapian::termcount>(j - i));
    }
    std::sort(body.begin(), body.end());
    std::vector<positions::Posting> postings;
    postings.reserve(body.size());
    for (std::size_t i = 0, j; i < body.size(); i = j) {
      Xapian::termcount wdf = 0;
      const std::string term(body[i].term);
      for (j = i; j < body.size() && body[j].term == body[i].term; ++j) {
        wdf += body[j].wdf;
        if (body[j].position == body_words::kNoPosition) continue;
        postings.emplace_back(body[i].term, body[j].position);  // one string per word (positions::encode)
        if (xapian_positions) doc.add_posting(term, body[j].position, 0);  // wdf counted below
      }
      doc.add_term(term, wdf);
    }
    if (!postings.empty()) doc.add_value(kPositionsSlot, positions::encode(std::move(postings)));
  }

  doc.add_boolean_term(id_term(a.id));
  const int date = a.year * 10000 + a.month * 100 + a.day;  // unknown parts 0
  doc.add_value(kDateIdSlot, date_then_id(date, a.id));
  if (!a.venue.empty()) {
    doc.add_boolean_term(field_term(kVenuePrefix, analysis::Analyzer::fold(a.venue)));
    doc.add_boolean_term(field_term(kVenueFacetPrefix, a.venue));
  }
  if (a.year != 0) {
    doc.add_boolean_term(std::string(kYearPrefix) + std::to_string(a.year));
    doc.add_value(kYearSlot, Xapian::sortable_serialise(a.year));
  }
  if (a.year != 0) {
    doc.add_value(kDateSlot, Xapian::sortable_serialise(date));
  }
  doc.add_value(kOldestSlot, Xapian::sortable_serialise(a.year != 0 ? date : 99999999));
  for (const auto& author : a.authors) {
    // author:balazs, author:"Balázs, C.", author:"C. Balázs" (engine/author_terms.h).
    for (const auto& term : author_terms::index_terms(author)) doc.add_boolean_term(term);
    doc.add_boolean_term(author_terms::facet_term(author));
  }
  for (const auto& category : a.categories) {
    doc.add_boolean_term(field_term(kCategoryPrefix, analysis::Analyzer::fold(category)));
    doc.add_boolean_term(field_term(kCategoryFacetPrefix, category));
  }
  for (const auto& tag : a.tags) {
    doc.add_boolean_term(field_term(kTagPrefix, analysis::Analyzer::fold(tag)));
    doc.add_boolean_term(field_term(kTagFacetPrefix, tag));
  }
  for (const auto& path : a.collections) {
    const std::string folded = analysis::Analyzer::fold(path);
    for (std::size_t slash = folded.find('/'); slash != std::string::npos; slash = folded.find('/', slash + 1)) {
      doc.add_boolean_term(field_term(kCollectionPrefix, folded.substr(0, slash)));
    }
    doc.add_boolean_term(field_term(kCollectionPrefix, folded));
    doc.add_boolean_term(field_term(kCollectionFacetPrefix, path));
  }
  for (const auto& [scheme, value] : {std::pair<std::string_view, const std::string&>{"doi", a.doi},
                                      {"arxiv", a.arxiv_id},
                                      {"pmid", a.pmid},
                                      {"pmcid", a.pmcid}}) {
    if (!value.empty()) doc.add_boolean_term(identifier_term(scheme, value));
  }
  // A book's ISBNs, as Zotero lists them ("978-1-00-915796-4 978-1-00-915797-1"):
  // each as its ISBN-13, so that its ISBN-10 finds it too.
  for (std::size_t at = 0; at < a.isbn.size();) {
    const std::size_t end = std::min(a.isbn.size(), a.isbn.find_first_of(" ,;", at));
    if (const auto isbn = isbn13(std::string_view(a.isbn).substr(at, end - at)); !isbn.empty()) {
      doc.add_boolean_term(identifier_term("isbn", isbn));
    }
    at = end + 1;
  }
  if (!a.citation_key.empty()) doc.add_boolean_term(citation_key_term(a.citation_key));
  // A Zotero item can change alone: its record term lets it be taken out alone.
  if (!a.zotero_key.empty()) doc.add_boolean_term(record_term(a.source, a.line));
  if (!a.source.empty()) {
    auto name = std::filesystem::path(a.source).filename().string();
    doc.add_boolean_term(field_term(kSourcePrefix, analysis::Analyzer::fold(name)));
    doc.add_boolean_term(file_term(a.source));
  }
  for (const auto& d : analysis::find_acronym_definitions(a.text)) {
    auto sf = analyzer.terms(d.short_form);
    auto lf = analyzer.terms(d.long_form);
    if (sf.size() != 1 || lf.empty()) continue;  // "RA-FFN" is no single word to expand
    std::string by_short(kAcronymPrefix);
    by_short += sf[0];
    by_short += kAcronymSeparator;
    by_short += d.short_form;
    by_short += kAcronymSeparator;
    for (char c : d.long_form) by_short += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    std::string by_long(kLongFormPrefix);
    for (std::size_t i = 0; i < lf.size(); ++i) {
      if (i > 0) by_long += ' ';
      by_long += lf[i];
    }
    by_long += kAcronymSeparator;
    by_long += sf[0];
    // Xapian terms hold at most 245 bytes; a longer "definition" is noise anyway.
    if (by_short.size() <= 200 && by_long.size() <= 200) {
      doc.add_boolean_term(by_short);
      doc.add_boolean_term(by_long);
    }
  }
  doc.add_value(kStoredSlot, compressor.compress(encode(a, title_in_text)));
  return doc;
}

namespace {

// The bytes of an abstract's text fields together: what a file's record of it
// would hold, at least.
std::size_t record_bytes(const Abstract& a) {
  std::size_t n = 0;
  for (const std::string* s : {&a.id, &a.title, &a.text, &a.venue, &a.doi, &a.arxiv_id, &a.pmid, &a.pmcid,
                               &a.citation_key, &a.item_type, &a.url, &a.volume, &a.issue, &a.pages,
                               &a.publisher, &a.issn, &a.isbn, &a.source, &a.zotero_key}) {
    n += s->size();
  }
  for (const auto* names : {&a.authors, &a.editors}) {
    for (const Author& name : *names) n += name.family.size() + name.given.size() + 1;
  }
  for (const auto* list : {&a.categories, &a.tags, &a.collections}) {
    for (const std::string& s : *list) n += s.size() + 1;
  }
  return n;
}

std::string mib(std::size_t bytes) {
  char out[32];
  std::snprintf(out, sizeof out, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return out;
}

}  // namespace

void check_addable(const Abstract& a) {
  const std::string which = a.id.empty() ? "the abstract" : "abstract " + a.id;
  if (const std::size_t bytes = record_bytes(a); bytes > kMaxRecordBytes) {
    throw InputError(which + " is " + mib(bytes) + ", over the " + mib(kMaxRecordBytes) +
                         " a record may have (in a file too)",
                     "", 0, "give it the abstract itself: a text over 1 MiB is kept cut to 1 MiB");
  }
  const bool year_ok = a.year == 0 || (a.year >= 1000 && a.year <= 2999);
  const bool month_ok = a.month == 0 || (a.month >= 1 && a.month <= 12 && a.year != 0);
  const bool day_ok = a.day == 0 || (a.day >= 1 && a.day <= 31 && a.month != 0);
  if (!year_ok || !month_ok || !day_ok) {
    std::string date = std::to_string(a.year);
    // Built by append: GCC 12 warns falsely (-Wrestrict) on "-" + std::to_string(...).
    if (a.month != 0 || a.day != 0) date.append(1, '-').append(std::to_string(a.month));
    if (a.day != 0) date.append(1, '-').append(std::to_string(a.day));
    throw InputError((a.id.empty() ? "the abstract's" : which + "'s") + " date " + date + " is no date", "", 0,
                     "a year from 1000 to 2999, a month from 1 to 12 with it, a day from 1 to 31 with "
                     "that; 0 where unknown");
  }
  // "", white space, or LaTeX that shows nothing ("{}"): no abstract to search.
  if (display_text(a.text).empty()) {
    throw InputError(which + " has no text", "", 0, "give the abstract itself as its text");
  }
}

}  // namespace abstracts::indexer
