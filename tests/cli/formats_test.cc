// Issue 18 end to end: bibliographic records through the real binary, with
// their authors, dates and identifiers in the output and in the query language.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Two arXiv snapshot records (one without a DOI) and one without an abstract.
const char* const kArxiv =
    R"({"id":"0704.0001","authors":"C. Bal\\'azs, E. L. Berger","title":"Calculation of prompt diphoton production",)"
    R"("doi":"10.1103/PhysRevD.76.013009","categories":"hep-ph","abstract":"  Diphoton pairs at hadron\ncolliders.\n",)"
    R"("versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}],)"
    R"("authors_parsed":[["Bal\u00e1zs","C.",""],["Berger","E. L.",""]]})"
    "\n"
    R"({"id":"0704.0002","authors":"Ileana Streinu, Louis Theran","title":"Sparsity-certifying graph decompositions",)"
    R"("doi":null,"categories":"math.CO cs.CG","abstract":"We describe a new algorithm for sparse graphs.",)"
    R"("versions":[{"version":"v1","created":"Sat, 31 Mar 2007 02:26:18 GMT"}],)"
    R"("authors_parsed":[["Streinu","Ileana",""],["Theran","Louis",""]]})"
    "\n"
    R"({"id":"0704.0003","authors":"Hongjun Pan","title":"No abstract here","abstract":"","categories":"physics.gen-ph"})"
    "\n";

class Issue18 : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir_ / "arxiv.json", kArxiv);
    auto r = abstracts({"index", "arxiv.json"});
    ASSERT_EQ(r.status, 0) << r.err;
    index_summary_ = r.err;
  }
  RunResult abstracts(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", (dir_ / "index").string(), "--color", "never"});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir_.path()), dir_.path());
  }
  std::vector<json> hits(const std::string& query) const {
    auto r = abstracts({"search", "--json", "--", query});
    EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
    std::vector<json> out;
    for (const auto& line : lines(r.out)) out.push_back(json::parse(line));
    return out;
  }
  TempDir dir_;
  std::string index_summary_;
};

TEST_F(Issue18, RecordsWithoutAnAbstractAreSkippedAndSaidSo) {
  EXPECT_TRUE(contains(index_summary_, "indexed 1 file (2 abstracts)")) << index_summary_;
  EXPECT_TRUE(contains(index_summary_, "skipped 1 record without an abstract")) << index_summary_;
}

TEST_F(Issue18, JsonCarriesAuthorsDateAndIdentifiers) {
  const auto found = hits("diphoton");
  ASSERT_EQ(found.size(), 1u);
  const json& h = found[0];
  EXPECT_EQ(h.at("id"), "10.1103/physrevd.76.013009");
  EXPECT_EQ(h.at("title"), "Calculation of prompt diphoton production");
  EXPECT_EQ(h.at("authors"), json::parse(R"([{"family":"Balázs","given":"C."},{"family":"Berger","given":"E. L."}])"));
  EXPECT_EQ(h.at("date"), "2007-04-02");
  EXPECT_EQ(h.at("year"), 2007);
  EXPECT_EQ(h.at("venue"), "arXiv");
  EXPECT_EQ(h.at("categories"), json::parse(R"(["hep-ph"])"));
  EXPECT_EQ(h.at("doi"), "10.1103/physrevd.76.013009");
  EXPECT_EQ(h.at("arxiv"), "0704.0001");
  EXPECT_TRUE(h.at("pmid").is_null());
  EXPECT_TRUE(h.at("citation_key").is_null());
}

