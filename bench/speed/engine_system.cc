// The engine through its public API only, so the harness survives changes to
// how it indexes and searches inside.
#include "abstracts/abstracts.h"
#include "bench/speed/system.h"

namespace abstracts::speed {
namespace {

class EngineSearcher : public Searcher {
 public:
  EngineSearcher(const std::filesystem::path& dir, SearchMode mode) : index_(Index::open(dir)) {
    options_.limit = kTopK;
    options_.snippets = true;
    options_.mode = mode;
  }

  std::size_t search(const BenchQuery& query) override {
    SearchResults results = index_.search(xapian_syntax(query), options_);
    std::size_t bytes = 0;
    for (const auto& hit : results.hits) bytes += hit.abstract.id.size() + hit.snippet.text.size();
    sink_ += bytes;
    return results.hits.size();
  }

 private:
  Index index_;
  SearchOptions options_;
  std::size_t sink_ = 0;
};

}  // namespace

void index_engine(const std::filesystem::path& corpus, const std::filesystem::path& dir) {
  Writer writer = Writer::open(dir);
  if (std::filesystem::is_directory(corpus)) {
    writer.index_directory(
        corpus, {}, [](const std::exception& e) { throw std::runtime_error(e.what()); });
  } else {
    writer.index_file(corpus);  // commits on its own
  }
  writer.commit();
}

std::unique_ptr<Searcher> open_engine(const std::filesystem::path& dir) {
  return std::make_unique<EngineSearcher>(dir, SearchMode::kLexical);
}

std::unique_ptr<Searcher> open_engine_hybrid(const std::filesystem::path& dir) {
  return std::make_unique<EngineSearcher>(dir, SearchMode::kHybrid);
}

}  // namespace abstracts::speed
