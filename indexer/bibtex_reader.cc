#include "indexer/bibtex_reader.h"

#include <btparse.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <utility>

#include "abstracts/error.h"
#include "indexer/names.h"

namespace abstracts::indexer {

// One entry as cut out of the file, ready for btparse.
struct BibtexReader::Entry {
  std::string text;        // from its '@' to its closing '}' or ')', lines joined by '\n'
  std::uint32_t line = 0;  // the line of its '@'
  std::string type;        // in lower case: "article", "string", "comment", ...
  bool empty_key = false;  // "@article{ ,": kNoKey stands in for the key
};

namespace {

// An entry is bounded: a '{' left open would otherwise read the rest of the file.
constexpr std::size_t kMaxEntryBytes = 16 << 20;

// btparse refuses "@article{ ," (Web of Science writes every key so); this key,
// put in its place, is read back as no key.
constexpr std::string_view kNoKey = "abstracts-no-key";

// btparse uses the text of a token it reports as a printf format ("syntax error:
// found ..."), so a '%' in it ("title = "a"{b %n}") crashed the program. Every '%'
// in a value or a comment is this byte while btparse reads the entry, and '%'
// again in what comes out; no line of valid UTF-8, which is all that gets here,
// has it.
constexpr char kPercentStandIn = '\xFF';

// `text` with every kPercentStandIn made '%' again.
std::string percent_restored(std::string text) {
  std::replace(text.begin(), text.end(), kPercentStandIn, '%');
  return text;
}

constexpr const char* kHint =
    "a BibTeX entry is @type{key, field = {value}, field = \"value\", ...}, its braces balanced";

// btparse keeps its lexer, error counts and messages in globals.
std::mutex& btparse_mutex() {
  static std::mutex mutex;
  return mutex;
}

// A character of a BibTeX name (an entry type, key, field or macro name), as
// btparse 0.89's lexer has it: measured, not bt_language(3)'s list, which
// leaves out '@', '~' and every byte over 0x7F.
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

// btparse reports through a table of handlers it does not export, which print
// to stderr; but glibc's stderr is an ordinary variable (the glibc manual says
// so), so while btparse runs, under btparse_mutex(), it points at a memory
// stream. (A C stdio write to stderr from another thread in that window lands
// there too; std::cerr keeps its own FILE* and is not affected.)
class CaughtMessages {
 public:
  CaughtMessages() {
    stream_ = open_memstream(&buffer_, &size_);
    if (stream_ != nullptr) {
      saved_ = stderr;
      stderr = stream_;
    }
  }
  ~CaughtMessages() {
    stop();
    std::free(buffer_);
  }
  CaughtMessages(const CaughtMessages&) = delete;
  CaughtMessages& operator=(const CaughtMessages&) = delete;

  // The first error btparse reported ("syntax error: found ...", without its
  // "line N, " prefix), and its line in `line`; "" if it reported none.
  std::string first_error(std::uint32_t& line) {
    stop();
    std::string_view all(buffer_ != nullptr ? buffer_ : "", size_);
    while (!all.empty()) {
      std::string_view message = all.substr(0, all.find('\n'));
      all.remove_prefix(std::min(all.size(), message.size() + 1));
      if (message.starts_with("line ")) {
        const std::size_t comma = message.find(", ");
        if (comma == std::string_view::npos) continue;
        const std::uint32_t at =
            static_cast<std::uint32_t>(std::atol(std::string(message.substr(5, comma)).c_str()));
        message.remove_prefix(comma + 2);
        if (message.find("error") < message.find(':')) {
          if (at > 0) line = at;
          return std::string(message);
        }
      } else if (message.find("error") < message.find(':')) {
        return std::string(message);
      }
    }
    return "";
  }

 private:
  void stop() {
    if (stream_ == nullptr) return;
    stderr = saved_;
    std::fclose(stream_);
    stream_ = nullptr;
  }

  FILE* stream_ = nullptr;
  FILE* saved_ = nullptr;
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
};

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

}  // namespace

BibtexReader::BibtexReader(std::unique_ptr<LineSource> src) : src_(std::move(src)) {
  format_ = Format::kBibtex;
  // The month macros every BibTeX style defines.
  static constexpr const char* kMonths[][2] = {
      {"jan", "January"},   {"feb", "February"}, {"mar", "March"},    {"apr", "April"},
      {"may", "May"},       {"jun", "June"},     {"jul", "July"},     {"aug", "August"},
      {"sep", "September"}, {"oct", "October"},  {"nov", "November"}, {"dec", "December"}};
  for (const auto& [name, text] : kMonths) macros_[name] = text;
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    std::lock_guard lock(btparse_mutex());
    bt_initialize();
  });
}

BibtexReader::~BibtexReader() = default;

bool BibtexReader::starts(const std::vector<Line>& head) {
  return std::any_of(head.begin(), head.end(), [](const Line& l) {
    std::string_view s = trim(l.text);
    if (s.size() < 3 || s[0] != '@') return false;
    std::size_t i = 1;
    while (i < s.size() && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))) ++i;
    if (i == 1) return false;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    return i < s.size() && (s[i] == '{' || s[i] == '(');
  });
}

