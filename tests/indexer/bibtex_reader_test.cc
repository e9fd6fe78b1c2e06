// Issue 18: BibTeX and BibLaTeX, quirk by quirk, as Zotero, Better BibTeX, JabRef
// and Web of Science write them.
#include "indexer/bibtex_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "abstracts/error.h"
#include "indexer/document.h"
#include "indexer/reader.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer {
namespace {

using abstracts::testing::TempDir;
using abstracts::testing::write_file;

std::vector<Record> read(const TempDir& dir, const std::string& content,
                         const std::string& name = "refs.bib") {
  write_file(dir / name, content);
  auto reader = Reader::open(dir / name);
  EXPECT_EQ(reader->format(), Format::kBibtex);
  std::vector<Record> records;
  while (auto r = reader->next()) records.push_back(std::move(*r));
  return records;
}

// The record as it is stored: LaTeX turned into text, identifiers normalised.
Abstract stored(const Record& r) { return make_abstract(r, "refs.bib", "", 0); }

std::optional<InputError> read_error(const TempDir& dir, const std::string& content) {
  write_file(dir / "bad.bib", content);
  try {
    read_all(dir / "bad.bib");
    ADD_FAILURE() << "no InputError for:\n" << content;
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

TEST(BibtexReader, StringMacrosConcatenationAndMonthMacros) {
  TempDir dir;
  const auto records = read(dir,
                            "@string{ieee = \"IEEE Transactions\"}\n"
                            "@STRING(pami = ieee # { on Pattern Analysis})\n"
                            "@article{k1,\n"
                            "  title = \"Part \" # {One},\n"
                            "  journal = PAMI,\n"
                            "  year = 1999, month = dec,\n"
                            "  abstract = {Text.}\n"
                            "}\n");
  ASSERT_EQ(records.size(), 1u);
  const Abstract& f = records[0].fields;
  EXPECT_EQ(f.title, "Part One");
  EXPECT_EQ(f.venue, "IEEE Transactions on Pattern Analysis") << "macros are case-insensitive";
  EXPECT_EQ(f.year, 1999);
  EXPECT_EQ(f.month, 12);
  EXPECT_EQ(records[0].line, 3u);
}

TEST(BibtexReader, UndefinedMacroIsEmptyAsInBibtex) {
  TempDir dir;
  const auto records =
      read(dir, "@article{k, journal = nowhere, note = nowhere # {x}, abstract = {Text.}}\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].fields.venue, "");
}

// Each reader has its own macros: two files read in turn do not see each other's.
TEST(BibtexReader, MacrosBelongToTheirFile) {
  TempDir dir;
  write_file(dir / "a.bib",
             "@string{j = {Journal A}}\n@article{a1, journal = j, abstract = {A1.}}\n"
             "@article{a2, journal = j, abstract = {A2.}}\n");
  write_file(dir / "b.bib",
             "@string{j = {Journal B}}\n@article{b1, journal = j, abstract = {B1.}}\n"
             "@article{b2, journal = j, abstract = {B2.}}\n");
  auto a = Reader::open(dir / "a.bib");
  auto b = Reader::open(dir / "b.bib");
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(a->next()->fields.venue, "Journal A");
    EXPECT_EQ(b->next()->fields.venue, "Journal B");
  }
  EXPECT_FALSE(a->next());
  EXPECT_FALSE(b->next());
}

// Web of Science: a BOM, "@article{ ,", capitalised field names, every value in
// double braces, values hard-wrapped with three spaces.
TEST(BibtexReader, WebOfScienceExport) {
  TempDir dir;
  const auto records =
      read(dir,
           "\xEF\xBB\xBF\n"
           "@article{ ,\n"
           "Author = {Hillman, Alison E. and Lymbery, Alan J. and Elliot, Aileen D. and\n"
           "   Thompson, R. C. Andrew},\n"
           "Title = {{Urban environments alter parasite fauna, weight and reproductive\n"
           "   activity in the quenda (Isoodon obesulus)}},\n"
           "Journal = {{SCIENCE OF THE TOTAL ENVIRONMENT}},\n"
           "Year = {{2017}},\n"
           "Month = {{DEC 31}},\n"
           "Abstract = {{Some wildlife species are capable of surviving in urbanised\n"
           "   environments. (95\\% CI 68.6-309.5 g)}},\n"
           "DOI = {{10.1016/j.scitotenv.2017.07.086}},\n"
           "Keywords = {{urbanisation; wildlife health}},\n"
           "Unique-ID = {{WOS:000411998000056}},\n"
           "}\n"
           "\n"
           "@article{ ,\n"
           "Title = {{No abstract here}},\n"
           "}\n");
  ASSERT_EQ(records.size(), 1u);
  const Record& r = records[0];
  EXPECT_EQ(r.line, 2u);
  EXPECT_EQ(r.fields.citation_key, "") << "the empty key is no key";
  EXPECT_EQ(r.fields.title,
            "Urban environments alter parasite fauna, weight and reproductive activity in the "
            "quenda (Isoodon "
            "obesulus)");
  ASSERT_EQ(r.fields.authors.size(), 4u);
  EXPECT_EQ(r.fields.authors[0].family, "Hillman");
  EXPECT_EQ(r.fields.authors[0].given, "Alison E.");
  EXPECT_EQ(r.fields.authors[3].family, "Thompson") << "a name wrapped onto the next line";
  EXPECT_EQ(r.fields.authors[3].given, "R. C. Andrew");
  EXPECT_EQ(r.fields.venue, "SCIENCE OF THE TOTAL ENVIRONMENT");
  EXPECT_EQ(r.fields.year, 2017);
  EXPECT_EQ(r.fields.month, 12);
  EXPECT_EQ(r.fields.day, 31);
  EXPECT_EQ(r.fields.doi, "10.1016/j.scitotenv.2017.07.086");
  EXPECT_EQ(r.fields.categories, (std::vector<std::string>{"urbanisation", "wildlife health"}));
  const Abstract a = stored(r);
  EXPECT_EQ(a.text,
            "Some wildlife species are capable of surviving in urbanised environments. (95% CI "
            "68.6-309.5 g)");
  EXPECT_EQ(a.id, "10.1016/j.scitotenv.2017.07.086");
}

// Zotero: "% comments" before the entries; @comment, @preamble and free text
// between them; quoted values with braces (and a quote inside braces).
TEST(BibtexReader, CommentsPreambleAndTextBetweenEntries) {
  TempDir dir;
  write_file(dir / "zotero.bib",
             "% Zotero export 2024\n"                                   // 1
             "% Encoding: UTF-8\n"                                      // 2
             "@preamble{\"\\newcommand{\\noop}[1]{}\"}\n"               // 3
             "@comment{jabref-meta: databaseType:bibtex; {nested} }\n"  // 4
             "Free text between entries, with an email@example.org.\n"  // 5
             "@article{first,\n"                                        // 6
             "  title = \"A {\"}Quoted{\"} Title\",\n"                  // 7
             "  % a comment } inside the entry\n"                       // 8
             "  abstract = {First.}\n"                                  // 9
             "} @misc{second, abstract = \"Second {with} braces.\"}\n"  // 10
             "@comment(parenthesised (comment))\n"                      // 11
             "  @book(third, abstract = {Third.})\n");                  // 12
  auto reader = Reader::open(dir / "zotero.bib");
  EXPECT_EQ(reader->format(), Format::kBibtex)
      << "'% Zotero export 2024' is no header of the text format";
  std::vector<Record> records;
  while (auto r = reader->next()) records.push_back(std::move(*r));
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].fields.citation_key, "first");
  EXPECT_EQ(records[0].fields.title, "A {\"}Quoted{\"} Title");
  EXPECT_EQ(records[0].raw_text, "First.");
  EXPECT_EQ(records[0].line, 6u);
  EXPECT_EQ(records[1].fields.citation_key, "second");
  EXPECT_EQ(records[1].raw_text, "Second {with} braces.");
  EXPECT_EQ(records[1].line, 10u);
  EXPECT_EQ(records[2].fields.citation_key, "third");
  EXPECT_EQ(records[2].line, 12u);
  EXPECT_EQ(reader->skipped(), 0u) << "@comment and @preamble are no entries without an abstract";
}

TEST(BibtexReader, LatexInNamesBecomesUnicodeWhenStored) {
  TempDir dir;
  const auto records = read(
      dir,
      "@article{k,\n"
      "  author = {Djokovi\\'{c}, Novak and {\\v{C}}ern\\'{y}, Jan and {\\O}stergaard, Jens and"
      " Wa{\\l}{\\k{e}}sa, Lech and Stra{\\ss}er, Anna and M{\\\"o}ller, Jan},\n"
      "  title = {Performance of the {{ALICE}} {{Experiment}} at the {{CERN LHC}}\\textendash{}Run "
      "1},\n"
      "  abstract = {We measure $\\sqrt{s_{NN}} = 5.02$ TeV.}\n"
      "}\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].raw_text, "We measure $\\sqrt{s_{NN}} = 5.02$ TeV.")
      << "math is left for the analyzer";
  const Abstract a = stored(records[0]);
  std::vector<std::string> families;
  for (const auto& author : a.authors) families.push_back(author.family);
  EXPECT_EQ(families, (std::vector<std::string>{"Djoković", "Černý", "Østergaard", "Wałęsa",
                                                "Straßer", "Möller"}));
  EXPECT_EQ(a.title, "Performance of the ALICE Experiment at the CERN LHC–Run 1");
}

// Names split as BibTeX splits them: braces keep a name whole, von parts, Jr,
// "and others".
TEST(BibtexReader, NamesSplitAsBibtexDoes) {
  TempDir dir;
  const auto records = read(
      dir,
      "@article{k, abstract = {Text.}, author = {{ATLAS Collaboration} and Jan van der Berg"
      " and Smith, Jr., John and Ludwig~van~Beethoven and Collaboration, ALICE and others}}\n");
  ASSERT_EQ(records.size(), 1u);
  const auto& authors = records[0].fields.authors;
  ASSERT_EQ(authors.size(), 5u);
  EXPECT_EQ(authors[0].family, "{ATLAS Collaboration}");
  EXPECT_EQ(authors[0].given, "");
  EXPECT_EQ(authors[1].family, "van der Berg");
  EXPECT_EQ(authors[1].given, "Jan");
  EXPECT_EQ(authors[2].family, "Smith");
  EXPECT_EQ(authors[2].given, "John, Jr.");
  EXPECT_EQ(authors[3].family, "van Beethoven") << "a tie separates words";
  EXPECT_EQ(authors[4].family, "ALICE Collaboration") << "an organisation is one name (issue 43)";
  EXPECT_EQ(authors[4].given, "");
  EXPECT_EQ(stored(records[0]).authors[0].family, "ATLAS Collaboration");
}

TEST(BibtexReader, BiblatexDateJournaltitleKeywordsAndIdentifiers) {
  TempDir dir;
  const auto records = read(dir,
                            "@online{Aaboud:2017bzv,\n"
                            "  title = {Jets},\n"
                            "  date = {2014-05-02},\n"
                            "  year = {1999},\n"
                            "  journaltitle = {Eur. Phys. J.},\n"
                            "  journal = {Not this one},\n"
                            "  keywords = {Quark-gluon plasma,Jets; heavy ions},\n"
                            "  doi = {https://doi.org/10.1140/EPJC/s10052-017-4915-5},\n"
                            "  eprint = {1702.00674v2}, eprinttype = {arxiv},\n"
                            "  pmid = {12345678},\n"
                            "  abstract = {Jets.}\n"
                            "}\n"
                            "@inproceedings{conf, booktitle = {Proc. of X}, eprint = {1111.2222},"
                            " archivePrefix = {arXiv}, abstract = {Conf.}}\n"
                            "@article{plain, eprint = {not-arxiv}, abstract = {Plain.}}\n");
  ASSERT_EQ(records.size(), 3u);
  const Abstract a = stored(records[0]);
  EXPECT_EQ(a.year, 2014) << "date over year";
  EXPECT_EQ(a.month, 5);
  EXPECT_EQ(a.day, 2);
  EXPECT_EQ(a.venue, "Eur. Phys. J.");
  EXPECT_EQ(a.categories, (std::vector<std::string>{"Quark-gluon plasma", "Jets", "heavy ions"}));
  EXPECT_EQ(a.doi, "10.1140/epjc/s10052-017-4915-5");
  EXPECT_EQ(a.arxiv_id, "1702.00674");
  EXPECT_EQ(a.pmid, "12345678");
  EXPECT_EQ(a.citation_key, "Aaboud:2017bzv");
  EXPECT_EQ(a.id, "10.1140/epjc/s10052-017-4915-5") << "the DOI first";
  const Abstract conf = stored(records[1]);
  EXPECT_EQ(conf.venue, "Proc. of X");
  EXPECT_EQ(conf.arxiv_id, "1111.2222");
  EXPECT_EQ(conf.id, "1111.2222");
  const Abstract plain = stored(records[2]);
  EXPECT_EQ(plain.arxiv_id, "") << "an eprint of no known type";
  EXPECT_EQ(plain.id, "plain") << "the citation key, without a DOI, arXiv id or PMID";
}

TEST(BibtexReader, EntriesWithoutAnAbstractAreSkippedAndCounted) {
  TempDir dir;
  write_file(dir / "refs.bib",
             "@article{a, title = {No abstract}}\n"
             "@article{b, abstract = {}}\n"
             "@article{c, abstract = {  }}\n"
             "@article{d, abstract = {Here.}}\n");
  auto reader = Reader::open(dir / "refs.bib");
  std::vector<Record> records;
  while (auto r = reader->next()) records.push_back(std::move(*r));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].fields.citation_key, "d");
  EXPECT_EQ(reader->skipped(), 3u);
}

