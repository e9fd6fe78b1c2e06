// The abstracts engine on a collection, through its public API only.
#ifndef ABSTRACTS_BENCH_RELEVANCE_ENGINE_RUN_H_
#define ABSTRACTS_BENCH_RELEVANCE_ENGINE_RUN_H_

#include "bench/relevance/collection.h"
#include "bench/relevance/run.h"

namespace abstracts::eval {

// Indexes `collection.corpus` with Writer::index_file() into a temporary
// directory (a copy without the records in `collection.empty_ids`, when there
// are any: the engine refuses a file holding one), then runs every query as plain text
// (QuerySyntax::kPlainText, no snippets) for the top kDepth hits, keyed by Hit::abstract.id. A
// query the engine rejects (QueryError, e.g. no searchable words) gets an empty ranking and a line
// in Run::query_problems. Throws abstracts::Error if indexing fails.
Run run_engine(const Collection& collection);

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_ENGINE_RUN_H_
