// The public API as a user of the installed library sees it: only the umbrella
// header, no internal include path, no Xapian, no ICU. If this file needs
// anything else to compile, the public headers leak an implementation detail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "abstracts/abstracts.h"

namespace {

namespace fs = std::filesystem;

// A fresh directory under the system temp dir, removed with its contents at the end.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device rd;
    for (int attempt = 0; attempt < 100 && path_.empty(); ++attempt) {
      auto candidate = fs::temp_directory_path() /
                       ("abstracts-api-test-" + std::to_string(rd()) + std::to_string(rd()));
      if (fs::create_directory(candidate)) path_ = candidate;
    }
    if (path_.empty()) throw std::runtime_error("cannot create a temporary directory");
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::vector<std::string> file_lines(const fs::path& file) {
  std::vector<std::string> out;
  std::ifstream in(file, std::ios::binary);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\f\v\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\f\v\r") - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::size_t count_chars(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The bundled corpus, indexed once into a scratch directory for the whole suite.
class PublicApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ScratchDir();
    auto writer = abstracts::Writer::open(index_dir());
    ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR), 0u);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static fs::path index_dir() { return dir_->path() / "index"; }

  static ScratchDir* dir_;
};
ScratchDir* PublicApi::dir_ = nullptr;

TEST_F(PublicApi, HitsHaveEveryFieldFilled) {
  const auto index = abstracts::Index::open(index_dir());
  const abstracts::SearchResults results = index.search("sparse attention");
  ASSERT_FALSE(results.hits.empty());
  EXPECT_LE(results.hits.size(), abstracts::SearchOptions{}.limit);
  EXPECT_GE(results.estimated_matches, results.hits.size());

  const std::string kCrockford = "0123456789abcdefghjkmnpqrstvwxyz";
  for (std::size_t i = 0; i < results.hits.size(); ++i) {
    const abstracts::Hit& hit = results.hits[i];
    const abstracts::Abstract& a = hit.abstract;
    SCOPED_TRACE(a.source + ":" + std::to_string(a.line));

    EXPECT_EQ(hit.rank, i + 1);
    EXPECT_GT(hit.score, 0.0);
    if (i > 0) {
      EXPECT_LE(hit.score, results.hits[i - 1].score);
    }

    // id: 12 characters of Crockford base32, the content_id of the source line.
    ASSERT_EQ(a.id.size(), 12u) << a.id;
    EXPECT_EQ(a.id.find_first_not_of(kCrockford), std::string::npos) << a.id;
    // source: an absolute path; line: 1-based, after the header line.
    EXPECT_TRUE(fs::path(a.source).is_absolute());
    ASSERT_TRUE(fs::exists(a.source));
    EXPECT_TRUE(fs::equivalent(fs::path(a.source).parent_path(), ABSTRACTS_CORPUS_DIR));
    const auto lines = file_lines(a.source);
    ASSERT_GE(a.line, 2u);
    ASSERT_LE(a.line, lines.size());
    const std::string raw = trim(lines[a.line - 1]);
    EXPECT_EQ(a.id, abstracts::content_id(raw));
    // venue and year: from the header line ("NeurIPS 2026 Papers").
    EXPECT_FALSE(a.venue.empty());
    EXPECT_GE(a.year, 1900);
    EXPECT_EQ(lines.front().rfind(a.venue + " " + std::to_string(a.year), 0), 0u) << lines.front();
    // text: the display text; title: its first sentence.
    EXPECT_EQ(a.text, abstracts::display_text(raw));
    EXPECT_FALSE(a.title.empty());
    EXPECT_EQ(a.title, abstracts::derive_title(a.text));
    EXPECT_LE(count_chars(a.title), 100u);

    // snippet: display text with the matching words highlighted.
    const abstracts::Snippet& s = hit.snippet;
    EXPECT_FALSE(s.text.empty());
    EXPECT_LE(count_chars(s.text), abstracts::SearchOptions{}.snippet_chars + 20) << s.text;
    ASSERT_FALSE(s.highlights.empty()) << s.text;
    std::size_t prev_end = 0;
    for (const abstracts::Highlight& h : s.highlights) {
      ASSERT_LT(h.begin, h.end);
      ASSERT_LE(h.end, s.text.size());
      EXPECT_GE(h.begin, prev_end) << "highlights overlap or are out of order";
      prev_end = h.end;
      // "sparse" and "attention" stem to "spars" and "attent".
      const std::string word = lower(s.text.substr(h.begin, h.end - h.begin));
      EXPECT_TRUE(word.rfind("spars", 0) == 0 || word.rfind("attent", 0) == 0) << word;
    }
  }
  // The best hit says it.
  EXPECT_NE(lower(results.hits[0].abstract.text).find("sparse attention"), std::string::npos);
}

