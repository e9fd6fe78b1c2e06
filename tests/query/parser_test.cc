// Golden tests of the query parser: query text -> Xapian::Query::get_description(),
// and query text -> QueryError column. Expectations follow the grammar comment
// in query/parser.h; terms are what the shared analyzer makes of each word
// (folded, then stemmed with the English Snowball stemmer: "large" -> "larg").
#include "query/parser.h"
#include "query/positional.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"

namespace abstracts::query::parser_test {
namespace {

std::string describe(std::string_view query) {
  analysis::Analyzer analyzer;
  return abstracts::query::describe(Parser(analyzer).parse(query));
}

struct GoldenCase {
  const char* query;
  const char* description;
};

void PrintTo(const GoldenCase& c, std::ostream* os) { *os << '`' << c.query << '`'; }

class ParserGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(ParserGolden, Describes) {
  const GoldenCase& c = GetParam();
  EXPECT_EQ(describe(c.query), c.description) << "query: " << c.query;
}

const GoldenCase kWords[] = {
    // One word: folded and stemmed.
    {"models", "Query(model)"},
    {"Models", "Query(model)"},
    {"graph", "Query(graph)"},
    // An all-capitals acronym loses its plural "s" before stemming.
    {"LLMs", "Query(llm)"},
    // Juxtaposition: the default operator is OR.
    {"graph neural", "Query((graph OR neural))"},
    {"graph neural robot", "Query((graph OR neural OR robot))"},
    {"  graph \t neural  ", "Query((graph OR neural))"},
    // Lower-case operators are plain words, and these are stop words: not indexed.
    {"graph and neural", "Query((graph OR neural))"},
    {"graph or neural", "Query((graph OR neural))"},
    {"not graph", "Query(graph)"},
    {"the graph of a network", "Query((graph OR network))"},
    // A word that analyses to nothing is ignored.
    {"graph $", "Query(graph)"},
    {"graph - neural", "Query((graph OR neural))"},
    // Numbers stay as written.
    {"3.5", "Query(3.5)"},
    // A backslash escapes the next character: LaTeX accents in a word.
    {R"(Sch\"olkopf)", "Query(scholkopf)"},
    {R"(Pok\'emon)", "Query(pokemon)"},
    {"Pokémon", "Query(pokemon)"},
};
INSTANTIATE_TEST_SUITE_P(Words, ParserGolden, ::testing::ValuesIn(kWords));

const GoldenCase kPhrases[] = {
    {R"("large language models")", "Query((larg PHRASE 3 languag PHRASE 3 model))"},
    {R"("large language model")", "Query((larg PHRASE 3 languag PHRASE 3 model))"},
    // Curly quotes delimit phrases too.
    {"\u201clarge language models\u201d", "Query((larg PHRASE 3 languag PHRASE 3 model))"},
    // A one-word phrase is just the word.
    {R"("models")", "Query(model)"},
    // An escaped quote inside a phrase is a LaTeX accent, not the closing quote.
    {R"("Sch\"olkopf kernels")", "Query((scholkopf PHRASE 2 kernel))"},
    // A word that analyses to several terms is a phrase.
    {"text-only", "Query((text PHRASE 2 onli))"},
    {"text\u2011only", "Query((text PHRASE 2 onli))"},  // U+2011 non-breaking hyphen
    {"text\u2013only", "Query((text PHRASE 2 onli))"},  // U+2013 en dash
    {"GPT4", "Query((gpt PHRASE 2 4))"},  // digits and letters are separate words
    // Stop words in a phrase are gaps the phrase's window spans.
    {"state-of-the-art", "Query((state PHRASE 4 art))"},
    {R"("the state of the art")", "Query((state PHRASE 4 art))"},
    {R"("the graph")", "Query(graph)"},
    {R"(graph "large language")", "Query((graph OR (larg PHRASE 2 languag)))"},
    // A phrase ends a word: no white space is needed around it.
    {R"(graph"large language"neural)", "Query((graph OR (larg PHRASE 2 languag) OR neural))"},
};
INSTANTIATE_TEST_SUITE_P(Phrases, ParserGolden, ::testing::ValuesIn(kPhrases));

const GoldenCase kOperators[] = {
    {"graph AND neural", "Query((graph AND neural))"},
    {"graph OR neural", "Query((graph OR neural))"},
    {"graph NOT neural", "Query((graph AND_NOT neural))"},
    {"graph AND NOT neural", "Query((graph AND_NOT neural))"},
    // A chain of AND is one flat AND, however long (issue 16).
    {"graph AND neural AND robot", "Query((graph AND neural AND robot))"},
    {"graph OR neural OR robot", "Query((graph OR neural OR robot))"},
    // '+' must match, the other clauses only rank.
    {"+graph neural", "Query((graph AND_MAYBE neural))"},
    {"+graph neural robot", "Query((graph AND_MAYBE (neural OR robot)))"},
    {"+graph +neural", "Query((graph AND neural))"},
    {"+graph", "Query(graph)"},
    // '-' and a leading NOT must not match.
    {"graph -neural", "Query((graph AND_NOT neural))"},
    {"graph -neural -robot", "Query((graph AND_NOT (neural OR robot)))"},
    {"+graph -neural robot", "Query(((graph AND_MAYBE robot) AND_NOT neural))"},
    {R"(graph -"large language")", "Query((graph AND_NOT (larg PHRASE 2 languag)))"},
    // Only exclusions: everything but them.
    {"-survey", "Query((<alldocuments> AND_NOT survey))"},
    {"NOT survey", "Query((<alldocuments> AND_NOT survey))"},
    {"-graph -neural", "Query((<alldocuments> AND_NOT (graph OR neural)))"},
    // '-' inside a word is a hyphen, not an operator.
    {"graph-neural", "Query((graph PHRASE 2 neural))"},
};
INSTANTIATE_TEST_SUITE_P(Operators, ParserGolden, ::testing::ValuesIn(kOperators));

const GoldenCase kPrecedence[] = {
    // Juxtaposition binds loosest: "graph neural OR robot" = graph (neural OR robot).
    {"graph neural OR robot", "Query((graph OR (neural OR robot)))"},
    {"graph OR neural robot", "Query(((graph OR neural) OR robot))"},
    // AND binds tighter than OR.
    {"graph AND neural OR robot", "Query(((graph AND neural) OR robot))"},
    {"graph OR neural AND robot", "Query((graph OR (neural AND robot)))"},
    // '+' and '-' apply to a whole or_expr.
    {"+graph OR neural robot", "Query(((graph OR neural) AND_MAYBE robot))"},
    {"robot -graph OR neural", "Query((robot AND_NOT (graph OR neural)))"},
    // Parentheses group.
    {"(graph OR neural) AND robot", "Query(((graph OR neural) AND robot))"},
    {"graph AND (neural OR robot)", "Query((graph AND (neural OR robot)))"},
    {"(graph neural) AND robot", "Query(((graph OR neural) AND robot))"},
    {"graph (neural OR robot)", "Query((graph OR (neural OR robot)))"},
    {"((graph))", "Query(graph)"},
    {"(graph)neural", "Query((graph OR neural))"},
    {"+(graph neural) robot", "Query(((graph OR neural) AND_MAYBE robot))"},
    {"-(graph neural) robot", "Query((robot AND_NOT (graph OR neural)))"},
};
INSTANTIATE_TEST_SUITE_P(Precedence, ParserGolden, ::testing::ValuesIn(kPrecedence));

// Binary NOT sits in and_expr next to AND and AND NOT:
//   and_expr := primary (('AND' | 'NOT' | 'AND NOT') primary)*
// so "a NOT b" binds as tightly as "a AND NOT b", not like a '-' clause on the
// whole query. (Regression: the parser once treated every NOT after a term as a
// clause prefix, so "graph NOT neural robot" excluded "neural" from robot hits.)
const GoldenCase kBinaryNot[] = {
    {"graph NOT neural robot", "Query(((graph AND_NOT neural) OR robot))"},
    {"graph OR neural NOT robot", "Query((graph OR (neural AND_NOT robot)))"},
    // (a NOT b) AND c is (a AND c) NOT b: AND_NOT weighs its left side only.
    {"graph NOT neural AND robot", "Query(((graph AND robot) AND_NOT neural))"},
    {"graph AND NOT neural robot", "Query(((graph AND_NOT neural) OR robot))"},
    {"graph OR neural AND NOT robot", "Query((graph OR (neural AND_NOT robot)))"},
    {"graph AND NOT neural AND robot", "Query(((graph AND robot) AND_NOT neural))"},
};
INSTANTIATE_TEST_SUITE_P(BinaryNot, ParserGolden, ::testing::ValuesIn(kBinaryNot));

// Queries that must parse to the very same Xapian query: index and query terms
// agree whatever the spelling.
struct SameCase {
  const char* query;
  const char* same_as;
};

void PrintTo(const SameCase& c, std::ostream* os) { *os << '`' << c.query << '`'; }

class ParserSame : public ::testing::TestWithParam<SameCase> {};

TEST_P(ParserSame, ParsesAlike) {
  const SameCase& c = GetParam();
  EXPECT_EQ(describe(c.query), describe(c.same_as)) << c.query << " vs " << c.same_as;
}

const SameCase kSame[] = {
    {R"("large language models")", R"("large language model")"},
    {R"("Large Language Models")", R"("large language model")"},
    {"\u201clarge language models\u201d", R"("large language models")"},
    {"\u201dlarge language models\u201c", R"("large language models")"},
    {"text\u2011only", "text-only"},
    {"text-only", R"("text only")"},
    {"GPT4", "GPT-4"},
    {"GPT4", R"("GPT 4")"},
    {R"(Pok\'emon)", "pokemon"},
    {R"(Pok\'{e}mon)", "pokemon"},
    {R"(Sch\"olkopf)", "scholkopf"},
    {"Schölkopf", "scholkopf"},
    {"LLMs", "llm"},
    {"LLMs", "LLM"},
    {"graph AND NOT neural", "graph -neural"},
    {"NOT survey", "-survey"},
    {"graph OR neural", "graph neural"},
    {"(graph neural)", "graph neural"},
};
INSTANTIATE_TEST_SUITE_P(Spellings, ParserSame, ::testing::ValuesIn(kSame));

struct ErrorCase {
  const char* query;
  std::size_t column;
  const char* message;  // a part of what()
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << '`' << c.query << '`'; }

class ParserError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ParserError, ThrowsWithColumn) {
  const ErrorCase& c = GetParam();
  try {
    std::string got = describe(c.query);
    ADD_FAILURE() << "query `" << c.query << "` parsed as " << got << ", expected QueryError";
  } catch (const QueryError& e) {
    EXPECT_EQ(e.column(), c.column) << "query `" << c.query << "`: " << e.what();
    EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
        << "query `" << c.query << "`: what() = " << e.what();
    EXPECT_FALSE(e.hint().empty()) << "query `" << c.query << "`";
  }
}

const ErrorCase kErrors[] = {
    {"", 1, "empty query"},
    {"   ", 1, "empty query"},
    {"$", 1, "no searchable words"},
    {"$ % &", 1, "no searchable words"},
    {"-", 1, "no searchable words"},
    // Words over analysis::kMaxTermBytes (64) are in no abstract's terms.
    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1, "longer than any the index keeps"},
    {"$ \"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\"", 3, "(70 bytes)"},
    {"——————————————————————————————", 1, "no searchable words"},  // 90 bytes of dashes, no word
    // What only syntax can mean and is wrong stays an error (issue 17).
    {"the of", 1, "only stop words"},
    {"graph title:", 7, "has no value"},
    {"NEAR/x graph", 1, "needs a distance"},
    {"graph NEAR/3 the", 14, "stop words are left out"},
    {"graph NEAR/3 (a b)", 14, "'(' at column 14 is neither"},
};
INSTANTIATE_TEST_SUITE_P(Errors, ParserError, ::testing::ValuesIn(kErrors));

