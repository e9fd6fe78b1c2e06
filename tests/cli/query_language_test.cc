// End-to-end tests of the query language (issue 3) on the bundled corpus: the
// real binary, a real on-disk index, one test per construct. Expectations are
// derived from the corpus files (headers, lines, words), not hard-coded, so that
// the corpus can change without rewriting the tests; where a test needs the
// corpus to have something (an abstract that only says "LLMs"), it asserts so
// first.
//
// No test touches the user's index: ABSTRACTS_INDEX, XDG_DATA_HOME and HOME
// always point into temporary directories.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::query_language_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Env = std::map<std::string, std::string>;
using Locations = std::set<std::string>;

const fs::path kRoot = ABSTRACTS_SOURCE_DIR;
const fs::path kCorpus = ABSTRACTS_CORPUS_DIR;

// ---------------------------------------------------------------------------
// The corpus, read directly from its files.

struct CorpusAbstract {
  fs::path file;  // canonical
  std::size_t line = 0;
  std::string text;
  std::string venue;  // from the header: what comes before the four-digit year
  int year = 0;
};

std::string location(const fs::path& file, std::size_t line) {
  return fs::weakly_canonical(file).string() + ":" + std::to_string(line);
}

const std::vector<CorpusAbstract>& corpus() {
  static const auto* all = [] {
    auto* out = new std::vector<CorpusAbstract>;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(kCorpus)) {
      if (e.is_regular_file() && e.path().extension() == ".txt")
        files.push_back(fs::canonical(e.path()));
    }
    std::sort(files.begin(), files.end());
    static const std::regex kHeader(R"(^\s*(.*?)\s+(\d{4})\b.*$)");
    for (const auto& file : files) {
      auto text = lines(read_file(file));
      if (text.empty()) continue;
      std::smatch m;
      std::string venue;
      int year = 0;
      if (std::regex_match(text[0], m, kHeader)) {
        venue = m[1];
        year = std::stoi(m[2]);
      }
      for (std::size_t i = 1; i < text.size(); ++i) {
        if (!text[i].empty()) out->push_back({file, i + 1, text[i], venue, year});
      }
    }
    return out;
  }();
  return *all;
}

template <typename Pred>
Locations corpus_where(Pred pred) {
  Locations out;
  for (const auto& a : corpus()) {
    if (pred(a)) out.insert(location(a.file, a.line));
  }
  return out;
}

const CorpusAbstract* corpus_at(const std::string& loc) {
  for (const auto& a : corpus()) {
    if (location(a.file, a.line) == loc) return &a;
  }
  return nullptr;
}

// The ASCII words of `text`, lower case: every run of ASCII letters and digits.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string w;
  for (unsigned char c : text) {
    if (c < 0x80 && std::isalnum(c)) {
      w += static_cast<char>(std::tolower(c));
    } else if (!w.empty()) {
      out.push_back(w);
      w.clear();
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

bool has_word_starting(const std::string& text, const std::string& prefix) {
  for (const auto& w : words(text)) {
    if (w.starts_with(prefix)) return true;
  }
  return false;
}

// " a b c " form, to look for a run of words.
std::string spaced(const std::string& text) {
  std::string out = " ";
  for (const auto& w : words(text)) out += w + " ";
  return out;
}

std::string describe(const Locations& locations) {
  std::string out;
  for (const auto& l : locations) out += "  " + l + "\n";
  return out.empty() ? "  (none)\n" : out;
}

// ---------------------------------------------------------------------------
// The fixture: one index of the bundled corpus for the whole suite.

class QueryLanguage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sandbox_ = new TempDir;
    auto r = run_abstracts({"index", kCorpus.string(), "--quiet"}, env(), kRoot);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete sandbox_;
    sandbox_ = nullptr;
  }

  static Env env() {
    Env e = sandbox_env(sandbox_->path());
    e["ABSTRACTS_INDEX"] = (sandbox_->path() / "index").string();
    return e;
  }

  static RunResult abstracts(const std::vector<std::string>& args) {
    auto r = run_abstracts(args, env(), kRoot);
    EXPECT_LT(r.status, 128) << "crashed: " << r.err;
    EXPECT_FALSE(contains(r.err, "Sanitizer") || contains(r.err, "runtime error")) << r.err;
    return r;
  }

  struct Search {
    RunResult run;
    std::vector<json> hits;
    Locations locations;
  };

  // `abstracts search --json -n 1000 ARGS...`: every hit, parsed.
  static Search search(std::vector<std::string> args) {
    args.insert(args.begin(), {"search", "--json", "-n", "1000"});
    Search s{abstracts(args), {}, {}};
    for (const auto& l : lines(s.run.out)) {
      s.hits.push_back(json::parse(l));
      s.locations.insert(location(s.hits.back()["path"].get<std::string>(),
                                  s.hits.back()["line"].get<std::size_t>()));
    }
    EXPECT_EQ(s.run.status, s.hits.empty() ? 1 : 0) << s.run.err;
    return s;
  }

  // Expects `query` to find exactly `expected` (and exit 0, or 1 if it is empty).
  static void expect_finds(const std::vector<std::string>& query, const Locations& expected) {
    Search s = search(query);
    std::string q;
    for (const auto& w : query) q += w + " ";
    EXPECT_EQ(s.locations, expected) << "query: " << q << "\nfound:\n"
                                     << describe(s.locations) << "expected:\n"
                                     << describe(expected) << "stderr: " << s.run.err;
  }

  static TempDir* sandbox_;
};

