#include "indexer/bibtex_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "engine/analysis/unicode_text.h"
#include "indexer/names.h"

namespace abstracts::indexer {

namespace {

// A token of an entry's body: a name, a number, a braced or quoted string (a
// macro, once expanded, is one), '=', '#', ',', the closing '}' or ')', or
// another character ('('); its bytes are [begin, end) of the entry's text.
struct Token {
  enum Kind { kName, kNumber, kString, kEquals, kHash, kComma, kClose, kOther, kEnd } kind;
  std::size_t begin, end;
};

}  // namespace

// One entry as cut out of the file, its macros expanded, ready to parse.
struct BibtexReader::Entry {
  std::string text;        // from its '@' to its closing '}' or ')', lines joined by '\n'
  std::uint32_t line = 0;  // the line of its '@'
  std::string type;        // in lower case: "article", "string", "comment", ...
  std::vector<Token> tokens;  // of the body, as next_entry found them (none for @comment)
  // Read past, not kept (text and tokens empty): over a bound, which `problem`
  // names, or after the file's macros passed theirs (""), or malformed (broken).
  bool over = false;
  std::string problem;
  bool broken = false;             // malformed, as `problem` says
  std::uint32_t problem_line = 0;  // the line of what is wrong
};

namespace {

// The most bytes a file's macros may take, defined and expanded, in all: 18
// doubling @string macros, each used in an entry of 10 MiB, made 100 such uses
// in a 3 KB file take 1 GB.
constexpr std::size_t kMaxMacroBytes = 64 << 20;
constexpr const char* kMacrosOverBound =
    "the macros of this file expand to over 64 MiB, so its remaining entries are skipped too";
// An entry type longer than this is no type a style knows; it is kept no longer.
constexpr std::size_t kMaxTypeBytes = 256;

constexpr const char* kHint =
    "a BibTeX entry is @type{key, field = {value}, field = \"value\", ...}, its braces balanced";

// A character of a BibTeX name (an entry type, key, field or macro name), as
// btparse 0.89's lexer had it (measured): '@', '~' and every byte over 0x7F too.
bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         static_cast<unsigned char>(c) >= 0x80 ||
         std::string_view("!$&*+-./:;<>?@[]^_`|~").find(c) != std::string_view::npos;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

// `value` without the one pair of braces around all of it: Web of Science
// braces every value twice ("Title = {{...}}"), Zotero protects a whole title.
std::string_view unwrap(std::string_view value) {
  if (value.size() < 2 || value.front() != '{' || value.back() != '}') return value;
  int depth = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '{') ++depth;
    if (value[i] == '}' && --depth == 0 && i + 1 < value.size()) return value;  // "{A} and {B}"
  }
  return value.substr(1, value.size() - 2);
}

// An identifier or a date as plain text: no braces, "\_" -> "_" (a DOI's
// underscore is escaped for LaTeX).
std::string plain(std::string_view value) {
  std::string out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '{' || value[i] == '}') continue;
    if (value[i] == '\\' && i + 1 < value.size() &&
        std::string_view("_%&#$").find(value[i + 1]) != std::string_view::npos) {
      continue;
    }
    out += value[i];
  }
  return std::string(trim(out));
}

// "dec", "December", "12", "DEC 31" (Web of Science), "Jul-Aug" -> month (and
// day); 0 where there is none.
void parse_month(std::string_view text, int& month, int& day) {
  month = day = 0;
  std::vector<std::string> words;
  std::string word;
  for (char c : std::string(text) + " ") {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      word += c;
    } else if (!word.empty()) {
      words.push_back(lower(word));
      word.clear();
    }
  }
  if (words.empty()) return;
  if (words[0].find_first_not_of("0123456789") == std::string::npos && words[0].size() <= 2) {
    month = std::atoi(words[0].c_str());
  } else {
    month = month_number(words[0]);
  }
  if (month != 0 && words.size() > 1 && words[1].size() <= 2 &&
      words[1].find_first_not_of("0123456789") == std::string::npos) {
    day = std::atoi(words[1].c_str());
  }
}

// What an entry says, as parsed.
struct ParsedEntry {
  std::string key;
  // Field names in lower case, values with '#' pasted; the first of a repeated
  // field counts, as in BibTeX.
  std::vector<std::pair<std::string, std::string>> fields;
  std::string error;             // "" unless the entry is malformed
  std::size_t error_offset = 0;  // where in the entry's text
};

