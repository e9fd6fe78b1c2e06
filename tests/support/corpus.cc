#include "tests/support/corpus.h"

#include <algorithm>
#include <fstream>

#include "abstracts/writer.h"
#include "tests/support/test_support.h"

namespace abstracts::testing {
namespace fs = std::filesystem;

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\f\v\r");
  if (b == std::string::npos) return {};
  auto e = s.find_last_not_of(" \t\f\v\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> raw_lines(const fs::path& file) {
  std::vector<std::string> out;
  std::ifstream in(file, std::ios::binary);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<CorpusLine> abstracts_of(const fs::path& file) {
  std::vector<CorpusLine> out;
  auto lines = raw_lines(file);
  for (std::size_t i = 1; i < lines.size(); ++i) {  // line 1 is the header
    std::string t = trim(lines[i]);
    if (!t.empty()) out.push_back({file, static_cast<std::uint32_t>(i + 1), t});
  }
  return out;
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(ABSTRACTS_CORPUS_DIR)) {
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<CorpusLine> corpus_abstracts() {
  std::vector<CorpusLine> all;
  for (const auto& f : corpus_files()) {
    auto a = abstracts_of(f);
    all.insert(all.end(), a.begin(), a.end());
  }
  return all;
}

const fs::path& corpus_index() {
  static const TempDir dir;
  static const fs::path index = [] {
    fs::path p = dir / "index";
    Writer::open(p).index(corpus_files());
    return p;
  }();
  return index;
}

std::vector<fs::path> copy_corpus(const fs::path& dir) {
  std::vector<fs::path> out;
  fs::create_directories(dir);
  for (const auto& f : corpus_files()) {
    fs::copy_file(f, dir / f.filename());
    out.push_back(dir / f.filename());
  }
  return out;
}

SearchOptions literal(std::size_t limit) {
  SearchOptions o;
  o.limit = limit;
  o.expand_acronyms = false;
  o.correct_spelling = false;
  return o;
}

}  // namespace abstracts::testing
