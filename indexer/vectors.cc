#include "indexer/vectors.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

#include <fasttext/args.h>
#include <fasttext/fasttext.h>

#include "abstracts/error.h"
#include "engine/schema.h"
#include "indexer/document.h"
#include "indexer/input_files.h"
#include "indexer/reader.h"

namespace abstracts::indexer {
namespace fs = std::filesystem;

TrainingText::TrainingText(const fs::path& file) : path_(file) {
  file_ = std::fopen(file.c_str(), "wb");
  if (file_ == nullptr) throw Error("cannot write " + file.string());
}

TrainingText::~TrainingText() {
  if (file_ != nullptr) std::fclose(file_);
}

void TrainingText::add(const std::string& title, const std::string& text, const analysis::Analyzer& analyzer) {
  line_.clear();
  std::size_t words = 0;
  for (const std::string* part : {&title, &text}) {
    for (const auto& token : analyzer.tokenize(*part)) {
      if (!vectors::is_vector_word(token.term)) continue;
      if (words++ != 0) line_.push_back(' ');
      line_.append(token.term);
    }
  }
  if (words == 0) return;
  line_.push_back('\n');
  std::fwrite(line_.data(), 1, line_.size(), file_);
  ++abstracts_;
  tokens_ += words;
}

void TrainingText::add_index(const Xapian::Database& db, const compression::Decompressor& stored, std::size_t limit,
                             const analysis::Analyzer& analyzer) {
  const Xapian::doccount n = db.get_doccount();
  // Every step-th abstract: spread over the index, not its first files.
  const std::size_t step = limit == 0 || n <= limit ? 1 : (n + limit - 1) / limit;
  std::size_t i = 0;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it, ++i) {
    if (i % step != 0) continue;
    bool title_in_text = false;  // a title made of the first sentence is no words of its own
    const Abstract a =
        schema::decode(stored.decompress(db.get_document(*it).get_value(schema::kStoredSlot), *it), &title_in_text);
    add(title_in_text ? std::string() : a.title, a.text, analyzer);
  }
}

void TrainingText::add_files(const std::vector<fs::path>& files, std::size_t limit,
                             const analysis::Analyzer& analyzer) {
  std::size_t added = 0;
  for (const auto& file : files) {
    require_regular_file(file);
    auto reader = Reader::open(file);
    const std::string abs = absolute_path(file);
    while (auto record = reader->next()) {
      if (limit != 0 && added == limit) return;
      const Abstract a = make_abstract(*record, abs, reader->venue(), reader->year());
      add(record->fields.title.empty() ? std::string() : a.title, a.text, analyzer);
      ++added;
    }
  }
}

void TrainingText::close() {
  const bool failed = std::fflush(file_) != 0 || std::ferror(file_) != 0;
  std::fclose(file_);
  file_ = nullptr;
  if (failed) throw Error("cannot write " + path_.string());
}

namespace {

Error too_little_text(const TrainingText& text) {
  return Error("too little text to learn vectors from: no word comes twice in the " +
                   std::to_string(text.abstracts()) + (text.abstracts() == 1 ? " abstract" : " abstracts") + " read",
               "index more abstracts, or learn from a larger corpus (--train-on FILE)");
}

}  // namespace

WordVectors learn_word_vectors(const TrainingText& text, const VectorsOptions& options, float a) {
  fasttext::Args args;
  args.input = text.path().string();
  args.model = fasttext::model_name::sg;
  args.dim = static_cast<int>(options.dimensions);
  args.epoch = static_cast<int>(options.epochs);
  args.minCount = 2;
  // No buckets: whole words only (fastText hashes word pieces into buckets,
  // modulo their number, so pieces without buckets would divide by zero).
  args.minn = options.buckets == 0 ? 0 : 3;
  args.maxn = options.buckets == 0 ? 0 : 6;
  args.bucket = static_cast<int>(options.buckets);
  args.thread = static_cast<int>(options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency()));
  args.verbose = 0;
  fasttext::FastText model;
  try {
    model.train(args);
  } catch (const std::invalid_argument&) {  // fastText's "Empty vocabulary", its only one here
    throw too_little_text(text);
  }
  const auto dict = model.getDictionary();
  const std::vector<int64_t> counts = dict->getCounts(fasttext::entry_type::word);
  double total = 0;
  for (auto c : counts) total += static_cast<double>(c);
  WordVectors out;
  fasttext::Vector v(args.dim);
  for (int32_t i = 0; i < dict->nwords(); ++i) {
    const std::string& word = dict->getWord(i);
    if (word == fasttext::Dictionary::EOS || !vectors::is_vector_word(word)) continue;
    model.getWordVector(v, word);
    vectors::WordVector w;
    w.weight = static_cast<float>(a / (a + counts[i] / total));
    w.v.assign(v.data(), v.data() + v.size());
    out.emplace(word, std::move(w));
  }
  // Of two abstracts with no word in common, fastText learns the end of a line
  // alone (it comes twice): no word, and no abstract would get a vector.
  if (out.empty()) throw too_little_text(text);
  return out;
}

