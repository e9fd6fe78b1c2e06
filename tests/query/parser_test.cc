// Golden tests of the query parser: query text -> Xapian::Query::get_description(),
// and query text -> QueryError column. Expectations follow the grammar comment
// in query/parser.h; terms are what the shared analyzer makes of each word
// (folded, then stemmed with the English Snowball stemmer: "large" -> "larg").
#include "query/parser.h"
#include "query/positional.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"

namespace abstracts::query {
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
    {"graph AND neural AND robot", "Query(((graph AND neural) AND robot))"},
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
    {"graph NOT neural AND robot", "Query(((graph AND_NOT neural) AND robot))"},
    {"graph AND NOT neural robot", "Query(((graph AND_NOT neural) OR robot))"},
    {"graph OR neural AND NOT robot", "Query((graph OR (neural AND_NOT robot)))"},
    {"graph AND NOT neural AND robot", "Query(((graph AND_NOT neural) AND robot))"},
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
    {"\"unbalanced", 1, "never closed"},
    {"graph \"unbalanced", 7, "never closed"},
    {"\u201cunbalanced", 1, "never closed"},
    {"(a", 1, "'('"},
    {"graph (a OR (b)", 7, "'('"},
    {"a )", 3, "')'"},
    {")", 1, "')'"},
    {"a AND", 3, "AND"},
    {"a AND NOT", 3, "AND"},
    {"a AND OR b", 3, "AND"},
    {"a OR", 3, "OR"},
    {"(a OR) b", 4, "OR"},
    {"OR b", 1, "OR"},
    {"AND b", 1, "AND"},
    {"()", 1, "empty parentheses"},
    {"a ( )", 3, "empty parentheses"},
    {"NOT", 1, "NOT"},
    {"a NOT", 3, "NOT"},
    {"$", 1, "no searchable words"},
    {"$ % &", 1, "no searchable words"},
    {"-", 1, "no searchable words"},
    // Columns count characters, not bytes: "Pokémon" is 7 characters, 8 bytes.
    {"Pokémon )", 9, "')'"},
    {"Pokémon AND", 9, "AND"},
    {"\u201cPokémon\u201d OR", 11, "OR"},
};
INSTANTIATE_TEST_SUITE_P(Errors, ParserError, ::testing::ValuesIn(kErrors));

// Phrases and proximity groups the query cannot match without are checked after
// ranking (PositionChecks); the others stay in the query, where they filter.
struct DeferredCase {
  const char* query;
  std::size_t deferred;
};

void PrintTo(const DeferredCase& c, std::ostream* os) { *os << '`' << c.query << '`'; }

class ParserDeferred : public ::testing::TestWithParam<DeferredCase> {};

TEST_P(ParserDeferred, DefersOnlyWhatEveryMatchNeeds) {
  analysis::Analyzer analyzer;
  PositionChecks checks{Xapian::Database()};
  const Xapian::Query deferred = Parser(analyzer).parse(GetParam().query, nullptr, &checks);
  EXPECT_EQ(checks.size(), GetParam().deferred);
  // The query reads the same either way.
  EXPECT_EQ(abstracts::query::describe(deferred), describe(GetParam().query));
}

const DeferredCase kDeferred[] = {
    {"\"large language models\"", 1},
    {"\"large language models\" AND sparse", 1},
    {"text-only", 1},
    {"\"large language models\" sparse", 0},  // OR: a match may have only "sparse"
    {"+\"large language models\" sparse", 1},
    {"\"large language models\" -survey", 1},
    {"\"sparse attention\" AND \"language models\"", 2},
    {"\"sparse attention\" OR \"language models\"", 0},
    {"(\"sparse attention\" AND agents) OR mice", 0},
    {"(\"sparse attention\" AND agents) venue:neurips", 1},
    {"agents NEAR/2 mice", 1},
    {"-\"sparse attention\" agents", 0},
    {"agents", 0},
};
INSTANTIATE_TEST_SUITE_P(Positions, ParserDeferred, ::testing::ValuesIn(kDeferred));

}  // namespace
}  // namespace abstracts::query
