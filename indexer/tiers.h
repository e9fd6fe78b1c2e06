// Builds an index's impact tiers (engine/tiers.h): the side database that lets
// a query of common words skip their postings of low impact.
#ifndef ABSTRACTS_INDEXER_TIERS_H_
#define ABSTRACTS_INDEXER_TIERS_H_

#include <filesystem>

#include <xapian.h>

#include "engine/tiers.h"

namespace abstracts::indexer {

// True if the generation `generation`, whose database `db` is, should have
// tiers (at least `min_abstracts` abstracts) and has none for it as it now is:
// none built, or built before its last change.
bool tiers_due(const std::filesystem::path& generation, const Xapian::Database& db,
               Xapian::doccount min_abstracts = tiers::kMinAbstracts);

// Writes the side database of `db` (the committed database of `generation`),
// with the engine's default k1 and b: into a folder of its own, then renamed
// into place, so a reader opens the old side database or the new one. A crash
// leaves at worst a stale one, which no reader uses. Throws Xapian's errors.
void build_tiers(const std::filesystem::path& generation, const Xapian::Database& db);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_TIERS_H_
