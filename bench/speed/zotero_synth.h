// A synthetic Zotero library, for measuring the Zotero reader and sync at 10k
// and 100k items (docs/performance.md): a real Zotero database's schema and
// lookup tables, filled with regular items made of real arXiv abstracts.
#ifndef ABSTRACTS_BENCH_SPEED_ZOTERO_SYNTH_H_
#define ABSTRACTS_BENCH_SPEED_ZOTERO_SYNTH_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace abstracts::speed {

struct ZoteroSynthOptions {
  std::filesystem::path from;       // a real zotero.sqlite: its schema and lookup tables
  std::filesystem::path abstracts;  // JSON Lines (plain or gzip): "_id" or "id", "title", "text"
                                    // or "abstract", optional "categories", "authors_parsed", "doi"
  std::filesystem::path out;        // the database to write (replaced if there)
  std::size_t count = 0;            // regular items to write
  std::uint64_t seed = 20260;
};

// Writes options.count regular items to options.out, in Zotero's own tables:
// the tables, indexes and triggers of options.from (read-only: opened with
// immutable=1), its lookup tables (itemTypes, fields, creatorTypes, their
// mappings, version, the user library, ...), then items, itemData and
// itemDataValues, creators and itemCreators, tags and itemTags, collections (a
// tree by arXiv category) and collectionItems. Item i is the i-th record of
// options.abstracts (from the start again past its end): a journal article, a
// conference paper or a preprint, dated by its arXiv id; every 25th has no
// abstract, every 50th is in the trash (deletedItems), every 15th has its DOI
// only in Extra, every 30th a one-field first creator. Deterministic for a
// seed. Returns a summary: items, with_abstract, without_abstract, trashed,
// live_with_abstract, doi_field, doi_extra_only, creators, tags, collections,
// file_bytes, seconds. Throws std::runtime_error naming the file at fault.
nlohmann::json synthesize_zotero(const ZoteroSynthOptions& options);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_ZOTERO_SYNTH_H_
