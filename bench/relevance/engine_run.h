// The abstracts engine on a collection, through its public API only.
#ifndef ABSTRACTS_BENCH_RELEVANCE_ENGINE_RUN_H_
#define ABSTRACTS_BENCH_RELEVANCE_ENGINE_RUN_H_

#include "abstracts/search.h"
#include "bench/relevance/collection.h"
#include "bench/relevance/run.h"

namespace abstracts::eval {

// Indexes `collection.corpus` with Writer::index_file() into a temporary
// directory (a copy without the records in `collection.empty_ids`, when there
// are any: the engine refuses a file holding one), then runs every query for the
// top kDepth hits, keyed by Hit::abstract.id, with the library's defaults and no
// snippets. With the query language (the default), each question goes in as typed,
// which is what `abstracts search -- "QUESTION"` does: system "engine". With
// kPlainText: system "engine (plain text)". A query the engine rejects
// (QueryError) gets an empty ranking and a line in Run::query_problems. Throws
// abstracts::Error if indexing fails.
Run run_engine(const Collection& collection, QuerySyntax syntax = QuerySyntax::kQueryLanguage);

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_ENGINE_RUN_H_