// Issue 41: a malformed entry was an error on the whole file ("a real Zotero
// export of 351 entries with one missing comma gives `nothing could be
// indexed`"). It is left out, said on the line of what is wrong, and the
// entries after it are read: the next entry after a syntax error, the next line
// that opens an entry after a character no entry may hold, and an entry left
// open ends at the next such line.
TEST(Issue41, AMalformedBibtexEntryIsLeftOutAndTheEntriesAfterItRead) {
  TempDir dir;
  const std::string a = "@article{a, abstract = {A.}}\n";
  const std::string z = "@article{z, abstract = {Z.}}\n";
  struct Case {
    std::string content;
    std::uint32_t line;
    std::string says;
    std::vector<std::string> keys;  // of the records read
  };
  const std::vector<Case> cases = {
      {a + "\n@article{b,\n  title = {x}\n  abstract = {y}\n}\n" + z, 5,
       "syntax error: found \"abstract\", expected \"#\", \",\" or the entry's end", {"a", "z"}},
      {a + "@article{b,\n  title = {never closed,\n  abstract = {y}\n" + z, 2,
       "does not end before the entry on line 5", {"a", "z"}},
      {a + "@article{b, title = \"never closed,\n  abstract = {y},\n  note = {n}\n\n" + z, 2,
       "does not end before the entry on line 6", {"a", "z"}},
      {a + "@article{b,\n  title = {never closed,\n  abstract = {y}\n", 2, "never ends", {"a"}},
      {a + "@article\n\n  = {x}\n" + z, 4, "'@article' is not followed by '{' or '('", {"a", "z"}},
      {a + "@{b, abstract = {y}}\n" + z, 2, "an '@' without an entry type", {"a", "z"}},
      {a + "@article{b,\n  title = 'x', abstract = {y}}\n" + z, 3, "''' outside a value", {"a", "z"}},
      {"@article{b, title = \x7f{x}, abstract = {y}}\n" + z, 1, "byte 0x7f outside a value", {"z"}},
      // Read on at the next line that opens an entry, not at the '@' in this one.
      {a + "@article{b,\n  abstract = \"a}b\",\n  @note = {c}}\n" + z, 3, "unbalanced braces", {"a", "z"}},
      // After a syntax error, the next entry may share the line.
      {a + "@article{b, title = {x} abstract = {y}} @article{c, abstract = {C.}}\n" + z, 2,
       "syntax error", {"a", "c", "z"}},
      // A @comment may hold entries set aside; an entry open at the end is left out.
      {a + "@comment{ an entry set aside:\n@article{x, abstract = {X.}}\n}\n" + z + "@article{b,\n", 6,
       "the entry that starts here never ends", {"a", "z"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.content);
    write_file(dir / "bad.bib", c.content);
    auto reader = Reader::open(dir / "bad.bib");
    std::vector<std::string> keys;
    while (auto r = reader->next()) keys.push_back(r->fields.citation_key);
    EXPECT_EQ(keys, c.keys);
    EXPECT_EQ(reader->rejected(), 1u);
    const auto problems = reader->take_problems();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].line, c.line) << problems[0].what;
    EXPECT_NE(problems[0].what.find(c.says), std::string::npos) << problems[0].what;
    EXPECT_NE(problems[0].hint.find("@type{key"), std::string::npos) << problems[0].hint;
  }
}

