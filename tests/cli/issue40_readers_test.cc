// Issue 40 end to end, the readers' part: oversized, merged and hostile records
// through the real binary. A record over a size cap is skipped with a warning
// naming its file and line, and the run goes on with bounded memory; RIS records
// do not merge; an XML internal subset applies no attribute defaults; BibTeX
// macros cannot multiply memory.
#include <gtest/gtest.h>
#include <malloc.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

#if defined(__SANITIZE_ADDRESS__)
// Of <sanitizer/allocator_interface.h>, which GCC 12 does not ship.
extern "C" void __sanitizer_purge_allocator();
#endif

namespace abstracts::testing::issue40_readers_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr std::size_t kMiB = 1 << 20;

// Two small files that must be indexed whatever the file beside them holds.
const char* const kGoodText =
    "NeurIPS 2026 Papers\nZebras graze in large herds on the open savanna.\n";
const char* const kGoodJsonl =
    R"({"_id": "giraffe", "text": "Giraffes browse the tall acacia trees of the plains."})"
    "\n";

// Lines of words about pangolins, `line_prefix` before each, `bytes` in all
// (give or take a line): the text of a record too large to index.
std::string pangolin_lines(std::size_t bytes, const std::string& line_prefix) {
  const std::string line =
      line_prefix + "continued abstract words about pangolins and armadillos in the forest\n";
  std::string out;
  out.reserve(bytes + line.size());
  while (out.size() < bytes) out += line;
  return out;
}

// `bytes` of words about pangolins on one line.
std::string pangolin_line(std::size_t bytes) {
  std::string out;
  out.reserve(bytes + 16);
  while (out.size() < bytes) out += "pangolins dig ";
  return out;
}

class Issue40Readers : public ::testing::Test {
 protected:
  // abstracts --index DIR/INDEX ARGS..., run in the test's directory.
  RunResult abstracts(std::vector<std::string> args, const std::string& index = "index") const {
    args.insert(args.begin(), {"--index", (dir_ / index).string(), "--color", "never"});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir_.path()), dir_.path());
  }

  // The hits of `query` in `index`, from --json.
  std::vector<json> hits(const std::string& query, const std::string& index = "index") const {
    const auto r = abstracts({"search", "--json", "--no-correct", "--", query}, index);
    EXPECT_TRUE(r.status == 0 || r.status == 1) << query << ": " << r.err;
    std::vector<json> out;
    for (const auto& line : lines(r.out)) out.push_back(json::parse(line));
    return out;
  }

  // The file names of the hits of `query`.
  std::vector<std::string> sources(const std::string& query,
                                   const std::string& index = "index") const {
    std::vector<std::string> out;
    for (const auto& h : hits(query, index))
      out.push_back(fs::path(h.at("path").get<std::string>()).filename());
    return out;
  }

  void write(const std::string& name, const std::string& content) const {
    write_file(dir_ / name, content);
  }

  // Writes the two good files.
  void write_good_files() const {
    write("good.txt", kGoodText);
    write("good.jsonl", kGoodJsonl);
  }

  // Checks that `index` has the good files' abstracts.
  void expect_good_files_indexed(const std::string& index) const {
    EXPECT_EQ(sources("zebras", index), std::vector<std::string>{"good.txt"});
    EXPECT_EQ(sources("giraffes", index), std::vector<std::string>{"good.jsonl"});
  }

  TempDir dir_;
};

