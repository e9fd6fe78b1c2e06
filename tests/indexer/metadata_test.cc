// Issue 18: what bibliographic sources say besides the text (authors, date,
// identifiers, categories), from the JSON Lines kinds the reader knows (arXiv's
// metadata snapshot, Semantic Scholar) to the abstract and its index terms.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/compression.h"
#include "engine/schema.h"
#include "indexer/document.h"
#include "indexer/reader.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer {
namespace {

namespace fs = std::filesystem;
using abstracts::testing::TempDir;
using abstracts::testing::write_file;

// The first record of arXiv's snapshot, as the Kaggle file has it (LaTeX in
// "authors", Unicode in "authors_parsed", hard-wrapped text with two leading spaces).
const char* const kArxivLine =
    R"({"id":"0704.0001","submitter":"Pavel Nadolsky","authors":"C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan",)"
    R"("title":"Calculation of prompt diphoton production cross sections at Tevatron and\n  LHC energies",)"
    R"("comments":"37 pages","journal-ref":"Phys.Rev.D76:013009,2007","doi":"10.1103/PhysRevD.76.013009",)"
    R"("report-no":"ANL-HEP-PR-07-12","categories":"hep-ph math.CO","license":null,)"
    R"("abstract":"  A fully differential calculation in perturbative quantum chromodynamics is\npresented.\n",)"
    R"("versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"},{"version":"v2","created":"Tue, 24 Jul 2007 20:10:27 GMT"}],)"
    R"("update_date":"2008-11-26","authors_parsed":[["Bal\u00e1zs","C.",""],["Berger","E. L.",""],["Nadolsky","P. M.",""],["Yuan","C. -P.","Jr"]]})";

const char* const kS2Line =
    R"({"entities":["Nursing","Cardiology"],"pmid":"24568020v1","year":2013,"id":"f2320c08c7d95bbf8bb72e4d6deaa6845ea4cf27",)"
    R"("authors":[{"name":"Kate Jack","ids":["38280253"]},{"name":"Jan van der Berg","ids":[]}],"journalName":"Nursing times",)"
    R"("paperAbstract":"Sixty seconds with a nurse.","title":"60 seconds with Kate Jack.","doi":"","venue":"Nursing times"})";

std::vector<Record> read_json(const TempDir& dir, const std::string& content) {
  const auto file = dir / "records.json";
  write_file(file, content);
  return read_all(file);
}

TEST(Metadata, ArxivSnapshotRecord) {
  TempDir dir;
  const auto records = read_json(dir, std::string(kArxivLine) + "\n");
  ASSERT_EQ(records.size(), 1u);
  const Abstract& f = records[0].fields;
  EXPECT_EQ(f.arxiv_id, "0704.0001");
  EXPECT_EQ(f.doi, "10.1103/PhysRevD.76.013009");
  EXPECT_EQ(f.venue, "arXiv");
  EXPECT_EQ(f.year, 2007);
  EXPECT_EQ(f.month, 4) << "the first version's date";
  EXPECT_EQ(f.day, 2);
  ASSERT_EQ(f.authors.size(), 4u);
  EXPECT_EQ(f.authors[0].family, "Balázs") << "authors_parsed, in Unicode";
  EXPECT_EQ(f.authors[0].given, "C.");
  EXPECT_EQ(f.authors[3].given, "C. -P., Jr");
  EXPECT_EQ(f.categories, (std::vector<std::string>{"hep-ph", "math.CO"}));

  const Abstract a = make_abstract(records[0], "/x/records.json", "", 0);
  EXPECT_EQ(a.id, "10.1103/physrevd.76.013009") << "the DOI names the paper first";
  EXPECT_EQ(a.doi, "10.1103/physrevd.76.013009");
  EXPECT_EQ(a.title, "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies");
  EXPECT_EQ(a.text, "A fully differential calculation in perturbative quantum chromodynamics is presented.");
  EXPECT_EQ(iso_date(a), "2007-04-02");
}

TEST(Metadata, ArxivAuthorsFromTheLatexListWhenNotParsed) {
  TempDir dir;
  nlohmann::json j = nlohmann::json::parse(kArxivLine);
  j.erase("authors_parsed");
  j.erase("doi");
  const auto records = read_json(dir, j.dump() + "\n");
  ASSERT_EQ(records.size(), 1u);
  const Abstract a = make_abstract(records[0], "", "", 0);
  ASSERT_EQ(a.authors.size(), 4u);
  EXPECT_EQ(a.authors[0].family, "Balázs") << "LaTeX accents become letters";
  EXPECT_EQ(a.id, "0704.0001") << "no DOI: the arXiv id";
}

TEST(Metadata, SemanticScholarRecord) {
  TempDir dir;
  const auto records = read_json(dir, std::string(kS2Line) + "\n");
  ASSERT_EQ(records.size(), 1u);
  const Abstract a = make_abstract(records[0], "", "", 0);
  EXPECT_EQ(a.id, "24568020") << "the PMID, without S2's version suffix";
  EXPECT_EQ(a.pmid, "24568020");
  EXPECT_EQ(a.venue, "Nursing times");
  EXPECT_EQ(a.year, 2013);
  ASSERT_EQ(a.authors.size(), 2u);
  EXPECT_EQ(a.authors[0].family, "Jack");
  EXPECT_EQ(a.authors[1].family, "van der Berg");
  EXPECT_EQ(a.categories, (std::vector<std::string>{"Nursing", "Cardiology"}));
}

TEST(Metadata, RecordsWithoutAnAbstractAreSkippedAndCounted) {
  TempDir dir;
  nlohmann::json arxiv = nlohmann::json::parse(kArxivLine), s2 = nlohmann::json::parse(kS2Line);
  arxiv["abstract"] = "   \n";
  s2["paperAbstract"] = "";
  const auto file = dir / "mixed.jsonl";
  write_file(file, std::string(kArxivLine) + "\n" + arxiv.dump() + "\n" + s2.dump() + "\n" + kS2Line + "\n");
  auto reader = Reader::open(file);
  std::size_t n = 0;
  while (reader->next()) ++n;
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(reader->skipped(), 2u);
}

TEST(Metadata, AnObjectOfNoKnownKindIsLeftOutOnItsLine) {
  TempDir dir;
  const auto file = dir / "odd.jsonl";
  write_file(file, std::string(kArxivLine) + "\n{\"name\": \"no abstract anywhere\"}\n");
  auto reader = Reader::open(file);
  std::size_t n = 0;
  while (reader->next()) ++n;
  EXPECT_EQ(n, 1u);
  const auto problems = reader->take_problems();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].line, 2u);
  EXPECT_NE(problems[0].what.find("no known kind"), std::string::npos) << problems[0].what;
}