// Parses the tokens of an entry that next_entry cut out: its macros are
// expanded there, so a value is braced or quoted text or a number.
//   @type{key, name = value # value, ...}   (the key may be empty: Web of Science)
//   @string{name = value, ...}
// A value loses its delimiters, and its line breaks become spaces; in an entry
// but not a macro, runs of spaces become one and none lead or trail (a macro's
// text is collapsed where it is used). Tabs stay, as btparse, which read
// entries before, kept them.
class EntryParser {
 public:
  EntryParser(std::string_view text, const std::vector<Token>& tokens, bool macros)
      : text_(text), tokens_(tokens), macros_(macros) {}

  ParsedEntry parse() {
    try {
      Token t = next();
      if (!macros_) {
        if (t.kind == Token::kName || t.kind == Token::kNumber) {
          out_.key = std::string(spelled(t));
          t = next();
        }
        if (t.kind == Token::kClose && !out_.key.empty()) return std::move(out_);
        if (t.kind != Token::kComma)
          fail(t, out_.key.empty() ? "a key" : "\",\" or the entry's end");
        t = next();
      }
      while (t.kind != Token::kClose) {
        t = field(t);
        if (t.kind == Token::kClose) break;
        if (t.kind != Token::kComma) fail(t, "\"#\", \",\" or the entry's end");
        t = next();
      }
    } catch (const Token& t) {
      out_.error_offset = t.begin;
    }
    return std::move(out_);
  }

 private:
  std::string_view spelled(const Token& t) const { return text_.substr(t.begin, t.end - t.begin); }

  [[noreturn]] void fail(const Token& t, std::string_view expected) {
    std::string found = "the end of the entry";
    if (t.kind != Token::kEnd) {
      std::string_view shown = spelled(t);
      constexpr std::size_t kShownBytes = 60;
      if (shown.size() > kShownBytes) {
        found = "\"" + std::string(analysis::utf8_prefix(shown, kShownBytes)) + "...\"";
      } else {
        found = "\"" + std::string(shown) + "\"";
      }
    }
    std::replace(found.begin(), found.end(), '\n', ' ');  // the message is one line
    out_.error = "syntax error: found " + found + ", expected " + std::string(expected);
    throw t;
  }

  Token next() {
    return next_ < tokens_.size() ? tokens_[next_++]
                                  : Token{Token::kEnd, text_.size(), text_.size()};
  }

  // "name = value # value ...", from its name `t`; returns the token after it.
  Token field(Token t) {
    if (t.kind != Token::kName)
      fail(t, macros_ ? "a macro's name" : "a field name or the entry's end");
    std::string name = lower(spelled(t));
    t = next();
    if (t.kind != Token::kEquals) fail(t, "\"=\"");
    std::string value;
    do {
      t = next();
      if (t.kind == Token::kString) {
        value += spelled(t).substr(1, t.end - t.begin - 2);
      } else if (t.kind == Token::kNumber) {
        value += spelled(t);
      } else {
        fail(t, "a value ({...}, \"...\", a number or a macro)");
      }
      t = next();
    } while (t.kind == Token::kHash);
    std::replace_if(value.begin(), value.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    if (!macros_) value = collapse_ascii_spaces(value);
    out_.fields.emplace_back(std::move(name), std::move(value));
    return t;
  }

  // Runs of ASCII spaces as one, none leading or trailing. Not
  // analysis::collapse_spaces, which also folds tabs and Unicode spaces: the
  // record keeps them, as btparse did, and the stored text folds them later.
  static std::string collapse_ascii_spaces(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
      if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
      out += c;
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  }

  std::string_view text_;
  const std::vector<Token>& tokens_;
  bool macros_;
  std::size_t next_ = 0;
  ParsedEntry out_;
};

}  // namespace

BibtexReader::BibtexReader(std::unique_ptr<LineSource> src) : src_(std::move(src)) {
  format_ = Format::kBibtex;
  src_->allow_long_lines(true);  // an entry is bounded, not its lines
  // The month macros every BibTeX style defines.
  static constexpr const char* kMonths[][2] = {
      {"jan", "January"},   {"feb", "February"}, {"mar", "March"},    {"apr", "April"},
      {"may", "May"},       {"jun", "June"},     {"jul", "July"},     {"aug", "August"},
      {"sep", "September"}, {"oct", "October"},  {"nov", "November"}, {"dec", "December"}};
  for (const auto& [name, text] : kMonths) macros_[name] = text;
}

BibtexReader::~BibtexReader() = default;

namespace {

// True if `line` starts, after spaces, with "@word{" or "@word(".
bool opens_entry(std::string_view line) {
  const std::string_view s = trim(line);
  if (s.size() < 3 || s[0] != '@') return false;
  std::size_t i = 1;
  while (i < s.size() && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))) ++i;
  if (i == 1) return false;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i < s.size() && (s[i] == '{' || s[i] == '(');
}

}  // namespace

