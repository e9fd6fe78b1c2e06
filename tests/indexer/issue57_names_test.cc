// Issue 57, finding 13: names of one part, and names with a comma, a particle or
// a suffix, as the readers read them and as `abstracts export` writes them for
// the readers to read back. A CSL-JSON `literal` is one name, kept whole; a given
// name alone is the family name; a comma in braces splits no name.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "abstracts/export.h"
#include "indexer/document.h"
#include "indexer/names.h"
#include "indexer/reader.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer::issue57_names_test {
namespace {

using abstracts::testing::TempDir;
using abstracts::testing::write_file;

// "family|given; ..." of `authors`.
std::string names(const std::vector<Author>& authors) {
  std::string out;
  for (const auto& a : authors) out += (out.empty() ? "" : "; ") + a.family + "|" + a.given;
  return out;
}

// The authors of the one record of `content`, as the index keeps them.
std::string stored_names(const std::string& content, const std::string& file_name) {
  TempDir dir;
  write_file(dir / file_name, content);
  const auto records = read_all(dir / file_name);
  EXPECT_EQ(records.size(), 1u) << content;
  if (records.size() != 1) return {};
  return names(make_abstract(records[0], "", "", 0).authors);
}

TEST(Issue57Names, ACslLiteralIsOneNameAndAGivenNameAloneIsTheFamilyName) {
  TempDir dir;
  write_file(dir / "items.json",
             R"([{"type":"article-journal","abstract":"About numbats.","author":[
    {"literal":"Acme Robotics Lab"},
    {"literal":"Benn, Douglas I"},
    {"given":"Plato"},
    {"family":"","given":"Xenophon"},
    {"family":"Berg","non-dropping-particle":"van der","given":"Jan"},
    {"family":"Enterria","dropping-particle":"d'","given":"David"},
    {"family":"King","given":"Martin Luther","suffix":"Jr."},
    {"family":"","given":""},
    {"family":"Curie"}]}]
)");
  const auto records = read_all(dir / "items.json");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(names(records[0].fields.authors),
            "Acme Robotics Lab|; Benn, Douglas I|; Plato|; Xenophon|; van der Berg|Jan; "
            "d'Enterria|David; King|Martin Luther, Jr.; Curie|");
  EXPECT_EQ(records[0].fields.author_count, 8u) << "a name of nothing is nobody";
}

TEST(Issue57Names, ACommaInBracesSplitsNoName) {
  Author a = parse_name("{University of California, Berkeley},");
  EXPECT_EQ(a.family, "{University of California, Berkeley}");
  EXPECT_EQ(a.given, "");
  a = parse_name("{Smith, Jones}, Ann");
  EXPECT_EQ(a.family, "{Smith, Jones}");
  EXPECT_EQ(a.given, "Ann");
  a = parse_name("\\{Smith, Ann");  // an escaped brace opens no group
  EXPECT_EQ(a.family, "\\{Smith");
  EXPECT_EQ(a.given, "Ann");
  a = parse_name("{Smith, Ann");  // a brace left open: the comma as ever
  EXPECT_EQ(a.family, "{Smith");
  EXPECT_EQ(a.given, "Ann");
  EXPECT_EQ(stored_names("TY  - JOUR\nAU  - {University of California, Berkeley},\n"
                         "AU  - Acme Robotics Lab,\nAU  - Smith, John, Jr.\nAB  - About numbats.\n"
                         "ER  - \n",
                         "r.ris"),
            "University of California, Berkeley|; Acme Robotics Lab|; Smith|John, Jr.");
}

TEST(Issue57Names, AGivenNameAloneIsStoredAsTheFamilyName) {
  EXPECT_EQ(stored_names("TY  - JOUR\nAU  - , Plato\nAB  - About numbats.\nER  - \n", "r.ris"),
            "Plato|");
  EXPECT_EQ(stored_names("@article{k, author = {, Plato and {\\relax}, Xenophon}, "
                         "abstract = {About numbats.}}\n",
                         "r.bib"),
            "Plato|; Xenophon|");
}

// Every format `abstracts export` writes reads back, through abstracts' own
// readers, to the very names exported.
TEST(Issue57Names, EveryFormatsExportReadsBackToTheSameNames) {
  Abstract a;
  a.id = "k1";
  a.title = "Numbats";
  a.text = "About numbats.";
  a.item_type = "article-journal";
  a.venue = "Journal of Numbats";
  a.authors = {{"Acme Robotics Lab", ""},
               {"University of California, Berkeley", ""},
               {"Johnson and Johnson", ""},
               {"Plato", ""},
               {"", "Xenophon"},
               {"van der Berg", "Jan"},
               {"King", "Martin Luther, Jr."},
               {"Smith, Jones", "Ann"},
               {"Johnson and Johnson Smith", "Ann"},
               {"Berger", "E. L."}};
  const std::string want =
      "Acme Robotics Lab|; University of California, Berkeley|; Johnson and Johnson|; Plato|; "
      "Xenophon|; van der Berg|Jan; King|Martin Luther, Jr.; Smith, Jones|Ann; "
      "Johnson and Johnson Smith|Ann; Berger|E. L.";
  for (const char* format : {"bibtex", "biblatex", "ris", "csl-json"}) {
    SCOPED_TRACE(format);
    std::ostringstream out;
    CitationWriter writer(out, *citation_format(format));
    writer.write(a);
    writer.finish();
    EXPECT_EQ(stored_names(out.str(), "export"), want) << out.str();
  }
}

}  // namespace
}  // namespace abstracts::indexer::issue57_names_test
