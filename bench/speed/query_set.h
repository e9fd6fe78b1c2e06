// The fixed query set every system runs: keyword, phrase, boolean and question
// queries drawn from the corpus itself with a fixed seed, and each system's
// spelling of them.
#ifndef ABSTRACTS_BENCH_SPEED_QUERY_SET_H_
#define ABSTRACTS_BENCH_SPEED_QUERY_SET_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace abstracts::speed {

// kBoolean queries join exactly two words with `op` ("AND", "OR" or "NOT").
struct BenchQuery {
  enum class Kind { kKeyword, kPhrase, kBoolean, kQuestion };
  Kind kind = Kind::kKeyword;
  std::vector<std::string> words;  // lower-case ASCII letters only
  std::string op;                  // kBoolean only
};

struct QuerySetSizes {
  std::size_t keyword = 500;  // 1-3 title words of a random abstract, no stop words
  std::size_t phrase = 100;   // 2-3 consecutive words of a random abstract's text
  std::size_t boolean = 100;  // two words of one random abstract: AND, OR, NOT in turn
  // 4-8 distinct words of a random abstract's text, in order, no stop words: a
  // question or claim in the abstract's own words (ranked with feedback by the
  // engine). Reported beside the others, not in "all", which is issue 6's set.
  std::size_t question = 100;
};

// Draws the query set from the first `pool` abstracts of a BEIR JSON Lines
// corpus (plain or gzip) with std::mt19937_64 seeded by `seed`: the same
// arguments give the same queries on every machine. Throws std::runtime_error
// on unreadable input or when the pool is too small to draw from.
std::vector<BenchQuery> generate_queries(const std::filesystem::path& corpus, std::size_t pool,
                                         std::uint64_t seed, const QuerySetSizes& sizes);

// One JSON object a line: {"kind":"keyword|phrase|boolean|question","words":[...],"op":"..."}.
// Both throw std::runtime_error naming the file on failure.
void save_queries(const std::vector<BenchQuery>& queries, const std::filesystem::path& file);
std::vector<BenchQuery> load_queries(const std::filesystem::path& file);

const char* kind_name(BenchQuery::Kind kind);

// The query in Xapian QueryParser syntax, which the engine's query language
// shares for these forms: `a b c` (OR; keywords and questions), `"a b"`,
// `a AND b`, `a OR b`, `a NOT b`.
std::string xapian_syntax(const BenchQuery& query);

// The query in FTS5 syntax: keywords and questions joined by OR (FTS5's default
// is AND, the others' is OR), `"a b"` phrases, `"a" AND "b"`, `"a" OR "b"`,
// `"a" NOT "b"`.
std::string fts5_syntax(const BenchQuery& query);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_QUERY_SET_H_