TempDir* QueryLanguage::sandbox_ = nullptr;

// ---------------------------------------------------------------------------
// Field filters.

TEST_F(QueryLanguage, VenueFiltersByTheHeadersVenue) {
  const std::string venue = corpus().front().venue;
  ASSERT_FALSE(venue.empty());
  Locations of_venue = corpus_where([&](const CorpusAbstract& a) { return a.venue == venue; });
  expect_finds({"venue:" + venue}, of_venue);
  // Case does not matter.
  std::string upper = venue;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  expect_finds({"venue:" + upper}, of_venue);
  // A venue no header names finds nothing.
  ASSERT_TRUE(corpus_where([](const CorpusAbstract& a) { return a.venue == "ICML"; }).empty());
  EXPECT_EQ(abstracts({"search", "venue:ICML"}).status, 1);
}

TEST_F(QueryLanguage, YearFiltersAndRanges) {
  const int year = corpus().front().year;
  ASSERT_GT(year, 0);
  auto in = [](int from, int to) {
    return corpus_where([=](const CorpusAbstract& a) { return a.year >= from && a.year <= to; });
  };
  const std::string y = std::to_string(year);
  expect_finds({"year:" + y}, in(year, year));
  expect_finds({"year:" + std::to_string(year - 2) + ".." + y}, in(year - 2, year));
  expect_finds({"year:" + y + ".."}, in(year, 9999));
  expect_finds({"year:.." + std::to_string(year - 1)}, in(0, year - 1));
  ASSERT_TRUE(in(2020, 2020).empty());
  EXPECT_EQ(abstracts({"search", "year:2020"}).status, 1);
}

TEST_F(QueryLanguage, SourceFiltersByFileName) {
  const fs::path file = corpus().front().file;
  Locations of_file = corpus_where([&](const CorpusAbstract& a) { return a.file == file; });
  ASSERT_LT(of_file.size(), corpus().size()) << "the test needs more than one file";
  expect_finds({"source:" + file.filename().string()}, of_file);
  // A wildcard on the file name.
  std::string stem = file.filename().string().substr(0, 5);
  expect_finds({"source:" + stem + "*"}, corpus_where([&](const CorpusAbstract& a) {
                 return a.file.filename().string().starts_with(stem);
               }));
  // Two files: either.
  const fs::path other = corpus().back().file;
  ASSERT_NE(other, file);
  expect_finds(
      {"source:" + file.filename().string(), "source:" + other.filename().string()},
      corpus_where([&](const CorpusAbstract& a) { return a.file == file || a.file == other; }));
  EXPECT_EQ(abstracts({"search", "source:no-such-file.txt"}).status, 1);
}