TEST(Metadata, TheIdIsTheSourcesIdentifierInOrder) {
  Record r;
  r.raw_text = "Some text.";
  r.fields.citation_key = "knuth1984";
  EXPECT_EQ(make_abstract(r, "", "", 0).id, "knuth1984");
  r.fields.pmid = "PMID:17284678";
  EXPECT_EQ(make_abstract(r, "", "", 0).id, "17284678");
  r.fields.arxiv_id = "2106.01234v3";
  EXPECT_EQ(make_abstract(r, "", "", 0).id, "2106.01234");
  r.fields.doi = "https://doi.org/10.1000/ABC";
  EXPECT_EQ(make_abstract(r, "", "", 0).id, "10.1000/abc");
  r.fields.id = "given";
  EXPECT_EQ(make_abstract(r, "", "", 0).id, "given") << "an id the source gives as such (BEIR's _id) wins";
  EXPECT_EQ(make_abstract(Record{{}, "Some text.", 1}, "", "", 0).id, content_id("Some text."));
}

TEST(Metadata, TheRecordsVenueAndDateWinOverTheFilesHeader) {
  Record r;
  r.raw_text = "Some text.";
  Abstract a = make_abstract(r, "", "NeurIPS", 2026);
  EXPECT_EQ(a.venue, "NeurIPS");
  EXPECT_EQ(a.year, 2026);
  r.fields.venue = "Phys. Rev. D";
  r.fields.year = 2007;
  r.fields.month = 4;
  a = make_abstract(r, "", "NeurIPS", 2026);
  EXPECT_EQ(a.venue, "Phys. Rev. D");
  EXPECT_EQ(iso_date(a), "2007-04");
}

