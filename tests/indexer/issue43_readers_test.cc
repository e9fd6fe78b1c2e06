// Issue 43, item 4: the readers keep what a citation needs besides authors,
// title, date and identifiers: volume, issue, pages, publisher, URL, ISSN and
// the source's own type, in every format that has them.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "indexer/reader.h"
#include "indexer/zotero.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer::issue43_readers_test {
namespace {

namespace fs = std::filesystem;
using abstracts::testing::TempDir;
using abstracts::testing::write_file;

// The one record of `content`, written to a file named `name`.
Abstract only_record(const std::string& name, const std::string& content) {
  TempDir dir;
  write_file(dir / name, content);
  const auto records = read_all(dir / name);
  EXPECT_EQ(records.size(), 1u) << content;
  return records.empty() ? Abstract{} : records[0].fields;
}

struct Citing {
  std::string item_type, volume, issue, pages, publisher, url, issn;
};

Citing citing(const Abstract& a) {
  return {a.item_type, a.volume, a.issue, a.pages, a.publisher, a.url, a.issn};
}

void expect_citing(const Abstract& a, const Citing& want) {
  const Citing got = citing(a);
  EXPECT_EQ(got.item_type, want.item_type);
  EXPECT_EQ(got.volume, want.volume);
  EXPECT_EQ(got.issue, want.issue);
  EXPECT_EQ(got.pages, want.pages);
  EXPECT_EQ(got.publisher, want.publisher);
  EXPECT_EQ(got.url, want.url);
  EXPECT_EQ(got.issn, want.issn);
}

TEST(Issue43Readers, BibtexKeepsVolumeNumberPagesPublisherUrlIssnAndEntryType) {
  expect_citing(
      only_record("a.bib",
                  "@Article{k,\n  title = {T},\n  journal = {J},\n  volume = {103},\n"
                  "  number = {24},\n  pages = {10511--10520},\n"
                  "  publisher = {Elsevier {\\&} Sons},\n  url = {https://x.org/a\\_b},\n"
                  "  issn = {0048-9697},\n  abstract = {Text.}\n}\n"),
      {"article", "103", "24", "10511-10520", "Elsevier & Sons", "https://x.org/a_b", "0048-9697"});
}

TEST(Issue43Readers, RisKeepsTyVlIsSpEpPbUrAndAnIssnOfSn) {
  expect_citing(
      only_record("a.ris",
                  "TY  - JOUR\nTI  - T\nT2  - J\nVL  - 103\nIS  - 24\nSP  - 10511\nEP  - 10520\n"
                  "PB  - Elsevier\nUR  - https://x.org/a\nUR  - https://x.org/b\n"
                  "SN  - 0048-9697\nSN  - 1879-1026\nAB  - Text.\nER  - \n"),
      {"JOUR", "103", "24", "10511-10520", "Elsevier", "https://x.org/a", "0048-9697, 1879-1026"});
  // A book's SN is its ISBN, which is no ISSN; a first page alone is the pages.
  expect_citing(
      only_record(
          "b.ris",
          "TY  - BOOK\nTI  - T\nSN  - 978-0-262-03384-8\nSP  - e1234\nAB  - Text.\nER  - \n"),
      {"BOOK", "", "", "e1234", "", "", ""});
}

TEST(Issue43Readers, CslJsonKeepsTypeVolumeIssuePagePublisherUrlIssn) {
  expect_citing(
      only_record("a.json",
                  R"([{"id":"k","type":"article-journal","title":"T","container-title":"J",)"
                  R"("volume":103,"issue":"24","page":"10511-10520","publisher":"Elsevier",)"
                  R"("URL":"https://x.org/a","ISSN":"0048-9697","abstract":"Text."}])"),
      {"article-journal", "103", "24", "10511-10520", "Elsevier", "https://x.org/a", "0048-9697"});
}

TEST(Issue43Readers, PubmedKeepsPublicationTypeVolumeIssueMedlinePgnIssn) {
  expect_citing(
      only_record(
          "a.xml",
          "<?xml version=\"1.0\"?>\n<PubmedArticleSet><PubmedArticle><MedlineCitation>"
          "<PMID>17284678</PMID><Article><Journal><ISSN IssnType=\"Print\">0048-9697</ISSN>"
          "<JournalIssue><Volume>103</Volume><Issue>24</Issue><PubDate><Year>2007</Year></PubDate>"
          "</JournalIssue><Title>J</Title></Journal><ArticleTitle>T</ArticleTitle>"
          "<Pagination><MedlinePgn>10511-20</MedlinePgn></Pagination>"
          "<Abstract><AbstractText>Text.</AbstractText></Abstract>"
          "<PublicationTypeList><PublicationType>Journal Article</PublicationType>"
          "<PublicationType>Review</PublicationType></PublicationTypeList>"
          "</Article></MedlineCitation></PubmedArticle></PubmedArticleSet>\n"),
      {"Journal Article", "103", "24", "10511-20", "", "", "0048-9697"});
}

TEST(Issue43Readers, ArxivRecordsArePreprints) {
  EXPECT_EQ(only_record("a.json", R"({"id":"0704.0001","title":"T","abstract":"Text."})"
                                  "\n")
                .item_type,
            "preprint");
  EXPECT_EQ(only_record(
                "a.xml",
                "<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>"
                "<id>http://arxiv.org/abs/0704.0001v2</id><title>T</title><summary>Text.</summary>"
                "</entry></feed>\n")
                .item_type,
            "preprint");
}

TEST(Issue43Readers, OpenAlexKeepsTypeBiblioAndThePrimaryLocation) {
  expect_citing(
      only_record(
          "a.json",
          R"({"meta":{},"results":[{"id":"https://openalex.org/W1","title":"T","type":"article",)"
          R"("abstract_inverted_index":{"Text.":[0]},"biblio":{"volume":"103","issue":"24",)"
          R"("first_page":"10511","last_page":"10520"},"primary_location":{"landing_page_url":"https://x.org/a",)"
          R"("source":{"display_name":"J","issn_l":"0048-9697","host_organization_name":"Elsevier"}}}]})"
          "\n"),
      {"article", "103", "24", "10511-10520", "Elsevier", "https://x.org/a", "0048-9697"});
}

TEST(Issue43Readers, SemanticScholarKeepsJournalVolumeAndPages) {
  const Abstract a = only_record(
      "a.json",
      R"({"id":"f2","paperAbstract":"Text.","title":"T","journalName":"J","journalVolume":"31 2","journalPages":"127-30"})"
      "\n");
  EXPECT_EQ(a.volume, "31 2");
  EXPECT_EQ(a.pages, "127-30");
}

// Every item of a real Zotero database keeps the volume, issue, pages,
// publisher, URL and ISSN the database holds for it, as SQL reads them.
TEST(Issue43Readers, ZoteroItemsKeepTheirCitingFieldsAsTheDatabaseHoldsThem) {
  const fs::path database =
      fs::path(ABSTRACTS_SHARED_DATA_DIR) / "zotero/ganeshbelgur--zotero-sync.sqlite";
  if (!fs::exists(database)) GTEST_SKIP() << "no shared data at " << database;
  std::map<std::pair<std::string, std::string>, std::string> held;  // (item key, field) -> value
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* q = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(
                  db,
                  "SELECT i.key, f.fieldName, v.value FROM items i"
                  " JOIN itemData d ON d.itemID = i.itemID JOIN fields f ON f.fieldID = d.fieldID"
                  " JOIN itemDataValues v ON v.valueID = d.valueID"
                  " WHERE f.fieldName IN ('volume', 'issue', 'pages', 'publisher', 'url', 'ISSN')",
                  -1, &q, nullptr),
              SQLITE_OK);
    while (sqlite3_step(q) == SQLITE_ROW) {
      auto text = [q](int column) {
        return std::string(reinterpret_cast<const char*>(sqlite3_column_text(q, column)));
      };
      held[{text(0), text(1)}] = text(2);
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
  }
  std::size_t checked = 0;
  // Taken of the shared file itself, which is read-only: the snapshot only reads it.
  const zotero::Snapshot snapshot = zotero::Snapshot::take(database);
  std::vector<std::int64_t> ids;
  for (const auto& item : zotero::live_items(snapshot)) ids.push_back(item.item_id);
  std::size_t without_abstract = 0;
  for (const auto& record : zotero::read_items(snapshot, ids, without_abstract)) {
    const Abstract& a = record.fields;
    for (const auto& [field, value] :
         std::vector<std::pair<std::string, std::string>>{{"volume", a.volume},
                                                          {"issue", a.issue},
                                                          {"pages", a.pages},
                                                          {"publisher", a.publisher},
                                                          {"url", a.url},
                                                          {"ISSN", a.issn}}) {
      const auto it = held.find({a.zotero_key, field});
      if (it == held.end()) continue;
      EXPECT_EQ(value, it->second) << a.zotero_key << " " << field;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50u) << "the database's items hold these fields";
}

}  // namespace
}  // namespace abstracts::indexer::issue43_readers_test