TEST_F(QueryLanguage, IdFindsExactlyThatAbstract) {
  Search s = search({"attention"});
  ASSERT_GE(s.hits.size(), 2u);
  const std::string id = s.hits[1]["id"];
  Search by_id = search({"id:" + id});
  ASSERT_EQ(by_id.hits.size(), 1u) << by_id.run.out;
  EXPECT_EQ(by_id.hits[0]["id"], id);
  EXPECT_EQ(by_id.hits[0]["path"], s.hits[1]["path"]);
  EXPECT_EQ(by_id.hits[0]["line"], s.hits[1]["line"]);
  EXPECT_EQ(abstracts({"search", "id:000000000000"}).status, 1);
}

TEST_F(QueryLanguage, TitleFindsWordsOfTheTitle) {
  // The abstracts whose (derived) title has "attention": from the hits for the
  // word, which include every abstract that has it anywhere.
  Search any = search({"attention"});
  Locations expected;
  for (const auto& h : any.hits) {
    if (has_word_starting(h["title"].get<std::string>(), "attention")) {
      expected.insert(location(h["path"].get<std::string>(), h["line"].get<std::size_t>()));
    }
  }
  ASSERT_FALSE(expected.empty());
  ASSERT_LT(expected.size(), any.hits.size()) << "some abstracts say attention outside the title";
  Search title = search({"title:attention"});
  EXPECT_EQ(title.locations, expected) << "found:\n" << describe(title.locations);
  for (const auto& h : title.hits)
    EXPECT_TRUE(has_word_starting(h["title"], "attention")) << h["title"];
  // title: ranks: the scores are not all 0.
  EXPECT_GT(title.hits.front()["score"].get<double>(), 0);
}

TEST_F(QueryLanguage, FiltersCombineWithTextAndWithEachOther) {
  Search text = search({"attention"});
  ASSERT_FALSE(text.hits.empty());
  const auto& first = *corpus_at(*text.locations.begin());
  // Filters that every abstract passes change nothing; filters add no score.
  Search filtered =
      search({"attention venue:" + first.venue + " year:" + std::to_string(first.year)});
  EXPECT_EQ(filtered.locations, text.locations);
  ASSERT_EQ(filtered.hits.size(), text.hits.size());
  for (std::size_t i = 0; i < text.hits.size(); ++i) {
    EXPECT_EQ(filtered.hits[i]["id"], text.hits[i]["id"]);
    EXPECT_DOUBLE_EQ(filtered.hits[i]["score"].get<double>(), text.hits[i]["score"].get<double>());
  }
  // A source filter keeps that file's hits; excluding it keeps the others.
  const std::string name = first.file.filename().string();
  Locations in_file, not_in_file;
  for (const auto& l : text.locations)
    (corpus_at(l)->file == first.file ? in_file : not_in_file).insert(l);
  ASSERT_FALSE(in_file.empty());
  ASSERT_FALSE(not_in_file.empty());
  expect_finds({"attention source:" + name}, in_file);
  expect_finds({"attention -source:" + name}, not_in_file);
  // Different fields are ANDed: a year nobody has empties the result.
  EXPECT_EQ(abstracts({"search", "attention source:" + name + " year:2020"}).status, 1);
  // Only exclusions of every venue: nothing left.
  EXPECT_EQ(abstracts({"search", "--", "-venue:" + first.venue}).status,
            corpus_where([&](const CorpusAbstract& a) { return a.venue != first.venue; }).empty()
                ? 1
                : 0);
}

// ---------------------------------------------------------------------------
// Operators: XOR, NEAR, ADJ.

// Whether `text` has a word starting with `a` and the word `b` at most `n`
// words apart (b after a if `ordered`).
bool within(const std::string& text, const std::string& a, const std::string& b, std::size_t n,
            bool ordered) {
  auto w = words(text);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!w[i].starts_with(a)) continue;
    for (std::size_t j = 0; j < w.size(); ++j) {
      if (w[j] != b || i == j) continue;
      if (ordered ? (j > i && j - i <= n) : (std::max(i, j) - std::min(i, j) <= n)) return true;
    }
  }
  return false;
}