// Each format's cap, with a good record before and after the oversized one: the
// oversized record is skipped with a warning on its line, the others of its file
// and the files beside it are indexed, and the run succeeds.
TEST_F(Issue40Readers, ARecordOverItsCapIsSkippedWithAWarningInEveryFormat) {
  write_good_files();
  const std::string okapi = "The okapi lives in the rainforest of the Congo.";
  const std::string tapir = "The tapir swims in the rivers of the forest.";
  const struct {
    std::string file;
    std::string content;
    int line;  // the oversized record's
  } cases[] = {
      {"big.txt",
       "NeurIPS 2026 Papers\n" + okapi + "\n" + pangolin_line(kMiB + 100) + "\n" + tapir + "\n", 3},
      {"big.jsonl",
       R"({"_id": "okapi", "text": ")" + okapi + "\"}\n" + R"({"_id": "big", "text": ")" +
           pangolin_line(kMiB + 100) + "\"}\n" + R"({"_id": "tapir", "text": ")" + tapir + "\"}\n",
       2},
      {"big.json",
       "[\n" + json{{"type", "article"}, {"abstract", okapi}}.dump() + ",\n" +
           json{{"type", "article"}, {"abstract", pangolin_line(17 * kMiB)}}.dump() + ",\n" +
           json{{"type", "article"}, {"abstract", tapir}}.dump() + "\n]\n",
       3},
      {"big.bib",
       "@article{okapi, abstract = {" + okapi + "}}\n@article{big,\n  abstract = {" +
           pangolin_lines(17 * kMiB, "  ") + "}\n}\n@article{tapir, abstract = {" + tapir + "}}\n",
       2},
      {"big.xml",
       "<PubmedArticleSet>\n"
       "<PubmedArticle><MedlineCitation><PMID>1</PMID><Article><Abstract><AbstractText>" +
           okapi +
           "</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle>\n"
           "<PubmedArticle><MedlineCitation><PMID>2</PMID><Article><Abstract><AbstractText>\n" +
           pangolin_lines(17 * kMiB, "") +
           "</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle>\n"
           "<PubmedArticle><MedlineCitation><PMID>3</PMID><Article><Abstract><AbstractText>" +
           tapir +
           "</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle>\n</"
           "PubmedArticleSet>\n",
       3},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    write(c.file, c.content);
    const std::string index = "index-" + c.file;
    const auto r = abstracts({"index", c.file, "good.txt", "good.jsonl"}, index);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "warning: " + c.file + ":" + std::to_string(c.line) + ": "))
        << r.err;
    EXPECT_TRUE(contains(r.err, "; record skipped\n")) << r.err;
    EXPECT_TRUE(contains(r.err, "indexed 3 files (4 records)")) << r.err;
    EXPECT_TRUE(contains(r.err, "skipped 1 record that could not be read")) << r.err;
    expect_good_files_indexed(index);
    EXPECT_EQ(sources("okapi", index), std::vector<std::string>{c.file}) << "the record before";
    EXPECT_EQ(sources("tapir", index), std::vector<std::string>{c.file}) << "the record after";
    EXPECT_TRUE(hits("pangolins", index).empty()) << "the oversized record";
    fs::remove(dir_ / c.file);
  }
}

// Writes a RIS file of a record of `bytes` about pangolins, then `after`, a
// line at a time: the test's own memory stays small (a child's peak, as
// ru_maxrss gives it, is at least its parent's resident memory at the spawn).
void write_big_ris(const fs::path& file, std::size_t bytes, const std::string& after) {
  std::ofstream out(file, std::ios::binary);
  out << "TY  - JOUR\nAB  - start\n";
  const std::string line =
      "   continued abstract words about pangolins and armadillos in the forest\n";
  for (std::size_t n = 0; n < bytes; n += line.size()) out << line;
  out << "ER  - \n" << after;
  ASSERT_TRUE(out.flush()) << file;
}