// Issue 17: what a person types as prose is read as words, never an error, and
// each reading is said in a note. These queries were errors before.
struct RereadCase {
  const char* query;
  const char* description;
  const char* note;  // part of the one note expected
};

void PrintTo(const RereadCase& c, std::ostream* os) { *os << '`' << c.query << '`'; }

class ParserRereads : public ::testing::TestWithParam<RereadCase> {};

TEST_P(ParserRereads, ReadsProseAsWordsAndSaysSo) {
  const RereadCase& c = GetParam();
  analysis::Analyzer analyzer;
  std::vector<std::string> rereadings;
  const std::string got = abstracts::query::describe(Parser(analyzer).parse(c.query, nullptr, nullptr, &rereadings));
  EXPECT_EQ(got, c.description) << "query: " << c.query;
  ASSERT_EQ(rereadings.size(), 1u) << "query: " << c.query;
  EXPECT_NE(rereadings[0].find(c.note), std::string::npos) << "query: " << c.query << "\nnote: " << rereadings[0];
}

const RereadCase kRereadings[] = {
    // A quote or '(' never closed is closed where the query ends.
    {"\"unbalanced", "Query(unbalanc)", "quote at column 1 closed where the query ends"},
    {"graph \"unbalanced", "Query((graph OR unbalanc))", "quote at column 7 closed"},
    {"\u201cunbalanced", "Query(unbalanc)", "quote at column 1 closed"},
    {"(graph", "Query(graph)", "\"(\" at column 1 closed where the query ends"},
    {"graph (a OR (b)", "Query((graph OR b))", "\"(\" at column 7 closed"},
    // A ')' that closes nothing is left out ("1) bile duct").
    {"graph )", "Query(graph)", "\")\" at column 7 ignored"},
    {"1) bile duct", "Query((1 OR bile OR duct))", "\")\" at column 2 ignored"},
    // An operator word with no operand where it needs one is a word.
    {"graph AND", "Query(graph)", "AND at column 7 read as a word"},
    {"graph AND NOT", "Query(graph)", "NOT at column 11 read as a word"},
    {"graph AND OR neural", "Query((graph OR neural))", "AND at column 7 read as a word"},
    {"graph OR", "Query(graph)", "OR at column 7 read as a word"},
    {"(graph OR) neural", "Query((graph OR neural))", "OR at column 8 read as a word"},
    {"OR graph", "Query(graph)", "OR at column 1 read as a word"},
    {"AND graph", "Query(graph)", "AND at column 1 read as a word"},
    {"graph NOT", "Query(graph)", "NOT at column 7 read as a word"},
    {"DRIFTS NEAR THE EQUATOR", "Query((drift OR near OR equat))", "NEAR at column 8 read as a word"},
    // A name before a colon that is no field, or a field's name with a space
    // after its colon, is a word ("Some examples: Rabin").
    {"Some examples: Rabin", "Query((some OR exampl OR rabin))", "\"examples:\" at column 6 is no field"},
    {"ratio:3 graph", "Query(((ratio PHRASE 2 3) OR graph))", "\"ratio:3\" at column 1 is no field"},
    {"year: 2026", "Query((year OR 2026))", "\"year:\" at column 1 has a space after its colon"},
    // Empty parentheses are left out.
    {"graph ()", "Query(graph)", "empty parentheses at column 7 ignored"},
    // Columns count characters, not bytes: "Pokémon" is 7 characters, 8 bytes.
    {"Pokémon )", "Query(pokemon)", "\")\" at column 9 ignored"},
    {"Pokémon AND", "Query(pokemon)", "AND at column 9 read as a word"},
    {"\u201cPokémon\u201d OR", "Query(pokemon)", "OR at column 11 read as a word"},
    // A query in capitals whose operators make no sense is words.
    {"IONOSPHERIC DRIFTS NEAR/3 THE EQUATOR", "Query((ionospher OR drift OR (near PHRASE 2 3) OR equat))", "in capitals"},
};
INSTANTIATE_TEST_SUITE_P(Issue17, ParserRereads, ::testing::ValuesIn(kRereadings));

