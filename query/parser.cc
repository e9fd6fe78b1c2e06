#include "query/parser.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "abstracts/abstract.h"
#include "abstracts/error.h"
#include "engine/analysis/stop_words.h"
#include "engine/analysis/unicode_text.h"
#include "engine/author_terms.h"
#include "engine/schema.h"
#include "query/acronym_table.h"
#include "query/lexer.h"
#include "query/positional.h"

namespace abstracts::query {

Xapian::Query boolean_term(const Xapian::Database* db, const std::string& term) {
  if (db != nullptr && db->get_doccount() != 0 && db->get_termfreq(term) == db->get_doccount()) {
    return Xapian::Query::MatchAll;
  }
  return Xapian::Query(term);
}
namespace {

// A parsed sub-expression. `boolean` when it only filters (field terms that do
// not rank); `field` names the one field it filters on, if there is one.
struct Expr {
  Expr() = default;
  explicit Expr(Xapian::Query query, bool filter = false, std::string on = {})
      : q(std::move(query)), boolean(filter), field(std::move(on)) {}

  Xapian::Query q;
  bool boolean = false;
  std::string field;
  // Position checks `q` cannot match without (PositionChecks may defer them).
  std::vector<PositionCheckRef> required;
  // Position checks of operands `q` can match without, where a match of more
  // abstracts can only add hits, never take one away (not under NOT or XOR):
  // PositionChecks may defer them too, checking only the best candidates.
  std::vector<PositionCheckRef> optional;
  // How deep `q` nests the operators the grammar combined it with (0 for a word,
  // phrase, group or field, whose own few levels are fixed): ParserContext::max_depth.
  std::size_t depth = 0;
};

// The expression of a words_query() or synonym_query(): it cannot match without
// its position check (a single word has none).
Expr positional_expr(const PositionalQuery& p) {
  Expr out(p.query);
  if (p.check != nullptr) out.required.push_back(p.check);
  return out;
}

Xapian::Query combine(Xapian::Query::op op, const std::vector<Xapian::Query>& parts) {
  std::vector<Xapian::Query> nonempty;
  for (const auto& p : parts) {
    if (!p.empty()) nonempty.push_back(p);
  }
  if (nonempty.empty()) return Xapian::Query();
  if (nonempty.size() == 1) return nonempty[0];
  return Xapian::Query(op, nonempty.begin(), nonempty.end());
}

// combine() of the expressions' queries, one level deeper than the deepest
// (none deeper for one alone). Only the query and its depth: the caller decides
// what the result filters and needs.
Expr combine(Xapian::Query::op op, const std::vector<Expr>& parts) {
  std::vector<Xapian::Query> queries;
  std::size_t depth = 0;
  for (const auto& p : parts) {
    if (p.q.empty()) continue;
    queries.push_back(p.q);
    depth = std::max(depth, p.depth);
  }
  Expr out(combine(op, queries));
  out.depth = queries.size() > 1 ? depth + 1 : depth;
  return out;
}

// `op` of two non-empty expressions, as combine() does it.
Expr combine(Xapian::Query::op op, const Expr& a, const Expr& b) {
  Expr out(Xapian::Query(op, a.q, b.q));
  out.depth = std::max(a.depth, b.depth) + 1;
  return out;
}

// The field two expressions share, or "".
std::string same_field(const Expr& a, const Expr& b) { return a.field == b.field ? a.field : ""; }

// The operands of one operator (the clauses a query ORs, the words an AND
// needs, ...), in the order written. An operand written again is not run again:
// it counts once more, weighed as often as written (Xapian's OP_SCALE_WEIGHT),
// as the OR or AND of its copies would weigh it. So "LLM LLM ... LLM" costs one
// operand, not one per copy.
class Operands {
 public:
  // Adds `e` (not empty). False if it repeats an operand, which then counts once more.
  bool add(Expr e) {
    auto [at, added] = index_.try_emplace(e.q.get_description(), exprs_.size());
    if (!added) {
      ++times_[at->second];
      return false;
    }
    exprs_.push_back(std::move(e));
    times_.push_back(1);
    return true;
  }

  bool empty() const { return exprs_.empty(); }
  std::size_t size() const { return exprs_.size(); }

  // Each operand once: for exclusions and filters, which weigh nothing.
  const std::vector<Expr>& once() const { return exprs_; }

  // Each operand weighed as often as it was written.
  std::vector<Expr> weighed() const {
    std::vector<Expr> out = exprs_;
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (times_[i] > 1) out[i].q = Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, out[i].q, times_[i]);
    }
    return out;
  }

 private:
  std::vector<Expr> exprs_;
  std::vector<unsigned> times_;
  std::unordered_map<std::string, std::size_t> index_;  // Xapian's description -> exprs_
};

// The words of a phrase, one after another. Stop words are not in the index, so
// they become gaps: "state of the art" finds state and art up to two words apart,
// in that order. No terms when every word is a stop word.
Words phrase_words(const std::vector<std::string>& terms) {
  Words out;
  std::size_t first = 0, last = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (analysis::is_stop_word(terms[i])) continue;
    if (out.terms.empty()) first = i;
    last = i;
    out.terms.push_back(terms[i]);
  }
  out.window = static_cast<Xapian::termcount>(last - first + 1);
  return out;
}