TEST_F(QueryLanguage, NearFindsWordsWithinNPositions) {
  Locations expected = corpus_where(
      [](const CorpusAbstract& a) { return within(a.text, "agent", "mice", 2, false); });
  ASSERT_FALSE(expected.empty()) << "the corpus says \"agents and mice\"";
  expect_finds({"agents NEAR/2 mice"}, expected);
  expect_finds({"mice NEAR/2 agents"}, expected);
  // n counts positions: "agents and mice" is 2 apart, not 1.
  Locations one_apart = corpus_where(
      [](const CorpusAbstract& a) { return within(a.text, "agent", "mice", 1, false); });
  ASSERT_NE(one_apart, expected);
  expect_finds({"agents NEAR/1 mice"}, one_apart);
}

TEST_F(QueryLanguage, AdjFindsWordsInOrder) {
  expect_finds({"agents ADJ/2 mice"}, corpus_where([](const CorpusAbstract& a) {
                 return within(a.text, "agent", "mice", 2, true);
               }));
  Locations reversed = corpus_where([](const CorpusAbstract& a) {
    auto w = words(a.text);
    for (std::size_t j = 0; j < w.size(); ++j) {
      for (std::size_t i = j + 1; i < w.size() && i <= j + 2; ++i) {
        if (w[j] == "mice" && w[i].starts_with("agent")) return true;
      }
    }
    return false;
  });
  expect_finds({"mice ADJ/2 agents"}, reversed);
}

TEST_F(QueryLanguage, XorFindsEitherButNotBoth) {
  auto has_agent = [](const CorpusAbstract& a) { return has_word_starting(a.text, "agent"); };
  auto has_mice = [](const CorpusAbstract& a) { return contains(spaced(a.text), " mice "); };
  Locations expected =
      corpus_where([&](const CorpusAbstract& a) { return has_agent(a) != has_mice(a); });
  ASSERT_FALSE(
      corpus_where([&](const CorpusAbstract& a) { return has_agent(a) && has_mice(a); }).empty());
  expect_finds({"agents XOR mice"}, expected);
}

// ---------------------------------------------------------------------------
// Wildcards.

TEST_F(QueryLanguage, WildcardsFindEveryWordWithThePrefix) {
  for (std::string prefix : {"diffus", "sycophan"}) {
    Locations expected =
        corpus_where([&](const CorpusAbstract& a) { return has_word_starting(a.text, prefix); });
    ASSERT_FALSE(expected.empty()) << prefix;
    expect_finds({prefix + "*"}, expected);
  }
}

TEST_F(QueryLanguage, SycophanStarFindsSycophancyThroughItsStem) {
  // "sycophancy" is indexed as the stem "sycoph", shorter than "sycophan".
  auto r = abstracts({"search", "--explain", "sycophan*"});
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.err, "wildcard: sycophan* -> sycoph")) << r.err;
}

TEST_F(QueryLanguage, TooBroadAWildcardIsAnErrorNotATruncation) {
  // The bound is 200 words; some one-letter prefix of the corpus passes it.
  std::string broad;
  RunResult r;
  for (char c = 'a'; c <= 'z' && broad.empty(); ++c) {
    r = abstracts({"search", std::string("graph ") + c + "*"});
    if (r.status == 2) broad = std::string(1, c) + "*";
  }
  ASSERT_FALSE(broad.empty()) << "no one-letter prefix of the corpus has more than 200 words";
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(
      r.err.starts_with("error: wildcard '" + broad + "' at column 7 matches more than 200 words"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "\nhint: ")) << r.err;
}

// ---------------------------------------------------------------------------
// Spelling.

TEST_F(QueryLanguage, MisspeltQueryShowsTheCorrectedResults) {
  for (const char* typo : {"sparce", "atention"}) {
    ASSERT_TRUE(corpus_where([&](const CorpusAbstract& a) {
                  return has_word_starting(a.text, typo);
                }).empty())
        << typo << " is in the corpus";
  }
  Search corrected = search({"sparce atention"});
  EXPECT_EQ(corrected.run.status, 0);
  EXPECT_TRUE(
      contains(corrected.run.err,
               "nothing found for \"sparce atention\"; showing results for \"sparse attention\""))
      << corrected.run.err;
  EXPECT_EQ(corrected.locations, search({"sparse attention"}).locations);

  auto off = abstracts({"search", "--no-correct", "sparce atention"});
  EXPECT_EQ(off.status, 1);
  EXPECT_TRUE(off.out.empty());
  EXPECT_FALSE(contains(off.err, "showing results")) << off.err;
  EXPECT_TRUE(contains(off.err, "did you mean \"sparse attention\"?")) << off.err;
}

