#include "citation.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace reading_list {

namespace {

constexpr std::size_t kMaxKeyBytes = 200;

bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == ':' || c == '.' || c == '-';
}

bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }

// A brace of the text that pairs with none, written so that BibTeX (which
// counts every brace, escaped or not), LaTeX and `abstracts index` all read one
// brace: the escaped brace's partner, which BibTeX needs, sits where LaTeX
// skips it (\iffalse ... \fi) inside an argument abstracts drops (\hspace's).
constexpr const char* kLoneOpenBrace = "\\{\\hspace{0pt\\iffalse\\}\\fi}";
constexpr const char* kLoneCloseBrace = "\\hspace{0pt\\iffalse\\{\\fi}\\}";

// `value` for a BibTeX field. A reader takes off one pair of braces that
// encloses a whole value (Web of Science braces every value twice), so a value
// that is one braced group, such as an organisation's name, gets a pair more.
std::string braced_whole(std::string value) {
  if (value.size() < 2 || value.front() != '{' || value.back() != '}') return value;
  int depth = 0;
  for (std::size_t i = 0; i + 1 < value.size(); ++i) {
    if (value[i] == '{') ++depth;
    if (value[i] == '}' && --depth == 0) return value;  // "{A} and {B}": no one group
  }
  return "{" + value + "}";
}

// Free text for a BibTeX field.
std::string bibtex_text(std::string_view text) { return braced_whole(bibtex_escape(text)); }

// An identifier (DOI, arXiv id, PMID, link) for a BibTeX field: LaTeX's
// specials escaped, as readers unescape them; braces, backslashes and control
// characters, which no real identifier has and readers drop from one, left out.
std::string bibtex_identifier(std::string_view id) {
  std::string out;
  for (char c : id) {
    if (c == '{' || c == '}' || c == '\\' || is_control(c)) continue;
    if (c == '%' || c == '&' || c == '$' || c == '#' || c == '_') out += '\\';
    out += c;
  }
  return out;
}

// Whether BibTeX would split a name part: at a comma, or at the word "and".
bool splits_name(std::string_view part) {
  if (part.find(',') != std::string_view::npos) return true;
  for (std::size_t i = 0; i + 3 <= part.size(); ++i) {
    const bool starts = i == 0 || part[i - 1] == ' ' || part[i - 1] == '\t' || part[i - 1] == '~';
    const bool ends =
        i + 3 == part.size() || part[i + 3] == ' ' || part[i + 3] == '\t' || part[i + 3] == '~';
    if (starts && ends && (part[i] | 0x20) == 'a' && (part[i + 1] | 0x20) == 'n' &&
        (part[i + 2] | 0x20) == 'd') {
      return true;
    }
  }
  return false;
}

std::string bibtex_name_part(std::string_view part) {
  std::string escaped = bibtex_escape(part);
  return splits_name(part) ? "{" + escaped + "}" : escaped;
}

// "Family, Given" for BibTeX's author list; a name of one part (an organisation,
// "IEEE", "The ATLAS Collaboration") in braces, so no style splits it.
std::string bibtex_name(const abstracts::Author& author) {
  if (author.given.empty()) return "{" + bibtex_escape(author.family) + "}";
  return bibtex_name_part(author.family) + ", " + bibtex_name_part(author.given);
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

// `path` as part of a URL: what RFC 3986 allows in a path stays, any other
// byte is percent-encoded ("<" -> "%3C", "#" -> "%23", "%" -> "%25"), as the
// DOI Handbook asks of a DOI in a link.
std::string url_path(std::string_view path) {
  std::string out;
  for (char c : path) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        std::string_view("-._~!$&'()*+,;=:@/").find(c) != std::string_view::npos) {
      out += c;
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

// A link to the paper: its arXiv page, else its DOI's. Not a DOI link that
// holds "arxiv.org/abs/": RIS and CSL-JSON readers take such a link for the
// arXiv id of the paper, which it is not.
std::string url_of(const abstracts::Abstract& a) {
  if (!a.arxiv_id.empty()) return "https://arxiv.org/abs/" + url_path(a.arxiv_id);
  if (!a.doi.empty() && a.doi.find("arxiv.org/abs/") == std::string::npos) {
    return "https://doi.org/" + url_path(a.doi);
  }
  return {};
}

// `value` as one RIS line: its line separators (CR, LF, VT, FF, NEL, U+2028,
// U+2029) and other control characters, which could end the line or start
// another tag for some reader, become spaces.
std::string ris_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c == 0xC2 && i + 1 < value.size() && static_cast<unsigned char>(value[i + 1]) == 0x85) {
      out += ' ';  // NEL
      ++i;
    } else if (c == 0xE2 && value.substr(i + 1, 2) == "\x80\xA8") {
      out += ' ';  // U+2028
      i += 2;
    } else if (c == 0xE2 && value.substr(i + 1, 2) == "\x80\xA9") {
      out += ' ';  // U+2029
      i += 2;
    } else {
      out += is_control(value[i]) ? ' ' : value[i];
    }
  }
  return out;
}