TEST_F(Issue18, FieldsFindByAuthorCategoryAndIdentifier) {
  auto ids = [&](const std::string& q) {
    std::vector<std::string> out;
    for (const auto& h : hits(q)) out.push_back(h.at("id"));
    return out;
  };
  const std::vector<std::string> diphoton{"10.1103/physrevd.76.013009"}, graphs{"0704.0002"};
  EXPECT_EQ(ids("author:balazs"), diphoton);
  EXPECT_EQ(ids("author:Balázs"), diphoton);
  EXPECT_EQ(ids("author:\"C. Balázs\""), diphoton);
  EXPECT_EQ(ids("author:streinu"), graphs);
  EXPECT_EQ(ids("author:the*"), graphs);
  EXPECT_EQ(ids("category:cs.CG"), graphs);
  EXPECT_EQ(ids("category:math.*"), graphs);
  EXPECT_EQ(ids("doi:10.1103/PhysRevD.76.013009"), diphoton);
  EXPECT_EQ(ids("arxiv:0704.0002v1"), graphs);
  EXPECT_EQ(ids("sparse author:streinu"), graphs);
  EXPECT_TRUE(ids("sparse author:balazs").empty());
}

TEST_F(Issue18, TextShowsAuthorsAndYearOnEachHitAndInShow) {
  auto r = abstracts({"search", "graphs"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "   Sparsity-certifying graph decompositions\n   Streinu, Theran 2007\n")) << r.out;
  r = abstracts({"show", "0704.0002"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Ileana Streinu, Louis Theran\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "arXiv 2007-03-31  arXiv 0704.0002\nmath.CO, cs.CG\n")) << r.out;
}

TEST_F(Issue18, SortByDateNewestFirst) {
  write_file(dir_ / "more.json",
             R"({"id":"0801.0001","title":"Later sparse graphs","abstract":"Sparse graphs again, later.",)"
             R"("versions":[{"version":"v1","created":"Tue, 1 Jan 2008 00:00:00 GMT"}]})"
             "\n"
             R"({"_id":"undated","text":"Sparse graphs, sparse graphs, sparse graphs: no date at all."})"
             "\n");
  ASSERT_EQ(abstracts({"index", "more.json"}).status, 0);
  auto ids = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"search", "--json"});
    std::vector<std::string> out;
    for (const auto& line : lines(abstracts(args).out)) out.push_back(json::parse(line).at("id"));
    return out;
  };
  // By relevance, the abstract that says "sparse graphs" twice first; by date,
  // the newest: 2008-01-01, 2007-04-02, 2007-03-31.
  EXPECT_EQ(ids({"--sort", "date", "year:2007..2008"}),
            (std::vector<std::string>{"0801.0001", "10.1103/physrevd.76.013009", "0704.0002"}));
  EXPECT_EQ(ids({"--sort", "date", "sparse graphs"}),
            (std::vector<std::string>{"0801.0001", "0704.0002", "undated"}))
      << "undated last, however well it matches";
  EXPECT_EQ(ids({"sparse graphs"}).front(), "undated") << "by relevance, it is first";
  EXPECT_EQ(ids({"--sort", "relevance", "--limit", "3", "--sort", "date", "year:2007"}),
            (std::vector<std::string>{"10.1103/physrevd.76.013009", "0704.0002"}))
      << "the last --sort wins";
  EXPECT_EQ(abstracts({"search", "--sort", "newest", "x"}).status, 2);
}