TEST_F(QueryLanguage, QueryWithHitsAndATypoSuggestsACorrection) {
  auto r = abstracts({"search", "sparce attention"});
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.err, "did you mean \"sparse attention\"?")) << r.err;
  EXPECT_FALSE(contains(r.err, "showing results")) << r.err;
  // Correctly spelt: no note at all.
  EXPECT_TRUE(abstracts({"search", "sparse attention"}).err.empty());
}

// A phrase's correction is quoted so that it can be typed again in a shell:
// '"sparse attention"', not ""sparse attention"".
TEST_F(QueryLanguage, CorrectedPhraseIsQuotedAsTheShellNeedsIt) {
  Search corrected = search({"\"sparce atention\""});
  EXPECT_EQ(corrected.run.status, 0);
  EXPECT_TRUE(contains(corrected.run.err,
                       "nothing found for '\"sparce atention\"'; showing results for '\"sparse attention\"'"))
      << corrected.run.err;
  EXPECT_EQ(corrected.locations, search({"\"sparse attention\""}).locations);

  auto suggested = abstracts({"search", "--no-correct", "\"sparce atention\""});
  EXPECT_EQ(suggested.status, 1);
  EXPECT_TRUE(contains(suggested.err, "did you mean '\"sparse attention\"'?")) << suggested.err;
}

// ---------------------------------------------------------------------------
// Learned acronyms.

// The number of corpus abstracts that define `short_form` as `long_form`
// ("large language models (LLMs)", either number, any case).
std::size_t definitions_in_corpus(const std::string& long_form, const std::string& short_form) {
  std::regex re(long_form + "s? \\(" + short_form + "s?\\)", std::regex::icase);
  return corpus_where([&](const CorpusAbstract& a) { return std::regex_search(a.text, re); })
      .size();
}

TEST_F(QueryLanguage, LongFormFindsAbstractsThatOnlyUseTheAcronym) {
  auto says_llm = [](const CorpusAbstract& a) { return contains(a.text, "LLM"); };
  auto spells_out = [](const CorpusAbstract& a) {
    return contains(spaced(a.text), " large language model");
  };
  auto sycophancy = [](const CorpusAbstract& a) { return has_word_starting(a.text, "sycophan"); };
  Locations only_acronym = corpus_where(
      [&](const CorpusAbstract& a) { return sycophancy(a) && says_llm(a) && !spells_out(a); });
  ASSERT_FALSE(only_acronym.empty())
      << "the corpus has an abstract on sycophancy that only says LLMs";

  Search with = search({"\"large language models\" AND sycophancy"});
  for (const auto& l : only_acronym) EXPECT_TRUE(with.locations.count(l)) << l;
  EXPECT_TRUE(std::includes(with.locations.begin(), with.locations.end(), only_acronym.begin(),
                            only_acronym.end()));

  expect_finds(
      {"--no-acronyms", "\"large language models\" AND sycophancy"},
      corpus_where([&](const CorpusAbstract& a) { return sycophancy(a) && spells_out(a); }));
}