bool BibtexReader::starts(const std::vector<Line>& head) {
  bool line_start = true;  // not a piece that continues a long line
  for (const Line& l : head) {
    if (line_start && opens_entry(l.text)) return true;
    line_start = !l.continues;
  }
  return false;
}

bool BibtexReader::read_line() {
  const bool line_ended = !src_->line_continues();  // of the piece read last
  if (!src_->next(line_)) return false;
  pos_ = 0;
  may_start_ = may_start_ || line_ended;
  fresh_line_ = line_ended;
  newline_given_ = false;
  return true;
}

bool BibtexReader::get(char& c) {
  while (pos_ >= line_.size()) {
    // Lines are joined by '\n'; the pieces of a long one are not.
    if (!newline_given_ && !src_->line_continues()) {
      newline_given_ = true;
      c = '\n';
      return true;
    }
    if (!read_line()) return false;
  }
  c = line_[pos_++];
  return true;
}

bool BibtexReader::next_entry(Entry& entry) {
  // The entry's first character: an '@' that begins a line (after spaces), or
  // that follows the entry before it on its line; after a malformed entry whose
  // end is not known, the first line after it that opens an entry.
  while (true) {
    if (resync_ && fresh_line_ && opens_entry(line_)) {
      resync_ = false;
      pos_ = 0;
      may_start_ = true;
    }
    if (may_start_ && !resync_) {
      const std::size_t at = line_.find_first_not_of(" \t", pos_);
      if (at != std::string::npos && line_[at] == '@') {
        pos_ = at + 1;
        break;
      }
      // Blank to the end of a piece of a long line, the next piece may still start one.
      may_start_ = at == std::string::npos;
    }
    if (!read_line()) return false;
  }
  entry = Entry{};
  entry.line = src_->number();
  entry.over = rest_skipped_;
  fresh_line_ = false;  // the entry's own line opens no other
  std::string& text = entry.text;
  if (!entry.over) text = "@";
  // Leaves the entry out as malformed, for `what`, said at line `where`. With
  // `resync`, where it ends cannot be told: reading goes on at the next line
  // that opens an entry.
  auto malformed = [&](std::uint32_t where, std::string what, bool resync) {
    entry.over = entry.broken = true;
    entry.problem = std::move(what);
    entry.problem_line = where;
    text = std::string();
    entry.tokens = std::vector<Token>();
    if (resync) {
      resync_ = true;
      fresh_line_ = false;  // not at the line of what is wrong: at a line after it
    }
    return true;
  };
  // Leaves the entry out, for `problem`: what it holds is dropped, and the rest
  // of it is only scanned, to its end.
  auto go_over = [&](std::string problem) {
    entry.over = true;
    entry.problem = std::move(problem);
    text = std::string();
    entry.tokens = std::vector<Token>();
  };
  // Appends a character the scan has read.
  auto keep = [&](char c) {
    if (entry.over) return;
    text += c;
    if (text.size() > kMaxRecordBytes) go_over("a BibTeX entry over 16 MiB");
  };
  auto token = [&](Token::Kind kind, std::size_t begin, std::size_t end) {
    if (!entry.over) entry.tokens.push_back({kind, begin, end});
  };

  // Where the scan is: the type after '@', the space before the opening '{' or
  // '(', the body (names, '=', '#', ',' and values), a name, a braced or quoted
  // value, a '%' comment, or the body of @comment (one braced or parenthesised
  // text). The text is kept as it is read, a macro's text in place of its name.
  enum class In { kType, kOpen, kBody, kName, kBraced, kQuoted, kPercent, kComment } in = In::kType;
  char opener = '\0';
  int depth = 0;
  std::size_t string_begin = 0;  // of the braced or quoted string being read
  std::size_t name_begin = 0;    // of the name being read
  bool expect_value = false;     // after '=' or '#': a name here is a macro
  bool name_is_value = false;    // the name being read stands where a value goes
  // The name being read has ended: a token, or, where a value goes, the macro's
  // text, braced. Undefined, a macro is empty, as in BibTeX; a number is no
  // macro. Both bounds are checked before the text is made.
  auto end_name = [&] {
    in = In::kBody;
    if (entry.over) return;
    const std::size_t end = text.size();
    const bool number = text.find_first_not_of("0123456789", name_begin) == std::string::npos;
    if (!name_is_value || number) {
      token(number ? Token::kNumber : Token::kName, name_begin, end);
      return;
    }
    std::string_view value;
    if (auto it = macros_.find(lower(std::string_view(text).substr(name_begin, end - name_begin)));
        it != macros_.end()) {
      value = it->second;
    }
    if (name_begin + value.size() + 2 > kMaxRecordBytes) {
      go_over("an entry over 16 MiB once its macros are expanded");
      return;
    }
    if (macro_bytes_ + value.size() > kMaxMacroBytes) {
      rest_skipped_ = true;
      go_over(kMacrosOverBound);
      return;
    }
    macro_bytes_ += value.size();
    text.resize(name_begin);
    text += '{';
    text += value;
    std::replace(text.begin() + static_cast<std::ptrdiff_t>(name_begin), text.end(), '\n', ' ');
    text += '}';
    token(Token::kString, name_begin, text.size());
  };

  for (char c;;) {
    if (!get(c)) {
      return malformed(entry.line,
                       in == In::kType || in == In::kOpen
                           ? "an '@' without an entry after it"
                           : "the entry that starts here never ends (a '{' or '\"' left open?)",
                       false);
    }
    const std::uint32_t number = src_->number();
    // A line that opens an entry ends one left open: a '{' or '"' too many
    // would take the rest of the file with it. Not so in @comment, whose text
    // may be entries set aside.
    if (fresh_line_) {
      fresh_line_ = false;
      if (in != In::kComment && opens_entry(line_)) {
        pos_ = 0;
        may_start_ = true;
        return malformed(entry.line,
                         "the entry that starts here does not end before the entry on line " +
                             std::to_string(number) + " (a '{' or '\"' left open?)",
                         false);
      }
    }
    if (in == In::kName) {
      if (is_name_char(c)) {
        keep(c);
        continue;
      }
      end_name();  // and `c` is read in the body
    }
    const std::size_t i = text.size();  // where `c` goes
    switch (in) {
      case In::kType:
        if (entry.type.empty() && (c == ' ' || c == '\t')) break;
        if (is_name_char(c)) {
          if (entry.type.size() < kMaxTypeBytes) entry.type += c;
          break;
        }
        if (entry.type.empty()) return malformed(number, "an '@' without an entry type after it", true);
        entry.type = lower(entry.type);
        in = In::kOpen;
        [[fallthrough]];
      case In::kOpen:
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') break;
        if (c != '{' && c != '(') {
          return malformed(number,
                           "'@" + std::string(analysis::utf8_prefix(entry.type, kMaxTypeBytes)) +
                               "' is not followed by '{' or '('",
                           true);
        }
        opener = c;
        depth = 1;
        in = entry.type == "comment" ? In::kComment : In::kBody;
        break;
      case In::kComment:  // @comment's body is one braced or parenthesised text
        if (c == opener) ++depth;
        if (c == (opener == '{' ? '}' : ')') && --depth == 0) {
          keep(c);
          may_start_ = true;  // the rest of the line may start the next entry
          return true;
        }
        break;
      case In::kPercent:
        if (c == '\n') in = In::kBody;
        break;
      case In::kBraced:
        if (c == '{') ++depth;
        if (c == '}' && --depth == 0) {
          token(Token::kString, string_begin, i + 1);
          in = In::kBody;
        }
        break;
      case In::kQuoted:
        if (c == '{') ++depth;
        // As BibTeX and btparse read it: "a}b" is malformed, and a macro so
        // defined would unbalance the entry it is expanded into.
        if (c == '}' && depth == 0)
          return malformed(number, "unbalanced braces: a '}' in a quoted value closes no '{'", true);
        if (c == '}') --depth;
        if (c == '"' && depth == 0) {
          token(Token::kString, string_begin, i + 1);
          in = In::kBody;
        }
        break;
      case In::kName:  // ended above
      case In::kBody:
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') break;
        if (c == '%') {  // a comment between a name and its '=' changes nothing
          in = In::kPercent;
          break;
        }
        // A character that starts no token ("Title = \x7f{Urban ...}").
        if (!is_name_char(c) && std::string_view("{}\"=#,()").find(c) == std::string_view::npos) {
          char shown[16];
          std::snprintf(shown, sizeof shown, "byte 0x%02x", static_cast<unsigned char>(c));
          return malformed(
              number,
              (c > ' ' && c < 0x7f ? "'" + std::string(1, c) + "'" : std::string(shown)) +
                  " outside a value (a value is {...}, \"...\", a number or a macro)",
              true);
        }
        if (c == '}' || c == ')') {
          token(Token::kClose, i, i + 1);
          keep(c);
          may_start_ = true;  // the rest of the line may start the next entry
          return true;
        }
        if (c == '{' || c == '"') {
          in = c == '{' ? In::kBraced : In::kQuoted;
          depth = c == '{' ? 1 : 0;
          string_begin = i;
        } else if (is_name_char(c)) {
          in = In::kName;
          name_begin = i;
          name_is_value = expect_value;
        } else {
          const Token::Kind kind = c == '='   ? Token::kEquals
                                   : c == '#' ? Token::kHash
                                   : c == ',' ? Token::kComma
                                              : Token::kOther;  // '('
          token(kind, i, i + 1);
        }
        expect_value = c == '=' || c == '#';
        break;
    }
    keep(c);
  }
}

