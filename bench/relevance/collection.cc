#include "bench/relevance/collection.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace abstracts::eval {
namespace {

namespace fs = std::filesystem;

// Lines of a plain or gzip-compressed file (gzopen reads both), without the
// line end, numbered from 1.
class LineReader {
 public:
  explicit LineReader(const fs::path& file) : name_(file.string()) {
    gz_ = gzopen(file.c_str(), "rb");
    if (gz_ == nullptr) {
      throw std::runtime_error("cannot read " + name_ + ": " + std::strerror(errno));
    }
    gzbuffer(gz_, 1 << 17);
  }
  ~LineReader() { gzclose(gz_); }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  bool next(std::string& line) {
    line.clear();
    char buf[1 << 14];
    bool any = false;
    while (gzgets(gz_, buf, sizeof buf) != nullptr) {
      any = true;
      std::size_t n = std::strlen(buf);
      line.append(buf, n);
      if (n > 0 && buf[n - 1] == '\n') break;
    }
    if (!any) {
      int err = Z_OK;
      const char* msg = gzerror(gz_, &err);
      if (err != Z_OK && err != Z_BUF_ERROR) throw std::runtime_error(name_ + ": " + msg);
      return false;
    }
    ++number_;
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }

  std::runtime_error error(const std::string& what) const {
    return std::runtime_error(name_ + ":" + std::to_string(number_) + ": " + what);
  }

 private:
  std::string name_;
  gzFile gz_ = nullptr;
  std::size_t number_ = 0;
};

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t\n\r") == std::string::npos;
}

std::vector<std::string> split_whitespace(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  return fields;
}

int parse_grade(const std::string& field, const LineReader& in) {
  try {
    std::size_t used = 0;
    int grade = std::stoi(field, &used);
    if (used == field.size()) return grade;
  } catch (const std::exception&) {
  }
  throw in.error("grade \"" + field + "\" is not an integer");
}

// A JSON string or integer field as a string ("_id" is either in BEIR files).
std::string string_field(const nlohmann::json& j, const char* key, const LineReader& in) {
  auto it = j.find(key);
  if (it == j.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_integer()) return std::to_string(it->get<long long>());
  throw in.error(std::string("\"") + key + "\" is neither a string nor an integer");
}

nlohmann::json parse_object(const std::string& line, const LineReader& in) {
  nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) throw in.error("not a JSON object");
  return j;
}

// Renames judged ids that only differ from a corpus id by zero padding (see
// Collection::renamed_judged_ids) and counts those that name no document.
void reconcile_judged_ids(Collection& c) {
  std::unordered_map<std::string, std::string> by_unpadded;
  std::unordered_set<std::string> ambiguous;
  for (const auto& id : c.corpus_ids) {
    auto [it, added] = by_unpadded.emplace(unpadded_id(id), id);
    if (!added) ambiguous.insert(it->first);
  }
  for (auto& [qid, judgments] : c.qrels) {
    Judgments fixed;
    for (const auto& [doc, grade] : judgments) {
      std::string id = doc;
      if (!c.corpus_ids.contains(id)) {
        const std::string key = unpadded_id(id);
        auto it = by_unpadded.find(key);
        if (it != by_unpadded.end() && !ambiguous.contains(key)) {
          c.renamed_judged_ids[id] = it->second;
          ++c.renamed_judgments;
          id = it->second;
        } else {
          ++c.unknown_judged_ids;
        }
      }
      fixed[id] = std::max(fixed[id], grade);
    }
    judgments = std::move(fixed);
  }
}

}  // namespace

std::string unpadded_id(std::string_view id) {
  const auto end = id.find_last_of("0123456789");
  if (end == std::string_view::npos) return std::string(id);
  auto begin = id.find_last_not_of("0123456789", end);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  auto first_nonzero = id.find_first_not_of('0', begin);
  // Keep one digit of an all-zero number: "A-000" -> "A-0".
  if (first_nonzero > end) first_nonzero = end;
  return std::string(id.substr(0, begin)) + std::string(id.substr(first_nonzero));
}