TEST_F(QueryLanguage, AcronymFindsItsLongForm) {
  Locations defines = corpus_where(
      [](const CorpusAbstract& a) { return contains(a.text, "in-context learning (ICL)"); });
  ASSERT_FALSE(defines.empty());
  Search icl = search({"ICL"});
  for (const auto& l : defines) EXPECT_TRUE(icl.locations.count(l)) << l;
  // Every abstract found says ICL or spells it out.
  for (const auto& l : icl.locations) {
    const auto* a = corpus_at(l);
    ASSERT_NE(a, nullptr) << l;
    EXPECT_TRUE(contains(a->text, "ICL") || contains(spaced(a->text), " in context learn")) << l;
  }
  // Spelt out, it finds the same abstracts as the acronym.
  EXPECT_EQ(search({"\"in-context learning\""}).locations, icl.locations);
  // Only capitals expand: "icl" is just the word.
  auto lower = abstracts({"search", "--explain", "icl"});
  EXPECT_FALSE(contains(lower.err, "acronym:")) << lower.err;
  auto upper = abstracts({"search", "--explain", "ICL"});
  EXPECT_TRUE(contains(upper.err, "acronym: ICL also matches \"in-context learning\""))
      << upper.err;
  auto off = abstracts({"search", "--explain", "--no-acronyms", "ICL"});
  EXPECT_FALSE(contains(off.err, "acronym:")) << off.err;
}

TEST_F(QueryLanguage, AcronymsListsTheLearnedTable) {
  const std::size_t llms = definitions_in_corpus("large language model", "LLM");
  ASSERT_GT(llms, 1u);
  auto r = abstracts({"acronyms"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::regex row(R"(^ *(\d+)  (\S+)  (.+?)(  \(ambiguous: not used\))?$)");
  bool found = false;
  for (const auto& l : lines(r.out)) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(l, m, row)) << "[" << l << "]";
    if (m[2] == "LLMs" && m[3] == "large language models") {
      found = true;
      EXPECT_EQ(std::stoul(m[1]), llms) << l;
      EXPECT_FALSE(m[4].matched) << l;
    }
  }
  EXPECT_TRUE(found) << r.out;
  EXPECT_TRUE(contains(r.out, "ICL  in-context learning")) << r.out;
}

TEST_F(QueryLanguage, AcronymsJsonIsOneObjectPerDefinition) {
  auto text = abstracts({"acronyms"});
  auto r = abstracts({"acronyms", "--json"});
  EXPECT_EQ(r.status, 0) << r.err;
  auto rows = lines(r.out);
  EXPECT_EQ(rows.size(), lines(text.out).size());
  bool found = false;
  for (const auto& l : rows) {
    json j = json::parse(l);
    ASSERT_TRUE(j["short_form"].is_string() && j["long_form"].is_string()) << l;
    ASSERT_TRUE(j["count"].is_number_unsigned() && j["used"].is_boolean()) << l;
    EXPECT_GE(j["count"].get<unsigned>(), 1u);
    if (j["short_form"] == "LLMs") {
      found = true;
      EXPECT_EQ(j["long_form"], "large language models");
      EXPECT_EQ(j["count"].get<std::size_t>(),
                definitions_in_corpus("large language model", "LLM"));
      EXPECT_EQ(j["used"], true);
    }
  }
  EXPECT_TRUE(found) << r.out;
}

// ---------------------------------------------------------------------------
// --explain.