// Issue 16: the bounds of a query (ParserContext's defaults). Nested parentheses
// overflowed the parser's stack, and long queries ran for minutes.
std::string times(std::string_view s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

// `n` different words joined by `sep`: three consonants each, which neither
// stemming nor the stop words touch ("bbb", "bbc", ...).
std::string distinct_words(std::size_t n, std::string_view sep) {
  static constexpr std::string_view kLetters = "bcdfghjklmnpqrtvwxz";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += sep;
    std::size_t k = i;
    for (int letter = 0; letter < 3; ++letter, k /= kLetters.size()) out += kLetters[k % kLetters.size()];
  }
  return out;
}

const std::string kTooLong = times("graph ", 1666) + "neura";            // 10001 bytes
const std::string kTooLongAccented = times("\u00e9", 5001);              // 10002 bytes, 5001 characters
const std::string kTooDeep = times("(", 33) + "graph" + times(")", 33);  // the 33rd '(' at column 33
const std::string kUnclosed = times("(", 7218);
const std::string kXorChain = "graph" + times(" XOR graph", 33);  // XOR k at column 10k - 3
const std::string kOrXorChain = "graph" + times(" OR graph XOR graph", 17);
const std::string kTooManyWords = times("graph ", 1001);  // word 1001 at column 6001
const std::string kTooManyInOneWord = times("1b", 501);   // one word of 1002 terms
const std::string kTooManyInAGroup = times("x NEAR ", 1000) + "x";
const std::string kTooManyPhrases = times("\"graph neural\" ", 51);  // phrase 51 at column 751
const std::string kTooManyGroups = times("x NEAR/1 y ", 51);         // group 51 at column 551
const std::string kTooManyHyphenated = times("text-only ", 51);      // word 51 at column 501

