// Issue 18 end to end: bibliographic records through the real binary, with
// their authors, dates and identifiers in the output and in the query language.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::formats_test {
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
  EXPECT_TRUE(contains(index_summary_, "indexed 1 file (2 records)")) << index_summary_;
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

// The paper of kArxiv's first record (its DOI and arXiv id) in a RIS export
// that knows only its arXiv link: the same paper, so one abstract, however the
// files are indexed; the one indexed last is kept, in both files.
TEST_F(Issue18, ThePaperWithADoiAndThePaperWithItsArxivIdAloneAreOneAbstract) {
  write_file(dir_ / "zotero.ris",
             "TY  - UNPB\nAU  - Balázs, C.\nTI  - Calculation of prompt diphoton production\n"
             "AB  - Diphoton pairs at hadron colliders, as a preprint.\nUR  - http://arxiv.org/abs/0704.0001v1\n"
             "PY  - 2007\nER  - \n");
  auto count = [&](const fs::path& index) {
    auto r = run(ABSTRACTS_BIN, {"--index", index.string(), "stats", "--json"}, sandbox_env(dir_.path()),
                 dir_.path());
    return json::parse(r.out).at("abstracts").get<int>();
  };
  // File by file: the RIS record replaces the arXiv one.
  ASSERT_EQ(abstracts({"index", "zotero.ris"}).status, 0);
  EXPECT_EQ(count(dir_ / "index"), 2);
  auto found = hits("arxiv:0704.0001");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].at("id"), "0704.0001");
  EXPECT_EQ(found[0].at("path").get<std::string>().substr(found[0].at("path").get<std::string>().size() - 10),
            "zotero.ris");
  // Both files at once (the bulk build): the same.
  auto r = run(ABSTRACTS_BIN, {"--index", (dir_ / "bulk").string(), "index", "arxiv.json", "zotero.ris"},
               sandbox_env(dir_.path()), dir_.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count(dir_ / "bulk"), 2);
  // The paper stays while either file has it.
  fs::remove(dir_ / "zotero.ris");
  write_file(dir_ / "zotero.ris", "TY  - JOUR\nAB  - Something else entirely.\nER  - \n");
  ASSERT_EQ(abstracts({"index", "zotero.ris"}).status, 0);
  EXPECT_EQ(count(dir_ / "index"), 3) << "its arXiv record is still in arxiv.json";
}