int capitals(std::string_view w) {
  int n = 0;
  for (char c : w) n += c >= 'A' && c <= 'Z';
  return n;
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

bool is_operator_word(Kind k) {
  return k == Kind::kAnd || k == Kind::kOr || k == Kind::kXor || k == Kind::kNot || k == Kind::kNear ||
         k == Kind::kAdj;
}

bool starts_operand(Kind k) {
  return k == Kind::kWord || k == Kind::kPhrase || k == Kind::kOpen || k == Kind::kField;
}

bool ends_operand(Kind k) {
  return k == Kind::kWord || k == Kind::kPhrase || k == Kind::kClose || k == Kind::kField;
}

// True when `text` has letters and none of them is a lower-case ASCII letter.
bool in_capitals(std::string_view text) {
  bool letters = false;
  for (char c : text) {
    if (c >= 'a' && c <= 'z') return false;
    letters = letters || (c >= 'A' && c <= 'Z');
  }
  return letters;
}

class Grammar {
 public:
  // `rereadings` (if not null) gets a line for each thing read otherwise than
  // the syntax says, to make sense of prose. With `operators_as_words`, every
  // operator word is a word.
  Grammar(std::vector<Lexeme> lexemes, const analysis::Analyzer& analyzer, const ParserContext& ctx,
          std::vector<std::string>* notes, std::vector<std::string>* rereadings = nullptr,
          bool operators_as_words = false)
      : lx_(std::move(lexemes)),
        analyzer_(analyzer),
        ctx_(ctx),
        notes_(notes),
        rereadings_(rereadings),
        values_(position_values(ctx.deadline, ctx.xapian_positions, ctx.position_budget)) {
    drop_unmatched_closes();
    read_misplaced_operators_as_words(operators_as_words);
  }

  // True when the query is words and nothing else: no operator, phrase, field,
  // group, wildcard or '+'/'-' (once operator words that cannot be operators
  // are read as words). A word the index sees as several ("text-only") is a
  // phrase in a keyword query, but words in a question of kQuestionWords or
  // more distinct words, as plain text reads it.
  bool only_words() const {
    std::unordered_set<std::string> distinct;
    bool compound = false;
    for (const auto& lx : lx_) {
      if (lx.kind == Kind::kEnd) break;
      if (lx.kind != Kind::kWord || (lx.text.size() > 1 && lx.text.back() == '*')) return false;
      std::size_t words = 0;
      for (auto& t : analyzer_.terms(display_text(lx.text))) {
        if (analysis::is_stop_word(t)) continue;
        ++words;
        distinct.insert(std::move(t));
      }
      compound = compound || words > 1;
    }
    return !compound || distinct.size() >= kQuestionWords;
  }

  Xapian::Query parse(PositionChecks* deferred) {
    if (peek().kind == Kind::kEnd) throw QueryError("empty query", 1, "give at least one word to search for");
    Expr e = sequence();
    if (e.q.empty()) no_searchable_words();
    if (deferred != nullptr) {
      for (const auto& check : e.required) deferred->defer(check);
      for (const auto& check : e.optional) deferred->defer_optional(check);
    }
    return e.q;
  }

  // The terms of natural-language text, ORed; a word in capitals that is a
  // learned acronym also matches its long forms, as in the query language, whose
  // bounds it keeps too (a word written again counts again, but runs once, at
  // as many times its weight: "model model ..." a thousand times is one posting
  // list, not a thousand, and ranks as their OR did).
  Xapian::Query plain(std::string_view text, PositionChecks* deferred) {
    std::vector<Xapian::Query> parts;
    std::vector<PositionCheckRef> checks;  // the groups' position checks
    std::unordered_map<std::string, std::pair<std::size_t, unsigned>> seen;  // kind, term -> part, times
    const std::string display = display_text(text);
    std::size_t column = 1, counted = 0;  // of the display text, in characters
    for (const auto& t : analyzer_.tokenize(display)) {
      for (; counted < t.begin; ++counted) column += (static_cast<unsigned char>(display[counted]) & 0xC0) != 0x80;
      if (analysis::is_stop_word(t.term)) {
        stop_word(t.term);
        continue;
      }
      const std::string typed = display.substr(t.begin, t.end - t.begin);
      const Lexeme at(Kind::kWord, typed, column);
      std::vector<Words> alternatives{{WordOrder::kAsWritten, {t.term}, 1}};
      add_acronym_spellings(typed, {t.term}, alternatives);
      std::size_t n = 0;
      for (const auto& a : alternatives) n += a.terms.size();
      count_terms(n, at);
      // "LLM" (a group) and "llm" (the word alone) are two parts.
      auto [it, fresh] = seen.try_emplace((alternatives.size() == 1 ? "w" : "g") + t.term, parts.size(), 0);
      ++it->second.second;
      if (alternatives.size() == 1) {
        if (fresh) parts.emplace_back(t.term);
        continue;
      }
      Expr group = count_check(positional_expr(synonym_query(alternatives, values_)), at);
      if (fresh) {
        parts.push_back(group.q);
        checks.insert(checks.end(), group.required.begin(), group.required.end());
      }
    }
    for (const auto& [term, part_times] : seen) {
      const auto [part, times] = part_times;
      if (times > 1) parts[part] = Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, parts[part], times);
    }
    if (parts.empty()) no_searchable_words(text);
    // Only the best candidates need checking (at a million arXiv abstracts,
    // "LLM" checks 0.4 s of long forms otherwise): one group alone is the whole
    // query, and among other words a group is one the query matches without.
    if (deferred != nullptr) {
      for (const auto& check : checks) {
        if (parts.size() == 1) {
          deferred->defer(check);
        } else {
          deferred->defer_optional(check);
        }
      }
    }
    return combine(Xapian::Query::OP_OR, parts);
  }

 private:
  const Lexeme& peek() const { return lx_[pos_]; }
  const Lexeme& take() { return lx_[pos_++]; }

  // `plain`: the text of a plain-text query, which has no lexemes.
  [[noreturn]] void no_searchable_words(std::string_view plain = {}) const {
    // "aaa...a" (5,000 letters) is no punctuation: the index leaves out such words.
    std::string overlong = analyzer_.overlong_word(display_text(plain));
    std::size_t column = 1;
    for (const auto& lx : lx_) {
      if (!overlong.empty()) break;
      if (lx.kind == Kind::kWord || lx.kind == Kind::kPhrase) {
        overlong = analyzer_.overlong_word(display_text(lx.text));
        column = lx.column;
      }
    }
    if (!overlong.empty()) {
      throw QueryError("the word '" + std::string(analysis::utf8_prefix(overlong, 20)) + "...' (" +
                           std::to_string(overlong.size()) + " bytes) is longer than any the index keeps (" +
                           std::to_string(analysis::kMaxTermBytes) + " bytes)",
                       column, "search for a shorter word: no abstract has a word this long among its terms");
    }
    if (!stop_words_.empty()) {
      throw QueryError("the query has only stop words (" + join(stop_words_, ", ") +
                           "), which the index leaves out",
                       1, "add a word that says what the abstracts are about");
    }
    throw QueryError("the query has no searchable words", 1,
                     "search for words or numbers; punctuation alone matches nothing");
  }

  // Notes a stop word of the query, which matches nothing on its own.
  void stop_word(const std::string& term) {
    if (std::find(stop_words_.begin(), stop_words_.end(), term) != stop_words_.end()) return;
    stop_words_.push_back(term);
    note("stop word: " + term + " (not in the index)");
  }

  void note(std::string line) {
    if (notes_ != nullptr) notes_->push_back(std::move(line));
  }

  void reread(std::string line) {
    if (rereadings_ != nullptr) rereadings_->push_back(std::move(line));
  }

  // A ')' that closes nothing is left out: prose numbers its points so ("present
  // as such: 1) bile duct ...").
  void drop_unmatched_closes() {
    std::size_t open = 0;
    std::vector<Lexeme> kept;
    kept.reserve(lx_.size());
    for (auto& lx : lx_) {
      if (lx.kind == Kind::kOpen) ++open;
      if (lx.kind == Kind::kClose) {
        if (open == 0) {
          reread("\")\" at column " + std::to_string(lx.column) + " ignored: it closes nothing");
          continue;
        }
        --open;
      }
      kept.push_back(std::move(lx));
    }
    lx_ = std::move(kept);
  }

  // A plain NEAR or ADJ (no /n) between `left` and `right` is an operator only
  // if each is a word the index has, or a phrase: "DRIFTS NEAR THE EQUATOR"
  // means the word "near".
  bool near_operand(const Lexeme& lx) const {
    if (lx.kind == Kind::kPhrase) return true;
    if (lx.kind != Kind::kWord || lx.text.find('*') != std::string::npos) return false;
    const auto terms = analyzer_.terms(display_text(lx.text));
    return std::any_of(terms.begin(), terms.end(), [](const std::string& t) { return !analysis::is_stop_word(t); });
  }

  // Operator words that cannot be operators where they stand are words, as a
  // person pasting prose means them: an operator with no operand on a side it
  // needs one (a trailing AND, "OR" first), a plain NEAR beside a stop word. Left
  // to right, so a word read so becomes the next operator's operand.
  void read_misplaced_operators_as_words(bool all) {
    for (std::size_t i = 0; i < lx_.size(); ++i) {
      Lexeme& op = lx_[i];
      if (!is_operator_word(op.kind)) continue;
      const Kind before = i == 0 ? Kind::kOpen : lx_[i - 1].kind;
      const Kind after = lx_[i + 1].kind;  // lx_ ends with kEnd
      bool fits = true;
      switch (op.kind) {
        case Kind::kNot:
          fits = starts_operand(after);
          break;
        case Kind::kAnd:
          fits = ends_operand(before) && (starts_operand(after) || after == Kind::kNot);
          break;
        case Kind::kNear:
        case Kind::kAdj:
          // NEAR/n is syntax and nothing else: where it is wrong, the error says so.
          if (op.text.find('/') != std::string::npos) break;
          fits = ends_operand(before) && starts_operand(after) && near_operand(lx_[i - 1]) &&
                 near_operand(lx_[i + 1]);
          break;
        default:
          fits = ends_operand(before) && starts_operand(after);
      }
      if (all || !fits) {
        if (!all) reread(op.text + " at column " + std::to_string(op.column) + " read as a word");
        op.kind = Kind::kWord;
      }
    }
  }

  [[noreturn]] void missing_operand(const Lexeme& op, const char* side) {
    throw QueryError(std::string(operator_name(op)) + " at column " + std::to_string(op.column) +
                         " has no term " + side + " it",
                     op.column, "put a word or phrase " + std::string(side) + " the operator");
  }

  // Counts `n` more terms of the query, for the operand at `at`.
  void count_terms(std::size_t n, const Lexeme& at) {
    terms_ += n;
    if (terms_ <= ctx_.max_terms) return;
    throw QueryError("the query has more than " + std::to_string(ctx_.max_terms) +
                         " terms once expanded, reached at column " + std::to_string(at.column),
                     at.column,
                     "search for fewer words: each word of a phrase counts, an acronym its long forms' "
                     "words too, and a wildcard every word it matches");
  }

  // Counts `e`'s position check, if it has one, for the operand at `at`.
  Expr count_check(Expr e, const Lexeme& at) {
    if (e.required.empty() || ++checks_ <= ctx_.max_position_checks) return e;
    throw QueryError("the query has more than " + std::to_string(ctx_.max_position_checks) +
                         " phrases and NEAR or ADJ groups, reached at column " + std::to_string(at.column),
                     at.column,
                     "use fewer: each quoted phrase, hyphenated word, NEAR or ADJ group, and acronym that "
                     "also matches its long form checks where words are, abstract by abstract");
  }

  [[noreturn]] void too_deep(const Lexeme& at) const {
    throw QueryError("the query nests more than " + std::to_string(ctx_.max_depth) + " levels deep at column " +
                         std::to_string(at.column),
                     at.column,
                     "use fewer parentheses inside one another; a run of one operator (a AND b AND c) is one level");
  }

  // Throws if `e` nests deeper than the limit, `at` being where it went past it.
  void check_depth(const Expr& e, const Lexeme& at) const {
    if (e.depth > ctx_.max_depth) too_deep(at);
  }

  // query := clause+ ; the default operator between clauses is OR, with '+'
  // clauses required, '-'/NOT clauses excluded and filter clauses restricting.
  Expr sequence() {
    const std::size_t start = pos_;
    Operands must, should, must_not;
    std::map<std::string, Operands> filters;
    std::vector<PositionCheckRef> required_checks, should_checks, optional_checks;
    while (peek().kind != Kind::kEnd && peek().kind != Kind::kClose) {
      const Lexeme& first = peek();
      if (!starts_operand(first.kind) && first.kind != Kind::kPlus && first.kind != Kind::kMinus &&
          first.kind != Kind::kNot) {
        missing_operand(first, "before");
      }
      Kind modifier = Kind::kWord;
      if (first.kind == Kind::kPlus || first.kind == Kind::kMinus || first.kind == Kind::kNot) {
        modifier = first.kind;
        take();
        if (!starts_operand(peek().kind)) missing_operand(first, "after");
      }
      Expr e = or_expr();
      if (e.q.empty()) continue;
      if (modifier == Kind::kMinus || modifier == Kind::kNot) {
        must_not.add(std::move(e));
      } else if (e.boolean) {
        filters[e.field].add(std::move(e));
      } else {
        auto& checks = modifier == Kind::kPlus ? required_checks : should_checks;
        const std::vector<PositionCheckRef> needs = e.required, may = e.optional;
        if ((modifier == Kind::kPlus ? must : should).add(std::move(e))) {
          checks.insert(checks.end(), needs.begin(), needs.end());
          optional_checks.insert(optional_checks.end(), may.begin(), may.end());
        }
      }
    }
    // An optional clause is required only when it is the one positive clause.
    if (must.empty() && should.size() == 1) {
      required_checks = should_checks;
    } else {
      optional_checks.insert(optional_checks.end(), should_checks.begin(), should_checks.end());
    }
    Expr positive;
    Expr required = combine(Xapian::Query::OP_AND, must.weighed());
    Expr optional = combine(Xapian::Query::OP_OR, should.weighed());
    if (!required.q.empty() && !optional.q.empty()) {
      positive = combine(Xapian::Query::OP_AND_MAYBE, required, optional);
    } else {
      positive = required.q.empty() ? optional : required;
    }
    bool only_filters = false;
    if (!filters.empty()) {
      // Filters on one field are alternatives; filters on different fields all apply.
      std::vector<Expr> per_field;
      for (const auto& [field, es] : filters) per_field.push_back(combine(Xapian::Query::OP_OR, es.once()));
      Expr filter = combine(Xapian::Query::OP_AND, per_field);
      if (positive.q.empty()) {
        only_filters = true;
        positive = filter;
      } else {
        positive = combine(Xapian::Query::OP_FILTER, positive, filter);
      }
    }
    Expr excluded = combine(Xapian::Query::OP_OR, must_not.once());
    if (!excluded.q.empty()) {
      // Only exclusions ("-survey"): everything but them, as in Google and notmuch.
      if (positive.q.empty()) positive = Expr(Xapian::Query::MatchAll);
      positive = combine(Xapian::Query::OP_AND_NOT, positive, excluded);
    }
    Expr out(positive.q);
    out.depth = positive.depth;
    if (only_filters) {
      out.boolean = true;
      out.field = filters.size() == 1 ? filters.begin()->first : "";
    }
    out.required = required_checks;
    if (!only_filters) out.optional = std::move(optional_checks);
    check_depth(out, lx_[start]);
    return out;
  }

  // or_expr := and_expr (('OR' | 'XOR') and_expr)*, left to right. A run of ORs
  // is one flat OR, as Xapian would print it, built once the run ends.
  Expr or_expr() {
    Expr left = and_expr();
    Operands run;  // while not empty, the operands of the OR that left stands for
    auto end_run = [&] {
      if (run.empty()) return;
      left.q = combine(Xapian::Query::OP_OR, run.weighed()).q;
      run = Operands();
    };
    while (peek().kind == Kind::kOr || peek().kind == Kind::kXor) {
      const Lexeme& op = take();
      if (op.kind == Kind::kXor && ctx_.refuse_xor) {
        throw QueryError("XOR at column " + std::to_string(op.column) +
                             " cannot run on a cluster of two or more local shards (Xapian 1.4 crashes on it)",
                         op.column, "serve the shards with xapian-tcpsrv, or write (a OR b) NOT (a AND b)");
      }
      if (!starts_operand(peek().kind)) missing_operand(op, "after");
      Expr right = and_expr();
      if (right.q.empty()) continue;
      if (left.q.empty()) {
        left = std::move(right);
        continue;
      }
      if (op.kind == Kind::kOr) {
        if (run.empty()) {
          // An OR of ranked operands goes on; anything else is the run's first operand.
          if (left.q.get_type() == Xapian::Query::OP_OR && !left.boolean) {
            for (std::size_t i = 0; i < left.q.get_num_subqueries(); ++i) run.add(Expr(left.q.get_subquery(i)));
          } else {
            run.add(Expr(left.q));
            left.depth += 1;
          }
        }
        left.depth = std::max(left.depth, right.depth + 1);
        left.boolean = left.boolean && right.boolean;  // the result filters only if both did
        left.field = same_field(left, right);
        left.optional.insert(left.optional.end(), left.required.begin(), left.required.end());
        left.required.clear();
        const std::vector<PositionCheckRef> needs = right.required, may = right.optional;
        if (run.add(std::move(right))) {
          left.optional.insert(left.optional.end(), needs.begin(), needs.end());
          left.optional.insert(left.optional.end(), may.begin(), may.end());
        }
      } else {
        end_run();
        Expr both = combine(Xapian::Query::OP_XOR, left, right);
        both.boolean = left.boolean && right.boolean;
        both.field = same_field(left, right);
        left = std::move(both);
      }
      check_depth(left, op);
    }
    end_run();
    return left;
  }

  // and_expr := near_expr (('AND' | 'NOT' | 'AND NOT') near_expr)*, built flat
  // however long: the AND of the operands, AND_NOT the OR of the excluded ones.
  // That is what the left-to-right reading means ((a NOT b) AND c is
  // (a AND c) NOT b), and AND_NOT weighs its left side only.
  Expr and_expr() {
    Operands operands, excluded;
    std::vector<PositionCheckRef> required;  // all operands must match
    std::vector<PositionCheckRef> optional;  // of the operands' own alternatives
    auto add = [&](Expr e) {
      const std::vector<PositionCheckRef> needs = e.required, may = e.optional;
      if (operands.add(std::move(e))) {
        required.insert(required.end(), needs.begin(), needs.end());
        optional.insert(optional.end(), may.begin(), may.end());
      }
    };
    if (Expr first = near_expr(); !first.q.empty()) add(std::move(first));
    const Lexeme* last_op = nullptr;
    while (peek().kind == Kind::kAnd || peek().kind == Kind::kNot) {
      const Lexeme& op = take();
      last_op = &op;
      bool negate = op.kind == Kind::kNot;
      if (op.kind == Kind::kAnd && peek().kind == Kind::kNot) {
        take();
        negate = true;
      }
      if (!starts_operand(peek().kind)) missing_operand(op, "after");
      Expr right = near_expr();
      if (right.q.empty()) continue;
      if (!negate) {
        add(std::move(right));
      } else {
        // Nothing to exclude from yet ("the NOT b"): exclude from everything.
        if (operands.empty()) add(Expr(Xapian::Query::MatchAll));
        excluded.add(std::move(right));
      }
    }
    if (last_op == nullptr) return operands.empty() ? Expr() : operands.once()[0];
    Expr out = combine(Xapian::Query::OP_AND, operands.weighed());
    if (!operands.empty()) {
      out.boolean = true;
      out.field = operands.once()[0].field;
      for (const auto& e : operands.once()) {
        out.boolean = out.boolean && e.boolean;  // filters only if every operand does
        out.field = same_field(out, e);
      }
      out.required = std::move(required);
      out.optional = std::move(optional);
    }
    if (!excluded.empty()) out = excluding(std::move(out), combine(Xapian::Query::OP_OR, excluded.once()));
    check_depth(out, *last_op);
    return out;
  }

  // `e` AND_NOT `excluded`: what `e` filters and needs stays.
  static Expr excluding(Expr e, const Expr& excluded) {
    Expr out = combine(Xapian::Query::OP_AND_NOT, e, excluded);
    out.boolean = e.boolean;
    out.field = std::move(e.field);
    out.required = std::move(e.required);
    out.optional = std::move(e.optional);
    return out;
  }

  // a NEAR/n b NEAR/n c: the operands all within n positions of each other (ADJ:
  // in order). An operand is a word or a phrase ("world models" NEAR robustness,
  // as Lucene's span queries allow): the phrase must be found, and its words
  // count in the group as if written there one by one.
  Expr near_expr() {
    std::size_t start = pos_;
    Expr first = primary();
    if (peek().kind != Kind::kNear && peek().kind != Kind::kAdj) return first;
    std::vector<Words> operands{near_operand_words(lx_[start])};
    Kind kind = peek().kind;
    unsigned distance = peek().distance;
    while (peek().kind == Kind::kNear || peek().kind == Kind::kAdj) {
      const Lexeme& op = take();
      if (op.kind != kind) {
        throw QueryError("NEAR and ADJ cannot be mixed in one group (column " + std::to_string(op.column) + ")",
                         op.column, "use parentheses, or one operator for the whole group");
      }
      distance = std::max(distance, op.distance);
      if (!starts_operand(peek().kind)) missing_operand(op, "after");
      operands.push_back(near_operand_words(take()));
    }
    // Xapian's window spans the words themselves: n positions apart means a
    // window of n + (words - 1); a phrase spans its own window.
    Words group{kind == Kind::kNear ? WordOrder::kAny : WordOrder::kAsWritten, {}, 0};
    Xapian::termcount span = 0;
    for (const auto& w : operands) {
      group.terms.insert(group.terms.end(), w.terms.begin(), w.terms.end());
      span += w.window;
    }
    group.window = static_cast<Xapian::termcount>(distance + span - 1);
    count_terms(group.terms.size(), lx_[start]);
    Expr out = count_check(positional_expr(words_query(group, values_)), lx_[start]);
    for (const auto& w : operands) {
      if (w.terms.size() < 2) continue;
      // The phrase only filters: its words weigh in the group already.
      Expr phrase = count_check(positional_expr(words_query(w, values_)), lx_[start]);
      Expr both = combine(Xapian::Query::OP_FILTER, out, phrase);
      both.required = out.required;
      both.required.insert(both.required.end(), phrase.required.begin(), phrase.required.end());
      out = std::move(both);
    }
    return out;
  }

  // ": the index sees qwen 3": why text the user wrote as one word is several
  // ("Qwen3": digits and letters are separate words). Empty unless there are several.
  static std::string words_seen(const std::vector<std::string>& terms) {
    return terms.size() > 1 ? ": the index sees " + join(terms, " ") : "";
  }

  // The words of one operand of NEAR or ADJ: a word, or a phrase (quoted, or a
  // word the index sees as several: "text-only").
  Words near_operand_words(const Lexeme& lx) {
    if ((lx.kind != Kind::kWord && lx.kind != Kind::kPhrase) || lx.text.find('*') != std::string::npos) {
      throw QueryError("NEAR and ADJ take words or quoted phrases; '" + lx.text + "' at column " +
                           std::to_string(lx.column) + " is neither",
                       lx.column, "put a word or a quoted phrase on each side of the operator");
    }
    Words w = phrase_words(analyzer_.terms(display_text(lx.text)));
    if (w.terms.empty()) {
      throw QueryError("'" + lx.text + "' at column " + std::to_string(lx.column) +
                           " has no word the index keeps (stop words are left out)",
                       lx.column, "NEAR and ADJ need words the index has; leave the stop word out");
    }
    return w;
  }

  Expr primary() {
    const Lexeme& lx = take();
    switch (lx.kind) {
      case Kind::kOpen: {
        if (peek().kind == Kind::kClose) {
          reread("empty parentheses at column " + std::to_string(lx.column) + " ignored");
          take();
          return Expr();
        }
        // The grammar recurses once per '(': bounded, so no input exhausts the stack.
        if (open_groups_ == ctx_.max_depth) too_deep(lx);
        ++open_groups_;
        Expr inner = sequence();
        --open_groups_;
        if (peek().kind == Kind::kClose) {
          take();
        } else {  // "(EL1 may be given as EL/1; I don't remember"
          reread("\"(\" at column " + std::to_string(lx.column) + " closed where the query ends");
        }
        return inner;
      }
      case Kind::kWord:
        if (lx.text.size() > 1 && lx.text.back() == '*') return Expr(wildcard(lx, ""));
        return words(lx);
      case Kind::kPhrase:
        return words(lx);
      case Kind::kField:
        return field(lx);
      case Kind::kClose:
        throw QueryError("unbalanced ')' at column " + std::to_string(lx.column), lx.column,
                         "remove it or add the matching '('");
      default:
        missing_operand(lx, "after");
    }
  }

  // A word or phrase as typed: cleaned like abstract text, analysed, and expanded
  // with learned acronyms. Several terms make a phrase ("text-only").
  Expr words(const Lexeme& lx) {
    const std::string& typed = lx.text;
    auto tokens = analyzer_.tokenize(display_text(typed));
    if (tokens.empty()) return Expr();
    std::vector<std::string> terms;
    for (const auto& t : tokens) {
      terms.push_back(t.term);
      if (analysis::is_stop_word(t.term)) stop_word(t.term);
    }
    note_stems(typed, tokens);
    // Stop words alone leave no terms, but an acronym may still expand ("IT").
    Words base = phrase_words(terms);
    std::vector<Words> alternatives;
    if (!base.terms.empty()) alternatives.push_back(base);
    add_acronym_spellings(typed, terms, alternatives);
    if (alternatives.empty()) return Expr();
    std::size_t n = 0;
    for (const auto& a : alternatives) n += a.terms.size();
    count_terms(n, lx);
    if (alternatives.size() == 1) return count_check(positional_expr(words_query(alternatives[0], values_)), lx);
    // One concept, several spellings: rank them as one term.
    return count_check(positional_expr(synonym_query(alternatives, values_)), lx);
  }

  // Adds the other spellings of what was typed as `terms` that the learned
  // acronyms know: an acronym's long forms, or a long form's acronym.
  void add_acronym_spellings(const std::string& typed, const std::vector<std::string>& terms,
                             std::vector<Words>& alternatives) {
    if (ctx_.acronyms == nullptr) return;
    if (terms.size() == 1 && capitals(typed) >= 2) {
      if (const auto* a = ctx_.acronyms->find_short(terms[0])) {
        std::vector<std::string> used;
        for (const auto& lf : a->long_forms) {
          if (!lf.used) continue;
          Words long_form = phrase_words(lf.terms);
          if (!long_form.terms.empty()) alternatives.push_back(std::move(long_form));
          used.push_back("\"" + lf.surface + "\"");
        }
        if (!used.empty()) note("acronym: " + typed + " also matches " + join(used, ", "));
      }
    } else if (terms.size() > 1) {
      for (const auto* a : ctx_.acronyms->find_long(terms)) {
        alternatives.push_back({WordOrder::kAsWritten, {a->term}, 1});
        note("acronym: \"" + typed + "\" also matches " + a->surface);
      }
    }
  }

  void note_stems(const std::string& typed, const std::vector<analysis::Token>& tokens) {
    if (notes_ == nullptr) return;
    std::string text = display_text(typed);
    for (const auto& t : tokens) {
      std::string word = analysis::Analyzer::fold(text.substr(t.begin, t.end - t.begin));
      if (word != t.term) note("stem: " + word + " -> " + t.term);
    }
  }

  // prefix* : the index's words starting with the prefix, as one synonym group.
  // `term_prefix` is "" for body words, or a field's term prefix ("S", "XS").
  Xapian::Query wildcard(const Lexeme& lx, const std::string& term_prefix) {
    std::string typed = lx.text;
    while (!typed.empty() && typed.back() == '*') typed.pop_back();
    std::string prefix;
    if (term_prefix == schema::kAuthorPrefix) {
      prefix = author_terms::family_key(display_text(typed));  // "el-say*" as "el say"
    } else if (term_prefix == schema::kSourcePrefix ||
        term_prefix == schema::kCategoryPrefix || term_prefix == schema::kTagPrefix ||
        term_prefix == schema::kCollectionPrefix) {
      prefix = analysis::Analyzer::fold(typed);  // a name: folded whole, not split into words
    } else {
      std::string text = display_text(typed);
      auto tokens = analyzer_.tokenize(text);
      if (tokens.size() != 1 || tokens[0].end != text.size()) {
        std::vector<std::string> terms;
        for (const auto& t : tokens) terms.push_back(t.term);
        throw QueryError("a wildcard needs one word before the '*' ('" + lx.text + "' at column " +
                             std::to_string(lx.column) + words_seen(terms) + ")",
                         lx.column, "write a single word prefix, like diffus*");
      }
      prefix = analysis::Analyzer::fold(text);
    }
    prefix = term_prefix + prefix;
    if (ctx_.db == nullptr) {
      count_terms(1, lx);  // expanded by Xapian, up to max_wildcard_terms
      return Xapian::Query(Xapian::Query::OP_WILDCARD, prefix,
                           static_cast<Xapian::termcount>(ctx_.max_wildcard_terms),
                           Xapian::Query::WILDCARD_LIMIT_ERROR, Xapian::Query::OP_SYNONYM);
    }
    std::vector<std::string> terms;
    // The index holds stems, which can be shorter than the typed prefix: a stem
    // that the prefix extends by up to 3 letters counts ("sycophan*" finds
    // "sycophancy", indexed as "sycoph").
    if (term_prefix.empty()) {
      for (std::size_t cut = 1; cut <= 3 && prefix.size() - cut >= 4; ++cut) {
        std::string shorter = prefix.substr(0, prefix.size() - cut);
        if (ctx_.db->term_exists(shorter)) terms.push_back(shorter);
      }
    }
    for (auto t = ctx_.db->allterms_begin(prefix); t != ctx_.db->allterms_end(prefix); ++t) {
      if (term_prefix.empty() && !schema::is_word_term(*t)) continue;
      terms.push_back(*t);
      if (terms.size() > ctx_.max_wildcard_terms) {
        throw QueryError("wildcard '" + lx.text + "' at column " + std::to_string(lx.column) +
                             " matches more than " + std::to_string(ctx_.max_wildcard_terms) + " words",
                         lx.column, "make the prefix longer");
      }
    }
    count_terms(std::max<std::size_t>(terms.size(), 1), lx);
    note("wildcard: " + lx.text + " -> " + (terms.empty() ? std::string("no words") : join(terms, ", ")));
    // No expansion: the prefix itself is no term of the index, so it matches nothing.
    if (terms.empty()) return Xapian::Query(prefix);
    if (!term_prefix.empty() && term_prefix != schema::kTitlePrefix) {  // a filter's field: boolean terms
      std::vector<Xapian::Query> filters;
      for (const auto& t : terms) filters.push_back(boolean(t));
      return Xapian::Query(Xapian::Query::OP_OR, filters.begin(), filters.end());
    }
    return Xapian::Query(Xapian::Query::OP_SYNONYM, terms.begin(), terms.end());
  }

  Xapian::Query boolean(const std::string& term) const { return boolean_term(ctx_.db, term); }

  Expr field(const Lexeme& lx) {
    const std::string& f = lx.field;
    const bool wild = !lx.quoted && lx.text.size() > 1 && lx.text.back() == '*';
    if (f == "title") {
      if (wild) return Expr(wildcard(lx, std::string(schema::kTitlePrefix)));
      std::vector<Xapian::Query> parts;
      for (const auto& t : analyzer_.terms(display_text(lx.text))) {
        if (analysis::is_stop_word(t)) {
          stop_word(t);
        } else {
          parts.emplace_back(std::string(schema::kTitlePrefix) + t);
        }
      }
      count_terms(parts.size(), lx);
      return Expr(combine(Xapian::Query::OP_AND, parts));
    }
    count_terms(1, lx);
    Expr e;
    e.boolean = true;
    e.field = f;
    if (f == "venue") {
      e.q = boolean(schema::field_term(schema::kVenuePrefix, analysis::Analyzer::fold(lx.text)));
    } else if (f == "author") {
      if (wild) {
        e.q = wildcard(lx, std::string(schema::kAuthorPrefix));
      } else {
        // The name as a family name, and, of several words, as "Family, Given" or
        // "Given Family" (engine/author_terms.h): one boolean term of many matches.
        std::vector<Xapian::Query> names;
        for (const auto& term : author_terms::query_terms(display_text(lx.text))) names.push_back(boolean(term));
        e.q = names.empty() ? Xapian::Query::MatchNothing
                            : Xapian::Query(Xapian::Query::OP_OR, names.begin(), names.end());
      }
    } else if (f == "category") {
      e.q = wild ? wildcard(lx, std::string(schema::kCategoryPrefix))
                 : boolean(schema::field_term(schema::kCategoryPrefix,
                                                    analysis::Analyzer::fold(display_text(lx.text))));
    } else if (f == "tag" || f == "collection") {
      // A collection is a path ("Thesis/Chapter 2"); an item is found by it and by each above it.
      const std::string prefix(f == "tag" ? schema::kTagPrefix : schema::kCollectionPrefix);
      std::string value = analysis::Analyzer::fold(display_text(lx.text));
      while (f == "collection" && value.ends_with('/')) value.pop_back();
      e.q = wild ? wildcard(lx, prefix) : boolean(schema::field_term(prefix, value));
    } else if (f == "doi" || f == "arxiv" || f == "pmid" || f == "pmcid" || f == "isbn") {
      e.q = boolean(schema::identifier_term(f, lx.text));
    } else if (f == "key") {
      e.q = boolean(schema::citation_key_term(lx.text));
    } else if (f == "id") {
      e.q = boolean(schema::id_term(lx.text));
    } else if (f == "source") {
      e.q = wild ? wildcard(lx, std::string(schema::kSourcePrefix))
                 : boolean(schema::field_term(schema::kSourcePrefix, analysis::Analyzer::fold(lx.text)));
    } else {
      e.q = year(lx);
    }
    // Filters match or not; they add nothing to the score.
    e.q = Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, e.q, 0);
    return e;
  }

  // year:2026, year:2024..2026, year:..2025, year:2024..
  Xapian::Query year(const Lexeme& lx) {
    auto bad = [&] {
      return QueryError("year:" + lx.text + " at column " + std::to_string(lx.column) +
                            " is not a year or a range of years",
                        lx.column, "write year:2026, year:2024..2026, year:..2025 or year:2024..");
    };
    auto parse_year = [&](std::string_view s) {
      int y = 0;
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), y);
      if (ec != std::errc() || end != s.data() + s.size() || y < 1000 || y > 9999) throw bad();
      return y;
    };
    std::string_view v(lx.text);
    auto dots = v.find("..");
    if (dots == std::string_view::npos) {
      return boolean(std::string(schema::kYearPrefix) + std::to_string(parse_year(v)));
    }
    std::string_view from = v.substr(0, dots), to = v.substr(dots + 2);
    if (from.empty() && to.empty()) throw bad();
    if (from.empty()) {
      return Xapian::Query(Xapian::Query::OP_VALUE_LE, schema::kYearSlot,
                           Xapian::sortable_serialise(parse_year(to)));
    }
    if (to.empty()) {
      return Xapian::Query(Xapian::Query::OP_VALUE_GE, schema::kYearSlot,
                           Xapian::sortable_serialise(parse_year(from)));
    }
    int a = parse_year(from), b = parse_year(to);
    if (a > b) throw bad();
    return Xapian::Query(Xapian::Query::OP_VALUE_RANGE, schema::kYearSlot, Xapian::sortable_serialise(a),
                         Xapian::sortable_serialise(b));
  }

  std::vector<Lexeme> lx_;
  std::size_t pos_ = 0;
  const analysis::Analyzer& analyzer_;
  const ParserContext& ctx_;
  std::vector<std::string>* notes_;
  std::vector<std::string>* rereadings_;
  std::vector<std::string> stop_words_;  // of the query, each once
  PositionValuesRef values_;             // shared by the query's position checks
  std::size_t terms_ = 0;                // counted so far (ParserContext::max_terms)
  std::size_t checks_ = 0;               // position checks so far (::max_position_checks)
  std::size_t open_groups_ = 0;          // '(' the parser is inside
};