TEST_F(PublicApi, GetReturnsTheHitsAbstract) {
  const auto index = abstracts::Index::open(index_dir());
  const auto results = index.search("sparse attention", {.limit = 3, .snippets = false});
  ASSERT_FALSE(results.hits.empty());
  for (const auto& hit : results.hits) {
    EXPECT_TRUE(hit.snippet.text.empty());
    EXPECT_TRUE(hit.snippet.highlights.empty());
    const std::optional<abstracts::Abstract> a = index.get(hit.abstract.id);
    ASSERT_TRUE(a.has_value()) << hit.abstract.id;
    EXPECT_EQ(a->id, hit.abstract.id);
    EXPECT_EQ(a->source, hit.abstract.source);
    EXPECT_EQ(a->line, hit.abstract.line);
    EXPECT_EQ(a->venue, hit.abstract.venue);
    EXPECT_EQ(a->year, hit.abstract.year);
    EXPECT_EQ(a->title, hit.abstract.title);
    EXPECT_EQ(a->text, hit.abstract.text);
  }
  EXPECT_FALSE(index.get("zzzzzzzzzzzz").has_value());
}

TEST_F(PublicApi, StatsCountTheCorpus) {
  std::size_t abstracts = 0, files = 0;
  for (const auto& e : fs::directory_iterator(ABSTRACTS_CORPUS_DIR)) {
    if (!e.is_regular_file()) continue;
    ++files;
    const auto lines = file_lines(e.path());
    abstracts += static_cast<std::size_t>(std::count_if(
        lines.begin() + 1, lines.end(), [](const std::string& l) { return !trim(l).empty(); }));
  }
  const auto index = abstracts::Index::open(index_dir());
  const abstracts::IndexStats stats = index.stats();
  EXPECT_EQ(stats.abstracts, abstracts);
  EXPECT_EQ(stats.files, files);
  EXPECT_GT(stats.terms, 0u);
  EXPECT_GT(stats.size_bytes, 0u);
  EXPECT_GT(stats.average_length, 0.0);
  EXPECT_EQ(fs::path(stats.path), index_dir());
  EXPECT_EQ(index.path(), index_dir());
}

TEST_F(PublicApi, QueryErrorCarriesTheColumn) {
  const auto index = abstracts::Index::open(index_dir());
  struct Case {
    const char* query;
    std::size_t column;
  };
  for (const Case& c : {Case{"sparse title:", 8}, Case{"sparse year:20x6", 8}, Case{"sparse NEAR/x attention", 8},
                        Case{"the of", 1}, Case{"", 1}}) {
    try {
      index.search(c.query);
      ADD_FAILURE() << "`" << c.query << "`: expected QueryError";
    } catch (const abstracts::QueryError& e) {
      EXPECT_EQ(e.column(), c.column) << "`" << c.query << "`: " << e.what();
      EXPECT_FALSE(std::string(e.what()).empty());
      EXPECT_FALSE(e.hint().empty()) << "`" << c.query << "`";
    }
  }
}

