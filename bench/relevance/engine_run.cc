#include "bench/relevance/engine_run.h"

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_set>

#include "abstracts/abstracts.h"
#include "bench/relevance/temp_dir.h"

namespace abstracts::eval {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Writes `collection`'s corpus without its empty records to `copy`, as plain
// JSON Lines, and returns a note saying so.
std::string write_corpus_without_empty(const Collection& collection,
                                       const std::filesystem::path& copy) {
  const std::unordered_set<std::string> empty(collection.empty_ids.begin(),
                                              collection.empty_ids.end());
  std::ofstream out(copy, std::ios::binary);
  for_each_document(collection.corpus, [&](const CorpusDocument& d) {
    if (empty.contains(d.id)) return;
    out << nlohmann::json{{"_id", d.id}, {"title", d.title}, {"text", d.text}}.dump() << '\n';
  });
  out.close();
  if (!out) throw std::runtime_error("cannot write " + copy.string());
  std::string ids;
  for (const auto& id : collection.empty_ids) ids += (ids.empty() ? "" : ", ") + id;
  return "indexed a copy of the corpus without its " + std::to_string(empty.size()) +
         " records that have neither title nor text (" + ids +
         "): the engine's reader rejects such a record, and with it the whole file";
}

}  // namespace

Run run_engine(const Collection& collection) {
  Run run;
  run.system = "engine";
  TempDir dir;
  const auto index_dir = dir.path() / "index";

  std::filesystem::path corpus = collection.corpus;
  if (!collection.empty_ids.empty()) {
    corpus = dir.path() / "corpus.jsonl";
    run.notes.push_back(write_corpus_without_empty(collection, corpus));
  }

  auto start = std::chrono::steady_clock::now();
  {
    Writer writer = Writer::open(index_dir);
    writer.index_file(corpus);  // commits on its own
  }
  run.index_seconds = seconds_since(start);

  const Index index = Index::open(index_dir);
  SearchOptions options;
  options.limit = kDepth;
  options.snippets = false;
  options.syntax = QuerySyntax::kPlainText;
  std::unordered_set<std::string> unknown;
  start = std::chrono::steady_clock::now();
  for (const auto& query : collection.queries) {
    Ranking& ranking = run.rankings[query.id];
    try {
      SearchResults results = index.search(query.text, options);
      ranking.reserve(results.hits.size());
      for (auto& hit : results.hits) ranking.push_back(std::move(hit.abstract.id));
    } catch (const QueryError& e) {
      run.query_problems.push_back(query.id + ": " + e.what() + " (no hits)");
    }
  }
  run.query_seconds = seconds_since(start);

  for (const auto& [qid, ranking] : run.rankings) {
    for (const auto& id : ranking) {
      if (!collection.corpus_ids.contains(id)) unknown.insert(id);
    }
  }
  run.unknown_ids = unknown.size();
  return run;
}

}  // namespace abstracts::eval