TEST(Metadata, TermsForAuthorsCategoriesIdentifiersAndTheDate) {
  Record r;
  r.raw_text = "Some text.";
  r.fields.authors = {{"Bal\\'azs", "C."}, {"van der Berg", "Jan"}};
  r.fields.categories = {"hep-ph"};
  r.fields.doi = "10.1103/PhysRevD.76.013009";
  r.fields.arxiv_id = "0704.0001v1";
  r.fields.year = 2007;
  r.fields.month = 4;
  r.fields.day = 2;
  const Abstract a = make_abstract(r, "", "", 0);
  const analysis::Analyzer analyzer;
  const compression::Compressor compressor("");
  const Xapian::Document doc = make_document(a, true, analyzer, compressor);
  std::vector<std::string> terms;
  for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
    if ((*t).rfind("X", 0) == 0) terms.push_back(*t);
  }
  for (const std::string want : {"XAbalazs", "XAvan der berg", "XAberg", "XNbalazs,c", "XNbalazs,c.",
                                 "XNvan der berg,jan", "XNberg,j", "XChep-ph", "XIdoi:10.1103/physrevd.76.013009",
                                 "XIarxiv:0704.0001", "XY2007",
                                 // Facet terms keep the names as shown, for stats --by (engine/author_terms.h).
                                 "XKAbalazs\x1f" "Balázs\x1f" "C.", "XKAberg\x1fvan der Berg\x1fJan", "XKChep-ph"}) {
    EXPECT_NE(std::find(terms.begin(), terms.end(), want), terms.end()) << want;
  }
  EXPECT_EQ(Xapian::sortable_unserialise(doc.get_value(schema::kDateSlot)), 20070402);
}

TEST(Metadata, EtAlAndOthersAreNoAuthors) {
  Record r;
  r.raw_text = "Some text.";
  r.fields.authors = {{"Wells", "L"},   {"et al.", ""},    {"others", ""},     {"et al", ""},
                      {"Others", "Jo"}, {"{\\relax}", ""}, {"{}", "{\\relax}"}};
  const Abstract a = make_abstract(r, "", "", 0);
  ASSERT_EQ(a.authors.size(), 2u) << "Cochrane's \"AU  - et al.\", BibTeX's \"and others\", and "
                                     "names of LaTeX that shows nothing";
  EXPECT_EQ(a.authors[0].family, "Wells");
  EXPECT_EQ(a.authors[1].family, "Others") << "a person named Others stays";
}

// RIS as Zotero, Web of Science and Cochrane write it: a BOM, CRLF, "TY  -  JOUR" with two spaces after the dash, lines of their own
// before each record, abstracts wrapped onto untagged lines, a last record with
// no ER line.
TEST(Metadata, RisRecordsWithEachExportersQuirks) {
  TempDir dir;
  const auto file = dir / "export.ris";
  write_file(file,
             "\xef\xbb\xbfRecord #1 of 3\r\nProvider: John Wiley & Sons, Ltd.\r\n\r\n"
             "TY  -  JOUR\r\n"
             "AU  -  Wells, L\r\nAU  -  Bednarz, T\r\n"
             "TI  -  Explainable AI and Reinforcement Learning\r\n"
             "T2  -  FRONTIERS IN ARTIFICIAL INTELLIGENCE\r\nJ2  -  Front. Artif. Intell.\r\n"
             "KW  -  explainable AI\r\nKW  -  reinforcement learning\r\n"
             "AB  -  Research into explainable AI\r\n   has been increasing.\r\n"
             "PY  -  2021\r\nDA  -  2021/03/05/\r\nDO  -  10.3389/FRAI.2021.550030\r\nER  -\r\n\r\n"
             "Record #2 of 3\r\n"
             "TY  - JOUR\r\nTI  - No abstract here\r\nER  - \r\n"
             "TY  - CPAPER\nAU  - Holzinger, A\nTI  - xxAI\nAB  - Beyond explainable AI.\nPY  - 2022\n"
             "C3  - 2022 Workshop on xxAI\n");
  auto reader = Reader::open(file);
  EXPECT_EQ(reader->format(), Format::kRis);
  std::vector<Record> records;
  while (auto r = reader->next()) records.push_back(std::move(*r));
  EXPECT_EQ(reader->skipped(), 1u);
  ASSERT_EQ(records.size(), 2u);
  const Abstract a = make_abstract(records[0], "", "", 0);
  EXPECT_EQ(records[0].line, 4u) << "the TY line";
  EXPECT_EQ(a.title, "Explainable AI and Reinforcement Learning");
  EXPECT_EQ(a.text, "Research into explainable AI has been increasing.");
  ASSERT_EQ(a.authors.size(), 2u);
  EXPECT_EQ(a.authors[0].family, "Wells");
  EXPECT_EQ(a.authors[0].given, "L");
  EXPECT_EQ(a.venue, "FRONTIERS IN ARTIFICIAL INTELLIGENCE");
  EXPECT_EQ(a.categories, (std::vector<std::string>{"explainable AI", "reinforcement learning"}));
  EXPECT_EQ(iso_date(a), "2021-03-05") << "DA is more precise than PY";
  EXPECT_EQ(a.id, "10.3389/frai.2021.550030");
  const Abstract b = make_abstract(records[1], "", "", 0);
  EXPECT_EQ(b.title, "xxAI");
  EXPECT_EQ(b.year, 2022);
  EXPECT_EQ(b.text, "Beyond explainable AI.");
  EXPECT_EQ(b.venue, "2022 Workshop on xxAI") << "Zotero's C3, the proceedings' title";

  // Web of Science: the BOM right before the first tag.
  write_file(file, "\xef\xbb\xbfTY  - JOUR\nAU  - M\xc3\xbcller, KR\nAB  - An abstract.\nER  -\n");
  const auto wos = read_all(file);
  ASSERT_EQ(wos.size(), 1u);
  EXPECT_EQ(wos[0].line, 1u);
  EXPECT_EQ(make_abstract(wos[0], "", "", 0).authors.at(0).family, "M\xc3\xbcller");
}

