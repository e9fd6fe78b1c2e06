// Golden tests of the query language of issue 3: XOR, proximity, field filters,
// wildcards and learned acronyms. Query text -> Xapian::Query::get_description(),
// and query text -> QueryError column. Each row follows from the grammar comment
// in query/parser.h and the analyzer (folded, then stemmed: "agents" -> "agent").
//
// How Xapian 1.4 prints the operators used here:
//   OP_NEAR, OP_PHRASE  "(a NEAR 3 b)", "(a PHRASE 3 b)": 3 is the window, which
//                       spans the words themselves, so NEAR/n over k words is a
//                       window of n + k - 1;
//   OP_SCALE_WEIGHT     "0 * XVneurips": a filter that adds nothing to the score
//                       (dropped where Xapian knows the weight is 0 anyway);
//   OP_FILTER           "(graph FILTER 0 * XVneurips)";
//   OP_VALUE_*          "VALUE_RANGE 0 \xcf\xe8 \xcf\xea": slot 0 (the year), then
//                       Xapian::sortable_serialise() of each bound, non-printable
//                       bytes escaped (2024 -> \xcf\xe8, 2025 -> \xcf\xe9, 2026 -> \xcf\xea);
//   OP_WILDCARD         "WILDCARD SYNONYM diffus": the prefix, expanded at search time.
#include <gtest/gtest.h>
#include <xapian.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "abstracts/abstract.h"
#include "abstracts/error.h"
#include "abstracts/writer.h"
#include "engine/analysis/analyzer.h"
#include "query/acronym_table.h"
#include "query/parser.h"
#include "query/positional.h"
#include "tests/support/test_support.h"