TEST_F(PublicApi, SecondWriterThrowsIndexLocked) {
  auto writer = abstracts::Writer::open(index_dir());
  EXPECT_THROW(abstracts::Writer::open(index_dir()), abstracts::IndexLocked);
}

TEST(PublicApiErrors, MissingIndexThrowsIndexNotFound) {
  ScratchDir dir;
  EXPECT_THROW(abstracts::Index::open(dir.path() / "missing"), abstracts::IndexNotFound);
  // Every library error is an abstracts::Error with a hint.
  try {
    abstracts::Index::open(dir.path() / "missing");
    ADD_FAILURE() << "expected IndexNotFound";
  } catch (const abstracts::Error& e) {
    EXPECT_NE(dynamic_cast<const abstracts::IndexNotFound*>(&e), nullptr);
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
    EXPECT_FALSE(e.hint().empty());
  }
}

// Issue 21: a program has no `abstracts index` to run, so the library's hints
// speak of its own API; the CLI gives its own (tests/cli/hints_test.cc).
TEST(PublicApiErrors, HintsSpeakOfTheLibraryNotTheCli) {
  ScratchDir dir;
  auto expect_library_hint = [](const abstracts::Error& e) {
    EXPECT_NE(e.hint().find("Writer"), std::string::npos) << e.hint();
    EXPECT_EQ(e.hint().find("abstracts index"), std::string::npos) << e.hint();
    EXPECT_EQ(e.hint().find("--"), std::string::npos) << e.hint();
  };
  try {
    abstracts::Index::open(dir.path() / "missing");
    ADD_FAILURE() << "expected IndexNotFound";
  } catch (const abstracts::IndexNotFound& e) {
    expect_library_hint(e);
  }
  auto writer = abstracts::Writer::open(dir.path() / "index");
  try {
    abstracts::Writer::open(dir.path() / "index");
    ADD_FAILURE() << "expected IndexLocked";
  } catch (const abstracts::IndexLocked& e) {
    expect_library_hint(e);
  }
  std::ofstream(dir.path() / "file") << "not a directory\n";
  try {
    abstracts::Writer::open(dir.path() / "file");
    ADD_FAILURE() << "expected IndexNotFound";
  } catch (const abstracts::IndexNotFound& e) {
    expect_library_hint(e);
  }
}

TEST(PublicApiVersion, NamesTheLibraryXapianIcuAndTheSchema) {
  const abstracts::VersionInfo v = abstracts::version_info();
  for (const std::string& version : {v.library, v.xapian, v.icu}) {
    EXPECT_TRUE(!version.empty() && std::isdigit(static_cast<unsigned char>(version[0])) &&
                version.find('.') != std::string::npos)
        << version;
  }
  EXPECT_TRUE(v.xapian.starts_with("1.4.")) << v.xapian;
  EXPECT_FALSE(v.schema.empty());
}

TEST(PublicApiErrors, BadInputThrowsInputErrorNamingFileAndLine) {
  ScratchDir dir;
  const fs::path bad = dir.path() / "latin1.txt";
  std::ofstream(bad, std::ios::binary) << "NeurIPS 2026 Papers\n\nCaf\xe9.\n";
  auto writer = abstracts::Writer::open(dir.path() / "index");
  try {
    writer.index_file(bad);
    ADD_FAILURE() << "expected InputError";
  } catch (const abstracts::InputError& e) {
    EXPECT_TRUE(fs::equivalent(e.file(), bad)) << e.file();
    EXPECT_EQ(e.line(), 3u);
    EXPECT_FALSE(e.hint().empty());
  }
  EXPECT_THROW(writer.index_directory(bad), abstracts::InputError);
}