// CSL-JSON as Zotero (Better CSL JSON) and Manubot write it, an array read
// element by element: HTML in abstracts, date-parts, literal names, keywords, the
// paper's own id in Manubot's note.
TEST(Metadata, CslJsonItems) {
  TempDir dir;
  const auto file = dir / "library.json";
  write_file(file, R"([
  {"id":"abrishambaf2020","citation-key":"abrishambaf2020","type":"article-journal",
   "abstract":"<p>Center pivot systems &amp; <strong>irrigation</strong>.</p><p>CO<sub>2</sub> falls.</p>",
   "title":"Agricultural irrigation scheduling","container-title":"Energy Reports","DOI":"10.1016/J.EGYR.2019.08.031",
   "author":[{"family":"Abrishambaf","given":"Omid"},{"literal":"World Health Organization"}],
   "issued":{"date-parts":[[2020,2,1]]},"keyword":"irrigation, energy; water"},
  {"id":"3qm8sXnB","type":"report","title":"HOGWILD!","abstract":"  Stochastic Gradient Descent\n is popular.",
   "issued":{"date-parts":[["2011"]]},"author":[{"given":"Feng","family":"Niu"}],
   "note":"license: x\nstandard_id: arxiv:1106.5730\nThis CSL JSON Item was generated by Manubot"},
  {"id":"http://zotero.org/users/1/items/ABCD","type":"webpage","title":"No abstract"}
]
)");
  auto reader = Reader::open(file);
  EXPECT_EQ(reader->format(), Format::kJsonArray);
  std::vector<Record> records;
  while (auto r = reader->next()) records.push_back(std::move(*r));
  EXPECT_EQ(reader->skipped(), 1u);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].line, 2u);
  EXPECT_EQ(records[1].line, 7u);
  const Abstract a = make_abstract(records[0], "", "", 0);
  EXPECT_EQ(a.text, "Center pivot systems & irrigation. CO2 falls.");
  EXPECT_EQ(a.id, "10.1016/j.egyr.2019.08.031");
  EXPECT_EQ(a.citation_key, "abrishambaf2020");
  EXPECT_EQ(a.venue, "Energy Reports");
  EXPECT_EQ(iso_date(a), "2020-02-01");
  ASSERT_EQ(a.authors.size(), 2u);
  EXPECT_EQ(a.authors[1].family, "World Health Organization") << "an organisation's literal name is one (issue 43)";
  EXPECT_EQ(a.categories, (std::vector<std::string>{"irrigation", "energy", "water"}));
  const Abstract b = make_abstract(records[1], "", "", 0);
  EXPECT_EQ(b.id, "1106.5730") << "Manubot's standard_id";
  EXPECT_EQ(b.year, 2011);
  EXPECT_EQ(b.text, "Stochastic Gradient Descent is popular.");
}