// `text` as `abstracts index` reads it back from RIS or CSL-JSON, whose text
// it cleans of LaTeX as any format's: braces and '$' (math delimiters) get a
// backslash, and "--" is kept from becoming an en dash.
std::string latex_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{' || c == '}' || c == '$') out += '\\';
    out += c;
    if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') out += "{}";
  }
  return out;
}

// CSL-JSON's title and abstract are rich text, where a tag or an entity is
// markup: a '<' that could start a tag and an '&' that could start an entity
// are written as entities themselves.
std::string html_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '<' && (next == '/' || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z'))) {
      out += "&lt;";
    } else if (c == '&' && text.substr(i + 1, 11).find(';') != std::string_view::npos) {
      // An entity's name is at most 10 bytes.
      out += "&amp;";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string bibtex_escape(std::string_view text) {
  // Which braces pair up, as a stack of the open ones finds them.
  std::vector<bool> paired(text.size(), false);
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      open.push_back(i);
    } else if (text[i] == '}' && !open.empty()) {
      paired[open.back()] = paired[i] = true;
      open.pop_back();
    }
  }
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '{':
        out += paired[i] ? "\\{" : kLoneOpenBrace;
        break;
      case '}':
        out += paired[i] ? "\\}" : kLoneCloseBrace;
        break;
      case '\\':
        out += "\\textbackslash{}";
        break;
      case '%':
      case '&':
      case '$':
      case '#':
      case '_':
        out += '\\';
        out += c;
        break;
      case '-':
        // "--" is an en dash to LaTeX and to abstracts' reader.
        out += i + 1 < text.size() && text[i + 1] == '-' ? "-{}" : "-";
        break;
      default:
        out += is_control(c) ? ' ' : c;
    }
  }
  return out;
}

Kind kind_of(const abstracts::Abstract& a) {
  if (a.venue.empty()) return Kind::kOther;
  if (!a.arxiv_id.empty() && a.venue == "arXiv") return Kind::kPreprint;
  if (!a.doi.empty() || !a.pmid.empty()) return Kind::kArticle;
  return Kind::kConference;
}

bool is_safe_key(std::string_view key) {
  return !key.empty() && key.size() <= kMaxKeyBytes &&
         std::all_of(key.begin(), key.end(), is_key_char);
}

std::string CitationKeys::key_for(const abstracts::Abstract& a) {
  std::string key;
  if (is_safe_key(a.citation_key)) {
    key = a.citation_key;
  } else {
    for (char c : a.id) {
      if (is_key_char(c)) {
        key += c;
      } else if (key.empty() || key.back() != '_') {
        key += '_';
      }
    }
    if (key.size() > kMaxKeyBytes) key.resize(kMaxKeyBytes);
    if (key.empty()) key = "abstract";
  }
  // The same key twice would make one abstract of two when read back.
  std::string unique = key;
  for (int n = 2; given_.count(unique) != 0; ++n) unique = key + "-" + std::to_string(n);
  given_.insert(unique);
  return unique;
}

std::string bibtex_entry(const abstracts::Abstract& a, std::string_view key,
                         std::string_view location) {
  const Kind kind = kind_of(a);
  const char* type = kind == Kind::kArticle      ? "@article{"
                     : kind == Kind::kConference ? "@inproceedings{"
                                                 : "@misc{";
  std::string out = type + std::string(key) + ",\n";
  auto field = [&out](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    out += "  ";
    out += name;
    out += std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') + "= {" + value + "},\n";
  };
  std::vector<std::string> names;
  for (const auto& author : a.authors) names.push_back(bibtex_name(author));
  field("author", braced_whole(joined(names, " and ")));
  // Double braces keep the title's capitals (LLMs, BERT) in every style; the
  // outer pair is the one a reader takes off.
  field("title", "{" + bibtex_escape(a.title) + "}");
  const std::string year = a.year != 0 ? std::to_string(a.year) : std::string();
  switch (kind) {
    case Kind::kArticle:
      field("journal", bibtex_text(a.venue));
      break;
    case Kind::kPreprint:
      field("eprint", bibtex_identifier(a.arxiv_id));
      field("archiveprefix", "arXiv");
      if (!a.categories.empty()) field("primaryclass", bibtex_text(a.categories.front()));
      break;
    case Kind::kConference:
      field("booktitle", bibtex_text(year.empty() ? a.venue : a.venue + " " + year));
      break;
    case Kind::kOther:
      break;
  }
  if (kind != Kind::kPreprint && !a.arxiv_id.empty()) {
    // A published paper's preprint, as biblatex gives it.
    field("eprint", bibtex_identifier(a.arxiv_id));
    field("archiveprefix", "arXiv");
  }
  field("year", year);
  field("doi", bibtex_identifier(a.doi));
  field("pmid", bibtex_identifier(a.pmid));
  if (kind == Kind::kPreprint) field("url", bibtex_identifier(url_of(a)));
  std::vector<std::string> keywords;
  for (const auto& c : a.categories) keywords.push_back(bibtex_escape(c));
  field("keywords", braced_whole(joined(keywords, ", ")));
  field("note", bibtex_text(location));
  field("abstract", bibtex_text(a.text));
  out.erase(out.size() - 2, 1);  // no comma after the last field
  out += "}\n\n";
  return out;
}