bool BibtexReader::next_entry(Entry& entry) {
  // The entry's first line: one whose first non-blank character is '@', or the
  // rest of the line the last entry ended on.
  std::string line;
  std::uint32_t number = 0;
  std::size_t at = 0;
  while (true) {
    if (!rest_.empty()) {
      line = std::move(rest_);
      rest_.clear();
      number = rest_line_;
    } else if (src_->next(line)) {
      number = src_->number();
    } else {
      return false;
    }
    at = line.find_first_not_of(" \t");
    if (at != std::string::npos && line[at] == '@') break;
  }
  entry = Entry{};
  entry.line = number;
  std::string& text = entry.text;
  text.assign(line, at);
  auto malformed = [&](std::uint32_t where, const std::string& what) {
    return InputError(src_->where(where) + ": " + what, src_->name(), where, kHint);
  };

  // Where the scan is: the type after '@', the space before the opening '{' or
  // '(', the body (names, '=', '#', ',' and values), a braced or quoted value,
  // a '%' comment, or the body of @comment (one braced or parenthesised text).
  enum class In { kType, kOpen, kBody, kBraced, kQuoted, kPercent, kComment } in = In::kType;
  char opener = '\0';
  int depth = 0;
  bool expect_value = false;  // after '=' or '#': a name here is a macro
  bool first = true;          // nothing read yet in the body (the key comes first)
  // A name that is not followed by '=' (as a field's name, or a macro's being
  // defined, is) is expanded too, wherever it stands: btparse may still read
  // it as a value while it recovers from an error.
  std::size_t pending = std::string::npos, pending_end = 0;
  // Puts the text of the macro named by text[from, to) in its place, braced,
  // and returns how much longer the text became. btparse's own macro table
  // keeps every name ever defined in a fixed space and exits the program when
  // it is full; and a macro btparse finds undefined leaks a byte. Undefined
  // here, a macro is empty, as in BibTeX.
  auto expand = [&](std::size_t from, std::size_t to) {
    std::string value;
    if (auto it = macros_.find(lower(std::string_view(text).substr(from, to - from)));
        it != macros_.end()) {
      value = it->second;
    }
    std::replace(value.begin(), value.end(), '\n', ' ');
    std::replace(value.begin(), value.end(), '%', kPercentStandIn);
    text.replace(from, to - from, "{" + value + "}");
    if (text.size() > kMaxEntryBytes)
      throw malformed(number, "an entry over 16 MiB once its macros are expanded");
    return static_cast<std::ptrdiff_t>(value.size() + 2) - static_cast<std::ptrdiff_t>(to - from);
  };
  for (std::size_t i = 1;; ++i) {
    if (i >= text.size()) {
      if (text.size() > kMaxEntryBytes)
        throw malformed(entry.line, "an entry over 16 MiB (a '{' left open?)");
      if (!src_->next(line)) {
        throw malformed(entry.line,
                        in == In::kType || in == In::kOpen
                            ? "an '@' without an entry after it"
                            : "the entry that starts here never ends (a '{' or '\"' left open?)");
      }
      number = src_->number();
      text += '\n';
      text += line;
    }
    const char c = text[i];
    switch (in) {
      case In::kType:
        if (entry.type.empty() && (c == ' ' || c == '\t')) break;
        if (is_name_char(c)) {
          entry.type += c;
          break;
        }
        if (entry.type.empty()) throw malformed(number, "an '@' without an entry type after it");
        entry.type = lower(entry.type);
        in = In::kOpen;
        [[fallthrough]];
      case In::kOpen:
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') break;
        if (c != '{' && c != '(')
          throw malformed(number, "'@" + entry.type + "' is not followed by '{' or '('");
        opener = c;
        depth = 1;
        in = entry.type == "comment" ? In::kComment : In::kBody;
        break;
      case In::kComment:  // btparse reads @comment's body as one string
        if (c == opener) ++depth;
        if (c == (opener == '{' ? '}' : ')') && --depth == 0) {
          rest_ = text.substr(i + 1);
          rest_line_ = number;
          text.resize(i + 1);
          return true;
        }
        break;
      case In::kPercent:
        if (c == '%') text[i] = kPercentStandIn;
        if (c == '\n') in = In::kBody;
        break;
      case In::kBraced:
        if (c == '%') text[i] = kPercentStandIn;
        if (c == '{') ++depth;
        if (c == '}' && --depth == 0) in = In::kBody;
        break;
      case In::kQuoted:
        if (c == '%') text[i] = kPercentStandIn;
        if (c == '{') ++depth;
        if (c == '}' && depth > 0) --depth;
        if (c == '"' && depth == 0) in = In::kBody;
        break;
      case In::kBody:
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') break;
        if (c == '%') {  // a comment between a name and its '=' changes nothing
          in = In::kPercent;
          break;
        }
        // A character that starts no token is btparse's error too, but its
        // lexer would skip it and more after it, reading on in ways not worth
        // following ("Title = \x7f{Urban ...}" makes "Urban" a macro).
        if (!is_name_char(c) && std::string_view("{}\"=#,()").find(c) == std::string_view::npos) {
          char shown[16];
          std::snprintf(shown, sizeof shown, "byte 0x%02x", static_cast<unsigned char>(c));
          throw malformed(
              number, (c > ' ' && c < 0x7f ? "'" + std::string(1, c) + "'" : std::string(shown)) +
                          " outside a value (a value is {...}, \"...\", a number or a macro)");
        }
        if (pending != std::string::npos) {
          if (c != '=') i += expand(pending, pending_end);
          pending = std::string::npos;
        }
        if (c == '}' || c == ')') {
          rest_ = text.substr(i + 1);
          rest_line_ = number;
          text.resize(i + 1);
          return true;
        }
        if (c == '{') {
          in = In::kBraced;
          depth = 1;
        } else if (c == '"') {
          in = In::kQuoted;
          depth = 0;
        } else if (c == ',' && first && entry.type != "string") {
          text.insert(i, kNoKey);
          i += kNoKey.size();
          entry.empty_key = true;
        } else if (is_name_char(c)) {
          std::size_t end = i;
          while (end < text.size() && is_name_char(text[end])) ++end;
          if (text.find_first_not_of("0123456789", i) < end) {  // a number is no macro
            if (expect_value) {
              end += expand(i, end);
            } else if (!first || entry.type == "string") {  // a name, unless '=' follows
              pending = i;
              pending_end = end;
            }
          }
          i = end - 1;
        }
        expect_value = c == '=' || c == '#';
        first = false;
        break;
    }
  }
}

