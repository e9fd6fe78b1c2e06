#include "bench/relevance/xapian_run.h"

#include <xapian.h>

#include <algorithm>
#include <cctype>
#include <chrono>

#include "bench/relevance/temp_dir.h"

namespace abstracts::eval {
namespace {

std::string punctuation_to_spaces(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](unsigned char c) { return std::ispunct(c) != 0; }, ' ');
  return text;
}

}  // namespace

Run run_plain_xapian(const Collection& collection) {
  Run run;
  run.system = "plain Xapian";
  TempDir dir;
  const Xapian::Stem stemmer("english");
  // Xapian numbers documents 1, 2, ... in the order they are added to a new
  // database, so document n's corpus id is ids[n - 1].
  std::vector<std::string> ids;

  auto start = std::chrono::steady_clock::now();
  {
    Xapian::WritableDatabase db((dir.path() / "db").string(), Xapian::DB_CREATE);
    Xapian::TermGenerator termgen;
    termgen.set_stemmer(stemmer);
    termgen.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
    for_each_document(collection.corpus, [&](const CorpusDocument& d) {
      Xapian::Document doc;
      termgen.set_document(doc);
      termgen.index_text(d.title);
      termgen.increase_termpos();
      termgen.index_text(d.text);
      db.add_document(doc);
      ids.push_back(d.id);
    });
    db.commit();
  }
  run.index_seconds = seconds_since(start);

  Xapian::Database db((dir.path() / "db").string());
  Xapian::QueryParser parser;
  parser.set_stemmer(stemmer);
  parser.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
  parser.set_default_op(Xapian::Query::OP_OR);
  Xapian::Enquire enquire(db);  // BM25Weight with its default parameters
  start = std::chrono::steady_clock::now();
  for (const auto& query : collection.queries) {
    Ranking& ranking = run.rankings[query.id];
    Xapian::Query parsed;
    try {
      parsed = parser.parse_query(query.text);
    } catch (const Xapian::QueryParserError& e) {
      try {
        parsed = parser.parse_query(punctuation_to_spaces(query.text));
        run.query_problems.push_back(query.id + ": " + e.get_msg() +
                                     " (retried without punctuation)");
      } catch (const Xapian::QueryParserError& again) {
        run.query_problems.push_back(query.id + ": " + again.get_msg() + " (no hits)");
        continue;
      }
    }
    enquire.set_query(parsed);
    Xapian::MSet mset = enquire.get_mset(0, static_cast<Xapian::doccount>(kDepth));
    ranking.reserve(mset.size());
    for (auto it = mset.begin(); it != mset.end(); ++it) ranking.push_back(ids.at(*it - 1));
  }
  run.query_seconds = seconds_since(start);
  return run;
}

}  // namespace abstracts::eval
