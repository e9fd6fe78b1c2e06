// Printing the comparison: a Markdown table per collection, or JSON.
#ifndef ABSTRACTS_BENCH_RELEVANCE_REPORT_H_
#define ABSTRACTS_BENCH_RELEVANCE_REPORT_H_

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "bench/relevance/metrics.h"
#include "bench/relevance/published.h"
#include "bench/relevance/run.h"

namespace abstracts::eval {

struct SystemResult {
  Run run;
  std::vector<QueryScores> per_query;  // score_queries() of run.rankings
  Scores scores;                       // summarise(per_query)
};

struct CollectionResult {
  std::string name;   // "scifact"
  std::string split;  // "" when the collection has one
  std::size_t documents = 0;
  std::size_t queries = 0;
  std::size_t empty_documents = 0;     // records with neither title nor text
  std::size_t renamed_judged_ids = 0;  // see Collection::renamed_judged_ids
  std::size_t renamed_judgments = 0;
  std::string renamed_example;         // "CACM-756 -> CACM-0756"
  std::size_t unknown_judged_ids = 0;  // judged ids naming no document
  std::vector<SystemResult> systems;
  std::vector<Published> published;
  // With both the CLI and the Python package run: whether their rankings are
  // the same, query by query and hit by hit.
  std::optional<bool> python_equals_cli;
};

// A heading, one table (systems, then published figures, each mean with its
// standard error), a table comparing the first system with each other one query
// by query (compare()), and notes, per collection.
void print_markdown(std::ostream& out, const std::vector<CollectionResult>& results);

// One JSON object: {"collections": [{"name", "split", ..., "systems": [...],
// "comparisons": [...], "published": [...]}]}.
void print_json(std::ostream& out, const std::vector<CollectionResult>& results);

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_REPORT_H_