const ErrorCase kIssue16Errors[] = {
    {kTooLong.c_str(), 10001, "10001 bytes long, more than the 10000 a query may have"},
    {kTooLongAccented.c_str(), 5001, "10002 bytes long"},
    {kTooDeep.c_str(), 33, "nests more than 32 levels deep at column 33"},
    {kUnclosed.c_str(), 33, "nests more than 32 levels deep"},
    {kXorChain.c_str(), 327, "nests more than 32 levels deep at column 327"},
    // OR then XOR: each switch is a level (OR runs are flat).
    {kOrXorChain.c_str(), 311, "nests more than 32 levels deep"},
    {kTooManyWords.c_str(), 6001, "more than 1000 terms once expanded, reached at column 6001"},
    {kTooManyInOneWord.c_str(), 1, "more than 1000 terms"},
    {kTooManyInAGroup.c_str(), 1, "more than 1000 terms"},
    {kTooManyPhrases.c_str(), 751, "more than 50 phrases and NEAR or ADJ groups, reached at column 751"},
    {kTooManyGroups.c_str(), 551, "more than 50 phrases"},
    {kTooManyHyphenated.c_str(), 501, "more than 50 phrases"},
};
INSTANTIATE_TEST_SUITE_P(Issue16Limits, ParserError, ::testing::ValuesIn(kIssue16Errors));

