// Issue 43, item 2, end to end: names as people write them. Every author of
// every record of the real exports in ../shared/data/formats is found by
// author: with the family name alone, as "Family, Given", as "G. Family" and,
// for a family name of several parts, by its last part; stats --by author
// counts P. Romatschke and Paul Romatschke as one; Web of Science's sponsors
// are no authors. A small index of chosen names checks the negative cases, the
// organisations, the merge's ambiguity, and every row of the table of
// docs/query-language.md#authors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::issue43_names_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kFormats = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "formats";

struct Name {
  std::string family, given;
};

struct Record {
  std::string id;
  std::vector<Name> authors;
};

std::string display(const Name& n) {
  if (n.given.empty()) return n.family;
  if (n.family.empty()) return n.given;
  return n.given + " " + n.family;
}

// `text` quoted for the query language; quotes and backslashes, which no name
// needs to be found, become spaces.
std::string quoted(const std::string& text) {
  std::string out;
  for (char c : text) out += (c == '"' || c == '\\') ? ' ' : c;
  return "\"" + out + "\"";
}

// The first letter of a given name, as a person abbreviates it: its first
// character that is not punctuation ("{\'E}mile" is already "Émile").
std::string initial(const std::string& given) {
  std::size_t i = 0;
  while (i < given.size() && static_cast<unsigned char>(given[i]) < 0x80 &&
         !std::isalnum(static_cast<unsigned char>(given[i]))) {
    ++i;
  }
  if (i == given.size()) return {};
  std::size_t end = i + 1;
  while (end < given.size() && (static_cast<unsigned char>(given[end]) & 0xC0) == 0x80) ++end;
  return given.substr(i, end - i);
}

// The parts of a family name of several ("van Gils", "El-Sayed",
// "d'Enterria"), without a suffix left in it ("Finger Jr."): split at spaces,
// hyphens and apostrophes.
std::vector<std::string> family_parts(const std::string& family) {
  std::vector<std::string> parts;
  std::string part;
  auto flush = [&] {
    if (!part.empty()) parts.push_back(part);
    part.clear();
  };
  for (std::size_t i = 0; i < family.size(); ++i) {
    const char c = family[i];
    if (c == ' ' || c == '-' || c == '\'') {
      flush();
    } else if (family.compare(i, 3, "\u2010") == 0 || family.compare(i, 3, "\u2019") == 0) {
      flush();
      i += 2;
    } else {
      part += c;
    }
  }
  flush();
  static const std::set<std::string> kSuffixes = {"Jr.", "Jr", "Sr.", "Sr", "II", "III", "IV"};
  while (parts.size() > 1 && kSuffixes.count(parts.back()) != 0) parts.pop_back();
  return parts;
}