const std::vector<std::string>& collection_names() {
  static const std::vector<std::string> names{"scifact", "cranfield", "cacm"};
  return names;
}

void for_each_document(const fs::path& corpus,
                       const std::function<void(const CorpusDocument&)>& visit) {
  LineReader in(corpus);
  CorpusDocument doc;
  for (std::string line; in.next(line);) {
    if (is_blank(line)) continue;
    nlohmann::json j = parse_object(line, in);
    doc.id = string_field(j, "_id", in);
    if (doc.id.empty()) throw in.error("no \"_id\"");
    doc.title = string_field(j, "title", in);
    doc.text = string_field(j, "text", in);
    visit(doc);
  }
}

std::vector<Query> read_jsonl_queries(const fs::path& file) {
  LineReader in(file);
  std::vector<Query> queries;
  for (std::string line; in.next(line);) {
    if (is_blank(line)) continue;
    nlohmann::json j = parse_object(line, in);
    Query q{string_field(j, "_id", in), string_field(j, "text", in)};
    if (q.id.empty()) throw in.error("no \"_id\"");
    queries.push_back(std::move(q));
  }
  return queries;
}

std::vector<Query> read_tsv_queries(const fs::path& file) {
  LineReader in(file);
  std::vector<Query> queries;
  for (std::string line; in.next(line);) {
    if (is_blank(line)) continue;
    auto tab = line.find('\t');
    if (tab == 0 || tab == std::string::npos) throw in.error("expected id<TAB>text");
    queries.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return queries;
}

Qrels read_beir_qrels(const fs::path& file) {
  LineReader in(file);
  Qrels qrels;
  std::string line;
  if (!in.next(line) ||
      split_whitespace(line) != std::vector<std::string>{"query-id", "corpus-id", "score"}) {
    throw in.error("expected the header \"query-id corpus-id score\"");
  }
  while (in.next(line)) {
    if (is_blank(line)) continue;
    auto f = split_whitespace(line);
    if (f.size() != 3) throw in.error("expected query-id<TAB>corpus-id<TAB>score");
    qrels[f[0]][f[1]] = parse_grade(f[2], in);
  }
  return qrels;
}

Qrels read_trec_qrels(const fs::path& file) {
  LineReader in(file);
  Qrels qrels;
  for (std::string line; in.next(line);) {
    if (is_blank(line)) continue;
    auto f = split_whitespace(line);
    if (f.size() != 4) throw in.error("expected \"qid 0 docid grade\"");
    qrels[f[0]][f[2]] = parse_grade(f[3], in);
  }
  return qrels;
}

Collection load_collection(const fs::path& data_dir, std::string_view name,
                           std::string_view split) {
  Collection c;
  c.name = std::string(name);
  const fs::path dir = data_dir / c.name;
  if (name == "scifact") {
    if (split != "test" && split != "train") {
      throw std::runtime_error("SciFact has the splits test and train, not \"" +
                               std::string(split) + "\"");
    }
    c.split = std::string(split);
    c.corpus = dir / "corpus.jsonl.gz";
    c.queries = read_jsonl_queries(dir / ("queries." + c.split + ".jsonl"));
    c.qrels = read_beir_qrels(dir / ("qrels." + c.split + ".tsv"));
  } else if (name == "cranfield" || name == "cacm") {
    c.corpus = dir / "corpus.jsonl";
    c.queries = read_tsv_queries(dir / "queries.tsv");
    c.qrels = read_trec_qrels(dir / "qrels.trec");
  } else {
    throw std::runtime_error("unknown collection \"" + c.name +
                             "\" (known: scifact, cranfield, cacm)");
  }
  for_each_document(c.corpus, [&](const CorpusDocument& d) {
    c.corpus_ids.insert(d.id);
    if (is_blank(d.title) && is_blank(d.text)) c.empty_ids.push_back(d.id);
  });
  reconcile_judged_ids(c);
  return c;
}

}  // namespace abstracts::eval
