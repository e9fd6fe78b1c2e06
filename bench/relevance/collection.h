// A test collection: documents, queries and relevance judgments, read from the
// shared data folder (see ../shared/data/README.md for the layouts).
#ifndef ABSTRACTS_BENCH_RELEVANCE_COLLECTION_H_
#define ABSTRACTS_BENCH_RELEVANCE_COLLECTION_H_

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace abstracts::eval {

struct Query {
  std::string id;
  std::string text;
};

// The judgments of one query: corpus id -> grade. A grade > 0 is relevant
// (and is the gain in nDCG); a grade <= 0 is judged not relevant.
using Judgments = std::unordered_map<std::string, int>;

// Query id -> its judgments.
using Qrels = std::map<std::string, Judgments>;

struct Collection {
  std::string name;              // "scifact", "cranfield", "cacm"
  std::string split;             // "test" or "train" for SciFact, "" otherwise
  std::filesystem::path corpus;  // BEIR JSON Lines, maybe gzip-compressed
  std::vector<Query> queries;    // in file order
  Qrels qrels;
  std::unordered_set<std::string> corpus_ids;  // every "_id" in the corpus
  // Ids of corpus records with neither title nor text (Cranfield has two).
  std::vector<std::string> empty_ids;
  // Judged ids that are not corpus ids as written but name exactly one corpus id
  // once the zero padding of their number is ignored ("CACM-756" -> "CACM-0756"),
  // and were renamed to it in `qrels`. Judged id -> corpus id.
  std::map<std::string, std::string> renamed_judged_ids;
  std::size_t renamed_judgments = 0;  // judgments that use one of those ids
  // Judged ids (with grade > 0 or not) that name no corpus document, after renaming.
  std::size_t unknown_judged_ids = 0;
};

// The collections load_collection() knows, in reporting order.
const std::vector<std::string>& collection_names();

// Reads collection `name` from `data_dir`/`name`/. `split` picks SciFact's
// queries.`split`.jsonl and qrels.`split`.tsv; the others have one split and
// ignore it. Throws std::runtime_error naming the file (and line) when a file is
// missing or malformed, or `name` is unknown.
Collection load_collection(const std::filesystem::path& data_dir, std::string_view name,
                           std::string_view split = "test");

// `id` without the leading zeros of its last run of digits: "CACM-0756" -> "CACM-756".
std::string unpadded_id(std::string_view id);

// One corpus record as the file gives it.
struct CorpusDocument {
  std::string id;
  std::string title;
  std::string text;
};

// Calls `visit` for every record of a BEIR JSON Lines corpus (plain or gzip),
// in file order. Throws std::runtime_error naming file and line on bad input.
void for_each_document(const std::filesystem::path& corpus,
                       const std::function<void(const CorpusDocument&)>& visit);

// Readers of the single files, exposed for tests. Each throws std::runtime_error
// naming `file` and the line at fault.
std::vector<Query> read_jsonl_queries(const std::filesystem::path& file);  // {"_id","text"}
std::vector<Query> read_tsv_queries(const std::filesystem::path& file);    // id<TAB>text
Qrels read_beir_qrels(const std::filesystem::path& file);  // header, then query-id corpus-id score
Qrels read_trec_qrels(const std::filesystem::path& file);  // qid 0 docid grade

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_COLLECTION_H_
