// Issue 40 end to end, the readers' part: oversized, merged and hostile records
// through the real binary. A record over a size cap is skipped with a warning
// naming its file and line, and the run goes on with bounded memory; RIS records
// do not merge; an XML internal subset applies no attribute defaults; BibTeX
// macros cannot multiply memory.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::issue40_readers_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Two small files that must be indexed whatever the file beside them holds.
const char* const kGoodText =
    "NeurIPS 2026 Papers\nZebras graze in large herds on the open savanna.\n";
const char* const kGoodJsonl =
    R"({"_id": "giraffe", "text": "Giraffes browse the tall acacia trees of the plains."})"
    "\n";

class Issue40 : public ::testing::Test {
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

// An internal DTD subset's attribute default was applied to PubMed text: the
// label "INJECTED" became part of the abstract. Such a document is refused, as
// one that declares an entity is; declaring an attribute without a default is
// harmless and read.
TEST_F(Issue40, InternalSubsetAttributeDefaultsAreRefused) {
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
TEST_F(Issue40, IdAndAbstractSufficeForAJsonLinesRecord) {
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
TEST_F(Issue40, ARecordKeepsItsFirstTenThousandAuthors) {
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
TEST_F(Issue40, AnXmlTagOverOneMebibyteIsAnErrorFoundAtOnce) {
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