std::string ris_record(const abstracts::Abstract& a, std::string_view key,
                       std::string_view location) {
  std::string out;
  auto tag = [&out](std::string_view name, std::string_view value) {
    if (value.empty()) return;
    out += std::string(name) + "  - " + ris_value(value) + "\r\n";
  };
  switch (kind_of(a)) {
    case Kind::kArticle:
      tag("TY", "JOUR");
      break;
    case Kind::kPreprint:
      tag("TY", "UNPB");
      break;
    case Kind::kConference:
      tag("TY", "CONF");
      break;
    case Kind::kOther:
      tag("TY", "GEN");
      break;
  }
  for (const auto& author : a.authors) {
    // "Family, Given"; a name of one part ("The ATLAS Collaboration") keeps
    // its comma, which says the whole is a family name.
    tag("AU", latex_safe(author.family) + "," +
                  (author.given.empty() ? "" : " " + latex_safe(author.given)));
  }
  tag("TI", latex_safe(a.title));
  tag("T2", latex_safe(a.venue));
  if (a.year != 0) {
    tag("PY", std::to_string(a.year));
    // RIS leaves an unknown month or day empty: "2007/04/02/", "2007/04//", "2007///".
    auto part = [](int n) {
      return n == 0 ? std::string() : (n < 10 ? "0" : "") + std::to_string(n);
    };
    tag("DA",
        std::to_string(a.year) + "/" + part(a.month) + "/" + part(a.month != 0 ? a.day : 0) + "/");
  }
  tag("DO", a.doi);
  tag("AB", latex_safe(a.text));
  for (const auto& c : a.categories) tag("KW", latex_safe(c));
  tag("UR", url_of(a));
  if (!a.pmid.empty()) tag("AN", a.pmid);
  tag("ID", key);
  tag("N1", location);
  out += "ER  - \r\n\r\n";
  return out;
}

std::string csl_json_item(const abstracts::Abstract& a, std::string_view key,
                          std::string_view location) {
  using Json = nlohmann::ordered_json;
  Json item;
  item["id"] = key;
  // Better CSL JSON's: readers take it for the key, as `id` may be a URI.
  item["citation-key"] = key;
  switch (kind_of(a)) {
    case Kind::kArticle:
      item["type"] = "article-journal";
      break;
    case Kind::kConference:
      item["type"] = "paper-conference";
      break;
    case Kind::kPreprint:
    case Kind::kOther:
      item["type"] = "article";  // CSL's type for a preprint or working paper
      break;
  }
  item["title"] = html_safe(latex_safe(a.title));
  if (!a.authors.empty()) {
    Json authors = Json::array();
    for (const auto& author : a.authors) {
      authors.push_back(author.given.empty() ? Json{{"literal", latex_safe(author.family)}}
                                             : Json{{"family", latex_safe(author.family)},
                                                    {"given", latex_safe(author.given)}});
    }
    item["author"] = std::move(authors);
  }
  if (a.year != 0) {
    Json parts = Json::array({a.year});
    if (a.month != 0) parts.push_back(a.month);
    if (a.month != 0 && a.day != 0) parts.push_back(a.day);
    item["issued"] = {{"date-parts", Json::array({parts})}};
  }
  if (kind_of(a) == Kind::kPreprint) {
    item["publisher"] = "arXiv";
    item["number"] = "arXiv:" + a.arxiv_id;
  } else if (!a.venue.empty()) {
    item["container-title"] = latex_safe(a.venue);
  }
  if (!a.doi.empty()) item["DOI"] = a.doi;
  if (!a.pmid.empty()) item["PMID"] = a.pmid;
  if (const std::string url = url_of(a); !url.empty()) item["URL"] = url;
  item["abstract"] = html_safe(latex_safe(a.text));
  if (!a.categories.empty()) {
    std::vector<std::string> keywords;
    for (const auto& c : a.categories) keywords.push_back(latex_safe(c));
    item["keyword"] = joined(keywords, ", ");
  }
  // Manubot gives a paper's identifier in the note ("standard_id: doi:..."),
  // and readers take it from there: a location that says so is left out.
  if (!location.empty() && location.find("standard_id:") == std::string_view::npos) {
    item["note"] = std::string(location);
  }
  return item.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace reading_list