// An index of every file in ../shared/data/formats, built once for the suite,
// and every record in it with its authors as the index shows them.
class Issue43NamesReal : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists(kFormats)) return;
    dir_ = std::make_unique<TempDir>();
    auto r = abstracts({"index", "--quiet", kFormats.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    // Every record, through the source: filter of each file.
    std::string queries;
    for (const auto& entry : fs::recursive_directory_iterator(kFormats)) {
      if (entry.is_regular_file() && entry.path().filename() != "README.md") {
        queries += "source:" + entry.path().filename().string() + "\n";
      }
    }
    write_file(*dir_ / "sources.txt", queries);
    r = abstracts(
        {"search", "--queries", (*dir_ / "sources.txt").string(), "--limit", "0", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    records_ = new std::vector<Record>;
    for (const auto& line : lines(r.out)) {
      const json hit = json::parse(line);
      Record record{hit.at("id").get<std::string>(), {}};
      for (const auto& a : hit.at("authors")) {
        record.authors.push_back(
            {a.at("family").get<std::string>(), a.at("given").get<std::string>()});
      }
      records_->push_back(std::move(record));
    }
  }
  static void TearDownTestSuite() {
    delete records_;
    records_ = nullptr;
    dir_.reset();
  }
  void SetUp() override {
    if (!fs::exists(kFormats)) GTEST_SKIP() << "no shared data at " << kFormats;
    ASSERT_NE(records_, nullptr);
  }

  static RunResult abstracts(std::vector<std::string> args) {
    args.insert(args.begin(), {"--index", (*dir_ / "index").string()});
    return run_abstracts(args, sandbox_env(dir_->path()));
  }

  // Runs `queries` as one batch with --count: the count of each, by its place.
  static std::vector<long> counts(const std::vector<std::string>& queries) {
    std::string file;
    for (std::size_t i = 0; i < queries.size(); ++i)
      file += std::to_string(i) + "\t" + queries[i] + "\n";
    write_file(*dir_ / "batch.txt", file);
    const auto r = abstracts({"search", "--queries", (*dir_ / "batch.txt").string(), "--count"});
    EXPECT_LE(r.status, 1) << r.err;
    std::vector<long> out(queries.size(), -1);
    for (const auto& line : lines(r.out)) {
      const auto tab = line.find('\t');
      out.at(std::stoul(line.substr(0, tab))) = std::stol(line.substr(tab + 1));
    }
    return out;
  }

  static std::unique_ptr<TempDir> dir_;
  static std::vector<Record>* records_;
};

std::unique_ptr<TempDir> Issue43NamesReal::dir_;
std::vector<Record>* Issue43NamesReal::records_ = nullptr;

// The ways a test writes an author's name: each gives the `author:` value, or
// "" where the way does not apply to the name.
struct Way {
  std::string what;
  std::string (*value)(const Name&);
};

const Way kWays[] = {
    {"family name alone", [](const Name& n) { return n.family.empty() ? n.given : n.family; }},
    {"\"Family, Given\"",
     [](const Name& n) {
       return n.family.empty() || n.given.empty() ? std::string() : n.family + ", " + n.given;
     }},
    {"\"G. Family\"",
     [](const Name& n) {
       const std::string g = initial(n.given);
       return n.family.empty() || g.empty() ? std::string() : g + ". " + n.family;
     }},
    {"last part of the family name",
     [](const Name& n) {
       const auto parts = family_parts(n.family);
       return parts.size() > 1 ? parts.back() : std::string();
     }},
};

TEST_F(Issue43NamesReal, EveryAuthorIsFoundByFamilyNameFullNameInitialAndLastPart) {
  // Each record's authors written one way, ANDed with its id: a query finds it
  // (count 1) only if every one of them is found. A record of thousands of
  // authors is asked in pieces under the query's limits.
  constexpr std::size_t kMaxQueryBytes = 8000;
  struct Asked {
    const Record* record;
    const Way* way;
    std::vector<std::string> names;  // the author: values of this query
  };
  std::vector<Asked> asked;
  std::vector<std::string> queries;
  std::size_t names = 0;
  for (const auto& record : *records_) {
    ASSERT_EQ(record.id.find('"'), std::string::npos) << record.id;
    for (const auto& way : kWays) {
      std::string query;
      Asked a{&record, &way, {}};
      for (const auto& author : record.authors) {
        const std::string value = way.value(author);
        if (value.empty()) continue;
        const std::string filter = " AND author:" + quoted(value);
        if (query.size() + filter.size() > kMaxQueryBytes) {
          queries.push_back(query);
          asked.push_back(a);
          query.clear();
          a.names.clear();
        }
        if (query.empty()) query = "id:" + quoted(record.id);
        query += filter;
        a.names.push_back(value);
        ++names;
      }
      if (!query.empty()) {
        queries.push_back(query);
        asked.push_back(a);
      }
    }
  }
  // The files name tens of thousands of authors (ATLAS and ALICE papers among them).
  EXPECT_GT(names, 20000u);
  const auto found = counts(queries);
  // A query that missed: each of its names alone, to say which.
  std::vector<std::string> again;
  std::vector<std::string> what;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    if (found[i] == 1) continue;
    for (const auto& value : asked[i].names) {
      again.push_back("id:" + quoted(asked[i].record->id) + " AND author:" + quoted(value));
      what.push_back(asked[i].record->id + ": " + asked[i].way->what + ": author:" + quoted(value));
    }
  }
  const auto alone = counts(again);
  std::size_t missed = 0;
  for (std::size_t i = 0; i < again.size(); ++i) {
    if (alone[i] == 1) continue;
    if (++missed <= 30) ADD_FAILURE() << "not found: " << what[i];
  }
  EXPECT_EQ(missed, 0u);
}

// The records with an author of family `family` whose given name starts with `letter`.
std::size_t records_by(const std::vector<Record>& records, const std::string& family, char letter) {
  return std::count_if(records.begin(), records.end(), [&](const Record& r) {
    return std::any_of(r.authors.begin(), r.authors.end(), [&](const Name& n) {
      return n.family == family && !n.given.empty() && n.given[0] == letter;
    });
  });
}

TEST_F(Issue43NamesReal, StatsCountsPaulRomatschkeOnceAndNoSponsor) {
  // The issue's own case: the Zotero export writes him "P. Romatschke" in two
  // records and "Paul Romatschke" in two; no other R. Romatschke is named.
  const std::size_t papers = records_by(*records_, "Romatschke", 'P');
  ASSERT_EQ(papers, 4u);
  for (const std::vector<std::string>& query :
       {std::vector<std::string>{}, std::vector<std::string>{"author:romatschke"}}) {
    std::vector<std::string> args = {"stats", "--by", "author", "--limit", "0", "--json"};
    args.insert(args.end(), query.begin(), query.end());
    const auto r = abstracts(args);
    ASSERT_EQ(r.status, 0) << r.err;
    std::map<std::string, long> by;
    for (const auto& line : lines(r.out)) {
      const json j = json::parse(line);
      by[j.at("value").get<std::string>()] = j.at("abstracts").get<long>();
    }
    SCOPED_TRACE(query.empty() ? "whole index" : query[0]);
    EXPECT_EQ(by["Paul Romatschke"], static_cast<long>(papers));
    EXPECT_EQ(by.count("P. Romatschke"), 0u);
    // Web of Science's conference sponsors (A1) were its top "authors".
    EXPECT_EQ(by.count("IEEE"), 0u);
    EXPECT_EQ(by.count("ACM"), 0u);
  }
  EXPECT_EQ(counts({"author:IEEE", "author:ACM", "author:\"Assoc Comp Machinery\""}),
            (std::vector<long>{0, 0, 0}));
}

// A small index of chosen names (the docs' table's), built once for the suite.
class Issue43Names : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    std::string bib;
    const std::vector<std::pair<std::string, std::string>> entries = {
        {"paul", "Romatschke, Paul"},
        {"p", "P. Romatschke"},
        {"peter", "Peter Romatschke"},
        {"q", "Romatschke, Q."},
        {"gils", "Marc van Gils"},
        {"sayed", "El-Sayed, Shimaa"},
        {"polo", "del Polo, Juan"},
        {"muller", "M{\\\"u}ller, Klaus-Robert"},
        {"anna", "Kowalska, Anna"},
        {"a", "A. Kowalska"},
        {"who", "{{World Health Organization}}"},
        {"atlas", "ATLAS Collaboration"},
    };
    for (const auto& [key, author] : entries) {
      bib += "@article{" + key + ",\n  author = {" + author + "},\n  title = {Paper " + key +
             "},\n  abstract = {An abstract of paper " + key + ".}\n}\n\n";
    }
    write_file(*dir_ / "names.bib", bib);
    // Web of Science writes a conference's sponsor as A1 (the WE tag says
    // whose export it is); another exporter's A1 is an author.
    write_file(*dir_ / "wos.ris",
               "\xEF\xBB\xBFTY  - CPAPER\nAU  - Zhao, C\nAU  - Chen, HF\nA1  - IEEE\nA1  - Assoc "
               "Comp Machinery\n"
               "TI  - A workshop\nAB  - An abstract of the workshop.\n"
               "WE  - Conference Proceedings Citation Index - Science (CPCI-S)\nER  - \n\n");
    write_file(*dir_ / "other.ris",
               "TY  - JOUR\nA1  - Kowalski, Jan\nTI  - T\nAB  - An abstract by Jan.\nER  - \n");
    const auto r = abstracts({"index", "--quiet", dir_->path().string()});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  static void TearDownTestSuite() { dir_.reset(); }

  static RunResult abstracts(std::vector<std::string> args) {
    args.insert(args.begin(), {"--index", (*dir_ / "index").string()});
    return run_abstracts(args, sandbox_env(dir_->path()));
  }

  // The names (the first author's, as displayed) of each query's hits, by query.
  static std::vector<std::set<std::string>> found(const std::vector<std::string>& queries) {
    std::string file;
    for (std::size_t i = 0; i < queries.size(); ++i)
      file += std::to_string(i) + "\t" + queries[i] + "\n";
    write_file(*dir_ / "batch.txt", file);
    const auto r = abstracts(
        {"search", "--queries", (*dir_ / "batch.txt").string(), "--limit", "0", "--json"});
    EXPECT_LE(r.status, 1) << r.err;
    std::vector<std::set<std::string>> out(queries.size());
    for (const auto& line : lines(r.out)) {
      const json hit = json::parse(line);
      const auto& a = hit.at("authors").at(0);
      out.at(std::stoul(hit.at("query").get<std::string>()))
          .insert(display({a.at("family").get<std::string>(), a.at("given").get<std::string>()}));
    }
    return out;
  }

  // `stats --by author` (of `query`, if any): value -> abstracts.
  static std::map<std::string, long> stats(const std::string& query = {}) {
    std::vector<std::string> args = {"stats", "--by", "author", "--limit", "0", "--json"};
    if (!query.empty()) args.push_back(query);
    const auto r = abstracts(args);
    EXPECT_EQ(r.status, 0) << r.err;
    std::map<std::string, long> by;
    for (const auto& line : lines(r.out)) {
      const json j = json::parse(line);
      by[j.at("value").get<std::string>()] = j.at("abstracts").get<long>();
    }
    return by;
  }

  static std::unique_ptr<TempDir> dir_;
};