// A @string entry that is malformed defines no macro: its uses are empty, as
// BibTeX makes an undefined macro, and the entries are read.
TEST(Issue41, AMalformedStringEntryDefinesNoMacro) {
  TempDir dir;
  write_file(dir / "bad.bib", "@string{m = \"a}b\"}\n@article{k, abstract = m # {Kept.}}\n");
  auto reader = Reader::open(dir / "bad.bib");
  auto r = reader->next();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->raw_text, "Kept.");
  EXPECT_FALSE(reader->next());
  const auto problems = reader->take_problems();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].line, 1u);
  EXPECT_NE(problems[0].what.find("unbalanced braces"), std::string::npos) << problems[0].what;
}

// A file of which no entry can be read stays an error, on its first problem's
// line, saying how many more there were.
TEST(Issue41, ABibtexFileOfOnlyMalformedEntriesIsAnError) {
  TempDir dir;
  auto e = read_error(dir, "@article{b, title = {x} abstract = {y}}\n@article{c, title = 'x'}\n");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line(), 1u);
  EXPECT_EQ(std::string(e->what()), (dir / "bad.bib").string() +
                                        ":1: syntax error: found \"abstract\", expected \"#\", \",\" or "
                                        "the entry's end; nor could the file's 1 other record be read");
  EXPECT_NE(e->hint().find("@type{key"), std::string::npos) << e->hint();
}

