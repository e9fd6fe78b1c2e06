// The index schema: which terms, values and metadata an abstract becomes.
// The indexer writes it and the query side reads it; change kSchemaVersion with it.
#ifndef ABSTRACTS_ENGINE_SCHEMA_H_
#define ABSTRACTS_ENGINE_SCHEMA_H_

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

#include "abstracts/abstract.h"
#include "engine/analysis/unicode_text.h"
#include "engine/compression.h"

namespace abstracts::schema {

// Bumped whenever analysis or layout changes, so an old index is rebuilt
// instead of silently answering with drifted terms.
inline constexpr std::string_view kSchemaVersion = "13";
inline constexpr std::string_view kSchemaKey = "abstracts:schema";
// The zstd dictionary the stored abstracts are compressed with (engine/compression.h);
// absent when the index has none.
inline constexpr std::string_view kDictionaryKey = "abstracts:dictionary";

// Body text: unprefixed, stemmed terms (phrases match inflections), their
// positions in kPositionsSlot (engine/positions.h), stop words left out
// (analysis/stop_words.h); a title word's wdf counts it 3 times.
// Boolean and field terms (Xapian's convention: upper-case prefixes):
inline constexpr std::string_view kIdPrefix = "Q";      // Q<id>, unique
inline constexpr std::string_view kTitlePrefix = "S";   // S<term> for words of the title
inline constexpr std::string_view kVenuePrefix = "XV";  // XV<venue, case-folded>
inline constexpr std::string_view kYearPrefix = "XY";   // XY<year>
inline constexpr std::string_view kSourcePrefix = "XS"; // XS<file name, case-folded>
inline constexpr std::string_view kFilePrefix = "XF";   // XF<hash of absolute path>
// XA<family name's words, folded> and XA<each of its words>; XN<family>,<first
// given name or initial>: engine/author_terms.h.
inline constexpr std::string_view kAuthorPrefix = "XA";
inline constexpr std::string_view kFullNamePrefix = "XN";
inline constexpr std::string_view kCategoryPrefix = "XC";  // XC<category or keyword, folded>
inline constexpr std::string_view kTagPrefix = "XT";       // XT<Zotero tag, folded>
// XO<Zotero collection's path, folded>, for the collection and each above it
// ("thesis", "thesis/chapter 2"): collection:"Thesis" finds its sub-collections' items.
inline constexpr std::string_view kCollectionPrefix = "XO";
// Facet terms: the value as shown (not folded), so `stats --by` counts and
// prints "NeurIPS" and "C. Balázs" as the sources wrote them; a term's
// frequency is the number of abstracts with that value. Years count by XY terms.
inline constexpr std::string_view kVenueFacetPrefix = "XKV";
inline constexpr std::string_view kCategoryFacetPrefix = "XKC";
inline constexpr std::string_view kTagFacetPrefix = "XKT";
inline constexpr std::string_view kCollectionFacetPrefix = "XKO";  // the collection's whole path
inline constexpr std::string_view kAuthorFacetPrefix = "XKA";  // XKA<key>\x1f<family>\x1f<given>: author_terms.h
// XI<scheme>:<identifier>, lower case: "XIdoi:10.1103/physrevd.76.013009",
// "XIarxiv:0704.0001", "XIpmid:17284678".
inline constexpr std::string_view kIdentifierPrefix = "XI";
// XB<citation key, lower case>: `key:` and a pasted key find the record; keys
// name papers in one bibliography only, so records are never merged by them.
inline constexpr std::string_view kCitationKeyPrefix = "XB";
// XD<short form's term>\x1f<short form as written>\x1f<long form, lower case>: an
// acronym definition found in the abstract (engine/analysis/acronyms.h); its term
// frequency counts the abstracts that make it, and a query finds an acronym's
// definitions with one prefix scan.
inline constexpr std::string_view kAcronymPrefix = "XD";
// XL<long form's terms, space-separated>\x1f<short form's term>: the same
// definition, found from the long form.
inline constexpr std::string_view kLongFormPrefix = "XL";
inline constexpr char kAcronymSeparator = '\x1f';

inline constexpr Xapian::valueno kYearSlot = 0;
// The stored abstract: encode(), compressed (engine/compression.h). A value, not
// the document data, which Xapian would try to compress with zlib again; values
// are also stored in chunks of many documents, with less overhead per document.
inline constexpr Xapian::valueno kStoredSlot = 1;
// The body terms' positions, for phrases, NEAR and ADJ: positions::encode().
inline constexpr Xapian::valueno kPositionsSlot = 2;
// The date, for sorting: sortable_serialise(year * 10000 + month * 100 + day),
// unknown parts 0.
inline constexpr Xapian::valueno kDateSlot = 3;
// Newest first, then by id, in ascending order of this value: hits of equal
// score are ordered so (not by document number, which differs between one
// index and the shards of a cluster), and so are filters sorted by date.
inline constexpr Xapian::valueno kDateIdSlot = 4;
// Its value: the date as in kDateSlot (0 if none) counted down, then the id.
inline std::string date_then_id(int date, std::string_view id) {
  std::string value = Xapian::sortable_serialise(99999999 - date);
  value.append(id);
  return value;
}
// The id in `value`, a kDateIdSlot value, given the abstract's kDateSlot value
// `date` ("" if none); nullopt when `value` does not start with that date.
inline std::optional<std::string_view> id_in_date_then_id(std::string_view value, std::string_view date) {
  const double day = date.empty() ? 0 : Xapian::sortable_unserialise(std::string(date));
  const std::string start = Xapian::sortable_serialise(99999999 - day);
  if (!value.starts_with(start)) return std::nullopt;
  return value.substr(start.size());
}

// The date as in kDateSlot, for sorting oldest first: an undated abstract's
// is 99999999, so that it comes last then too.
inline constexpr Xapian::valueno kOldestSlot = 6;

// The abstract's unit vector of meaning, when the index has vectors
// (engine/vectors.h: `abstracts vectors build`).
inline constexpr Xapian::valueno kVectorSlot = 7;

// The records of a paper read more than once (indexer/papers.h), when it has
// more than one: what the indexer rebuilds the document from when one of them
// changes or leaves. The query side never reads it.
inline constexpr Xapian::valueno kRecordsSlot = 5;

// Metadata key under which a source file's state is kept ("file:" + absolute path).
inline constexpr std::string_view kFileKeyPrefix = "file:";

// The metadata key of the state of the file indexed as `absolute_path`.
inline std::string file_key(std::string_view absolute_path) {
  std::string key(kFileKeyPrefix);
  key.append(absolute_path);
  return key;
}

// Throws CorruptIndex (with a hint to rebuild) unless `db`, the index in `dir`,
// was written with kSchemaVersion.
void require_version(const Xapian::Database& db, const std::filesystem::path& dir);

// True for terms that hold searchable words (not field or boolean terms).
inline bool is_word_term(std::string_view term) {
  return !term.empty() && !(term[0] >= 'A' && term[0] <= 'Z');
}

// The word terms of `query`, each once, in term order.
inline std::vector<std::string> word_terms(const Xapian::Query& query) {
  std::vector<std::string> out;
  for (auto t = query.get_unique_terms_begin(); t != query.get_unique_terms_end(); ++t) {
    if (is_word_term(*t)) out.push_back(*t);
  }
  return out;
}

// True for S terms: a word of the title ("Sattent").
inline bool is_title_term(std::string_view term) {
  return term.size() > kTitlePrefix.size() && term.substr(0, kTitlePrefix.size()) == kTitlePrefix &&
         is_word_term(term.substr(kTitlePrefix.size()));
}

// The unique term of an abstract's id. (Built by append: GCC 12 warns falsely,
// -Wrestrict, on `std::string(prefix) + std::string(id)`.)
inline std::string id_term(std::string_view id) {
  std::string term(kIdPrefix);
  term.append(id);
  return term;
}

// A field term: `prefix` and the folded value, cut to at most kMaxFieldBytes at
// a character boundary. Xapian refuses terms over 245 bytes, and folding can
// make a short value long (NFKC turns U+FDFA into 18 characters). The indexer
// and the query parser both build field terms here, so the cut is the same.
inline constexpr std::size_t kMaxFieldBytes = 200;
inline std::string field_term(std::string_view prefix, std::string_view folded) {
  std::string term(prefix);
  term.append(analysis::utf8_prefix(folded, kMaxFieldBytes));
  return term;
}

// An identifier (`scheme` "doi", "arxiv", "pmid", "pmcid" or "isbn") as the
// index keeps it: lower case and without a resolver's prefix, so that
// "10.1103/PhysRevD.76.013009" and "https://doi.org/10.1103/physrevd.76.013009"
// are one DOI; an arXiv id without its version ("0704.0001v2" is 0704.0001); a
// PMID's digits; a PMCID as "pmc" and its digits (OpenAlex links the digits
// alone); an ISBN as isbn13() gives it, "" for one whose check digit is wrong.
std::string normalise_identifier(std::string_view scheme, std::string_view id);

// The 13 digits of an ISBN written with or without hyphens or spaces: an
// ISBN-10 and the ISBN-13 of the same book ("0-262-03384-4",
// "978-0-262-03384-8") both give "9780262033848"; "" unless `text` is an
// ISBN-10 or an ISBN-13 (978 or 979) whose check digit is right.
std::string isbn13(std::string_view text);

// Its XI term, as the indexer and the query parser both build it.
std::string identifier_term(std::string_view scheme, std::string_view id);

// The XB term of a citation key ("Romatschke2018a"): its ASCII letters in lower
// case, as the indexer, `key:`, a pasted key and `show` all build it.
std::string citation_key_term(std::string_view key);

// The XF term of a source file: a hash keeps it short for any path length.
std::string file_term(std::string_view absolute_path);

// XR<hash of the source path>:<line>: the term of one record of a source whose
// records change one at a time (a Zotero database's items, each its own "line"),
// so that one can be taken out without the rest.
inline constexpr std::string_view kRecordPrefix = "XR";
std::string record_term(std::string_view absolute_path, std::uint32_t line);

// The index's zstd dictionary (empty if none).
inline std::string dictionary_of(const Xapian::Database& db) {
  return db.get_metadata(std::string(kDictionaryKey));
}

// The stored abstract (kStoredSlot): every field of Abstract, so a hit needs no
// other lookup, and whether its title is the first sentence of its text (then
// not a title the source gave: the indexer rebuilds documents from it).
std::string encode(const Abstract& abstract, bool title_in_text = false);
Abstract decode(std::string_view data, bool* title_in_text = nullptr);

// The abstract `doc`, document `docid` of its database, stores, read with the
// database's decompressor. Throws CorruptIndex when it cannot be read. (On a
// database of several, Xapian 1.4's Document::get_docid() is the document's
// number in its own part, not `docid`.) `title_in_text` as decode()'s.
Abstract stored_abstract(const Xapian::Document& doc, Xapian::docid docid, const compression::Decompressor& stored,
                         bool* title_in_text = nullptr);

// The state of an indexed file, kept in metadata to skip unchanged files.
struct FileState {
  unsigned long long size = 0;
  long long mtime_ns = 0;
  unsigned long long hash = 0;  // XXH3-64 of the file's bytes
  unsigned long long abstracts = 0;
  // Records left out as unreadable (FileReport::rejected): a strict run reads
  // the file again, unchanged or not, and fails it.
  unsigned long long rejected = 0;
  // The sources (abstracts/source.h: absolute paths) whose walks yield the file:
  // it leaves the index when none does any more.
  std::vector<std::string> sources;
};
std::string encode(const FileState& state);
bool decode(std::string_view data, FileState& state);

}  // namespace abstracts::schema

#endif  // ABSTRACTS_ENGINE_SCHEMA_H_