// An OpenAlex /works response, pretty-printed as the API sends it: the
// abstract rebuilt from its inverted index, MathML and "&#13;" dropped.
TEST(Metadata, OpenAlexWorks) {
  TempDir dir;
  const auto file = dir / "openalex.json";
  write_file(file, R"({
  "meta": {"count": 2, "x_query": {"oql": "works where [x]"}, "note": "a \"quoted\" ] bracket"},
  "results": [
    {"id": "https://openalex.org/W3122893125", "doi": null, "title": "Homotopy theory of <i>operads</i>",
     "publication_year": 2011, "publication_date": "2011-03-04", "type": "article",
     "ids": {"openalex": "https://openalex.org/W3122893125", "pmid": "https://pubmed.ncbi.nlm.nih.gov/17284678"},
     "authorships": [{"author": {"display_name": "Fernando Muro"}}],
     "primary_location": {"source": {"display_name": "Advances in Mathematics"}},
     "keywords": [{"display_name": "Homotopy", "score": 0.6}],
     "abstract_inverted_index": {"We": [0], "endow": [1], "<mml:math><mml:mi>A</mml:mi></mml:math>-algebras": [2],
                                 "with\\n": [3], "models.&#13;": [4]}},
    {"id": "https://openalex.org/W2", "title": "No abstract", "abstract_inverted_index": null}
  ],
  "group_by": []
}
)");
  auto reader = Reader::open(file);
  std::vector<Record> records;
  while (auto r = reader->next()) records.push_back(std::move(*r));
  EXPECT_EQ(reader->skipped(), 1u);
  ASSERT_EQ(records.size(), 1u);
  const Abstract a = make_abstract(records[0], "", "", 0);
  EXPECT_EQ(a.text, "We endow A-algebras with models.");
  EXPECT_EQ(a.title, "Homotopy theory of operads");
  EXPECT_EQ(a.id, "17284678") << "its PMID";
  EXPECT_EQ(iso_date(a), "2011-03-04");
  EXPECT_EQ(a.venue, "Advances in Mathematics");
  ASSERT_EQ(a.authors.size(), 1u);
  EXPECT_EQ(a.authors[0].family, "Muro");
  EXPECT_EQ(a.categories, std::vector<std::string>{"Homotopy"});

  write_file(file, "{\n  \"meta\": {\"count\": 0}\n}\n");
  try {
    read_all(file);
    ADD_FAILURE() << "a document without results";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("\"results\""), std::string::npos) << e.what();
  }
}

// The OpenAlex API sends its responses minified: one line, over 1 MiB for a
// page of 200 works. Read as a document, in pieces, with every work whole.
TEST(Metadata, Issue18MinifiedOpenAlexOverOneMebibyteOnOneLine) {
  TempDir dir;
  const auto file = dir / "page.json";
  nlohmann::json results = nlohmann::json::array();
  // "é" is two bytes, so the cuts between pieces fall inside characters too.
  const std::string word = "caf\xc3\xa9";
  for (int w = 0; w < 150; ++w) {
    nlohmann::json index = nlohmann::json::object();
    for (int i = 0; i < 600; ++i) index[word + std::to_string(i)] = {i};
    results.push_back({{"id", "https://openalex.org/W" + std::to_string(w)},
                       {"title", "Work " + std::to_string(w)},
                       {"abstract_inverted_index", index}});
  }
  const std::string text = nlohmann::json{{"meta", {{"count", 150}}}, {"results", results}}.dump();
  ASSERT_GT(text.size(), 1u << 20);
  write_file(file, text + "\n");
  const auto records = read_all(file);
  ASSERT_EQ(records.size(), 150u);
  EXPECT_EQ(records[149].fields.id, "W149");
  const std::string start = word + "0 " + word + "1 ";
  EXPECT_EQ(records[7].raw_text.substr(0, start.size()), start);
  EXPECT_EQ(records[7].raw_text.size(), records[8].raw_text.size());
  EXPECT_EQ(records[0].line, 1u);

  // A small minified response is a line of JSON Lines: saved page by page.
  const std::string page = R"({"meta":{"count":2},"results":[{"id":"https://openalex.org/W1","title":"One",)"
                           R"("abstract_inverted_index":{"First":[0]}},{"id":"https://openalex.org/W2",)"
                           R"("abstract_inverted_index":null}]})";
  write_file(file, page + "\n" + page + "\n");
  auto reader = Reader::open(file);
  std::vector<Record> read;
  while (auto r = reader->next()) read.push_back(std::move(*r));
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(reader->skipped(), 2u) << "the works without an abstract";
  EXPECT_EQ(read[1].raw_text, "First");
  EXPECT_EQ(read[1].line, 2u);

  // Only JSON may have lines that long: text stays refused, naming the line.
  write_file(file, std::string(3u << 20, 'a') + "\n");
  try {
    read_all(file);
    ADD_FAILURE() << "a 3 MiB line of text";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 1u);
    EXPECT_NE(std::string(e.what()).find("longer than 1 MiB"), std::string::npos) << e.what();
  }
}