namespace {

// The first principal component of the rows whose X^T X is `c` (n x n), by
// power iteration.
std::vector<float> first_component(const std::vector<double>& c, std::size_t n) {
  std::vector<double> v(n, 1.0 / std::sqrt(double(n))), next(n);
  for (int round = 0; round < 300; ++round) {
    double norm = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double s = 0;
      for (std::size_t j = 0; j < n; ++j) s += c[i * n + j] * v[j];
      next[i] = s;
      norm += s * s;
    }
    norm = std::sqrt(norm);
    if (norm == 0) return {};
    for (std::size_t i = 0; i < n; ++i) v[i] = next[i] / norm;
  }
  return {v.begin(), v.end()};
}

}  // namespace

std::size_t store_vectors(Xapian::WritableDatabase& db, const WordVectors& words, vectors::Model model,
                          std::size_t commit_every, room::Pending& pending,
                          const std::function<void(std::size_t)>& on_progress) {
  // The words first, replacing the old ones (a word the new vectors lack must
  // not keep its vector): the abstracts' vectors are then made from the words
  // as stored, by the Embedder that gives the abstracts indexed later theirs.
  const std::string prefix(vectors::kWordKeyPrefix);
  std::vector<std::string> old;
  for (auto k = db.metadata_keys_begin(prefix); k != db.metadata_keys_end(prefix); ++k) old.push_back(*k);
  for (const auto& k : old) db.set_metadata(k, "");
  for (const auto& [word, w] : words) db.set_metadata(vectors::word_key(word), vectors::encode(w));
  model.words = words.size();
  db.set_metadata(std::string(vectors::kModelKey), vectors::encode(model));
  pending.bytes += words.size() * (model.dimensions * sizeof(float) + 64);
  room::commit(db, pending);

  std::vector<Xapian::docid> ids;  // listed first: replacing documents moves the posting list
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) ids.push_back(*it);
  const std::size_t n = model.dimensions;
  std::vector<float> sum;
  // SIF's common component: of the abstracts' averages (length 1 each, so that
  // long abstracts do not outweigh short ones).
  std::vector<double> c(n * n, 0.0);
  auto embedder = vectors::Embedder::load(db);
  for (Xapian::docid id : ids) {
    if (!embedder->sum_of(db.get_document(id), sum) || !vectors::finish(sum, {})) continue;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) c[i * n + j] += double(sum[i]) * sum[j];
    }
  }
  model.pc = first_component(c, n);
  db.set_metadata(std::string(vectors::kModelKey), vectors::encode(model));
  embedder = vectors::Embedder::load(db);

  std::size_t given = 0, done = 0;
  for (Xapian::docid id : ids) {
    Xapian::Document doc = db.get_document(id);
    // An abstract none of whose words has a vector gets "": no value (Xapian
    // removes it; remove_value() would throw where there is none).
    const std::string value = embedder->value_of(doc);
    doc.add_value(schema::kVectorSlot, value);
    given += value.empty() ? 0 : 1;
    db.replace_document(id, doc);
    pending.bytes += room::document_bytes(doc);
    if (++done % commit_every == 0) {
      room::commit(db, pending);
      if (on_progress) on_progress(done);
    }
  }
  return given;
}

}  // namespace abstracts::indexer