std::unique_ptr<TempDir> Issue43Names::dir_;

TEST_F(Issue43Names, AnInitialFindsTheNamesItStartsAndNoOther) {
  const auto hits = found({"author:\"P. Romatschke\"", "author:\"Romatschke, Paul\"",
                           "author:\"Q. Romatschke\"", "author:\"Romatschke, Peter\""});
  EXPECT_EQ(hits[0],
            (std::set<std::string>{"Paul Romatschke", "P. Romatschke", "Peter Romatschke"}));
  EXPECT_EQ(hits[1], (std::set<std::string>{"Paul Romatschke", "P. Romatschke"}));
  EXPECT_EQ(hits[2], (std::set<std::string>{"Q. Romatschke"}));
  EXPECT_EQ(hits[3], (std::set<std::string>{"Peter Romatschke", "P. Romatschke"}));
}

TEST_F(Issue43Names, OrganisationsAreOneNameAndSponsorsNoAuthors) {
  const auto hits = found({"author:\"World Health Organization\"", "author:\"ATLAS Collaboration\"",
                           "author:collaboration", "author:IEEE", "author:\"Assoc Comp Machinery\"",
                           "author:\"Chen, H.\"", "author:\"J. Kowalski\""});
  EXPECT_EQ(hits[0], (std::set<std::string>{"World Health Organization"}));
  EXPECT_EQ(hits[1], (std::set<std::string>{"ATLAS Collaboration"}));
  EXPECT_EQ(hits[2], (std::set<std::string>{"ATLAS Collaboration"}));
  EXPECT_TRUE(hits[3].empty());
  EXPECT_TRUE(hits[4].empty());
  EXPECT_EQ(hits[5], (std::set<std::string>{"C Zhao"}));  // the record's first author
  EXPECT_EQ(hits[6], (std::set<std::string>{"Jan Kowalski"}));
  const auto by = stats();
  EXPECT_EQ(by.count("IEEE"), 0u);
  EXPECT_EQ(by.at("ATLAS Collaboration"), 1);
  EXPECT_EQ(by.at("World Health Organization"), 1);
  EXPECT_EQ(by.at("HF Chen"), 1);
}