std::optional<Record> BibtexReader::next() {
  Entry entry;
  while (next_entry(entry)) {
    // Nothing to index, and nothing btparse need see.
    if (entry.type == "comment" || entry.type == "preamble") continue;
    std::lock_guard lock(btparse_mutex());
    boolean ok = FALSE;
    std::uint32_t error_line = entry.line;
    std::string error;
    AST* ast = nullptr;
    {
      CaughtMessages messages;
      // BTO_NOSTORE: @string macros are kept here (see next_entry), never in btparse's table.
      ast = bt_parse_entry_s(entry.text.data(), nullptr, static_cast<int>(entry.line), BTO_NOSTORE,
                             &ok);
      bt_parse_entry_s(nullptr, nullptr, 1, 0, nullptr);  // frees the lexer's buffer
      if (!ok || ast == nullptr) error = percent_restored(messages.first_error(error_line));
    }
    std::unique_ptr<AST, void (*)(AST*)> owned(ast, bt_free_ast);
    if (!ok || ast == nullptr) {
      if (error.empty()) error = "not a BibTeX entry";
      throw InputError(src_->where(error_line) + ": " + error, src_->name(), error_line, kHint);
    }
    // Field names in lower case (btparse lowers them), values with '#' pasted
    // and white space collapsed; the first of a repeated field counts, as in BibTeX.
    std::vector<std::pair<std::string, std::string>> fields;
    char* name = nullptr;
    for (AST* field = nullptr; (field = bt_next_field(ast, field, &name)) != nullptr;) {
      std::string value;
      bt_nodetype type;
      char* part = nullptr;
      for (AST* v = nullptr; (v = bt_next_value(field, v, &type, &part)) != nullptr;) {
        if (part != nullptr && type != BTAST_MACRO) value += part;
      }
      fields.emplace_back(name != nullptr ? name : "", percent_restored(std::move(value)));
    }
    auto get = [&](std::string_view key) -> std::string_view {
      for (const auto& [k, v] : fields) {
        if (k == key) return unwrap(v);
      }
      return {};
    };
    if (bt_entry_metatype(ast) == BTE_MACRODEF) {
      for (const auto& [k, v] : fields) macros_[lower(k)] = v;
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
    f.authors = split_bibtex_names(get("author"));
    if (!parse_date(plain(get("date")), f.year, f.month, f.day) &&
        parse_date(plain(get("year")), f.year, f.month, f.day)) {
      parse_month(plain(get("month")), f.month, f.day);
      settle_date(f.year, f.month, f.day);
    }
    for (std::string_view venue : {"journaltitle", "journal", "booktitle"}) {
      if (f.venue.empty()) f.venue = std::string(get(venue));
    }
    f.categories = split_list(get("keywords"), ",;");
    f.doi = plain(get("doi"));
    f.pmid = plain(get("pmid"));
    const std::string eprint_type = lower(plain(get("eprinttype"))),
                      prefix = lower(plain(get("archiveprefix")));
    if (eprint_type == "arxiv" || prefix == "arxiv") f.arxiv_id = plain(get("eprint"));
    if (!entry.empty_key) {
      const char* key = bt_entry_key(ast);
      if (key != nullptr) f.citation_key = key;
    }
    return r;
  }
  return std::nullopt;
}

}  // namespace abstracts::indexer