namespace abstracts::query::parser_syntax_test {
namespace {

using abstracts::testing::TempDir;

struct GoldenCase {
  const char* query;
  const char* description;
};

void PrintTo(const GoldenCase& c, std::ostream* os) { *os << '`' << c.query << '`'; }

struct ErrorCase {
  const char* query;
  std::size_t column;
  const char* message;  // a part of what()
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << '`' << c.query << '`'; }

// Parses `query` with `context` and expects QueryError at `c.column`.
void expect_error(const ErrorCase& c, const analysis::Analyzer& analyzer,
                  ParserContext context = {}) {
  try {
    std::string got = abstracts::query::describe(Parser(analyzer, context).parse(c.query));
    ADD_FAILURE() << "query `" << c.query << "` parsed as " << got << ", expected QueryError";
  } catch (const QueryError& e) {
    EXPECT_EQ(e.column(), c.column) << "query `" << c.query << "`: " << e.what();
    EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
        << "query `" << c.query << "`: what() = " << e.what();
    EXPECT_FALSE(e.hint().empty()) << "query `" << c.query << "`";
  }
}

// ---------------------------------------------------------------------------
// Without an index: the default ParserContext.

std::string describe(std::string_view query) {
  analysis::Analyzer analyzer;
  return abstracts::query::describe(Parser(analyzer).parse(query));
}

class SyntaxGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(SyntaxGolden, Describes) {
  const GoldenCase& c = GetParam();
  EXPECT_EQ(describe(c.query), c.description) << "query: " << c.query;
}

// or_expr := and_expr (('OR' | 'XOR') and_expr)*: XOR sits with OR, left to right.
const GoldenCase kXor[] = {
    {"graph XOR neural", "Query((graph XOR neural))"},
    {"graph XOR neural XOR robot", "Query(((graph XOR neural) XOR robot))"},
    {"graph OR neural XOR robot", "Query(((graph OR neural) XOR robot))"},
    {"graph XOR neural OR robot", "Query(((graph XOR neural) OR robot))"},
    // AND binds tighter; juxtaposition looser.
    {"graph AND neural XOR robot", "Query(((graph AND neural) XOR robot))"},
    {"graph XOR neural AND robot", "Query((graph XOR (neural AND robot)))"},
    {"model graph XOR neural", "Query((model OR (graph XOR neural)))"},
    {"(graph XOR neural) AND robot", "Query(((graph XOR neural) AND robot))"},
    // Lower case is a word.
    {"graph xor neural", "Query((graph OR xor OR neural))"},
};
INSTANTIATE_TEST_SUITE_P(Xor, SyntaxGolden, ::testing::ValuesIn(kXor));

// near_expr := primary (('NEAR' | 'NEAR/n' | 'ADJ' | 'ADJ/n') primary)*;
// the window is n + words - 1, and NEAR alone means NEAR/10.
const GoldenCase kProximity[] = {
    {"agents NEAR/2 mice", "Query((agent NEAR 3 mice))"},
    {"agents NEAR/1 mice", "Query((agent NEAR 2 mice))"},
    {"agents NEAR mice", "Query((agent NEAR 11 mice))"},
    {"agents ADJ/2 mice", "Query((agent PHRASE 3 mice))"},
    {"agents ADJ/1 mice", "Query((agent PHRASE 2 mice))"},
    {"agents ADJ mice", "Query((agent PHRASE 11 mice))"},
    {"agents NEAR/1000 mice", "Query((agent NEAR 1001 mice))"},
    // A group of three: the largest n, and a window spanning three words.
    {"graph NEAR/2 neural NEAR/3 robot", "Query((graph NEAR 5 neural NEAR 5 robot))"},
    {"graph ADJ/1 neural ADJ/1 robot", "Query((graph PHRASE 3 neural PHRASE 3 robot))"},
    // Proximity binds tighter than AND, OR and juxtaposition.
    {"robot agents NEAR/2 mice", "Query((robot OR (agent NEAR 3 mice)))"},
    {"agents NEAR/2 mice AND robot", "Query(((agent NEAR 3 mice) AND robot))"},
    {"robot OR agents NEAR/2 mice", "Query((robot OR (agent NEAR 3 mice)))"},
    {"+agents NEAR/2 mice robot", "Query(((agent NEAR 3 mice) AND_MAYBE robot))"},
    {"robot -agents NEAR/2 mice", "Query((robot AND_NOT (agent NEAR 3 mice)))"},
    // Operands are analysed like any word: acronym plural, stemming.
    {"LLMs NEAR/3 sycophancy", "Query((llm NEAR 4 sycoph))"},
    // Operators are upper case; other spellings are words.
    {"agents near mice", "Query((agent OR near OR mice))"},
    {"agents Near/2 mice", "Query((agent OR (near PHRASE 2 2) OR mice))"},
    {"NEARBY mice", "Query((nearbi OR mice))"},
};
INSTANTIATE_TEST_SUITE_P(Proximity, SyntaxGolden, ::testing::ValuesIn(kProximity));

// venue:, year:, source:, id: filter (weight 0, OP_FILTER); title: ranks (S terms).
const GoldenCase kFields[] = {
    {"venue:NeurIPS", "Query(0 * XVneurips)"},
    {"VENUE:neurips", "Query(0 * XVneurips)"},
    {"year:2026", "Query(0 * XY2026)"},
    // Value ranges weigh nothing already: Xapian drops the "0 *" around them.
    {"year:2024..2026", "Query(VALUE_RANGE 0 \\xcf\\xe8 \\xcf\\xea)"},
    {"year:2026..2026", "Query(VALUE_RANGE 0 \\xcf\\xea \\xcf\\xea)"},
    {"year:..2025", "Query(VALUE_LE 0 \\xcf\\xe9)"},
    {"year:2024..", "Query(VALUE_GE 0 \\xcf\\xe8)"},
    {"source:Papers_A.txt", "Query(0 * XSpapers_a.txt)"},
    // Ids are matched as written: they are case-sensitive in JSON Lines input.
    {"id:9whe6h5xxkbk", "Query(0 * Q9whe6h5xxkbk)"},
    {"title:attention", "Query(Sattent)"},
    {"title:Attention", "Query(Sattent)"},
    {"title:\"sparse attention\"", "Query((Sspars AND Sattent))"},
    {"title:text-only", "Query((Stext AND Sonli))"},
    {"title:diffus*", "Query(WILDCARD SYNONYM Sdiffus)"},
    {"source:papers*", "Query(0 * WILDCARD SYNONYM XSpapers)"},
};
INSTANTIATE_TEST_SUITE_P(Fields, SyntaxGolden, ::testing::ValuesIn(kFields));

// Issue 18: author:, category: and the identifiers filter like venue:. A surname
// folds as a name does; quoted, it also matches a full name as the source gave it.
const GoldenCase kBibliographicFields[] = {
    {"author:Balázs", "Query(0 * XAbalazs)"},
    {"author:BALAZS", "Query(0 * XAbalazs)"},
    {"author:Bal\\'azs", "Query(0 * XAbalazs)"},
    // A name as people write it: as a family name, and as given and family names
    // (engine/author_terms.h; issue 43).
    {"author:\"van der Berg\"", "Query(0 * XAvan der berg)"},
    {"author:\"C. Balázs\"", "Query(0 * (XAc balazs OR XNbalazs,c))"},
    {"author:\"Romatschke, Paul\"", "Query(0 * (XAromatschke paul OR XNromatschke,p. OR XNromatschke,paul))"},
    {"author:bal*", "Query(0 * WILDCARD SYNONYM XAbal)"},
    {"category:hep-ph", "Query(0 * XChep-ph)"},
    {"category:cs.CL", "Query(0 * XCcs.cl)"},
    {"category:cs.*", "Query(0 * WILDCARD SYNONYM XCcs.)"},
    {"doi:10.1103/PhysRevD.76.013009", "Query(0 * XIdoi:10.1103/physrevd.76.013009)"},
    {"doi:https://doi.org/10.1000/ABC", "Query(0 * XIdoi:10.1000/abc)"},
    {"arxiv:0704.0001v2", "Query(0 * XIarxiv:0704.0001)"},
    {"pmid:17284678", "Query(0 * XIpmid:17284678)"},
    {"diphoton author:Balázs year:2007", "Query((diphoton FILTER (0 * XAbalazs AND 0 * XY2007)))"},
};
INSTANTIATE_TEST_SUITE_P(BibliographicFields, SyntaxGolden, ::testing::ValuesIn(kBibliographicFields));

// Filters combine with free text (OP_FILTER) and with each other: one field's
// filters are ORed, different fields' filters ANDed (in field-name order).
const GoldenCase kFilterCombinations[] = {
    {"graph venue:NeurIPS", "Query((graph FILTER 0 * XVneurips))"},
    {"venue:NeurIPS graph", "Query((graph FILTER 0 * XVneurips))"},
    {"graph neural venue:NeurIPS", "Query(((graph OR neural) FILTER 0 * XVneurips))"},
    {"+graph neural venue:NeurIPS", "Query(((graph AND_MAYBE neural) FILTER 0 * XVneurips))"},
    {"graph venue:NeurIPS venue:ICML", "Query((graph FILTER (0 * XVneurips OR 0 * XVicml)))"},
    {"graph venue:NeurIPS year:2026", "Query((graph FILTER (0 * XVneurips AND 0 * XY2026)))"},
    {"graph year:2026 venue:NeurIPS", "Query((graph FILTER (0 * XVneurips AND 0 * XY2026)))"},
    {"graph year:2025 venue:NeurIPS year:2026",
     "Query((graph FILTER (0 * XVneurips AND (0 * XY2025 OR 0 * XY2026))))"},
    {"graph venue:NeurIPS -neural", "Query(((graph FILTER 0 * XVneurips) AND_NOT neural))"},
    // An explicit OR of filters is one filter.
    {"graph venue:NeurIPS OR venue:ICML", "Query((graph FILTER (0 * XVneurips OR 0 * XVicml)))"},
    {"graph (venue:NeurIPS OR year:2026)", "Query((graph FILTER (0 * XVneurips OR 0 * XY2026)))"},
    // AND with a filter: the filter must match and adds nothing to the score.
    {"graph AND venue:NeurIPS", "Query((graph AND 0 * XVneurips))"},
    // title: is not a filter: it ranks like a word.
    {"graph title:attention", "Query((graph OR Sattent))"},
    {"graph title:attention venue:NeurIPS", "Query(((graph OR Sattent) FILTER 0 * XVneurips))"},
    // A query of only filters matches every abstract that passes them.
    {"venue:NeurIPS year:2026", "Query((0 * XVneurips AND 0 * XY2026))"},
    {"venue:NeurIPS venue:ICML", "Query((0 * XVneurips OR 0 * XVicml))"},
    {"year:2024..2026 source:papers_a.txt",
     "Query((0 * XSpapers_a.txt AND VALUE_RANGE 0 \\xcf\\xe8 \\xcf\\xea))"},
    // Excluding a field value. (Xapian strips "0 *" on the right of AND_NOT,
    // which never weighs anything.)
    {"-venue:NeurIPS", "Query((<alldocuments> AND_NOT XVneurips))"},
    {"graph -venue:NeurIPS", "Query((graph AND_NOT XVneurips))"},
    {"graph NOT year:2026", "Query((graph AND_NOT XY2026))"},
};
INSTANTIATE_TEST_SUITE_P(FilterCombinations, SyntaxGolden,
                         ::testing::ValuesIn(kFilterCombinations));

// Without an index, a trailing wildcard is Xapian's lazy OP_WILDCARD, expanded
// (and bounded) at search time.
const GoldenCase kWildcardsWithoutIndex[] = {
    {"diffus*", "Query(WILDCARD SYNONYM diffus)"},
    {"Diffus*", "Query(WILDCARD SYNONYM diffus)"},
    {"diffus**", "Query(WILDCARD SYNONYM diffus)"},
    {"graph diffus*", "Query((graph OR WILDCARD SYNONYM diffus))"},
    {"diffus* AND graph", "Query((WILDCARD SYNONYM diffus AND graph))"},
};
INSTANTIATE_TEST_SUITE_P(WildcardsWithoutIndex, SyntaxGolden,
                         ::testing::ValuesIn(kWildcardsWithoutIndex));

TEST(SyntaxWildcard, WithoutIndexTheBoundGoesToXapian) {
  analysis::Analyzer analyzer;
  ParserContext context;
  context.max_wildcard_terms = 7;
  Xapian::Query q = Parser(analyzer, context).parse("diffus*");
  ASSERT_EQ(q.get_type(), Xapian::Query::OP_WILDCARD);
  // The lazy wildcard is only printed with its prefix; check it is the one parse() made.
  Xapian::Query expected(Xapian::Query::OP_WILDCARD, "diffus", 7,
                         Xapian::Query::WILDCARD_LIMIT_ERROR, Xapian::Query::OP_SYNONYM);
  EXPECT_EQ(q.serialise(), expected.serialise());
}

class SyntaxError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SyntaxError, ThrowsWithColumn) {
  analysis::Analyzer analyzer;
  expect_error(GetParam(), analyzer);
}

const ErrorCase kErrors[] = {
    // Fields: a field with nothing at all after it, a value only syntax can mean.
    {"title:", 1, "has no value"},
    {"venue:", 1, "has no value"},
    {"graph venue:  ", 7, "has no value"},
    {"year:20x6", 1, "not a year"},
    {"graph year:20x6", 7, "not a year"},
    {"year:2026..2024", 1, "not a year"},
    {"year:..", 1, "not a year"},
    {"year:26", 1, "not a year"},
    {"year:2024...2026", 1, "not a year"},
    // Proximity: NEAR/n and ADJ/n are syntax only.
    {"NEAR/0", 1, "distance from 1 to 1000"},
    {"agents NEAR/0 mice", 8, "distance from 1 to 1000"},
    {"agents ADJ/1001 mice", 8, "distance from 1 to 1000"},
    {"agents NEAR/x mice", 8, "distance from 1 to 1000"},
    {"agents NEAR/ mice", 8, "distance from 1 to 1000"},
    {"x NEAR/2 b*", 10, "words or quoted phrases"},
    {"x NEAR/2 (b c)", 10, "words or quoted phrases"},
    {"x NEAR b ADJ c", 10, "cannot be mixed"},
    {"x ADJ b NEAR/2 c", 9, "cannot be mixed"},
    {"x NEAR/2", 3, "NEAR"},
    {"NEAR/2 a", 1, "NEAR"},
    // Wildcards: one word before the '*'.
    {"text-on*", 1, "one word before the '*'"},
    {"graph text-on*", 7, "one word before the '*'"},
    {"qwen3*", 1, "the index sees qwen 3"},
};
INSTANTIATE_TEST_SUITE_P(Errors, SyntaxError, ::testing::ValuesIn(kErrors));

TEST(ParserErrors, StopWordsAreNamed) {
  analysis::Analyzer analyzer;
  // NEAR/n needs indexed words; a query of stop words alone has nothing to find.
  expect_error({"graph NEAR/3 the", 14, "stop words"}, analyzer);
  expect_error({"the of", 1, "only stop words (the, of)"}, analyzer);
  expect_error({"\"the\" AND of", 1, "only stop words"}, analyzer);
}

// Issue 17: a phrase can stand beside NEAR and ADJ, as Lucene's span queries
// allow: the phrase must be found, and its words count in the group. (Issue 3
// had made it an error that named the phrase.)
const GoldenCase kPhraseNear[] = {
    {"x NEAR \"b c\"", "Query(((x NEAR 12 b NEAR 12 c) FILTER (b PHRASE 2 c)))"},
    {"\"world models\" NEAR robustness",
     "Query(((world NEAR 12 model NEAR 12 robust) FILTER (world PHRASE 2 model)))"},
    {"\"world models\" ADJ/2 robustness",
     "Query(((world PHRASE 4 model PHRASE 4 robust) FILTER (world PHRASE 2 model)))"},
    // A word the index sees as several is a phrase too.
    {"Qwen3 NEAR/3 model", "Query(((qwen NEAR 5 3 NEAR 5 model) FILTER (qwen PHRASE 2 3)))"},
    {"x NEAR b-c", "Query(((x NEAR 12 b NEAR 12 c) FILTER (b PHRASE 2 c)))"},
};
INSTANTIATE_TEST_SUITE_P(Issue17PhraseNear, SyntaxGolden, ::testing::ValuesIn(kPhraseNear));

// ---------------------------------------------------------------------------
// With a real on-disk index: wildcards expand to its words, acronyms to the
// long forms learned from its abstracts.

// The abstracts of the small index, and what they define.
const char* const kAbstracts[] = {
    // in-context learning (ICL), large language models (LLMs); sycophancy words.
    "Transformers can adapt from examples at inference time, a capability known as in-context "
    "learning (ICL). We study it in sycophantic assistants.",
    "Sycophancy in large language models (LLMs) is a boundary failure of alignment.",
    "Diffusion models diffuse noise; we study diffusers for images.",
    // RL: four abstracts say reinforcement learning, one representation learning
    // (a 20% share, below AcronymTable::kMinShare: listed, never used).
    "Offline reinforcement learning (RL) with diffusion policies.",
    "We benchmark reinforcement learning (RL) agents on robotic arms.",
    "Model-based reinforcement learning (RL) for games.",
    "Safe reinforcement learning (RL) under constraints.",
    "Contrastive representation learning (RL) for graphs.",
    // EM: three expectation maximization, one emergent misalignment: 25%, used.
    "The expectation maximization (EM) algorithm for mixtures.",
    "Stochastic expectation maximization (EM) at scale.",
    "Online expectation maximization (EM) for streams.",
    "Emergent misalignment (EM) after narrow finetuning.",
    // PC: four long forms with a 25% share each; only three are used (kMaxLongForms).
    "A personal computer (PC) cluster for simulation.",
    "An actor with a policy critic (PC) for control.",
    "Sparse principal components (PC) of covariance.",
    "The program counter (PC) of a processor.",
    // IT: an acronym whose own term is a stop word, so only its long form is searched.
    "Information technology (IT) budgets of hospitals.",
};

class IndexedParser : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    {
      Writer writer = Writer::open(dir_->path());
      for (const char* text : kAbstracts) {
        Abstract a;
        a.text = text;
        a.venue = "NeurIPS";
        a.year = 2026;
        a.source = "/data/papers_a.txt";
        writer.add(a);
      }
      writer.commit();
    }
    db_ = new Xapian::Database(dir_->path().string());
    analyzer_ = new analysis::Analyzer();
    table_ = new AcronymTable(AcronymTable::load(*db_, *analyzer_));
  }
  static void TearDownTestSuite() {
    delete table_;
    delete analyzer_;
    delete db_;
    delete dir_;
  }

  static std::string describe(std::string_view query, std::vector<std::string>* notes = nullptr,
                              std::size_t max_wildcard_terms = 200) {
    ParserContext context;
    context.db = db_;
    context.acronyms = table_;
    context.max_wildcard_terms = max_wildcard_terms;
    return abstracts::query::describe(Parser(*analyzer_, context).parse(query, notes));
  }

  static TempDir* dir_;
  static Xapian::Database* db_;
  static analysis::Analyzer* analyzer_;
  static AcronymTable* table_;
};

