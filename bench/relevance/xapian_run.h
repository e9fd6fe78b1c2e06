// The baseline: Xapian 1.4 out of the box on the same collection.
#ifndef ABSTRACTS_BENCH_RELEVANCE_XAPIAN_RUN_H_
#define ABSTRACTS_BENCH_RELEVANCE_XAPIAN_RUN_H_

#include "bench/relevance/collection.h"
#include "bench/relevance/run.h"

namespace abstracts::eval {

// Indexes the corpus into a temporary on-disk database with a TermGenerator and
// Stem("english") (STEM_SOME): index_text(title), increase_termpos(),
// index_text(text). Parses each query with a QueryParser with the same stemmer,
// default flags, default operator OR, STEM_SOME; when that throws
// QueryParserError, retries with ASCII punctuation replaced by spaces (noted in
// Run::query_problems). Ranks with Enquire's default BM25Weight, top kDepth.
// Throws std::runtime_error on unreadable input and Xapian::Error on database
// failures.
Run run_plain_xapian(const Collection& collection);

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_XAPIAN_RUN_H_