// The citation keys of the records of `file`, read by `reader`.
std::vector<std::string> keys_read(const std::filesystem::path& file, std::unique_ptr<Reader>& reader) {
  reader = Reader::open(file);
  std::vector<std::string> keys;
  while (auto r = reader->next()) keys.push_back(r->fields.citation_key);
  return keys;
}

// The issue's case, on a real Zotero (BibLaTeX) export: one entry with a comma
// dropped, or a brace, loses that entry and no other.
TEST(Issue41, ARealZoteroExportWithOneBrokenEntryLosesOnlyThatEntry) {
  const auto file =
      std::filesystem::path(ABSTRACTS_SHARED_DATA_DIR) / "formats/bibtex/ftoralesacosta-Thesis--Zotero.bib";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "no shared data at " << file;
  const std::vector<std::string> lines = abstracts::testing::lines(abstracts::testing::read_file(file));
  std::unique_ptr<Reader> whole;
  const std::vector<std::string> all = keys_read(file, whole);
  ASSERT_EQ(all.size(), 109u) << "the README's 111 counts two \"abstract = {}\"";
  // The title line ("  title = {...},") of the 40th entry with an abstract.
  std::size_t entry = lines.size(), title = lines.size(), seen = 0;
  for (std::size_t i = 0; i < lines.size() && title == lines.size(); ++i) {
    if (lines[i].starts_with("@")) entry = i;
    if (lines[i].starts_with("  abstract = {") && lines[i] != "  abstract = {}," && ++seen == 40) {
      for (std::size_t k = entry; k < i; ++k) {
        if (lines[k].starts_with("  title = {") && lines[k].ends_with("},")) title = k;
      }
    }
  }
  ASSERT_LT(title, lines.size());
  const std::size_t open = lines[entry].find('{');
  const std::string key = lines[entry].substr(open + 1, lines[entry].find(',') - open - 1);
  std::vector<std::string> expected = all;
  std::erase(expected, key);
  ASSERT_EQ(expected.size(), all.size() - 1) << key;

  TempDir dir;
  for (const std::string cut : {",", "},"}) {
    SCOPED_TRACE("without \"" + cut + "\" at the end of line " + std::to_string(title + 1));
    std::vector<std::string> broken = lines;
    broken[title].resize(broken[title].size() - cut.size());
    std::string content;
    for (const auto& l : broken) content += l + "\n";
    write_file(dir / "Zotero.bib", content);
    std::unique_ptr<Reader> reader;
    EXPECT_EQ(keys_read(dir / "Zotero.bib", reader), expected);
    EXPECT_EQ(reader->rejected(), 1u);
    EXPECT_EQ(reader->skipped(), whole->skipped());
    const auto problems = reader->take_problems();
    ASSERT_EQ(problems.size(), 1u);
    // A missing comma is found on the next field's line; a missing brace takes
    // the entry to the next one, and is said on the line of its '@'.
    EXPECT_EQ(problems[0].line, cut == "," ? title + 2 : entry + 1) << problems[0].what;
    EXPECT_NE(problems[0].what.find(cut == "," ? "syntax error: found \"" : "does not end before the entry on line"),
              std::string::npos)
        << problems[0].what;
  }
}