TEST_F(Issue18, StatsByCountsAbstractsPerYearVenueCategoryAndAuthor) {
  write_file(dir_ / "more.json",
             R"({"id":"0801.0001","title":"Later","abstract":"Sparse graphs again.","categories":"math.CO",)"
             R"("authors_parsed":[["Streinu","Ileana",""]],)"
             R"("versions":[{"version":"v1","created":"Tue, 1 Jan 2008 00:00:00 GMT"}]})"
             "\n");
  ASSERT_EQ(abstracts({"index", "more.json"}).status, 0);
  auto counts = [&](const std::string& by, std::vector<std::string> more = {}) {
    std::vector<std::string> args{"stats", "--by", by, "--json"};
    args.insert(args.end(), more.begin(), more.end());
    const auto r = abstracts(args);
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::pair<std::string, int>> out;
    for (const auto& line : lines(r.out)) {
      const auto j = json::parse(line);
      EXPECT_EQ(j.at("by"), by);
      out.emplace_back(j.at("value"), j.at("abstracts"));
    }
    return out;
  };
  using Counts = std::vector<std::pair<std::string, int>>;
  EXPECT_EQ(counts("year"), (Counts{{"2008", 1}, {"2007", 2}})) << "newest first";
  EXPECT_EQ(counts("venue"), (Counts{{"arXiv", 3}}));
  EXPECT_EQ(counts("category"), (Counts{{"math.CO", 2}, {"cs.CG", 1}, {"hep-ph", 1}}))
      << "most first, ties by name";
  EXPECT_EQ(counts("author"), (Counts{{"Ileana Streinu", 2}, {"C. Balázs", 1}, {"E. L. Berger", 1},
                                      {"Louis Theran", 1}}))
      << "names as written, accents kept";
  EXPECT_EQ(counts("author", {"--limit", "1"}), (Counts{{"Ileana Streinu", 2}}));

  auto r = abstracts({"stats", "--by", "category"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "      2  math.CO\n      1  cs.CG\n      1  hep-ph\n");
  r = abstracts({"stats", "--by", "journal"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "year,venue,category,author")) << r.err;
  r = abstracts({"stats", "--by", "author", "--limit", "-1"});
  EXPECT_EQ(r.status, 2) << "a negative limit is no limit: " << r.out;
  EXPECT_TRUE(contains(r.err, "--limit")) << r.err;
}

TEST(Issue18StatsBy, AnIndexWithoutTheFieldCountsNothingAndExitsOne) {
  TempDir dir;
  write_file(dir / "plain.txt", "NeurIPS 2026 Papers\nAn abstract without authors or categories.\n");
  auto abstracts = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--index", (dir / "index").string()});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir.path()), dir.path());
  };
  ASSERT_EQ(abstracts({"index", "plain.txt"}).status, 0);
  auto r = abstracts({"stats", "--by", "author"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  r = abstracts({"stats", "--by", "venue"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "      1  NeurIPS\n") << "the header's venue";
}

// A PubMed citation (abridged from PubMed's XML export): a structured abstract,
// authors, the journal's date and both identifiers.
const char* const kPubmedXml = R"(<?xml version="1.0"?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2019//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_190101.dtd">
<PubmedArticleSet>
<PubmedArticle>
  <MedlineCitation Status="MEDLINE" Owner="NLM">
    <PMID Version="1">31045810</PMID>
    <Article PubModel="Print">
      <Journal>
        <JournalIssue CitedMedium="Internet"><PubDate><Year>2019</Year><Month>May</Month></PubDate></JournalIssue>
        <Title>Medicine</Title>
      </Journal>
      <ArticleTitle>Cerebral arterial air embolism after hook-wire localization: A case report.</ArticleTitle>
      <ELocationID EIdType="doi" ValidYN="Y">10.1097/MD.0000000000015437</ELocationID>
      <Abstract>
        <AbstractText Label="RATIONALE" NlmCategory="BACKGROUND">Cranial arterial <b>air embolism</b> is rare.</AbstractText>
        <AbstractText Label="OUTCOMES" NlmCategory="RESULTS">Clinical death occurred 55 hours after air embolism.</AbstractText>
        <CopyrightInformation>Copyright 2019 the Author(s).</CopyrightInformation>
      </Abstract>
      <AuthorList CompleteYN="Y">
        <Author ValidYN="Y"><LastName>Wang</LastName><ForeName>Ming-Yi</ForeName><Initials>MY</Initials></Author>
        <Author ValidYN="Y"><CollectiveName>Dalian Embolism Group</CollectiveName></Author>
      </AuthorList>
    </Article>
    <MeshHeadingList><MeshHeading><DescriptorName UI="D004617">Embolism, Air</DescriptorName></MeshHeading></MeshHeadingList>
  </MedlineCitation>
</PubmedArticle>
</PubmedArticleSet>
)";

TEST_F(Issue18, PubmedXmlShowsAuthorsDatePmidAndDoi) {
  write_file(dir_ / "pubmed_result.xml", kPubmedXml);
  auto r = abstracts({"index", "pubmed_result.xml"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto found = hits("author:wang embolism");
  ASSERT_EQ(found.size(), 1u);
  const json& h = found[0];
  EXPECT_EQ(h.at("id"), "10.1097/md.0000000000015437");
  EXPECT_EQ(h.at("authors"),
            json::parse(R"([{"family":"Wang","given":"Ming-Yi"},{"family":"Dalian Embolism Group","given":""}])"));
  EXPECT_EQ(h.at("date"), "2019-05");
  EXPECT_EQ(h.at("venue"), "Medicine");
  EXPECT_EQ(h.at("pmid"), "31045810");
  EXPECT_EQ(h.at("doi"), "10.1097/md.0000000000015437");
  EXPECT_EQ(h.at("categories"), json::parse(R"(["Embolism, Air"])"));
  EXPECT_EQ(h.at("line"), 4) << "the PubmedArticle's line";
  EXPECT_EQ(hits("pmid:31045810").size(), 1u);
  EXPECT_TRUE(hits("copyright").empty()) << "CopyrightInformation is no part of the text";

  r = abstracts({"show", "10.1097/md.0000000000015437"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Ming-Yi Wang, Dalian Embolism Group\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "Medicine 2019-05  doi 10.1097/md.0000000000015437  PMID 31045810\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n\nRATIONALE: Cranial arterial air embolism is rare. OUTCOMES: Clinical death")) << r.out;
}

// arXiv's Atom API gives the paper of the snapshot's record: one abstract.
TEST_F(Issue18, ArxivAtomEntryIsTheSnapshotsPaper) {
  write_file(dir_ / "arxiv.xml",
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
             "  <entry>\n"
             "    <id>http://arxiv.org/abs/0704.0002v2</id>\n"
             "    <published>2007-03-31T02:26:18Z</published>\n"
             "    <title>Sparsity-certifying graph decompositions</title>\n"
             "    <summary>  We describe a new algorithm for sparse graphs.\n</summary>\n"
             "    <author><name>Ileana Streinu</name></author>\n"
             "    <author><name>Louis Theran</name></author>\n"
             "    <arxiv:primary_category xmlns:arxiv=\"http://arxiv.org/schemas/atom\" term=\"math.CO\"/>\n"
             "    <category term=\"math.CO\"/><category term=\"cs.CG\"/>\n"
             "  </entry>\n"
             "</feed>\n");
  auto r = abstracts({"index", "arxiv.xml"});
  ASSERT_EQ(r.status, 0) << r.err;
  r = abstracts({"stats", "--json"});
  EXPECT_EQ(json::parse(r.out).at("abstracts"), 2) << "the same arXiv id in both files";
  const auto found = hits("arxiv:0704.0002");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].at("id"), "0704.0002");
  EXPECT_TRUE(contains(found[0].at("source").get<std::string>(), "arxiv.xml")) << found[0].dump();
  EXPECT_EQ(found[0].at("date"), "2007-03-31");
  EXPECT_EQ(found[0].at("venue"), "arXiv");
  EXPECT_EQ(found[0].at("categories"), json::parse(R"(["math.CO", "cs.CG"])"));
  EXPECT_EQ(found[0].at("authors")[1], json::parse(R"({"family":"Theran","given":"Louis"})"));
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

// Files of no known format are refused whole, naming the formats that are read,
// never indexed as text.
TEST(Issue18Refused, AFileOfNoKnownFormatIsRefusedWithTheFormatsListed) {
  TempDir dir;
  const std::map<std::string, std::string> files{
      {"feed.xml", "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel/></rss>\n"},
      {"notes.txt", "My reading notes\nTo read: the sparse attention paper.\n"},
  };
  for (const auto& [name, content] : files) {
    write_file(dir / name, content);
    auto r = run(ABSTRACTS_BIN, {"--index", (dir / "index").string(), "index", name},
                 sandbox_env(dir.path()), dir.path());
    EXPECT_EQ(r.status, 2) << name;
    EXPECT_TRUE(contains(r.err, name + (name == "feed.xml" ? ":2" : ":1") + ": not a format abstracts reads")) << r.err;
    EXPECT_TRUE(contains(r.err, "JSON Lines of BEIR, arXiv's metadata snapshot or Semantic Scholar; RIS; BibTeX and "
                                "BibLaTeX; CSL-JSON; OpenAlex; PubMed XML; arXiv's Atom API")) << r.err;
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
  EXPECT_TRUE(contains(r.err, "(258 records)")) << "200 arXiv records and 58 of S2's 92 have one; " << r.err;
  // Counted as the data's README counts: records whose abstract is not empty.
  for (const auto& [file, count] : std::vector<std::pair<std::string, int>>{
           {"ris/SLR-automatic-screening--Exported_Items-zotero.ris", 246},
           {"ris/Research-paper--savedrecs-wos.ris", 238},
           {"ris/EstrogenSR--citation-exports-CochraneTrials.ris", 77},
           {"csl-json/gayashiva-Thesis--zotero_lib.csl.json", 89},
           {"csl-json/deep-review--references.csl.json", 213},
           {"openalex-s2/bibliographer--openalex.json", 45},
           {"pubmed-xml/main_finding_recognition--pubmed_result.xml", 102},
           {"pubmed-xml/mokztk-pubmed-parser--CPFE.xml", 108},
           {"arxiv-atom/ReadArxiV4mENow--arxiv_results.xml", 63},
           {"arxiv-atom/di-proposal--arxiv.xml", 10},
           // The data's README says 111: it counts two "abstract = {}" (lines 1421, 2503).
           {"bibtex/ftoralesacosta-Thesis--Zotero.bib", 109},
           {"bibtex/Parasite-Ecology--savedrecs-wos.bib", 406}}) {
    r = run(ABSTRACTS_BIN, {"--index", index, "index", (formats / file).string()}, env);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "(" + std::to_string(count) + " records)")) << file << ": " << r.err;
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
  EXPECT_EQ(title_of.size(), 1940u) << "1,964 records with an abstract, 24 of them the same paper (DOI) twice "
                                       "(15 in the BibTeX exports: Zotero's has entries twice)";
  for (const auto& [what, queries] : {std::pair<std::string, std::string>{"title", by_title}, {"author", by_author}}) {
    write_file(dir / "queries.tsv", queries);
    // Text, not JSON: a hit's text is a few lines, where its JSON would list
    // every author (an ATLAS paper has 2,916, and author:"Zhang" finds them all).
    r = run(ABSTRACTS_BIN, {"--index", index, "search", "--color", "never", "--limit", "100000", "--no-correct",
                            "--queries", (dir / "queries.tsv").string()}, env);
    EXPECT_EQ(r.status, 0) << what << ": " << r.err.substr(0, 2000);
    std::map<std::string, bool> found;
    std::string query, hit;  // the query's label ("query ID: ..."), the hit of the line before
    for (const auto& line : lines(r.out)) {
      if (line.rfind("query ", 0) == 0) {
        query = line.substr(6, line.find(": ") - 6);
      } else if (const auto at = line.find("  id "); at != std::string::npos && line.find("  score ") != std::string::npos) {
        hit = line.substr(at + 5, line.find("  score ") - at - 5);
        continue;
      } else if (!hit.empty() && hit == query) {
        found[hit] = line.substr(3) == title_of[hit];  // the title, under the hit's line
      }
      hit.clear();
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
}  // namespace abstracts::testing::formats_test
