// Learning and storing vectors of meaning (engine/vectors.h): the work of
// Writer::build_vectors().
#ifndef ABSTRACTS_INDEXER_VECTORS_H_
#define ABSTRACTS_INDEXER_VECTORS_H_

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include <xapian.h>

#include "abstracts/writer.h"
#include "engine/analysis/analyzer.h"
#include "engine/compression.h"
#include "engine/room.h"
#include "engine/vectors.h"

namespace abstracts::indexer {

// fastText's training text: one line per abstract (title and text), its word
// terms as the analyzer makes them, numbers left out.
class TrainingText {
 public:
  // Creates `file`. Throws Error if it cannot.
  explicit TrainingText(const std::filesystem::path& file);
  ~TrainingText();
  TrainingText(const TrainingText&) = delete;
  TrainingText& operator=(const TrainingText&) = delete;

  // Adds up to `limit` abstracts (0: all), evenly spread over `db`'s.
  void add_index(const Xapian::Database& db, const compression::Decompressor& stored, std::size_t limit,
                 const analysis::Analyzer& analyzer);
  // Adds the abstracts of `files` (any format the indexer reads), up to `limit` in all (0: all).
  void add_files(const std::vector<std::filesystem::path>& files, std::size_t limit,
                 const analysis::Analyzer& analyzer);
  // Flushes the file; throws Error if writing it failed.
  void close();

  const std::filesystem::path& path() const { return path_; }
  std::uint64_t abstracts() const { return abstracts_; }
  std::uint64_t tokens() const { return tokens_; }

 private:
  void add(const std::string& title, const std::string& text, const analysis::Analyzer& analyzer);

  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  std::uint64_t abstracts_ = 0, tokens_ = 0;
  std::string line_;
};

// Word vectors learned by fastText (skipgram with subwords) from `text`, with
// their SIF weights.
using WordVectors = std::unordered_map<std::string, vectors::WordVector>;
WordVectors learn_word_vectors(const TrainingText& text, const VectorsOptions& options, float a);

// Gives every abstract of `db` its vector from `words` and stores the model and
// the words with it, replacing any vectors it had; commits every `commit_every`
// abstracts (`db` is a copy that nobody reads yet), each commit only with room
// for it (room::commit, counted in `pending`). Returns the abstracts given a vector.
std::size_t store_vectors(Xapian::WritableDatabase& db, const WordVectors& words, vectors::Model model,
                          std::size_t commit_every, room::Pending& pending,
                          const std::function<void(std::size_t)>& on_progress);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_VECTORS_H_