TEST_F(Issue43Names, StatsMergesCompatibleFormsUnlessAnotherNameMakesItAmbiguous) {
  for (const std::string query : {"", "author:kowalska OR author:romatschke"}) {
    SCOPED_TRACE(query);
    const auto by = stats(query);
    // Anna and A. Kowalska are one person, shown as the fullest form.
    EXPECT_EQ(by.count("A. Kowalska"), 0u);
    EXPECT_EQ(by.at("Anna Kowalska"), 2);
    // P. Romatschke may be Paul or Peter: counted apart.
    EXPECT_EQ(by.at("P. Romatschke"), 1);
    EXPECT_EQ(by.at("Paul Romatschke"), 1);
    EXPECT_EQ(by.at("Peter Romatschke"), 1);
    EXPECT_EQ(by.at("Q. Romatschke"), 1);
  }
}

// The cells of a Markdown table row, trimmed.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::size_t at = 1;
  while (at < row.size()) {
    const auto bar = row.find('|', at);
    if (bar == std::string::npos) break;
    std::string cell = row.substr(at, bar - at);
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    out.push_back(cell);
    at = bar + 1;
  }
  return out;
}

// The `...` spans of a cell.
std::vector<std::string> code_spans(const std::string& cell) {
  std::vector<std::string> out;
  for (std::size_t open = cell.find('`'); open != std::string::npos; open = cell.find('`', open)) {
    const auto close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    out.push_back(cell.substr(open + 1, close - open - 1));
    open = close + 1;
  }
  return out;
}