// Gives this process's free memory back (the sanitizer's quarantine keeps freed
// blocks resident) and resets its peak (VmHWM) to what it then holds, which it
// returns (VmRSS, KB): a child's ru_maxrss is its own peak only above that.
long reset_peak_rss_kb() {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_purge_allocator();
#endif
  malloc_trim(0);
  std::ofstream("/proc/self/clear_refs") << "5";
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

// The issue's case: a RIS record of two million continuation lines (194 MB) took
// the good files down with it (exit 2 after 30 s at 3.0 GB). Here a record of 24
// MiB, indexed with two good files in a new index (a bulk build) and into an
// index that has abstracts (file by file); then one of 72 MiB, which takes no
// more memory: the record is read up to its cap and no further.
TEST_F(Issue40Readers, AnOversizedRisRecordIsSkippedAndTheGoodFilesIndexed) {
  write_good_files();
  const std::string small =
      "TY  - JOUR\nAB  - The okapi lives in the rainforest of the Congo.\nER  - \n";
  write_big_ris(dir_ / "big.ris", 24 * kMiB, small);
  write_big_ris(dir_ / "bigger.ris", 72 * kMiB, small);

  const long own_kb = reset_peak_rss_kb();
  auto r = abstracts({"index", "big.ris", "good.txt", "good.jsonl"}, "bulk");
  const long big_kb = r.peak_rss_kb;
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: big.ris:1: a RIS record over 16 MiB; record skipped\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "skipped 1 record that could not be read")) << r.err;
  expect_good_files_indexed("bulk");
  EXPECT_EQ(sources("okapi", "bulk"), std::vector<std::string>{"big.ris"}) << "the record after it";
  EXPECT_TRUE(hits("pangolins", "bulk").empty());

  reset_peak_rss_kb();
  r = abstracts({"index", "bigger.ris", "good.txt", "good.jsonl"}, "bigger");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: bigger.ris:1: a RIS record over 16 MiB; record skipped\n"))
      << r.err;
  // The child's peak can count this process's pages (posix_spawn's vfork), so
  // under a whole suite it is compared with a bound generous enough for that;
  // scripts/bench-memory measures the record's own cost (issue 40, finding 2).
  if (big_kb > own_kb + 16 * 1024) {
    EXPECT_LT(r.peak_rss_kb, big_kb + 48 * 1024) << "KB: 48 MiB more of the record, not all of it in memory";
  }

  ASSERT_EQ(abstracts({"index", "good.txt", "good.jsonl"}, "by-file").status, 0);
  r = abstracts({"index", "big.ris"}, "by-file");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: big.ris:1: a RIS record over 16 MiB; record skipped\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "indexed 1 file (1 record)")) << r.err;
  EXPECT_TRUE(contains(r.err, "skipped 1 record that could not be read")) << r.err;
  expect_good_files_indexed("by-file");
  EXPECT_EQ(sources("okapi", "by-file"), std::vector<std::string>{"big.ris"});
}

// A file of more abstracts than one transaction takes goes into a copy of the
// index (the Writer's large-file path): its oversized record is skipped too.
TEST_F(Issue40Readers, ARecordOverItsCapInALargeFileIsSkipped) {
  write_good_files();
  ASSERT_EQ(abstracts({"index", "good.txt"}).status, 0);
  std::string large = "NeurIPS 2026 Papers\n";
  for (int i = 0; i < 10001; ++i)
    large += "Abstract number " + std::to_string(i) + " about wombats.\n";
  large += pangolin_line(kMiB + 1) + "\n";
  write("large.txt", large);
  const auto r = abstracts({"index", "large.txt", "good.jsonl"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: large.txt:10003: a line over 1 MiB; record skipped\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "indexed 2 files (10002 records)")) << r.err;
  expect_good_files_indexed("index");
  EXPECT_EQ(sources("\"number 10000\"").size(), 1u);
}

