#include "bench/relevance/engine_run.h"

#include <chrono>
#include <cctype>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_set>

#include "abstracts/abstracts.h"
#include "bench/relevance/temp_dir.h"

namespace abstracts::eval {
namespace {

// Ranking options from $ABSTRACTS_RANKING, for tuning experiments:
// "k1=0.9,b=0.4,title=1,fb_min=5,fb_docs=10,fb_terms=20,fb_weight=0.5,fb_mix=0.3,prox=0.5,prox_window=27,
// prox_depth=100,prox_min=4".
// Unset: the engine's defaults, which are what the report is about.
RankingOptions ranking_from_env() {
  RankingOptions r;
  const char* spec = std::getenv("ABSTRACTS_RANKING");
  if (spec == nullptr) return r;
  std::string s(spec);
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    std::string item = s.substr(start, comma - start);
    start = comma + 1;
    auto eq = item.find('=');
    if (eq == std::string::npos) throw std::runtime_error("ABSTRACTS_RANKING: no '=' in " + item);
    std::string key = item.substr(0, eq);
    double v = std::stod(item.substr(eq + 1));
    if (key == "k1") r.k1 = v;
    else if (key == "b") r.b = v;
    else if (key == "title") r.title_weight = v;
    else if (key == "stop") r.plain_text_stopwords = v != 0;
    else if (key == "fb_min") r.feedback_min_words = static_cast<unsigned>(v);
    else if (key == "fb_docs") r.feedback_docs = static_cast<unsigned>(v);
    else if (key == "fb_terms") r.feedback_terms = static_cast<unsigned>(v);
    else if (key == "fb_weight") r.feedback_weight = v;
    else if (key == "fb_mix") r.feedback_mix = v;
    else if (key == "prox") r.proximity_weight = v;
    else if (key == "prox_window") r.proximity_window = static_cast<unsigned>(v);
    else if (key == "prox_depth") r.proximity_depth = static_cast<unsigned>(v);
    else if (key == "prox_min") r.proximity_min_words = static_cast<unsigned>(v);
    else throw std::runtime_error("ABSTRACTS_RANKING: unknown key " + key);
  }
  return r;
}

// $ABSTRACTS_DEFAULT_OPERATOR=AND or OR: the experiment behind the query
// language's default operator. Each query's words, stripped of punctuation, are
// joined with " AND " or " " (the default operator, OR) and searched with the
// query language, instead of as typed. Empty: as typed.
std::string query_language_operator() {
  const char* op = std::getenv("ABSTRACTS_DEFAULT_OPERATOR");
  if (op == nullptr || std::string(op).empty()) return "";
  if (std::string(op) == "AND" || std::string(op) == "OR") return op;
  throw std::runtime_error("ABSTRACTS_DEFAULT_OPERATOR: AND or OR, not " + std::string(op));
}

std::string join_words(const std::string& text, const std::string& op) {
  const std::string separator = op == "AND" ? " AND " : " ";
  std::string out, word;
  auto flush = [&] {
    if (word.empty()) return;
    if (!out.empty()) out += separator;
    out += word;
    word.clear();
  };
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80) {
      word += c;
    } else {
      flush();
    }
  }
  flush();
  return out;
}

}  // namespace

Run run_engine(const Collection& collection, QuerySyntax syntax) {
  Run run;
  run.system = syntax == QuerySyntax::kQueryLanguage ? "engine" : "engine (plain text)";
  TempDir dir;
  const auto index_dir = dir.path() / "index";

  const std::filesystem::path& corpus = collection.corpus;

  auto start = std::chrono::steady_clock::now();
  {
    Writer writer = Writer::open(index_dir);
    writer.index_file(corpus);  // commits on its own
  }
  run.index_seconds = seconds_since(start);

  const Index index = Index::open(index_dir);
  // The library's defaults, as `abstracts search` has them: a question goes
  // through the query language as typed, spelling correction and acronyms on.
  SearchOptions options;
  options.limit = kDepth;
  options.snippets = false;
  options.syntax = syntax;
  options.ranking = ranking_from_env();
  const std::string op = syntax == QuerySyntax::kQueryLanguage ? query_language_operator() : "";
  if (!op.empty()) {
    options.correct_spelling = false;  // measure the operator itself, not a rescue of it
    run.notes.push_back("words joined with " + op + " ($ABSTRACTS_DEFAULT_OPERATOR=" + op + ")");
  }
  start = std::chrono::steady_clock::now();
  for (const auto& query : collection.queries) {
    Ranking& ranking = run.rankings[query.id];
    try {
      SearchResults results = op.empty() ? index.search(query.text, options)
                                         : index.search(join_words(query.text, op), options);
      ranking.reserve(results.hits.size());
      for (auto& hit : results.hits) ranking.push_back(std::move(hit.abstract.id));
    } catch (const QueryError& e) {
      run.query_problems.push_back(query.id + ": " + e.what() + " (no hits)");
    }
  }
  run.query_seconds = seconds_since(start);

  run.unknown_ids = count_unknown_ids(run.rankings, collection.corpus_ids);
  return run;
}

}  // namespace abstracts::eval