std::set<std::string> names_of(const std::string& cell) {
  std::set<std::string> out;
  std::size_t at = 0;
  while (at < cell.size()) {
    auto comma = cell.find(", ", at);
    if (comma == std::string::npos) comma = cell.size();
    if (comma > at) out.insert(cell.substr(at, comma - at));
    at = comma + 2;
  }
  return out;
}

TEST_F(Issue43Names, EveryRowOfTheDocsTableFindsWhatItSays) {
  const std::string doc = read_file(fs::path(ABSTRACTS_SOURCE_DIR) / "docs" / "query-language.md");
  const auto section = doc.find("### Authors");
  ASSERT_NE(section, std::string::npos);
  std::vector<std::string> queries;
  std::vector<std::set<std::string>> expected, excluded;
  for (const auto& line : lines(doc.substr(section, doc.find("\n## ", section) - section))) {
    if (!line.starts_with("| `author:")) continue;
    const auto row = cells(line);
    ASSERT_EQ(row.size(), 3u) << line;
    for (const auto& query : code_spans(row[0])) {
      queries.push_back(query);
      expected.push_back(names_of(row[1]));
      excluded.push_back(names_of(row[2]));
    }
  }
  ASSERT_GE(queries.size(), 20u);
  const auto hits = found(queries);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    EXPECT_EQ(hits[i], expected[i]) << queries[i];
    for (const auto& name : excluded[i])
      EXPECT_EQ(hits[i].count(name), 0u) << queries[i] << " found " << name;
  }
}

}  // namespace
}  // namespace abstracts::testing::issue43_names_test
