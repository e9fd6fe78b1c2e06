// Plain Xapian 1.4 with its defaults: the floor of what this stack gives with no work.
#include <xapian.h>

#include <fstream>
#include <stdexcept>

#include "bench/relevance/collection.h"
#include "bench/speed/system.h"

namespace abstracts::speed {
namespace {

namespace fs = std::filesystem;

// Snippet length in bytes, the engine's default (SearchOptions::snippet_chars).
constexpr std::size_t kSnippetLength = 240;

// The bundled text format, read plainly: a header line, then one abstract per
// non-empty line (no title).
void for_each_bundled_abstract(const fs::path& dir, const std::function<void(const std::string&)>& visit) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".txt") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    bool header = true;
    while (std::getline(in, line)) {
      if (header) {
        header = false;
        continue;
      }
      if (!line.empty()) visit(line);
    }
  }
}

class XapianSearcher : public Searcher {
 public:
  explicit XapianSearcher(const fs::path& dir) : db_(dir.string()), enquire_(db_), stemmer_("english") {
    parser_.set_database(db_);
    parser_.set_stemmer(stemmer_);
    parser_.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
  }

  std::size_t search(const BenchQuery& query) override {
    try {
      enquire_.set_query(parser_.parse_query(xapian_syntax(query)));
      Xapian::MSet mset = enquire_.get_mset(0, kTopK);
      for (auto it = mset.begin(); it != mset.end(); ++it) {
        const std::string text = it.get_document().get_data();
        sink_ += *it + static_cast<std::size_t>(it.get_weight()) +
                 mset.snippet(text, kSnippetLength, stemmer_).size();
      }
      return mset.size();
    } catch (const Xapian::Error& e) {
      throw std::runtime_error(e.get_description());
    }
  }

 private:
  Xapian::Database db_;
  Xapian::Enquire enquire_;  // BM25Weight with its default parameters
  Xapian::QueryParser parser_;
  Xapian::Stem stemmer_;
  std::size_t sink_ = 0;
};

}  // namespace

void index_xapian(const fs::path& corpus, const fs::path& dir) {
  Xapian::WritableDatabase db(dir.string(), Xapian::DB_CREATE_OR_OVERWRITE);
  Xapian::TermGenerator termgen;
  termgen.set_stemmer(Xapian::Stem("english"));
  auto add = [&](const std::string& title, const std::string& text) {
    Xapian::Document doc;
    termgen.set_document(doc);
    if (!title.empty()) {
      termgen.index_text(title);
      termgen.increase_termpos();
    }
    termgen.index_text(text);
    doc.set_data(text);
    db.add_document(doc);
  };
  if (fs::is_directory(corpus)) {
    for_each_bundled_abstract(corpus, [&](const std::string& text) { add("", text); });
  } else {
    eval::for_each_document(corpus, [&](const eval::CorpusDocument& d) { add(d.title, d.text); });
  }
  db.commit();
}

std::unique_ptr<Searcher> open_xapian(const fs::path& dir) {
  return std::make_unique<XapianSearcher>(dir);
}

}  // namespace abstracts::speed