// BibTeX's grammar, parsed by the reader's own code since btparse left: what
// each value becomes, and where and what each error is.
TEST(BibtexReader, EntriesParseAsBibtexReadsThem) {
  TempDir dir;
  const auto records = read(dir,
                            "@string{sp = \"  two   spaces  \"}\n"
                            "@article{ , abstract = {No key.}}\n"
                            "@article{nofields}\n"
                            "@article(paren, abstract = {In parentheses.},)\n"
                            "@article{k2020, abstract = {  Runs   of\n   spaces,\ta tab  },\n"
                            "  year = 2020, title = sp # \"and\" # { more },\n"
                            "  TITLE = {second title}, % a comment, then a trailing comma\n"
                            "}\n");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].fields.citation_key, "") << "an empty key, as Web of Science writes it";
  EXPECT_EQ(records[0].raw_text, "No key.");
  EXPECT_EQ(records[1].fields.citation_key, "paren");
  EXPECT_EQ(records[1].raw_text, "In parentheses.");
  EXPECT_EQ(records[2].fields.citation_key, "k2020");
  EXPECT_EQ(records[2].raw_text, "Runs of spaces,\ta tab") << "a line break is a space; tabs stay";
  EXPECT_EQ(records[2].fields.year, 2020);
  EXPECT_EQ(records[2].fields.title, "two spaces and more") << "pasted, then collapsed";
  EXPECT_EQ(records[2].line, 5u);

  const struct {
    std::string content;
    std::uint32_t line;
    std::string says;
  } errors[] = {
      {"@article{}\n", 1, "found \"}\", expected a key"},
      {"@article{k abstract = {A.}}\n", 1, "found \"abstract\", expected \",\" or the entry's end"},
      {"@article{k,\n  abstract = {A.},\n  title = x y}\n", 3,
       "found \"y\", expected \"#\", \",\""},
      {"@article{k, abstract = {A.},, title = {T}}\n", 1, "found \",\", expected a field name"},
      {"@article{k, abstract = {A.}, title = }\n", 1, "found \"}\", expected a value"},
      {"@article{k, abstract = {A.}, title = {T} # }\n", 1, "found \"}\", expected a value"},
      {"@article{k, abstract = {A.}, title {T}}\n", 1, "found \"{T}\", expected \"=\""},
      {"@article{k,\n\n abstract = (A.)}\n", 3, "found \"(\", expected a value"},
      {"@string{sp}\n", 1, "found \"}\", expected \"=\""},
      {"@article{k, title = {T}, abstract = {" + std::string(100, 'x') + "} {y}}\n", 1,
       "found \"{y}\""},
      {"@article{k, abstract = {A.} {" + std::string(100, 'x') + "}}\n", 1,
       "found \"{" + std::string(59, 'x') + "...\""},
  };
  for (const auto& c : errors) {
    SCOPED_TRACE(c.content);
    auto e = read_error(dir, c.content);
    if (!e) continue;
    EXPECT_EQ(e->line(), c.line) << e->what();
    EXPECT_NE(std::string(e->what()).find("syntax error: " + c.says), std::string::npos)
        << e->what();
  }
}