TEST_F(QueryLanguage, ExplainSaysHowTheQueryWasUnderstood) {
  auto r = abstracts({"search", "--explain", "-n", "3", "agents sycophan* ICL"});
  EXPECT_EQ(r.status, 0) << r.err;
  auto err = lines(r.err);
  ASSERT_FALSE(err.empty());
  EXPECT_TRUE(err[0].starts_with("query: Query(")) << r.err;
  EXPECT_TRUE(contains(r.err, "\n  stem: agents -> agent\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "\n  wildcard: sycophan* -> sycoph")) << r.err;
  EXPECT_TRUE(contains(r.err, "\n  acronym: ICL also matches \"in-context learning\"\n")) << r.err;
  // One "why:" line per hit, naming terms and their weights.
  std::size_t headers = 0, whys = 0;
  std::regex why(R"(^   why:( \S+ \d+\.\d\d)+$)");
  for (const auto& l : lines(r.out)) {
    if (!l.empty() && l[0] != ' ') ++headers;
    if (l.starts_with("   why:")) {
      ++whys;
      EXPECT_TRUE(std::regex_match(l, why)) << "[" << l << "]";
    }
  }
  EXPECT_EQ(headers, 3u) << r.out;
  EXPECT_EQ(whys, headers) << r.out;
  // Without --explain, none of it.
  auto plain = abstracts({"search", "-n", "3", "agents sycophan* ICL"});
  EXPECT_TRUE(plain.err.empty()) << plain.err;
  EXPECT_FALSE(contains(plain.out, "why:"));
}

TEST_F(QueryLanguage, ExplainNamesSpellingCorrections) {
  auto suggested = abstracts({"search", "--explain", "sparce attention"});
  EXPECT_TRUE(contains(suggested.err, "\n  spelling: did you mean \"sparse attention\"?"))
      << suggested.err;
  auto corrected = abstracts({"search", "--explain", "sparce atention"});
  EXPECT_TRUE(contains(corrected.err,
                       "\n  spelling: nothing found, searched for \"sparse attention\" instead"))
      << corrected.err;
  // The parsed query is the one that was run: the corrected one.
  EXPECT_TRUE(contains(corrected.err, "query: Query((spars OR attent))")) << corrected.err;
}

// A query of four or more words is ranked with pseudo-relevance feedback, which
// --explain names; in the query language it reorders the same matches.
// --no-feedback turns it off.
TEST_F(QueryLanguage, ExplainNamesFeedbackAndNoFeedbackTurnsItOff) {
  const char* question = "sparse attention long context";
  auto with = abstracts({"search", "--explain", question});
  EXPECT_EQ(with.status, 0) << with.err;
  EXPECT_TRUE(contains(with.err, "\n  feedback: ")) << with.err;
  auto without = abstracts({"search", "--explain", "--no-feedback", question});
  EXPECT_EQ(without.status, 0) << without.err;
  EXPECT_FALSE(contains(without.err, "feedback:")) << without.err;
  // Fewer than four words as written: no feedback, whatever acronyms expand to.
  auto keywords = abstracts({"search", "--explain", "sparse attention context"});
  EXPECT_FALSE(contains(keywords.err, "feedback:")) << keywords.err;
  for (const char* acronym : {"LLM agents", "\"large language models\""}) {
    auto r = abstracts({"search", "--explain", acronym});
    EXPECT_TRUE(contains(r.err, "acronym:")) << r.err;  // four terms or more after expansion
    EXPECT_FALSE(contains(r.err, "feedback:")) << r.err;
  }

  // Words alone rank as plain text (issue 17): feedback may add matches, and
  // keeps every one of the question's own.
  const auto reranked = search({question}).locations;  // every hit
  EXPECT_FALSE(reranked.empty());
  for (const auto& l : search({"--no-feedback", question}).locations) EXPECT_TRUE(reranked.contains(l)) << l;
  // With an operator, the query keeps its matches: feedback only ranks them.
  const char* with_operator = "sparse AND attention long context";
  EXPECT_EQ(search({with_operator}).locations, search({"--no-feedback", with_operator}).locations);
}

TEST_F(QueryLanguage, ExplainJsonHasAnExplanationPerHit) {
  Search s = search({"--explain", "sparse attention"});
  ASSERT_FALSE(s.hits.empty());
  for (const auto& h : s.hits) {
    ASSERT_TRUE(h.contains("explanation")) << h.dump();
    const auto& e = h["explanation"];
    ASSERT_TRUE(e.is_object()) << h.dump();
    EXPECT_FALSE(e.empty()) << h.dump();
    double sum = 0;
    for (const auto& [term, weight] : e.items()) {
      EXPECT_TRUE(term == "spars" || term == "attent" || term == "title:spars" ||
                  term == "title:attent")
          << term;
      EXPECT_GT(weight.get<double>(), 0) << term;
      sum += weight.get<double>();
    }
    // For a plain OR (and its title boost), the weights add up to the score.
    EXPECT_NEAR(sum, h["score"].get<double>(), 1e-6) << h.dump();
  }
  // Without --explain, no explanation.
  for (const auto& h : search({"sparse attention"}).hits) EXPECT_FALSE(h.contains("explanation"));
}

// ---------------------------------------------------------------------------
// Errors: exit 2, "error: ..." naming the column, and a hint.

struct BadQuery {
  const char* query;
  std::size_t column;
};

// What only syntax can mean and is wrong (issue 17: prose is never an error).
const BadQuery kBadQueries[] = {
    {"title:", 1},
    {"attention venue:", 11},
    {"year:20x6", 1},
    {"year:2026..2024", 1},
    {"agents NEAR/0 mice", 8},
    {"agents NEAR/x mice", 8},
    {"agents NEAR mice ADJ robots", 18},
    {"agents NEAR/2 (mice rats)", 15},
    {"text-on*", 1},
};

TEST_F(QueryLanguage, MalformedQueriesExit2NamingTheColumn) {
  for (const auto& q : kBadQueries) {
    SCOPED_TRACE(q.query);
    auto r = abstracts({"search", q.query});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_TRUE(r.err.starts_with("error: ")) << r.err;
    EXPECT_TRUE(contains(lines(r.err)[0], "column " + std::to_string(q.column))) << r.err;
    EXPECT_TRUE(contains(r.err, "\nhint: ")) << r.err;
  }
}

// Regression (issue 3): a source: filter got a did-you-mean for its file
// extension ("source:NAME.txt" -> "source:NAME.text").
TEST_F(QueryLanguage, SourceFilterGetsNoSpellingSuggestion) {
  const std::string name = corpus().front().file.filename().string();
  auto r = abstracts({"search", "source:" + name});
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(contains(r.err, "did you mean")) << r.err;
}

// Issue 17: the questions of the test collections, pasted as a person would,
// once were errors; each is searched now, and what was read as words is said in
// one note line.
struct Prose {
  const char* query;
  const char* note;  // a part of the note line
};

const Prose kProse[] = {
    // CACM 10: a word before a colon that is no field.
    {"Some examples: Rabin, Karp", "\"examples:\" at column 6 is no field: read as a word"},
    // CACM: "in the following languages: that are ...".
    {"parallel languages: that are used", "\"languages:\" at column 10 is no field"},
    // CACM 26: a parenthesis never closed.
    {"(EL1 may be given as EL/1; I don't remember", "\"(\" at column 1 closed where the query ends"},
    // CACM 58: a ')' that numbers a point.
    {"present as such: 1) bile duct", "\")\" at column 19 ignored: it closes nothing"},
    // Cranfield 183: an all-capitals question with NEAR in it.
    {"MEASUREMENTS OF IONOSPHERIC DRIFTS NEAR THE EQUATOR", "NEAR at column 36 read as a word"},
    {"attention AND", "AND at column 11 read as a word"},
    {"\"unbalanced attention", "the quote at column 1 closed where the query ends"},
    {"year: 2026 attention", "\"year:\" at column 1 has a space after its colon"},
};

TEST_F(QueryLanguage, Issue17ProseIsSearchedWithANote) {
  for (const auto& p : kProse) {
    SCOPED_TRACE(p.query);
    auto r = abstracts({"search", "--json", "--", p.query});
    EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
    const auto err = lines(r.err);
    const auto note = std::find_if(err.begin(), err.end(), [](const std::string& l) { return l.starts_with("note: "); });
    ASSERT_NE(note, err.end()) << r.err;
    EXPECT_TRUE(contains(*note, p.note)) << *note;
    EXPECT_EQ(std::count_if(err.begin(), err.end(), [](const std::string& l) { return l.starts_with("note: "); }), 1)
        << r.err;
    EXPECT_FALSE(contains(r.err, "error:")) << r.err;
  }
}

TEST_F(QueryLanguage, Issue17ExplainListsTheNotes) {
  auto r = abstracts({"search", "--explain", "--", "Some examples: Rabin"});
  EXPECT_TRUE(contains(r.err, "  note: \"examples:\" at column 6 is no field")) << r.err;
}

// Issue 17: a phrase can stand beside NEAR and ADJ (it was an error since issue 3,
// which made the error name the phrase).
TEST_F(QueryLanguage, Issue17PhraseBesideNearIsSearched) {
  auto r = abstracts({"search", "--json", "--explain", "--", "\"language models\" NEAR/5 reasoning"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "(languag NEAR 7 model NEAR 7 reason) FILTER (languag PHRASE 2 model)")) << r.err;
  EXPECT_FALSE(lines(r.out).empty());
}

}  // namespace
}  // namespace abstracts::testing::query_language_test