// Issue 41: an element that cannot be read is left out and the next one read,
// as long as the array's brackets and strings say where it ends; where they
// stop doing so, the records before stay and the rest of the file is one
// problem. A file of which no element can be read stays an error.
TEST(Metadata, AMalformedJsonArrayElementIsLeftOutAndABrokenArrayKeepsWhatCameBefore) {
  const std::string good = "{\"type\":\"book\",\"abstract\":\"x\"}";
  const struct {
    std::string content;
    std::size_t records;
    std::uint32_t line;
    const char* says;
  } cases[] = {
      {"[\n" + good + ",\n{\"type\": \n", 1, 3, "ends inside an element"},
      {"[\n" + good + "\n", 1, 2, "never closed"},
      {"[\n\"a string\",\n" + good + "\n]\n", 1, 2, "not an object"},
      {"[\n[1, {\"a\": 2}],\n" + good + "\n]\n", 1, 2, "not an object"},
      {"[\n" + good + ", -3.5e2,\n" + good + "\n]\n", 2, 2, "not an object"},
      {"[" + good + "]\n]\n", 1, 2, "after the array"},
      {"[\n{\"name\": \"no kind\"},\n" + good + "\n]\n", 1, 2, "no known kind"},
      {"[\n{\"type\":\"book\",\"abstract\":\"a \\\"quoted} brace\" , },\n" + good + "\n]\n", 1, 2,
       "not valid JSON"},
      {"[\n" + good + ",\n}, " + good + "\n]\n", 1, 3, "brackets do not match ('}' where"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.content);
    TempDir dir;
    const auto file = dir / "bad.json";
    write_file(file, c.content);
    auto reader = Reader::open(file);
    std::size_t n = 0;
    while (reader->next()) ++n;
    EXPECT_EQ(n, c.records);
    const auto problems = reader->take_problems();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].line, c.line) << problems[0].what;
    EXPECT_NE(problems[0].what.find(c.says), std::string::npos) << problems[0].what;
  }
  for (const std::string content : {"[\n{\"type\": \n", "[\n\"a string\"\n]\n", "[\n{\"name\": \"no kind\"}\n]\n",
                                    "[}]\n", "{\"meta\": {}}\n"}) {
    SCOPED_TRACE(content);
    TempDir dir;
    write_file(dir / "bad.json", content);
    EXPECT_THROW(read_all(dir / "bad.json"), InputError);
  }
}

// Every record of the shared real exports of these kinds that has an abstract
// is read, and none without one (counted as the data's README counts them).
TEST(Metadata, SharedExportsReadEveryRecordWithAnAbstract) {
  const fs::path formats = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "formats";
  if (!fs::exists(formats)) GTEST_SKIP() << "no shared data at " << formats;
  const struct {
    const char* file;
    std::size_t with_abstract, without;
  } files[] = {
      {"arxiv-snapshot-jsonl/arxivSpider_mnbvc--arxiv-metadata-oai-snapshot.json", 200, 0},
      {"openalex-s2/Topic_Modeling_NLP--sample-S2-records.jsonl", 58, 34},
      {"ris/SLR-automatic-screening--Exported_Items-zotero.ris", 246, 221},
      {"ris/Research-paper--savedrecs-wos.ris", 238, 1},
      {"ris/EstrogenSR--citation-exports-CochraneTrials.ris", 77, 1},
      {"csl-json/gayashiva-Thesis--zotero_lib.csl.json", 89, 98},
      {"csl-json/deep-review--references.csl.json", 213, 402},
      {"openalex-s2/bibliographer--openalex.json", 45, 20},
      // The data's README counts 111 with an abstract: two of them are "abstract = {}".
      {"bibtex/ftoralesacosta-Thesis--Zotero.bib", 109, 131},
      {"bibtex/Parasite-Ecology--savedrecs-wos.bib", 406, 4},
  };
  for (const auto& f : files) {
    auto reader = Reader::open(formats / f.file);
    std::size_t n = 0, with_authors = 0;
    while (auto r = reader->next()) {
      ++n;
      with_authors += !r->fields.authors.empty();
      EXPECT_FALSE(r->fields.title.empty()) << f.file << ":" << r->line;
    }
    EXPECT_EQ(n, f.with_abstract) << f.file;
    EXPECT_EQ(reader->skipped(), f.without) << f.file;
    EXPECT_GT(with_authors, n * 9 / 10) << f.file;
  }
}

}  // namespace
}  // namespace abstracts::indexer
