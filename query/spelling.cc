#include "query/spelling.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "engine/analysis/stop_words.h"
#include "engine/schema.h"
#include "query/ranking.h"

namespace abstracts::query {
namespace {

// Optimal string alignment distance over bytes, or max + 1 once it exceeds max.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t max) {
  if (a.size() > b.size() + max || b.size() > a.size() + max) return max + 1;
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t row_min = max + 1;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
      row_min = std::min(row_min, d[i][j]);
    }
    if (row_min > max) return max + 1;
  }
  return d[a.size()][b.size()];
}

// How `term` is written in the abstract that has it most (by BM25, then id),
// folded ("attent" -> "attention"). Not simply the first abstract with it,
// which would depend on document numbers, which the shards of a cluster give
// differently from one index.
std::string surface_of(const Xapian::Database& db, const compression::Decompressor& stored,
                       const std::string& term, const analysis::Analyzer& analyzer) {
  Xapian::Enquire enquire(db);
  enquire.set_query(Xapian::Query(term));
  enquire.set_weighting_scheme(bm25(RankingOptions{}));
  order_ties_by_id(enquire);
  const Xapian::MSet best = enquire.get_mset(0, 1);
  if (best.empty()) return {};
  Abstract a = schema::stored_abstract(best.begin().get_document(), *best.begin(), stored);
  for (const std::string* text : {&a.title, &a.text}) {
    for (const auto& t : analyzer.tokenize(*text)) {
      if (t.term == term) return analysis::Analyzer::fold(text->substr(t.begin, t.end - t.begin));
    }
  }
  return {};
}

// Byte ranges of field values ("source:000_x.txt", "venue:\"Neur IPS\""): names,
// not words, so never corrected.
std::vector<std::pair<std::size_t, std::size_t>> field_values(std::string_view q) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (std::size_t colon = q.find(':'); colon != std::string_view::npos; colon = q.find(':', colon + 1)) {
    std::size_t name = colon;
    while (name > 0 && std::isalpha(static_cast<unsigned char>(q[name - 1]))) --name;
    if (name == colon) continue;
    std::size_t end = colon + 1;
    if (end < q.size() && q[end] == '"') {
      end = q.find('"', end + 1);
      end = end == std::string_view::npos ? q.size() : end + 1;
    } else {
      while (end < q.size() && q[end] != ' ' && q[end] != '(' && q[end] != ')') ++end;
    }
    ranges.emplace_back(colon + 1, end);
  }
  return ranges;
}

// The end of the operand that starts at `at`: a word, a "phrase" or a
// (group), to its closing quote or parenthesis (or the query's end).
std::size_t operand_end(std::string_view q, std::size_t at) {
  if (at < q.size() && q[at] == '"') {
    const std::size_t close = q.find('"', at + 1);
    return close == std::string_view::npos ? q.size() : close + 1;
  }
  if (at < q.size() && q[at] == '(') {
    int depth = 0;
    for (std::size_t i = at; i < q.size(); ++i) {
      if (q[i] == '(') ++depth;
      if (q[i] == ')' && --depth == 0) return i + 1;
    }
    return q.size();
  }
  while (at < q.size() && q[at] != ' ' && q[at] != ')') ++at;
  return at;
}

// Byte ranges of what the query excludes ("-survey", "NOT (a b)"): a
// correction there would change what is left out, not what is found.
std::vector<std::pair<std::size_t, std::size_t>> excluded(std::string_view q) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (std::size_t i = 0; i < q.size(); ++i) {
    const bool word_start = i == 0 || q[i - 1] == ' ' || q[i - 1] == '(';
    if (!word_start) continue;
    std::size_t operand = std::string_view::npos;
    if (q[i] == '-') {
      operand = i + 1;
    } else if (q.substr(i, 4) == "NOT ") {
      operand = q.find_first_not_of(' ', i + 4);
    }
    if (operand == std::string_view::npos || operand >= q.size()) continue;
    ranges.emplace_back(operand, operand_end(q, operand));
  }
  return ranges;
}

bool is_operator(std::string_view w) {
  return w == "AND" || w == "OR" || w == "NOT" || w == "XOR" || w.substr(0, 4) == "NEAR" ||
         w.substr(0, 3) == "ADJ";
}

}  // namespace

std::string suggest_word(const Xapian::Database& db, const compression::Decompressor& stored,
                         const std::string& folded_word, const analysis::Analyzer& analyzer,
                         const Xapian::MSet* counts) {
  std::string stem = analyzer.stem(folded_word);
  if (stem.size() < 3 || !schema::is_word_term(stem)) return {};
  if (analysis::is_stop_word(stem)) return {};  // left out of the index, not misspelt
  if (stem[0] >= '0' && stem[0] <= '9') return {};
  if (counts != nullptr ? counts->get_termfreq(stem) > 0 : db.term_exists(stem)) return {};
  const std::size_t max = stem.size() <= 4 ? 1 : 2;
  // Same first byte (or the whole first UTF-8 character): a cheap, effective filter.
  std::size_t first_len = 1;
  while (first_len < stem.size() && (static_cast<unsigned char>(stem[first_len]) & 0xC0) == 0x80) ++first_len;
  const std::string prefix = stem.substr(0, first_len);
  // Best: smallest distance, then the longest common prefix ("atent" is "attent",
  // not "agent"), then the most abstracts.
  std::string best;
  std::size_t best_distance = max + 1, best_common = 0;
  Xapian::doccount best_freq = 0;
  for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) {
    const std::string& candidate = *t;
    std::size_t d = edit_distance(stem, candidate, max);
    if (d > max) continue;
    std::size_t common = 0;
    while (common < stem.size() && common < candidate.size() && stem[common] == candidate[common]) ++common;
    Xapian::doccount freq = t.get_termfreq();
    bool better = best.empty() || d < best_distance ||
                  (d == best_distance &&
                   (common > best_common || (common == best_common && freq > best_freq)));
    if (better) {
      best = candidate;
      best_distance = d;
      best_common = common;
      best_freq = freq;
    }
  }
  return best.empty() ? std::string() : surface_of(db, stored, best, analyzer);
}

std::string correct_query(const Xapian::Database& db, const compression::Decompressor& stored,
                          std::string_view query, const analysis::Analyzer& analyzer, const Xapian::MSet* counts) {
  std::string out;
  std::size_t copied = 0;
  bool changed = false;
  auto left_alone = field_values(query);  // names, and what the query excludes
  for (const auto& range : excluded(query)) left_alone.push_back(range);
  for (const auto& tok : analyzer.tokenize(query)) {
    bool in_value = std::any_of(left_alone.begin(), left_alone.end(),
                                [&](const auto& r) { return tok.begin >= r.first && tok.end <= r.second; });
    if (in_value) continue;
    std::string_view typed = query.substr(tok.begin, tok.end - tok.begin);
    char before = tok.begin > 0 ? query[tok.begin - 1] : ' ';
    char after = tok.end < query.size() ? query[tok.end] : ' ';
    // Leave alone: operators, field names ("venue:"), LaTeX ("Pok\'emon"), wildcards.
    if (is_operator(typed) || after == ':' || after == '*' || after == '\\' || before == '\\' ||
        before == '\'' || before == ':') {
      continue;
    }
    std::string suggestion = suggest_word(db, stored, analysis::Analyzer::fold(typed), analyzer, counts);
    if (suggestion.empty()) continue;
    out.append(query.substr(copied, tok.begin - copied));
    out += suggestion;
    copied = tok.end;
    changed = true;
  }
  if (!changed) return {};
  out.append(query.substr(copied));
  return out;
}

}  // namespace abstracts::query
