// Issue 57, finding 13: `abstracts export` round trips keep every name. A
// CSL-JSON, a RIS and a BibTeX file of awkward names (of one part: an
// institution's, one with a comma or an "and" of its own, a given name alone;
// particles; suffixes) are indexed, each index is exported in the four formats,
// and each export, indexed afresh, holds the very authors of the first index.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::issue57_export_names_test {
namespace {

using json = nlohmann::json;

struct Source {
  const char* file;
  const char* content;
  const char* authors;  // as the index should keep them: "family|given; ..."
};

const Source kSources[] = {
    {"names.json",
     R"([{"id":"k-csl","type":"article-journal","title":"Numbats of the north","container-title":"Numbat Letters",
  "abstract":"About numbats.","author":[
  {"literal":"Acme Robotics Lab"},
  {"given":"Plato"},
  {"family":"","given":"Xenophon"},
  {"family":"University of California, Berkeley"},
  {"literal":"Johnson and Johnson"},
  {"family":"van der Berg","given":"Jan"},
  {"family":"King","given":"Martin Luther","suffix":"Jr."},
  {"family":"Smith, Jones","given":"Ann"},
  {"family":"Curie"},
  {"family":"Berger","given":"E. L."}]}]
)",
     "Acme Robotics Lab|; Plato|; Xenophon|; University of California, Berkeley|; "
     "Johnson and Johnson|; van der Berg|Jan; King|Martin Luther, Jr.; Smith, Jones|Ann; "
     "Curie|; Berger|E. L."},
    {"names.ris",
     "TY  - JOUR\r\nAU  - Acme Robotics Lab,\r\nAU  - {University of California, Berkeley},\r\n"
     "AU  - Johnson and Johnson,\r\nAU  - Plato,\r\nAU  - van der Berg, Jan\r\n"
     "AU  - Smith, John, Jr.\r\nAU  - Berger, E. L.\r\nTI  - Numbats of the north\r\n"
     "JF  - Numbat Letters\r\nAB  - About numbats.\r\nID  - k-ris\r\nER  - \r\n",
     "Acme Robotics Lab|; University of California, Berkeley|; Johnson and Johnson|; Plato|; "
     "van der Berg|Jan; Smith|John, Jr.; Berger|E. L."},
    {"names.bib",
     "@article{k-bib,\n"
     "  author = {{Acme Robotics Lab} and {University of California, Berkeley} and\n"
     "    {Johnson and Johnson} and Plato and van der Berg, Jan and Smith, Jr., John and\n"
     "    {Smith, Jones}, Ann and Berger, E. L.},\n  title = {Numbats of the north},\n"
     "  journal = {Numbat Letters},\n  abstract = {About numbats.}\n}\n",
     "Acme Robotics Lab|; University of California, Berkeley|; Johnson and Johnson|; Plato|; "
     "van der Berg|Jan; Smith|John, Jr.; Smith, Jones|Ann; Berger|E. L."},
};

class Issue57ExportNames : public ::testing::Test {
 protected:
  RunResult abstracts(const std::string& index, std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", index, "--color", "never"});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir_.path()), dir_.path());
  }

  // The authors of the one paper about numbats in `index`: "family|given; ...".
  std::string authors(const std::string& index) const {
    const auto r = abstracts(index, {"search", "--json", "--limit", "0", "numbats"});
    EXPECT_EQ(r.status, 0) << r.err;
    const auto hits = lines(r.out);
    EXPECT_EQ(hits.size(), 1u) << r.out;
    if (hits.size() != 1) return {};
    const json hit = json::parse(hits[0]);
    std::string out;
    for (const auto& a : hit.at("authors")) {
      out += (out.empty() ? "" : "; ") + a.at("family").get<std::string>() + "|" +
             a.at("given").get<std::string>();
    }
    return out;
  }

  TempDir dir_;
};

TEST_F(Issue57ExportNames, EveryFormatsExportIndexesBackToTheSameAuthors) {
  for (const auto& source : kSources) {
    SCOPED_TRACE(source.file);
    write_file(dir_ / source.file, source.content);
    const std::string first = std::string("first-") + source.file;
    auto r = abstracts(first, {"index", source.file});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string original = authors(first);
    EXPECT_EQ(original, source.authors) << "as read from the source";
    for (const std::string format : {"bibtex", "biblatex", "ris", "csl-json"}) {
      SCOPED_TRACE(format);
      r = abstracts(first, {"export", "--format", format, "numbats"});
      ASSERT_EQ(r.status, 0) << r.err;
      const std::string exported = std::string("export-") + source.file + "." + format;
      write_file(dir_ / exported, r.out);
      const std::string back = std::string("back-") + source.file + "-" + format;
      const auto indexed = abstracts(back, {"index", exported});
      ASSERT_EQ(indexed.status, 0) << indexed.err;
      EXPECT_EQ(authors(back), original) << r.out;
    }
  }
}

// The forms each format gives a name of one part: BibTeX's braces, RIS's
// closing comma (braces round a comma of the name's own), CSL-JSON's literal.
TEST_F(Issue57ExportNames, ANameOfOnePartIsWrittenWholeInEachFormat) {
  write_file(dir_ / "names.json", kSources[0].content);
  ASSERT_EQ(abstracts("index", {"index", "names.json"}).status, 0);
  auto r = abstracts("index", {"export", "--format", "bibtex", "numbats"});
  EXPECT_TRUE(contains(r.out,
                       "{Acme Robotics Lab} and {Plato} and {Xenophon} and "
                       "{University of California, Berkeley} and {Johnson and Johnson}"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "King, Jr., Martin Luther")) << r.out;
  r = abstracts("index", {"export", "--format", "ris", "numbats"});
  for (const char* line :
       {"AU  - Acme Robotics Lab,\r\n", "AU  - Xenophon,\r\n",
        "AU  - {University of California, Berkeley},\r\n", "AU  - Johnson and Johnson,\r\n",
        "AU  - {Smith, Jones}, Ann\r\n", "AU  - King, Martin Luther, Jr.\r\n"}) {
    EXPECT_TRUE(contains(r.out, line)) << line << r.out;
  }
  r = abstracts("index", {"export", "--format", "csl-json", "numbats"});
  EXPECT_TRUE(contains(r.out, R"({"literal":"Acme Robotics Lab"},{"literal":"Plato"},)"
                              R"({"literal":"Xenophon"},)"
                              R"({"literal":"University of California, Berkeley"})"))
      << r.out;
}

}  // namespace
}  // namespace abstracts::testing::issue57_export_names_test