// Found by the reader fuzzer: btparse, which parsed entries before, formatted
// the text of a token it reported with printf, so "%n" in it wrote through a
// stray pointer and glibc aborted the program ("title = "a"{b %n}": a quoted
// value then a braced one, no '#').
TEST(BibtexReader, PercentInAReportedTokenIsTextNotAFormat) {
  TempDir dir;
  for (const std::string format : {"%n", "%s%s%s%s", "%n%n%n%n", "100%"}) {
    SCOPED_TRACE(format);
    auto e =
        read_error(dir, "@article{b,\n  title = \"a\"{b " + format + "},\n  abstract = {y}}\n");
    if (!e) continue;
    EXPECT_EQ(e->line(), 2u) << e->what();
    EXPECT_NE(std::string(e->what()).find("syntax error"), std::string::npos) << e->what();
    // The message shows the token as written, '%' and all.
    EXPECT_NE(std::string(e->what()).find("{b " + format + "}"), std::string::npos) << e->what();
  }
  // '%' in values, in a comment inside an entry, in a macro and in names reads
  // back as written.
  const auto records = read(dir,
                            "@string{pct = \"50% of %n\"}\n"
                            "@article{k, % a comment with %s in it\n"
                            "  title = pct # \" and Top-5% %n\",\n"
                            "  author = {Smith, Anne %s and {100% Collab}},\n"
                            "  abstract = {Reaches 99\\% recall, not 100%.}}\n");
  ASSERT_EQ(records.size(), 1u);
  const Record& r = records[0];
  EXPECT_EQ(r.raw_text, "Reaches 99\\% recall, not 100%.");
  EXPECT_EQ(r.fields.title, "50% of %n and Top-5% %n");
  ASSERT_EQ(r.fields.authors.size(), 2u);
  EXPECT_EQ(r.fields.authors[0].family, "Smith");
  EXPECT_EQ(r.fields.authors[0].given, "Anne %s");
  EXPECT_EQ(r.fields.authors[1].family, "{100% Collab}");
}

