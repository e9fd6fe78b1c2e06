// Fuzzes the query parser (query/parser.h) as Index::search drives it: on the
// bytes the user typed, which nobody checks for UTF-8 on the way (the CLI passes
// its argument on, Index::search hands it to the parser). The first byte of the
// input chooses how; the rest is the query:
//   bit 0  parse_plain() (natural-language text) instead of parse() (the syntax);
//   bit 1  with a small index, as Index::search has it: wildcards expand against
//          its words, acronyms against its definitions, phrases are deferred to
//          PositionChecks, and the query is run; Index::search on it offers
//          a spelling correction that must itself be a query;
//          without it, as the parser's unit tests have it (ParserContext{});
//   bit 2  with the notes --explain shows.
// QueryError (an abstracts::Error), with a column inside the query, is the
// parser's answer to a bad query; any other abstracts::Error is expected too;
// anything else is a finding.
#include <stdlib.h>
#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "abstracts/error.h"
#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "engine/analysis/analyzer.h"
#include "engine/compression.h"
#include "engine/schema.h"
#include "query/acronym_table.h"
#include "query/parser.h"
#include "query/positional.h"
#include "tests/fuzz/fuzz_check.h"

namespace abstracts::fuzz {
namespace {

// Abstracts that define acronyms (ICL, LLMs, RL, EM) and share word stems for
// wildcards (diffus*, sycoph*), after tests/query/parser_syntax_test.cc.
const char* const kAbstracts[] = {
    "Models adapt from examples, known as in-context learning (ICL), in sycophantic assistants.",
    "Sycophancy in large language models (LLMs) is a boundary failure of alignment.",
    "Diffusion models diffuse noise; we study diffusers for images.",
    "Offline reinforcement learning (RL) with diffusion policies.",
    "Contrastive representation learning (RL) for graphs.",
    "The expectation maximization (EM) algorithm for mixtures.",
    "Emergent misalignment (EM) after narrow finetuning.",
    "Pok\\'emon agents NEAR mice: a $\\Omega(1/T)$ bound for TNF-$\\alpha$ and Schr\\\"odinger.",
};

// The small index, indexed by the Writer from a file of the abstracts (as
// `abstracts index` does) in a directory of its own, removed when the process
// exits; opened as Index::search opens one.
struct SmallIndex {
  SmallIndex() : path(write()), db(path.string()), stored(schema::dictionary_of(db)) {}

  static std::filesystem::path write() {
    static std::string dir = "/tmp/abstracts-fuzz-XXXXXX";
    check(mkdtemp(dir.data()) != nullptr, "mkdtemp");
    std::atexit([] { std::filesystem::remove_all(dir); });
    const std::filesystem::path papers = std::filesystem::path(dir) / "papers_a.txt";
    {
      std::ofstream out(papers);
      out << "NeurIPS 2026 Papers\n";
      for (const char* text : kAbstracts) out << text << '\n';
    }
    const std::filesystem::path index = std::filesystem::path(dir) / "index";
    Writer::open(index).index_file(papers);
    return index;
  }

  std::filesystem::path path;
  Xapian::Database db;
  compression::Decompressor stored;
};

void parse_with_index(std::string_view text, bool plain, std::vector<std::string>* notes) {
  static const SmallIndex index;
  const auto& analyzer = analysis::thread_analyzer();
  query::AcronymLookup acronyms(index.db, analyzer);
  query::ParserContext context;
  context.db = &index.db;
  context.acronyms = &acronyms;
  const query::Parser parser(analyzer, context);
  query::PositionChecks checks(index.db);
  const Xapian::Query q =
      plain ? parser.parse_plain(text, notes) : parser.parse(text, notes, &checks);
  if (notes != nullptr) query::describe(q);
  // A parsed query runs (a Xapian error here would reach the user as "index error").
  Xapian::Enquire enquire(index.db);
  enquire.set_query(q);
  enquire.get_mset(0, 10, 0, nullptr, checks.empty() ? nullptr : &checks);
  if (plain) return;
  // Index::search's "did you mean": what it offers, the user may type, so it
  // must parse. (correct_query() alone may change a query's reading: "NEBR THE"
  // in capitals corrected to "near THE" reads NEAR as an operator; Index::search
  // drops such a correction.)
  static const Index searcher = Index::open(index.path);
  SearchOptions options;
  options.snippets = false;
  const std::string suggestion = searcher.search(text, options).suggestion;
  if (!suggestion.empty()) {
    try {
      searcher.search(suggestion, options);
    } catch (const QueryError&) {
      check(false, "a correction Index::search offers parses");
    }
  }
}

void parse_without_index(std::string_view text, bool plain, std::vector<std::string>* notes) {
  const query::Parser parser(analysis::thread_analyzer(), query::ParserContext{});
  query::PositionChecks checks{Xapian::Database()};
  const Xapian::Query q =
      plain ? parser.parse_plain(text, notes) : parser.parse(text, notes, &checks);
  if (notes != nullptr) query::describe(q);
}

}  // namespace
}  // namespace abstracts::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool plain = (data[0] & 1) != 0;
  const bool with_index = (data[0] & 2) != 0;
  std::vector<std::string> notes;
  std::vector<std::string>* keep = (data[0] & 4) != 0 ? &notes : nullptr;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (with_index) {
      abstracts::fuzz::parse_with_index(text, plain, keep);
    } else {
      abstracts::fuzz::parse_without_index(text, plain, keep);
    }
  } catch (const abstracts::QueryError& e) {
    // The parser's answer to a bad query, pointing into it.
    abstracts::fuzz::check(e.column() >= 1 && e.column() <= abstracts::fuzz::characters(text) + 1,
                           "a QueryError's column lies in the query");
  } catch (const abstracts::Error&) {
  }
  return 0;
}
