// The stored abstract and the identifier terms (engine/schema.h).
#include "engine/schema.h"

#include <gtest/gtest.h>

namespace abstracts::schema {
namespace {

Abstract full() {
  Abstract a;
  a.id = "10.1103/physrevd.76.013009";
  a.source = "/data/arxiv.json";
  a.line = 7;
  a.venue = "arXiv";
  a.year = 2007;
  a.title = "Calculation of prompt diphoton production";
  a.text = "A fully differential calculation.";
  a.authors = {{"Balázs", "C."}, {"van der Berg", "Jan"}, {"Yuan", ""}};
  a.month = 4;
  a.day = 2;
  a.categories = {"hep-ph", "math.CO"};
  a.doi = "10.1103/physrevd.76.013009";
  a.arxiv_id = "0704.0001";
  a.pmid = "17284678";
  a.citation_key = "balazs2007";
  a.author_count = 3;
  a.editors = {{"Knuth", "Donald E."}};
  a.item_type = "journalArticle";
  a.tags = {"QCD", "photons"};
  a.collections = {"Thesis/Chapter 2"};
  a.zotero_key = "ABCD2345";
  a.zotero_group = 4242;
  a.volume = "76";
  a.issue = "1";
  a.pages = "013009";
  a.publisher = "American Physical Society";
  a.url = "https://link.aps.org/doi/10.1103/PhysRevD.76.013009";
  a.issn = "1550-7998";
  a.isbn = "978-0-262-03384-8";
  a.pmcid = "PMC1234567";
  return a;
}

void expect_same(const Abstract& got, const Abstract& want) {
  EXPECT_EQ(got.id, want.id);
  EXPECT_EQ(got.source, want.source);
  EXPECT_EQ(got.line, want.line);
  EXPECT_EQ(got.venue, want.venue);
  EXPECT_EQ(got.year, want.year);
  EXPECT_EQ(got.title, want.title);
  EXPECT_EQ(got.text, want.text);
  ASSERT_EQ(got.authors.size(), want.authors.size());
  for (std::size_t i = 0; i < want.authors.size(); ++i) {
    EXPECT_EQ(got.authors[i].family, want.authors[i].family);
    EXPECT_EQ(got.authors[i].given, want.authors[i].given);
  }
  EXPECT_EQ(got.month, want.month);
  EXPECT_EQ(got.day, want.day);
  EXPECT_EQ(got.categories, want.categories);
  EXPECT_EQ(got.doi, want.doi);
  EXPECT_EQ(got.arxiv_id, want.arxiv_id);
  EXPECT_EQ(got.pmid, want.pmid);
  EXPECT_EQ(got.citation_key, want.citation_key);
  EXPECT_EQ(got.author_count, want.author_count);
  ASSERT_EQ(got.editors.size(), want.editors.size());
  for (std::size_t i = 0; i < want.editors.size(); ++i)
    EXPECT_EQ(display_name(got.editors[i]), display_name(want.editors[i]));
  EXPECT_EQ(got.item_type, want.item_type);
  EXPECT_EQ(got.tags, want.tags);
  EXPECT_EQ(got.collections, want.collections);
  EXPECT_EQ(got.zotero_key, want.zotero_key);
  EXPECT_EQ(got.zotero_group, want.zotero_group);
  EXPECT_EQ(got.volume, want.volume);
  EXPECT_EQ(got.issue, want.issue);
  EXPECT_EQ(got.pages, want.pages);
  EXPECT_EQ(got.publisher, want.publisher);
  EXPECT_EQ(got.url, want.url);
  EXPECT_EQ(got.issn, want.issn);
  EXPECT_EQ(got.isbn, want.isbn);
  EXPECT_EQ(got.pmcid, want.pmcid);
}

TEST(StoredAbstract, EveryFieldComesBack) {
  expect_same(decode(encode(full())), full());
  expect_same(decode(encode(Abstract{})), Abstract{});
  Abstract bare;  // the bundled text format: no authors, no identifiers
  bare.id = "dkfm1ze1jjk1";
  bare.venue = "NeurIPS";
  bare.year = 2026;
  bare.text = "Sparse attention.";
  expect_same(decode(encode(bare)), bare);
}

// Issue 18: metadata from a source may hold anything, the separators too.
TEST(StoredAbstract, ASeparatorInAValueCannotSplitIt) {
  Abstract a = full();
  a.authors = {
      {"Bal\x1d"
       "azs",
       "C.\x1e"}};
  a.categories = {
      "a\x1f"
      "b"};
  const Abstract back = decode(encode(a));
  ASSERT_EQ(back.authors.size(), 1u);
  EXPECT_EQ(back.authors[0].family, "Bal azs");
  EXPECT_EQ(back.authors[0].given, "C. ");
  EXPECT_EQ(back.categories, std::vector<std::string>{"a b"});
  EXPECT_EQ(back.citation_key, "balazs2007");
}

TEST(Identifiers, AnIsbnWithAWrongCheckDigitIsNone) {
  EXPECT_EQ(isbn13("978-0-262-03384-9"), "");
  EXPECT_EQ(isbn13("0-262-03384-5"), "");
  EXPECT_EQ(isbn13("2624-8212"), "");  // an ISSN
  EXPECT_EQ(isbn13("1234567890123"), "");
  EXPECT_EQ(isbn13("97802620338X8"), "");
}

TEST(Identifiers, OneIdentifierHowEverItIsWritten) {
  const struct {
    const char* scheme;
    const char* written;
    const char* kept;
  } cases[] = {
      {"doi", "10.1103/PhysRevD.76.013009", "10.1103/physrevd.76.013009"},
      {"doi", "https://doi.org/10.1103/PhysRevD.76.013009", "10.1103/physrevd.76.013009"},
      {"doi", "http://dx.doi.org/10.1103/physrevd.76.013009", "10.1103/physrevd.76.013009"},
      {"doi", "doi:10.1000/XYZ", "10.1000/xyz"},
      {"arxiv", "0704.0001v2", "0704.0001"},
      {"arxiv", "arXiv:2106.01234v11", "2106.01234"},
      {"arxiv", "hep-th/9901001", "hep-th/9901001"},
      {"arxiv", "https://arxiv.org/abs/2106.01234v1", "2106.01234"},
      {"pmid", "24568020v1", "24568020"},
      {"pmid", "PMID:17284678", "17284678"},
      {"pmcid", "PMC5584645", "pmc5584645"},
      {"pmcid", "https://www.ncbi.nlm.nih.gov/pmc/articles/5584645", "pmc5584645"},
      {"isbn", "978-0-262-03384-8", "9780262033848"},
      {"isbn", "0-262-03384-4", "9780262033848"},
      {"isbn", "0 8044 2957 x", "9780804429573"},
      {"isbn", "979-8-4007-0103-0", "9798400701030"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(normalise_identifier(c.scheme, c.written), c.kept) << c.written;
    EXPECT_EQ(identifier_term(c.scheme, c.written), std::string("XI") + c.scheme + ":" + c.kept)
        << c.written;
  }
}

}  // namespace
}  // namespace abstracts::schema