std::optional<Record> BibtexReader::read_next() {
  Entry entry;
  while (next_entry(entry)) {
    if (entry.broken) {
      reject(entry.problem_line, std::move(entry.problem), kHint);
      continue;
    }
    if (entry.type == "comment" || entry.type == "preamble") continue;  // nothing to index
    const bool macros = entry.type == "string";
    if (entry.over) {
      if (entry.problem.empty()) {  // after the file's macros passed their bound, which was said
        if (!macros) reject_more(1);
        continue;
      }
      // A macro left undefined would expand to nothing where it is used.
      if (macros && !rest_skipped_) {
        rest_skipped_ = true;
        entry.problem += ", so the file's remaining entries are skipped too";
      }
      reject(entry.line, std::move(entry.problem));
      continue;
    }
    ParsedEntry parsed = EntryParser(entry.text, entry.tokens, macros).parse();
    if (!parsed.error.empty()) {  // its braces balance: the next entry is read as it is
      const auto line = static_cast<std::uint32_t>(
          entry.line +
          std::count(entry.text.begin(),
                     entry.text.begin() + static_cast<std::ptrdiff_t>(parsed.error_offset), '\n'));
      reject(line, std::move(parsed.error), kHint);
      continue;
    }
    const auto& fields = parsed.fields;
    auto get = [&](std::string_view key) -> std::string_view {
      for (const auto& [k, v] : fields) {
        if (k == key) return unwrap(v);
      }
      return {};
    };
    if (macros) {
      std::size_t bytes = 0;
      for (const auto& [k, v] : fields) bytes += v.size();
      if (macro_bytes_ + bytes > kMaxMacroBytes) {
        rest_skipped_ = true;
        reject(entry.line, kMacrosOverBound);
        continue;
      }
      macro_bytes_ += bytes;
      for (const auto& [k, v] : fields) macros_[k] = v;
      continue;
    }
    Record r;
    r.line = entry.line;
    r.raw_text = std::string(get("abstract"));
    if (is_empty_text(r.raw_text)) {
      ++skipped_;
      continue;
    }
    Abstract& f = r.fields;
    f.title = std::string(get("title"));
    split_bibtex_names(get("author"), f);
    if (!parse_date(plain(get("date")), f.year, f.month, f.day) &&
        parse_date(plain(get("year")), f.year, f.month, f.day)) {
      parse_month(plain(get("month")), f.month, f.day);
      settle_date(f.year, f.month, f.day);
    }
    for (std::string_view venue : {"journaltitle", "journal", "booktitle"}) {
      if (f.venue.empty()) f.venue = std::string(get(venue));
    }
    f.categories = split_list(get("keywords"), ",;", kMaxCategories);
    f.doi = plain(get("doi"));
    f.pmid = plain(get("pmid"));
    f.pmcid = plain(get("pmcid"));
    // Zotero's BibTeX writes what its Extra says besides into the note.
    if (f.pmcid.empty()) f.pmcid = extra_line(plain(get("note")), "PMCID");
    f.isbn = plain(get("isbn"));
    const std::string eprint_type = lower(plain(get("eprinttype"))),
                      prefix = lower(plain(get("archiveprefix")));
    if (eprint_type == "arxiv" || prefix == "arxiv") f.arxiv_id = plain(get("eprint"));
    f.citation_key = std::move(parsed.key);
    f.item_type = entry.type;  // "article", "inproceedings", ... (lower case)
    f.volume = plain(get("volume"));
    f.issue = plain(get("number"));
    if (f.issue.empty()) f.issue = plain(get("issue"));
    // "10511--10520": BibTeX's range dash is LaTeX's en dash; one hyphen, as other formats write it.
    f.pages = plain(get("pages"));
    for (std::size_t at; (at = f.pages.find("--")) != std::string::npos;) f.pages.erase(at, 1);
    f.publisher = display_text(get("publisher"));
    f.url = plain(get("url"));
    f.issn = plain(get("issn"));
    return r;
  }
  return std::nullopt;
}

}  // namespace abstracts::indexer