// Found by the reader fuzzer: btparse's name splitter read memory it had not set
// for a name with an empty part between commas ("C, , b") or of only a comma, so
// the reader crashed, or this test failed in CI. Names are split by our own
// code now (indexer/names.h), and entries parsed by it too.
TEST(BibtexReader, EmptyPartOfANameIsNoCrash) {
  TempDir dir;
  const auto records =
      read(dir, "@article{x,\n  author = {B, Novak and C, , b and , and D},\n  abstract = {T.}}\n");
  ASSERT_EQ(records.size(), 1u);
  ASSERT_EQ(records[0].fields.authors.size(), 3u);
  EXPECT_EQ(records[0].fields.authors[0].family, "B");
  EXPECT_EQ(records[0].fields.authors[0].given, "Novak");
  EXPECT_EQ(records[0].fields.authors[1].family, "C");
  EXPECT_EQ(records[0].fields.authors[1].given, "b");
  EXPECT_EQ(records[0].fields.authors[2].family, "D");
}

TEST(BibtexReader, GzipReadsTheSame) {
  TempDir dir;
  const std::string content =
      "% Zotero\n@article{k, author = {Bal\\'azs, C.}, abstract = {Diphoton.}}\n";
  write_file(dir / "plain.bib", content);
  const auto gzip =
      abstracts::testing::run(std::filesystem::exists("/bin/gzip") ? "/bin/gzip" : "/usr/bin/gzip",
                              {"-c", "-n", (dir / "plain.bib").string()});
  ASSERT_EQ(gzip.status, 0) << gzip.err;
  write_file(dir / "packed.bib.gz", gzip.out);
  const auto records = read_all(dir / "packed.bib.gz");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].raw_text, "Diphoton.");
  EXPECT_EQ(records[0].line, 2u);
  EXPECT_EQ(stored(records[0]).authors[0].family, "Balázs");
}