TempDir* IndexedParser::dir_ = nullptr;
Xapian::Database* IndexedParser::db_ = nullptr;
analysis::Analyzer* IndexedParser::analyzer_ = nullptr;
AcronymTable* IndexedParser::table_ = nullptr;

class IndexedGolden : public IndexedParser, public ::testing::WithParamInterface<GoldenCase> {};

TEST_P(IndexedGolden, Describes) {
  const GoldenCase& c = GetParam();
  EXPECT_EQ(describe(c.query), c.description) << "query: " << c.query;
}

// The index holds the stems diffus (diffusion, diffuse, diffusers), sycoph
// (sycophancy) and sycophant (sycophantic).
const GoldenCase kWildcardsWithIndex[] = {
    // One expansion is just that term.
    {"diffus*", "Query(diffus)"},
    // The stem rule: "sycophancy" is indexed as "sycoph", shorter than the typed
    // prefix "sycophan", and still found; "sycophant" starts with the prefix.
    {"sycophan*", "Query((sycoph SYNONYM sycophant))"},
    {"sycophant*", "Query((sycoph SYNONYM sycophant))"},
    {"sycoph*", "Query((sycoph SYNONYM sycophant))"},
    {"graph sycophan*", "Query((graph OR (sycoph SYNONYM sycophant)))"},
    // No word has the prefix: the prefix itself, which matches nothing.
    {"zzzz*", "Query(zzzz)"},
    // title: and source: wildcards expand against the field's terms. The one
    // source holds every abstract, so its filter is asked as all documents
    // (query::boolean_term: Xapian 1.4.22 misreads such a term's postings
    // after a deletion).
    {"title:sycoph*", "Query(Ssycoph)"},
    {"source:papers*", "Query(0 * <alldocuments>)"},
};
INSTANTIATE_TEST_SUITE_P(WildcardsWithIndex, IndexedGolden,
                         ::testing::ValuesIn(kWildcardsWithIndex));