// 18 doubling @string macros and 100 uses of the last, a 3 KB file: 1.09 GB and
// 12 s, 10 GB and std::bad_alloc with 1,000 uses. An entry's expansion is
// bounded (16 MiB), and so is the file's (64 MiB, macros defined and expanded):
// past the file's bound its remaining entries are skipped with one warning.
TEST_F(Issue40Readers, DoublingBibtexMacrosAreBoundedPerEntryAndPerFile) {
  write_good_files();
  const std::string m0 = "pangolins dig burrows at night, softly. ";
  ASSERT_EQ(m0.size(), 40u);  // so m18 has 10 MiB
  std::string bib =
      "@article{okapi, abstract = {The okapi lives in the rainforest of the Congo.}}\n";  // line 1
  bib += "@string{m0 = \"" + m0 + "\"}\n";                                                // line 2
  for (int k = 1; k <= 18; ++k) {  // lines 3-20
    bib += "@string{m" + std::to_string(k) + " = m" + std::to_string(k - 1) + " # m" +
           std::to_string(k - 1) + "}\n";
  }
  bib += "@article{twice, abstract = m18 # m18}\n";  // 20 MiB: over the entry's bound; line 21
  bib += "@article{tapir, abstract = {The tapir swims in the rivers of the forest.}}\n";  // line 22
  for (int u = 0; u < 100; ++u)
    bib += "@article{use" + std::to_string(u) + ", abstract = m18}\n";  // lines 23-122
  bib += "@article{late, abstract = {The wombat is a late entry.}}\n";
  ASSERT_LT(bib.size(), 4000u);
  write("macros.bib", bib);
  reset_peak_rss_kb();
  const auto r = run_with_limit(
      std::chrono::minutes(3), ABSTRACTS_BIN,
      {"--index", (dir_ / "index").string(), "index", "macros.bib", "good.txt", "good.jsonl"},
      sandbox_env(dir_.path()), dir_.path());
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "warning: macros.bib:21: an entry over 16 MiB once its macros are expanded; "
                       "record skipped\n"))
      << r.err;
  // m1..m18 defined: 20 MiB expanded and 20 MiB kept; 10 MiB expanded in "twice"
  // and 10 MiB by the first use: the second use passes 64 MiB.
  EXPECT_TRUE(
      contains(r.err,
               "warning: macros.bib:24: the macros of this file expand to over 64 MiB, so its "
               "remaining entries are skipped too; record skipped\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "skipped 101 records that could not be read")) << r.err;
  expect_good_files_indexed("index");
  EXPECT_EQ(sources("okapi"), std::vector<std::string>{"macros.bib"});
  EXPECT_EQ(sources("tapir"), std::vector<std::string>{"macros.bib"});
  EXPECT_EQ(sources("softly"), std::vector<std::string>{"macros.bib"}) << "the first use";
  EXPECT_TRUE(hits("wombat").empty()) << "past the file's bound";
  EXPECT_LT(r.peak_rss_kb, 1024 * 1024) << "KB";
}

// A macro replaced in place moved the rest of its line for each use: a line of
// 250,000 uses took a minute under the sanitizers. Expanded as the entry is
// read, three such lines take seconds.
TEST_F(Issue40Readers, ManyMacroUsesInAnEntryTakeLinearTime) {
  write_good_files();
  std::string bib =
      "@article{many, title = {Many}, abstract = {The okapi lives in the rainforest.}";
  for (int line = 0; line < 3; ++line) {
    bib += "\n  # a";
    for (int i = 0; i < 250000; ++i) bib += " # a";
  }
  bib += "}\n";
  write("many.bib", bib);
  const auto r =
      run_with_limit(std::chrono::seconds(60), ABSTRACTS_BIN,
                     {"--index", (dir_ / "index").string(), "index", "many.bib", "good.txt"},
                     sandbox_env(dir_.path()), dir_.path());
  ASSERT_FALSE(r.timed_out) << "over a minute";
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(sources("okapi"), std::vector<std::string>{"many.bib"});
}

// A TY line after a record without ER: two papers became one titled "First
// Second" with both texts.
TEST_F(Issue40Readers, RisRecordWithoutErDoesNotMerge) {
  write("merged.ris",
        "TY  - JOUR\nTI  - First\nAB  - First text about lions.\n"
        "TY  - JOUR\nTI  - Second\nAB  - Second text about tigers.\nER  - \n");
  const auto r = abstracts({"index", "merged.ris"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "indexed 1 file (2 records)")) << r.err;
  auto found = hits("lions");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].at("title"), "First");
  EXPECT_EQ(found[0].at("line"), 1);
  found = hits("tigers");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].at("title"), "Second");
  EXPECT_EQ(found[0].at("line"), 4);
  EXPECT_FALSE(contains(found[0].at("snippet"), "lions"));
}