// Throws QueryError if `text` is longer than the context allows, at the column
// of the first character past the limit.
void check_length(std::string_view text, const ParserContext& ctx) {
  if (text.size() <= ctx.max_query_bytes) return;
  std::size_t column = 1;
  for (std::size_t i = 0; i < ctx.max_query_bytes; ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
  }
  throw QueryError("the query is " + std::to_string(text.size()) + " bytes long, more than the " +
                       std::to_string(ctx.max_query_bytes) + " a query may have (column " +
                       std::to_string(column) + " is past the limit)",
                   column, "search for the words that matter most");
}

}  // namespace

Xapian::Query Parser::parse(std::string_view query, std::vector<std::string>* notes, PositionChecks* deferred,
                            std::vector<std::string>* rereadings) const {
  check_length(query, context_);
  const std::size_t noted = notes != nullptr ? notes->size() : 0;
  std::vector<std::string> read;
  try {
    Xapian::Query q = Grammar(lex(query, &read), analyzer_, context_, notes, &read).parse(deferred);
    if (rereadings != nullptr) rereadings->insert(rereadings->end(), read.begin(), read.end());
    return q;
  } catch (const QueryError&) {
    if (!in_capitals(query)) throw;
  }
  // An all-capitals question ("MEASUREMENTS OF IONOSPHERIC DRIFTS NEAR THE
  // EQUATOR") is prose: its operator words are words.
  if (notes != nullptr) notes->resize(noted);
  read.clear();
  Xapian::Query q = Grammar(lex(query, &read), analyzer_, context_, notes, &read, true).parse(deferred);
  if (rereadings != nullptr) {
    rereadings->insert(rereadings->end(), read.begin(), read.end());
    rereadings->push_back("the query is in capitals: its operator words read as words");
  }
  return q;
}

bool Parser::only_words(std::string_view query, std::vector<std::string>* rereadings) const {
  if (query.size() > context_.max_query_bytes) return false;  // parse() says why
  std::vector<std::string> read;
  try {
    if (!Grammar(lex(query, &read), analyzer_, context_, nullptr, &read).only_words()) return false;
  } catch (const QueryError&) {
    return false;  // parse() says why
  }
  if (rereadings != nullptr) rereadings->insert(rereadings->end(), read.begin(), read.end());
  return true;
}

Xapian::Query Parser::parse_plain(std::string_view text, std::vector<std::string>* notes,
                                  PositionChecks* deferred) const {
  check_length(text, context_);
  return Grammar({}, analyzer_, context_, notes).plain(text, deferred);
}

}  // namespace abstracts::query