// Learned acronyms: a word with at least two capitals that is a known short
// form also matches its used long forms; a quoted long form also its acronym.
const GoldenCase kAcronyms[] = {
    {"ICL", "Query((icl SYNONYM (context PHRASE 2 learn)))"},
    {"LLMs", "Query((llm SYNONYM (larg PHRASE 3 languag PHRASE 3 model)))"},
    {"LLM", "Query((llm SYNONYM (larg PHRASE 3 languag PHRASE 3 model)))"},
    // Fewer than two capitals: the plain word.
    {"icl", "Query(icl)"},
    {"Icl", "Query(icl)"},
    {"llms", "Query(llms)"},
    // The long form, as a phrase, in any inflection.
    {"\"large language models\"", "Query(((larg PHRASE 3 languag PHRASE 3 model) SYNONYM llm))"},
    {"\"large language model\"", "Query(((larg PHRASE 3 languag PHRASE 3 model) SYNONYM llm))"},
    {"\"in-context learning\"", "Query(((context PHRASE 2 learn) SYNONYM icl))"},
    // Unquoted, the long form is separate words: no expansion.
    {"in-context learning", "Query((context OR learn))"},
    // Expansions sit inside the rest of the query.
    {"ICL AND sycophancy",
     "Query(((icl SYNONYM (context PHRASE 2 learn)) AND sycoph))"},
    {"\"large language models\" AND sycophancy",
     "Query((((larg PHRASE 3 languag PHRASE 3 model) SYNONYM llm) AND sycoph))"},
    // Not a known acronym.
    {"ABC", "Query(abc)"},
    // NEAR and ADJ take the word alone.
    {"ICL NEAR/2 sycophancy", "Query((icl NEAR 3 sycoph))"},
    // Ambiguous: RL is reinforcement learning in 4 abstracts, representation
    // learning in 1 (20% < 25%): only the first is used, either way round.
    {"RL", "Query((rl SYNONYM (reinforc PHRASE 2 learn)))"},
    {"\"reinforcement learning\"", "Query(((reinforc PHRASE 2 learn) SYNONYM rl))"},
    {"\"representation learning\"", "Query((represent PHRASE 2 learn))"},
    // EM: 3 to 1, the minority has exactly 25%: both are used.
    {"EM", "Query((em SYNONYM (expect PHRASE 2 maxim) SYNONYM (emerg PHRASE 2 misalign)))"},
    {"IT", "Query((inform PHRASE 2 technolog))"},
    {"\"emergent misalignment\"", "Query(((emerg PHRASE 2 misalign) SYNONYM em))"},
};
INSTANTIATE_TEST_SUITE_P(Acronyms, IndexedGolden, ::testing::ValuesIn(kAcronyms));