// Told by content: an '@word{' line among the first ones; the other formats
// are told as before.
TEST(BibtexReader, ToldByContent) {
  TempDir dir;
  write_file(dir / "refs.txt", "Some notes first\n\n  @Article{k, abstract = {A.}}\n");
  EXPECT_EQ(Reader::open(dir / "refs.txt")->format(), Format::kBibtex);
  write_file(dir / "corpus.bib",
             "NeurIPS 2026 Papers\nAn abstract that mentions @home and {braces}.\n");
  EXPECT_EQ(Reader::open(dir / "corpus.bib")->format(), Format::kAbstractsText);
  write_file(dir / "refs.ris", "TY  - JOUR\nAB  - @article{x, is no BibTeX here}\nER  - \n");
  EXPECT_EQ(Reader::open(dir / "refs.ris")->format(), Format::kRis);
}

// Issue 40: an entry keeps its first kMaxAuthors authors and counts them all,
// splitting the list a name at a time.
TEST(Issue40, BibtexKeepsTheFirstTenThousandAuthorsAndCountsThemAll) {
  TempDir dir;
  std::string names;
  for (std::size_t i = 0; i < kMaxAuthors + 3; ++i) {
    names += (i == 0 ? "" : " and ") + ("Family" + std::to_string(i) + ", Given");
  }
  const auto records =
      read(dir, "@article{many, author = {" + names +
                    "}, abstract = {Many.}}\n"
                    "@article{one, author = {Smith, A. and others}, abstract = {One.}}\n");
  ASSERT_EQ(records.size(), 2u);
  const Abstract& many = records[0].fields;
  ASSERT_EQ(many.authors.size(), kMaxAuthors);
  EXPECT_EQ(many.author_count, kMaxAuthors + 3);
  EXPECT_EQ(many.authors.front().family, "Family0");
  EXPECT_EQ(many.authors.back().family, "Family9999");
  EXPECT_EQ(many.authors.back().given, "Given");
  EXPECT_EQ(records[1].fields.authors.size(), 1u);
  EXPECT_EQ(records[1].fields.author_count, 1u) << "\"others\" names nobody";
}

// Issue 40: an entry is bounded, not its lines. A line of 3 MiB is read in
// pieces of 1 MiB, joined without a line break, and a macro's name that a
// piece's end cuts in two is still one name.
TEST(Issue40, BibtexLinesMayBeLongAndANameMayCrossTheirPieces) {
  TempDir dir;
  const std::string head = "@article{k, abstract = {";
  // "okapi" starts 2 bytes before the line's first piece ends.
  const std::string before((1u << 20) - 2 - head.size() - 4, 'x'), after(2u << 20, 'y');
  const auto records =
      read(dir, "@string{okapi = {giraffid}}\n" + head + before + "} # okapi # {" + after +
                    "}}\n"
                    "@article{next, abstract = {Next.}}\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].raw_text, before + "giraffid" + after);
  EXPECT_EQ(records[1].raw_text, "Next.");
  EXPECT_EQ(records[1].line, 3u);
}

// Issue 40: a @string entry over 16 MiB cannot define its macros; the entries
// after it, which might use them, are left out with it (one problem said), and
// those before it read.
TEST(Issue40, AStringEntryOverItsCapLeavesOutTheRestOfTheFile) {
  TempDir dir;
  write_file(dir / "big.bib", "@article{before, abstract = {Before.}}\n@string{big = {" +
                                  std::string(17u << 20, 'x') +
                                  "}}\n@article{after, abstract = big}\n@comment{not counted}\n"
                                  "@article{late, abstract = {Late.}}\n");
  auto reader = Reader::open(dir / "big.bib");
  std::vector<std::string> texts;
  while (auto r = reader->next()) texts.push_back(r->raw_text);
  EXPECT_EQ(texts, std::vector<std::string>{"Before."});
  EXPECT_EQ(reader->rejected(), 3u);
  const auto problems = reader->take_problems();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].line, 2u);
  EXPECT_EQ(problems[0].what,
            "a BibTeX entry over 16 MiB, so the file's remaining entries are skipped too");
}

}  // namespace
}  // namespace abstracts::indexer