// An internal DTD subset's attribute default was applied to PubMed text: the
// label "INJECTED" became part of the abstract. Such a document is refused, as
// one that declares an entity is; declaring an attribute without a default is
// harmless and read.
TEST_F(Issue40Readers, InternalSubsetAttributeDefaultsAreRefused) {
  write_good_files();
  const std::string article =
      "<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>7</PMID><Article><Abstract>"
      "<AbstractText>Okapis are shy.</AbstractText></Abstract></Article></MedlineCitation>"
      "</PubmedArticle></PubmedArticleSet>\n";
  write("injected.xml",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE PubmedArticleSet [\n"
        "<!ATTLIST AbstractText Label CDATA \"INJECTED\">\n]>\n" +
            article);
  write("declared.xml",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE PubmedArticleSet [\n"
        "<!ATTLIST AbstractText Label CDATA #IMPLIED>\n]>\n" +
            article);
  auto r = abstracts({"index", "injected.xml", "good.txt", "good.jsonl"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "error: injected.xml:3: declares a default for the attribute 'Label' of "
                       "<AbstractText> (<!ATTLIST>), which abstracts does not apply"))
      << r.err;
  expect_good_files_indexed("index");
  EXPECT_TRUE(hits("injected").empty());
  EXPECT_TRUE(hits("okapis").empty());

  r = abstracts({"index", "declared.xml"});
  EXPECT_EQ(r.status, 0) << r.err;
  const auto found = hits("okapis");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].at("snippet"), "Okapis are shy.");
}

// The docs and the error say "id" and "abstract" make an arXiv record; such a
// record was refused as "an object of no known kind".
TEST_F(Issue40Readers, IdAndAbstractSufficeForAJsonLinesRecord) {
  write("arxiv.jsonl", R"({"id": "2101.00001", "abstract": "Okapis are shy forest giraffids."})"
                       "\n");
  write("arxiv.json", R"([{"id": "2101.00002", "abstract": "Tapirs are shy too."}])"
                      "\n");
  const auto r = abstracts({"index", "arxiv.jsonl", "arxiv.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto found = hits("arxiv:2101.00001");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].at("id"), "2101.00001");
  EXPECT_EQ(found[0].at("venue"), "arXiv");
  found = hits("arxiv:2101.00002");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].at("id"), "2101.00002");
}

// One BibTeX entry with millions of authors made every later search slow and
// large: a record keeps its first 10,000 authors.
TEST_F(Issue40Readers, ARecordKeepsItsFirstTenThousandAuthors) {
  std::string names;
  for (int i = 0; i < 10005; ++i)
    names += (i == 0 ? "" : " and ") + std::string("Given Family") + std::to_string(i);
  write("authors.bib",
        "@article{many, abstract = {Okapis, by very many authors.}, author = {" + names + "}}\n");
  const auto r = abstracts({"index", "authors.bib"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto found = hits("okapis");
  ASSERT_EQ(found.size(), 1u);
  const auto& authors = found[0].at("authors");
  ASSERT_EQ(authors.size(), 10000u);
  EXPECT_EQ(authors.back().at("family"), "Family9999");
  EXPECT_EQ(sources("author:family9999").size(), 1u);
  EXPECT_TRUE(sources("author:family10000").empty());
}

// A start tag of megabytes fed to expat a line at a time was parsed again from
// its start for each line: 60 MB ran for over ten minutes, this one's 24 MB for
// over a minute under the sanitizers. A tag, comment or declaration over 1 MiB
// is an error on the file, found at once.
TEST_F(Issue40Readers, AnXmlTagOverOneMebibyteIsAnErrorFoundAtOnce) {
  write_good_files();
  std::string xml = "<PubmedArticleSet>\n<PubmedArticle Note=\"";
  const std::string line(1000, 'x');
  for (int i = 0; i < 24000; ++i) xml += line + "\n";
  xml += "\"></PubmedArticle></PubmedArticleSet>\n";
  write("tag.xml", xml);
  const auto r = run_with_limit(
      std::chrono::seconds(60), ABSTRACTS_BIN,
      {"--index", (dir_ / "index").string(), "index", "tag.xml", "good.txt", "good.jsonl"},
      sandbox_env(dir_.path()), dir_.path());
  ASSERT_FALSE(r.timed_out) << "over a minute";
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "error: tag.xml:")) << r.err;
  EXPECT_TRUE(contains(r.err, "a tag, comment or declaration over 1 MiB")) << r.err;
  expect_good_files_indexed("index");
}

}  // namespace
}  // namespace abstracts::testing::issue40_readers_test