TEST_F(Issue18, ThePaperReadFromTwoFilesIsOneAbstract) {
  write_file(dir_ / "again.json", std::string(kArxiv).substr(0, std::string(kArxiv).find('\n') + 1));
  auto r = abstracts({"index", "again.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  r = abstracts({"stats", "--json"});
  EXPECT_EQ(json::parse(r.out).at("abstracts"), 2) << "the same DOI in two files";
}

// A BibTeX entry (LaTeX in its names, a month macro, an @string) through
// index, search --json and show.
TEST_F(Issue18, BibtexEntryShowsUnicodeAuthorsDateDoiAndCitationKey) {
  write_file(dir_ / "refs.bib",
             "% Zotero export\n"
             "@string{prl = {Physical Review Letters}}\n"
             "@article{Djokovic:2019,\n"
             "  author = {Djokovi\\'{c}, Novak and {\\v{C}}ern\\'{y}, Jan and {\\O}stergaard, Jens},\n"
             "  title = {Serve {{Statistics}} in {{Grand Slam}} Tennis},\n"
             "  journal = prl, year = 2019, month = jul,\n"
             "  doi = {https://doi.org/10.1103/PhysRevLett.1.2},\n"
             "  keywords = {tennis; serve},\n"
             "  abstract = {We count aces \\textendash{} and double faults.}\n"
             "}\n"
             "@article{noabstract, title = {Nothing to read}}\n");
  auto r = abstracts({"index", "refs.bib"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "skipped 1 record without an abstract")) << r.err;
  const auto found = hits("aces");
  ASSERT_EQ(found.size(), 1u);
  const json& h = found[0];
  EXPECT_EQ(h.at("id"), "10.1103/physrevlett.1.2");
  EXPECT_EQ(h.at("title"), "Serve Statistics in Grand Slam Tennis");
  EXPECT_EQ(h.at("authors"), json::parse(R"([{"family":"Djoković","given":"Novak"},{"family":"Černý","given":"Jan"},)"
                                         R"({"family":"Østergaard","given":"Jens"}])"));
  EXPECT_EQ(h.at("date"), "2019-07");
  EXPECT_EQ(h.at("venue"), "Physical Review Letters");
  EXPECT_EQ(h.at("categories"), json::parse(R"(["tennis","serve"])"));
  EXPECT_EQ(h.at("doi"), "10.1103/physrevlett.1.2");
  EXPECT_EQ(h.at("citation_key"), "Djokovic:2019");
  for (const std::string q : {"author:djokovic", "author:Černý", "author:cerny", "author:ostergaard",
                              "doi:10.1103/PhysRevLett.1.2", "category:tennis", "year:2019"}) {
    const auto by = hits(q);
    EXPECT_EQ(by.size(), 1u) << q;
  }
  r = abstracts({"show", "10.1103/physrevlett.1.2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Novak Djoković, Jan Černý, Jens Østergaard\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "2019-07")) << r.out;
  EXPECT_TRUE(contains(r.out, "We count aces – and double faults.")) << r.out;
}

// Formats not read yet are refused whole, naming the formats that are read,
// never indexed as text.
TEST(Issue18Refused, AFileOfNoKnownFormatIsRefusedWithTheFormatsListed) {
  TempDir dir;
  const std::map<std::string, std::string> files{
      {"pubmed.xml", "<?xml version=\"1.0\"?>\n<PubmedArticleSet>\n</PubmedArticleSet>\n"},
  };
  for (const auto& [name, content] : files) {
    write_file(dir / name, content);
    auto r = run(ABSTRACTS_BIN, {"--index", (dir / "index").string(), "index", name},
                 sandbox_env(dir.path()), dir.path());
    EXPECT_EQ(r.status, 2) << name;
    EXPECT_TRUE(contains(r.err, name + ":1: not a format abstracts reads")) << r.err;
    EXPECT_TRUE(contains(r.err, "JSON Lines of BEIR, arXiv's metadata snapshot or Semantic Scholar; RIS; BibTeX and BibLaTeX; CSL-JSON; "
                                 "OpenAlex")) << r.err;
    EXPECT_FALSE(fs::exists(dir / "index")) << name << ": nothing indexed, no index left";
  }
}

// The shared real exports of the kinds read so far: every record with an
// abstract is indexed and found by its own words and by one author's surname.
TEST(Issue18Shared, RealExportsAreFoundByTheirWordsAndAuthors) {
  const fs::path formats = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "formats";
  if (!fs::exists(formats)) GTEST_SKIP() << "no shared data at " << formats;
  TempDir dir;
  const std::map<std::string, std::string> env = sandbox_env(dir.path());
  const std::string index = (dir / "index").string();
  const fs::path arxiv = formats / "arxiv-snapshot-jsonl" / "arxivSpider_mnbvc--arxiv-metadata-oai-snapshot.json";
  const fs::path s2 = formats / "openalex-s2" / "Topic_Modeling_NLP--sample-S2-records.jsonl";
  auto r = run(ABSTRACTS_BIN, {"--index", index, "index", arxiv.string(), s2.string()}, env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "(258 abstracts)")) << "200 arXiv records and 58 of S2's 92 have one; " << r.err;
  // Counted as the data's README counts: records whose abstract is not empty.
  for (const auto& [file, count] : std::vector<std::pair<std::string, int>>{
           {"ris/SLR-automatic-screening--Exported_Items-zotero.ris", 246},
           {"ris/Research-paper--savedrecs-wos.ris", 238},
           {"ris/EstrogenSR--citation-exports-CochraneTrials.ris", 77},
           {"csl-json/gayashiva-Thesis--zotero_lib.csl.json", 89},
           {"csl-json/deep-review--references.csl.json", 213},
           {"openalex-s2/bibliographer--openalex.json", 45},
           // The data's README says 111: it counts two "abstract = {}" (lines 1421, 2503).
           {"bibtex/ftoralesacosta-Thesis--Zotero.bib", 109},
           {"bibtex/Parasite-Ecology--savedrecs-wos.bib", 406}}) {
    r = run(ABSTRACTS_BIN, {"--index", index, "index", (formats / file).string()}, env);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "(" + std::to_string(count) + " abstracts)")) << file << ": " << r.err;
  }
  // Every abstract, by its title's words as a phrase, and by its first author's
  // family name: two batches of queries (search --queries), one line each.
  r = run(ABSTRACTS_BIN, {"--index", index, "search", "--json", "--limit", "100000", "--", "-zzqqxxnothing"}, env);  // every abstract
  ASSERT_EQ(r.status, 0) << r.err;
  std::string by_title, by_author;
  std::map<std::string, std::string> title_of;
  for (const auto& line : lines(r.out)) {
    const json h = json::parse(line);
    const std::string id = h.at("id"), title = h.at("title");
    title_of[id] = title;
    std::string words;
    for (char c : title) words += (c == '"' || c == '\\' || c == '\t') ? ' ' : c;
    by_title += id + "\t\"" + words + "\"\n";
    if (!h.at("authors").empty()) {
      std::string family = h.at("authors")[0].at("family");
      for (char& c : family) c = (c == '"' || c == '\\' || c == '\t') ? ' ' : c;
      by_author += id + "\tauthor:\"" + family + "\"\n";
    }
  }
  EXPECT_EQ(title_of.size(), 1657u) << "1,681 records with an abstract, 24 of them the same paper (DOI) twice "
                                       "(15 in the BibTeX exports: Zotero's has entries twice)";
  for (const auto& [what, queries] : {std::pair<std::string, std::string>{"title", by_title}, {"author", by_author}}) {
    write_file(dir / "queries.tsv", queries);
    r = run(ABSTRACTS_BIN, {"--index", index, "search", "--json", "--limit", "100000", "--no-correct", "--queries",
                            (dir / "queries.tsv").string()}, env);
    EXPECT_EQ(r.status, 0) << what << ": " << r.err.substr(0, 2000);
    std::map<std::string, bool> found;
    for (const auto& line : lines(r.out)) {
      const json h = json::parse(line);
      if (h.at("query") == h.at("id")) found[h.at("id")] = h.at("title") == title_of[h.at("id")];
    }
    std::size_t asked = lines(queries).size(), missed = 0;
    for (const auto& line : lines(queries)) {
      const std::string id = line.substr(0, line.find('\t'));
      if (!found[id]) ++missed;
      EXPECT_TRUE(found[id]) << id << " not found by its " << what << ": " << line;
      if (missed > 5) break;
    }
    EXPECT_GT(asked, 700u) << what;
  }
}

}  // namespace
}  // namespace abstracts::testing
