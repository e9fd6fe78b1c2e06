#include "query/parser.h"

#include <string>
#include <vector>

#include "abstracts/abstract.h"
#include "abstracts/error.h"

namespace abstracts::query {
namespace {

enum class Kind { kWord, kPhrase, kOpen, kClose, kAnd, kOr, kNot, kPlus, kMinus, kEnd };

struct Lexeme {
  Kind kind;
  std::string text;        // the word or phrase, as typed
  std::size_t column = 0;  // 1-based, in characters
};

const char* describe(Kind k) {
  switch (k) {
    case Kind::kAnd: return "AND";
    case Kind::kOr: return "OR";
    case Kind::kNot: return "NOT";
    case Kind::kOpen: return "'('";
    case Kind::kClose: return "')'";
    default: return "term";
  }
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Curly double quotes delimit phrases too: “large language models”.
std::size_t quote_length(std::string_view s, std::size_t i) {
  if (s[i] == '"') return 1;
  if (s.substr(i, 3) == "\u201c" || s.substr(i, 3) == "\u201d") return 3;
  return 0;
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Lexeme> run() {
    std::vector<Lexeme> out;
    while (true) {
      while (i_ < s_.size() && is_space(s_[i_])) ++i_;
      if (i_ >= s_.size()) break;
      std::size_t col = column(i_);
      char c = s_[i_];
      if (c == '(' || c == ')') {
        out.push_back({c == '(' ? Kind::kOpen : Kind::kClose, std::string(1, c), col});
        ++i_;
      } else if (auto q = quote_length(s_, i_); q > 0) {
        out.push_back(phrase(col, q));
      } else if ((c == '+' || c == '-') && i_ + 1 < s_.size() && !is_space(s_[i_ + 1]) &&
                 s_[i_ + 1] != ')') {
        out.push_back({c == '+' ? Kind::kPlus : Kind::kMinus, std::string(1, c), col});
        ++i_;
      } else {
        std::string w = word();
        Kind kind = w == "AND" ? Kind::kAnd : w == "OR" ? Kind::kOr : w == "NOT" ? Kind::kNot : Kind::kWord;
        out.push_back({kind, std::move(w), col});
      }
    }
    out.push_back({Kind::kEnd, "", column(s_.size())});
    return out;
  }

 private:
  std::size_t column(std::size_t byte) const {
    std::size_t col = 1;
    for (std::size_t k = 0; k < byte && k < s_.size(); ++k) {
      if ((static_cast<unsigned char>(s_[k]) & 0xC0) != 0x80) ++col;
    }
    return col;
  }

  Lexeme phrase(std::size_t col, std::size_t open_len) {
    i_ += open_len;
    std::string text;
    while (i_ < s_.size()) {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        text += s_.substr(i_, 2);
        i_ += 2;
        continue;
      }
      if (auto q = quote_length(s_, i_); q > 0) {
        i_ += q;
        return {Kind::kPhrase, std::move(text), col};
      }
      text += s_[i_++];
    }
    throw QueryError("unterminated phrase: the quote at column " + std::to_string(col) +
                         " is never closed",
                     col, "add the closing \" (or escape the quote as \\\")");
  }

  // A word runs to white space, a parenthesis or a quote; a backslash keeps
  // the next character in the word (LaTeX accents: Sch\"olkopf).
  std::string word() {
    std::string w;
    while (i_ < s_.size() && !is_space(s_[i_]) && s_[i_] != '(' && s_[i_] != ')' &&
           quote_length(s_, i_) == 0) {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        w += s_.substr(i_, 2);
        i_ += 2;
        continue;
      }
      w += s_[i_++];
    }
    return w;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

bool empty(const Xapian::Query& q) { return q.empty(); }

Xapian::Query combine(Xapian::Query::op op, const std::vector<Xapian::Query>& parts) {
  std::vector<Xapian::Query> nonempty;
  for (const auto& p : parts) {
    if (!empty(p)) nonempty.push_back(p);
  }
  if (nonempty.empty()) return Xapian::Query();
  if (nonempty.size() == 1) return nonempty[0];
  return Xapian::Query(op, nonempty.begin(), nonempty.end());
}

class Grammar {
 public:
  Grammar(std::vector<Lexeme> lexemes, const analysis::Analyzer& analyzer)
      : lx_(std::move(lexemes)), analyzer_(analyzer) {}

  Xapian::Query parse() {
    if (peek().kind == Kind::kEnd) throw QueryError("empty query", 1, "give at least one word to search for");
    Xapian::Query q = sequence();
    if (peek().kind == Kind::kClose) {
      throw QueryError("unbalanced ')' at column " + std::to_string(peek().column), peek().column,
                       "remove it or add the matching '('");
    }
    if (empty(q)) {
      throw QueryError("the query has no searchable words", 1,
                       "search for words or numbers; punctuation alone matches nothing");
    }
    return q;
  }

 private:
  const Lexeme& peek() const { return lx_[pos_]; }
  const Lexeme& take() { return lx_[pos_++]; }

  [[noreturn]] void missing_operand(const Lexeme& op, const char* side) {
    throw QueryError(std::string(describe(op.kind)) + " at column " + std::to_string(op.column) +
                         " has no term " + side + " it",
                     op.column, "put a word or phrase " + std::string(side) + " the operator");
  }

  // query := clause+ ; the default operator between clauses is OR, with '+'
  // clauses required and '-'/NOT clauses excluded.
  Xapian::Query sequence() {
    std::vector<Xapian::Query> must, should, must_not;
    while (peek().kind != Kind::kEnd && peek().kind != Kind::kClose) {
      const Lexeme& first = peek();
      if (first.kind == Kind::kAnd || first.kind == Kind::kOr) missing_operand(first, "before");
      auto* target = &should;
      if (first.kind == Kind::kPlus || first.kind == Kind::kMinus || first.kind == Kind::kNot) {
        target = first.kind == Kind::kPlus ? &must : &must_not;
        take();
        if (peek().kind == Kind::kEnd || peek().kind == Kind::kClose || peek().kind == Kind::kAnd ||
            peek().kind == Kind::kOr) {
          missing_operand(first, "after");
        }
      }
      target->push_back(or_expr());
    }
    Xapian::Query positive;
    Xapian::Query required = combine(Xapian::Query::OP_AND, must);
    Xapian::Query optional = combine(Xapian::Query::OP_OR, should);
    if (!empty(required) && !empty(optional)) {
      positive = Xapian::Query(Xapian::Query::OP_AND_MAYBE, required, optional);
    } else {
      positive = empty(required) ? optional : required;
    }
    Xapian::Query excluded = combine(Xapian::Query::OP_OR, must_not);
    if (empty(excluded)) return positive;
    // Only exclusions ("-survey"): everything but them, as in Google and notmuch.
    if (empty(positive)) positive = Xapian::Query::MatchAll;
    return Xapian::Query(Xapian::Query::OP_AND_NOT, positive, excluded);
  }

  Xapian::Query or_expr() {
    std::vector<Xapian::Query> parts{and_expr()};
    while (peek().kind == Kind::kOr) {
      const Lexeme& op = take();
      if (!starts_operand(peek().kind)) missing_operand(op, "after");
      parts.push_back(and_expr());
    }
    return combine(Xapian::Query::OP_OR, parts);
  }

  Xapian::Query and_expr() {
    Xapian::Query left = primary();
    while (peek().kind == Kind::kAnd) {
      const Lexeme& op = take();
      bool negate = false;
      if (peek().kind == Kind::kNot) {
        take();
        negate = true;
      }
      if (!starts_operand(peek().kind)) missing_operand(op, "after");
      Xapian::Query right = primary();
      if (empty(right)) continue;
      if (empty(left)) {
        left = negate ? Xapian::Query(Xapian::Query::OP_AND_NOT, Xapian::Query::MatchAll, right) : right;
      } else {
        left = Xapian::Query(negate ? Xapian::Query::OP_AND_NOT : Xapian::Query::OP_AND, left, right);
      }
    }
    return left;
  }

  static bool starts_operand(Kind k) { return k == Kind::kWord || k == Kind::kPhrase || k == Kind::kOpen; }

  Xapian::Query primary() {
    const Lexeme& lx = take();
    switch (lx.kind) {
      case Kind::kOpen: {
        if (peek().kind == Kind::kClose) {
          throw QueryError("empty parentheses at column " + std::to_string(lx.column), lx.column,
                           "put words inside, or remove them");
        }
        Xapian::Query inner = sequence();
        if (peek().kind != Kind::kClose) {
          throw QueryError("unbalanced '(' at column " + std::to_string(lx.column) + ": missing ')'",
                           lx.column, "add the closing ')'");
        }
        take();
        return inner;
      }
      case Kind::kWord:
      case Kind::kPhrase:
        return words(lx.text);
      case Kind::kClose:
        throw QueryError("unbalanced ')' at column " + std::to_string(lx.column), lx.column,
                         "remove it or add the matching '('");
      default:
        missing_operand(lx, "after");
    }
  }

  // A word or phrase as typed: cleaned like abstract text, then analysed. Several
  // terms make a phrase ("text-only", "large language models").
  Xapian::Query words(const std::string& typed) const {
    std::vector<std::string> terms = analyzer_.terms(display_text(typed));
    if (terms.empty()) return Xapian::Query();
    if (terms.size() == 1) return Xapian::Query(terms[0]);
    return Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(), terms.size());
  }

  std::vector<Lexeme> lx_;
  std::size_t pos_ = 0;
  const analysis::Analyzer& analyzer_;
};

}  // namespace

Xapian::Query Parser::parse(std::string_view query) const {
  return Grammar(Lexer(query).run(), analyzer_).parse();
}

}  // namespace abstracts::query