TEST_F(IndexedParser, WildcardPastTheBoundIsAnErrorWithItsColumn) {
  // sycophan* expands to two words: a bound of 2 is enough, 1 is not.
  EXPECT_EQ(describe("sycophan*", nullptr, 2), "Query((sycoph SYNONYM sycophant))");
  ParserContext context;
  context.db = db_;
  context.max_wildcard_terms = 1;
  analysis::Analyzer analyzer;
  expect_error({"graph sycophan*", 7, "matches more than 1 words"}, analyzer, context);
  // Field wildcards have the same bound.
  context.max_wildcard_terms = 0;
  expect_error({"title:sycoph* diffus*", 1, "matches more than 0 words"}, analyzer, context);
}

TEST_F(IndexedParser, AcronymTableCountsAbstractsAndMarksUsedLongForms) {
  const auto* rl = table_->find_short("rl");
  ASSERT_NE(rl, nullptr);
  EXPECT_EQ(rl->surface, "RL");
  ASSERT_EQ(rl->long_forms.size(), 2u);
  EXPECT_EQ(rl->long_forms[0].surface, "reinforcement learning");
  EXPECT_EQ(rl->long_forms[0].count, 4u);
  EXPECT_TRUE(rl->long_forms[0].used);
  EXPECT_EQ(rl->long_forms[1].surface, "representation learning");
  EXPECT_EQ(rl->long_forms[1].count, 1u);
  EXPECT_FALSE(rl->long_forms[1].used) << "1 of 5 is below the 25% share";

  const auto* em = table_->find_short("em");
  ASSERT_NE(em, nullptr);
  ASSERT_EQ(em->long_forms.size(), 2u);
  EXPECT_EQ(em->long_forms[0].count, 3u);
  EXPECT_EQ(em->long_forms[1].count, 1u);
  EXPECT_TRUE(em->long_forms[1].used) << "1 of 4 is exactly the 25% share";

  const auto* pc = table_->find_short("pc");
  ASSERT_NE(pc, nullptr);
  ASSERT_EQ(pc->long_forms.size(), 4u);
  auto used = std::count_if(pc->long_forms.begin(), pc->long_forms.end(),
                            [](const auto& lf) { return lf.used; });
  EXPECT_EQ(used, static_cast<long>(AcronymTable::kMaxLongForms));
  // The unused fourth form does not expand, and its phrase does not find PC.
  const auto& unused = *std::find_if(pc->long_forms.begin(), pc->long_forms.end(),
                                     [](const auto& lf) { return !lf.used; });
  EXPECT_EQ(describe("PC").find(unused.terms[0]), std::string::npos) << describe("PC");
  EXPECT_EQ(describe("\"" + unused.surface + "\"").find("pc"), std::string::npos);
  EXPECT_TRUE(table_->find_long(unused.terms).empty());

  const auto* llm = table_->find_short("llm");
  ASSERT_NE(llm, nullptr);
  EXPECT_EQ(llm->surface, "LLMs");
  ASSERT_EQ(llm->long_forms.size(), 1u);
  EXPECT_EQ(llm->long_forms[0].surface, "large language models");
  EXPECT_EQ(llm->long_forms[0].terms, (std::vector<std::string>{"larg", "languag", "model"}));
  EXPECT_EQ(table_->find_short("abc"), nullptr);
}

TEST_F(IndexedParser, NotesSayWhichExpansionsWereApplied) {
  std::vector<std::string> notes;
  describe("agents ICL sycophan* \"large language models\"", &notes);
  auto has = [&](const std::string& line) {
    return std::find(notes.begin(), notes.end(), line) != notes.end();
  };
  EXPECT_TRUE(has("stem: agents -> agent"));
  EXPECT_TRUE(has("acronym: ICL also matches \"in-context learning\""));
  EXPECT_TRUE(has("wildcard: sycophan* -> sycoph, sycophant"));
  EXPECT_TRUE(has("acronym: \"large language models\" also matches LLMs"));
  for (const auto& n : notes) SCOPED_TRACE(n);
  EXPECT_FALSE(has("stem: icl -> icl")) << "a word that does not change is no stem note";

  notes.clear();
  describe("zzzz*", &notes);
  EXPECT_EQ(notes, (std::vector<std::string>{"wildcard: zzzz* -> no words"}));
}

}  // namespace
}  // namespace abstracts::query::parser_syntax_test