TEST(PublicApiErrors, WriterRoundTrip) {
  ScratchDir dir;
  auto writer = abstracts::Writer::open(dir.path() / "index");
  abstracts::Abstract a;
  a.text = R"(We study Pok\'emon. More follows.)";
  const std::string id = writer.add(a);
  EXPECT_EQ(id, abstracts::content_id(a.text));
  writer.commit();

  const auto index = abstracts::Index::open(dir.path() / "index");
  const auto got = index.get(id);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->text, "We study Pokémon. More follows.");
  EXPECT_EQ(got->title, "We study Pokémon");
  const auto results = index.search("pokemon");
  ASSERT_EQ(results.hits.size(), 1u);
  EXPECT_EQ(results.hits[0].abstract.id, id);

  EXPECT_TRUE(writer.remove(id));
  EXPECT_FALSE(writer.remove(id));
  writer.commit();
  EXPECT_TRUE(index.search("pokemon").hits.empty());
}

// Issue 18: a program's own bibliographic records go in with Writer::add and
// come back whole; the DOI names the paper.
TEST(PublicApiErrors, Issue18MetadataRoundTrip) {
  ScratchDir dir;
  auto writer = abstracts::Writer::open(dir.path() / "index");
  abstracts::Abstract a;
  a.text = "Diphoton pairs at hadron colliders.";
  a.title = "Calculation of prompt diphoton production";
  a.authors = {{"Bal\\'azs", "C."}, {"Berger", "E. L."}};
  a.year = 2007;
  a.month = 4;
  a.day = 2;
  a.venue = "Phys. Rev. D";
  a.categories = {"hep-ph"};
  a.doi = "https://doi.org/10.1103/PhysRevD.76.013009";
  a.arxiv_id = "0704.0001v2";
  const std::string id = writer.add(a);
  EXPECT_EQ(id, "10.1103/physrevd.76.013009");
  writer.commit();

  const auto index = abstracts::Index::open(dir.path() / "index");
  const auto got = index.get(id);
  ASSERT_TRUE(got.has_value());
  ASSERT_EQ(got->authors.size(), 2u);
  EXPECT_EQ(abstracts::display_name(got->authors[0]), "C. Balázs");
  EXPECT_EQ(abstracts::iso_date(*got), "2007-04-02");
  EXPECT_EQ(got->venue, "Phys. Rev. D");
  EXPECT_EQ(got->categories, std::vector<std::string>{"hep-ph"});
  EXPECT_EQ(got->doi, "10.1103/physrevd.76.013009");
  EXPECT_EQ(got->arxiv_id, "0704.0001");
  for (const char* q : {"author:balazs", "doi:10.1103/PhysRevD.76.013009", "arxiv:0704.0001", "category:hep-ph",
                        "venue:\"Phys. Rev. D\""}) {
    const auto results = index.search(q);
    ASSERT_EQ(results.hits.size(), 1u) << q;
    EXPECT_EQ(results.hits[0].abstract.id, id) << q;
  }
}

// The documented free functions.
TEST(PublicApiText, ContentIdIsStableAndNormalised) {
  const std::string id = abstracts::content_id("Some  abstract\ttext.");
  EXPECT_EQ(id.size(), 12u);
  EXPECT_EQ(id, abstracts::content_id("Some abstract text."));  // white space collapsed
  EXPECT_EQ(abstracts::content_id("Caf\u00e9."), abstracts::content_id("Cafe\u0301."));  // NFC
  EXPECT_NE(id, abstracts::content_id("Some abstract text!"));
}

TEST(PublicApiText, DisplayTextAndTitle) {
  EXPECT_EQ(abstracts::display_text(R"(Pok\'emon)"), "Pokémon");
  EXPECT_EQ(abstracts::derive_title("First sentence. Second one."), "First sentence");
  EXPECT_EQ(abstracts::derive_title("Is it? Yes."), "Is it?");
  const std::string cut = abstracts::derive_title("one two three four five six seven. Next.", 20);
  EXPECT_LE(count_chars(cut), 20u) << cut;
  EXPECT_EQ(cut.substr(cut.size() - std::string("…").size()), "…") << cut;
  EXPECT_EQ(
      std::string("one two three four five six seven").rfind(cut.substr(0, cut.size() - 3), 0), 0u)
      << cut;
}

}  // namespace