// Just inside the bounds, and chains of one operator however long: one level.
const std::string kDeepest = times("(", 32) + "graph" + times(")", 32);

TEST(Issue16Limits, QueriesInsideTheBoundsParse) {
  EXPECT_EQ(describe(kDeepest), "Query(graph)");
  const std::string longest = "graph" + std::string(9989, ' ') + "neural";  // 10000 bytes
  EXPECT_EQ(describe(longest), "Query((graph OR neural))");
  analysis::Analyzer analyzer;
  EXPECT_EQ(Parser(analyzer).parse(distinct_words(1000, " ")).get_num_subqueries(), 1000u);
}

// An operand written again is not run again: it weighs as often as written.
const GoldenCase kIssue16Repeats[] = {
    {"graph graph neural", "Query((2 * graph OR neural))"},
    {"graph OR graph OR graph", "Query(3 * graph)"},
    {"graph AND neural AND graph", "Query((2 * graph AND neural))"},
    {"+graph +graph neural", "Query((2 * graph AND_MAYBE neural))"},
    {"graph -neural -neural", "Query((graph AND_NOT neural))"},
    {"\"graph neural\" \"graph neural\"", "Query(2 * (graph PHRASE 2 neural))"},
    {"\"model model\"", "Query((model PHRASE 2 model))"},
};
INSTANTIATE_TEST_SUITE_P(Issue16Repeats, ParserGolden, ::testing::ValuesIn(kIssue16Repeats));

TEST(Issue16Limits, AChainOfOneOperatorIsOneFlatQuery) {
  analysis::Analyzer analyzer;
  const Xapian::Query q = Parser(analyzer).parse(distinct_words(1000, " AND "));  // 7999 bytes
  EXPECT_EQ(q.get_type(), Xapian::Query::OP_AND);
  EXPECT_EQ(q.get_num_subqueries(), 1000u);
  const Xapian::Query ors = Parser(analyzer).parse(distinct_words(1000, " OR "));
  EXPECT_EQ(ors.get_type(), Xapian::Query::OP_OR);
  EXPECT_EQ(ors.get_num_subqueries(), 1000u);
  // a NOT b NOT c ...: the AND of what is asked for, AND_NOT the OR of the rest.
  const Xapian::Query nots = Parser(analyzer).parse("graph NOT " + distinct_words(999, " NOT "));
  EXPECT_EQ(nots.get_type(), Xapian::Query::OP_AND_NOT);
  ASSERT_EQ(nots.get_num_subqueries(), 2u);
  EXPECT_EQ(nots.get_subquery(1).get_num_subqueries(), 999u);
}

