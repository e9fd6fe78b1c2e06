#include "query/lexer.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>

#include "abstracts/error.h"

namespace abstracts::query {
namespace {

constexpr unsigned kDefaultDistance = 10;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Curly double quotes delimit phrases too: “large language models”.
std::size_t quote_length(std::string_view s, std::size_t i) {
  if (s[i] == '"') return 1;
  if (s.substr(i, 3) == "\u201c" || s.substr(i, 3) == "\u201d") return 3;
  return 0;
}

constexpr std::string_view kFields[] = {"venue", "year", "source", "id",  "title",     "author", "category", "doi",
                                        "arxiv", "pmid", "pmcid",  "isbn", "tag", "key", "collection"};

bool is_field(std::string_view name) {
  return std::find(std::begin(kFields), std::end(kFields), name) != std::end(kFields);
}

// The field a mistyped name meant ("autor" -> "author"): the one within two
// edits (one for a name of four letters or fewer), or "" if none or several.
std::string closest_field(std::string_view name) {
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diagonal = up;
      }
    }
    return row[b.size()];
  };
  std::string found;
  for (std::string_view field : kFields) {
    if (distance(name, field) <= (field.size() <= 4 ? 1u : 2u)) {
      if (!found.empty()) return "";
      found = field;
    }
  }
  return found;
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class Lexer {
 public:
  Lexer(std::string_view s, std::vector<std::string>* rereadings) : s_(s), rereadings_(rereadings) {}

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
        out.push_back({Kind::kPhrase, phrase(col, q), col});
      } else if ((c == '+' || c == '-') && i_ + 1 < s_.size() && !is_space(s_[i_ + 1]) &&
                 s_[i_ + 1] != ')') {
        out.push_back({c == '+' ? Kind::kPlus : Kind::kMinus, std::string(1, c), col});
        ++i_;
      } else {
        out.push_back(classify(word(), col));
      }
    }
    out.push_back({Kind::kEnd, "", column(s_.size())});
    return out;
  }

 private:
  // The 1-based column (in characters) of byte `byte`. Asked in increasing
  // order, so counting on from the last answer keeps lexing linear.
  std::size_t column(std::size_t byte) {
    byte = std::min(byte, s_.size());
    if (byte < counted_) {
      counted_ = 0;
      counted_column_ = 1;
    }
    for (; counted_ < byte; ++counted_) {
      if ((static_cast<unsigned char>(s_[counted_]) & 0xC0) != 0x80) ++counted_column_;
    }
    return counted_column_;
  }

  Lexeme classify(std::string w, std::size_t col) {
    if (w == "AND") return {Kind::kAnd, w, col};
    if (w == "OR") return {Kind::kOr, w, col};
    if (w == "XOR") return {Kind::kXor, w, col};
    if (w == "NOT") return {Kind::kNot, w, col};
    for (auto [name, kind] : {std::pair{"NEAR", Kind::kNear}, std::pair{"ADJ", Kind::kAdj}}) {
      std::string_view v(w);
      if (v.substr(0, std::string_view(name).size()) != name) continue;
      std::string_view rest = v.substr(std::string_view(name).size());
      if (rest.empty()) return {kind, w, col, kDefaultDistance};
      if (rest[0] != '/') continue;
      unsigned n = 0;
      auto [end, ec] = std::from_chars(rest.data() + 1, rest.data() + rest.size(), n);
      if (ec != std::errc() || end != rest.data() + rest.size() || n < 1 || n > 1000) {
        throw QueryError(std::string(name) + " at column " + std::to_string(col) +
                             " needs a distance from 1 to 1000, like " + name + "/3",
                         col, std::string("write ") + name + "/n, with n the most words apart");
      }
      return {kind, w, col, n};
    }
    // field:value, field:"a phrase"
    auto colon = w.find(':');
    if (colon != std::string::npos && colon > 0) {
      std::string name = lower_ascii(std::string_view(w).substr(0, colon));
      bool letters = true;
      for (char ch : name) letters = letters && ch >= 'a' && ch <= 'z';
      if (letters) {
        // Prose has colons too: "Some examples: Rabin, ...".
        if (!is_field(name)) {
          const std::string meant = closest_field(name);
          reread("\"" + w + "\" at column " + std::to_string(col) + " is no field: read as a word" +
                 (meant.empty() ? "" : " (did you mean " + meant + ":?)"));
          return {Kind::kWord, std::move(w), col};
        }
        Lexeme lx(Kind::kField, w.substr(colon + 1), col);
        lx.field = name;
        if (lx.text.empty() && i_ < s_.size() && quote_length(s_, i_) > 0) {
          lx.text = phrase(column(i_), quote_length(s_, i_));
          lx.quoted = true;
        }
        if (lx.text.empty()) {
          if (s_.find_first_not_of(" \t\n\r\f\v", i_) == std::string_view::npos) {
            throw QueryError("field '" + name + ":' at column " + std::to_string(col) + " has no value",
                             col, "write " + name + ":VALUE, with no space after the colon");
          }
          reread("\"" + w + "\" at column " + std::to_string(col) +
                 " has a space after its colon: read as a word (write " + name + ":VALUE for the field)");
          return {Kind::kWord, std::move(w), col};
        }
        return lx;
      }
    }
    return {Kind::kWord, std::move(w), col};
  }

  void reread(std::string line) {
    if (rereadings_ != nullptr) rereadings_->push_back(std::move(line));
  }

  std::string phrase(std::size_t col, std::size_t open_len) {
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
        return text;
      }
      text += s_[i_++];
    }
    reread("the quote at column " + std::to_string(col) + " closed where the query ends");
    return text;
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
  std::vector<std::string>* rereadings_;
  std::size_t i_ = 0;
  std::size_t counted_ = 0, counted_column_ = 1;  // column(): the byte counted to, and its column
};

}  // namespace

const char* operator_name(const Lexeme& lx) {
  switch (lx.kind) {
    case Kind::kAnd: return "AND";
    case Kind::kOr: return "OR";
    case Kind::kXor: return "XOR";
    case Kind::kNot: return "NOT";
    case Kind::kNear: return "NEAR";
    case Kind::kAdj: return "ADJ";
    case Kind::kPlus: return "'+'";
    case Kind::kMinus: return "'-'";
    case Kind::kOpen: return "'('";
    case Kind::kClose: return "')'";
    default: return "term";
  }
}

std::vector<Lexeme> lex(std::string_view query, std::vector<std::string>* rereadings) {
  return Lexer(query, rereadings).run();
}

}  // namespace abstracts::query