TEST(Issue16Limits, TheBoundsAreTheContexts) {
  analysis::Analyzer analyzer;
  ParserContext context;
  context.max_query_bytes = 12;
  context.max_terms = 2;
  context.max_depth = 1;
  EXPECT_NO_THROW(Parser(analyzer, context).parse("graph neural"));
  EXPECT_THROW(Parser(analyzer, context).parse("graph neural "), QueryError);
  EXPECT_THROW(Parser(analyzer, context).parse("x y z"), QueryError);
  EXPECT_THROW(Parser(analyzer, context).parse("((a))"), QueryError);
  EXPECT_NO_THROW(Parser(analyzer, context).parse("(x)"));
}

TEST(Issue16Limits, PlainTextHasTheSameBounds) {
  analysis::Analyzer analyzer;
  EXPECT_NO_THROW(Parser(analyzer).parse_plain(times("graph ", 1000)));
  try {
    Parser(analyzer).parse_plain(times("graph ", 1001));
    ADD_FAILURE() << "1001 words parsed";
  } catch (const QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 1000 terms once expanded, reached at column 6001"),
              std::string::npos)
        << e.what();
    EXPECT_FALSE(e.hint().empty());
  }
  // Plain text has no syntax: parentheses are no nesting, but length counts.
  EXPECT_NO_THROW(Parser(analyzer).parse_plain(times("(", 5000) + "graph"));
  EXPECT_THROW(Parser(analyzer).parse_plain(times("(", 10000) + "graph"), QueryError);
}

// Phrases and proximity groups the query cannot match without are checked after
// ranking (PositionChecks); so are the ones it can match without where more
// matches only add hits (optional); those under NOT or XOR stay in the query,
// where they filter.
struct DeferredCase {
  const char* query;
  std::size_t deferred;
  std::size_t optional;
};

void PrintTo(const DeferredCase& c, std::ostream* os) { *os << '`' << c.query << '`'; }

class ParserDeferred : public ::testing::TestWithParam<DeferredCase> {};

TEST_P(ParserDeferred, DefersOnlyWhatEveryMatchNeeds) {
  analysis::Analyzer analyzer;
  PositionChecks checks{Xapian::Database()};
  const Xapian::Query deferred = Parser(analyzer).parse(GetParam().query, nullptr, &checks);
  EXPECT_EQ(checks.size(), GetParam().deferred);
  EXPECT_EQ(checks.optional_size(), GetParam().optional);
  // The query reads the same either way.
  EXPECT_EQ(abstracts::query::describe(deferred), describe(GetParam().query));
}

const DeferredCase kDeferred[] = {
    {"\"large language models\"", 1, 0},
    {"\"large language models\" AND sparse", 1, 0},
    {"text-only", 1, 0},
    {"\"large language models\" sparse", 0, 1},  // OR: a match may have only "sparse"
    {"+\"large language models\" sparse", 1, 0},
    {"\"large language models\" -survey", 1, 0},
    {"\"sparse attention\" AND \"language models\"", 2, 0},
    {"\"sparse attention\" OR \"language models\"", 0, 2},
    // A chain of AND and NOT: everything not excluded is needed (issue 16 builds it flat).
    {"\"sparse attention\" NOT mice AND \"language models\"", 2, 0},
    {"agents NOT \"sparse attention\" AND \"language models\"", 1, 0},
    {"(\"sparse attention\" AND agents) OR mice", 0, 1},
    {"(\"sparse attention\" AND agents) venue:neurips", 1, 0},
    {"agents NEAR/2 mice", 1, 0},
    // Excluded, or under XOR, a phrase matching more abstracts would take hits away.
    {"-\"sparse attention\" agents", 0, 0},
    {"agents OR (mice NOT \"sparse attention\")", 0, 0},
    {"\"sparse attention\" XOR agents", 0, 0},
    {"agents", 0, 0},
};
INSTANTIATE_TEST_SUITE_P(Positions, ParserDeferred, ::testing::ValuesIn(kDeferred));

}  // namespace
}  // namespace abstracts::query::parser_test
