#include "abstracts/export.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_set>
#include <utility>
#include <vector>

namespace abstracts {

namespace {

namespace fs = std::filesystem;

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

// An identifier (DOI, arXiv id, PMID, link) for a BibTeX field, which
// BibLaTeX and pandoc read verbatim (a DOI's "_" stays "_"): braces,
// backslashes and control characters, which no real identifier has and which
// could end the field, left out.
std::string bibtex_identifier(std::string_view id) {
  std::string out;
  for (char c : id) {
    if (c == '{' || c == '}' || c == '\\' || is_control(c)) continue;
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

// The name of an author who has one (an organisation, "IEEE", "Plato"): the
// family name, or the given name if that is all there is; every format writes
// it whole, as a family name. Null for a name of two parts.
const std::string* one_name(const Author& author) {
  if (author.given.empty()) return &author.family;
  if (author.family.empty()) return &author.given;
  return nullptr;
}

// "Family, Given" for BibTeX's author list, and "Family, Jr, Given" for given
// names that end with a suffix ("John, Jr."); a name of one part in braces, so
// no style splits it.
std::string bibtex_name(const Author& author) {
  if (const std::string* name = one_name(author)) return "{" + bibtex_escape(*name) + "}";
  if (const auto comma = author.given.rfind(", "); comma != std::string::npos) {
    return bibtex_name_part(author.family) + ", " +
           bibtex_name_part(std::string_view(author.given).substr(comma + 2)) + ", " +
           bibtex_name_part(std::string_view(author.given).substr(0, comma));
  }
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
std::string url_of(const Abstract& a) {
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

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

// A venue that is a preprint server, not a journal.
bool is_preprint_server(std::string_view venue) {
  const std::string v = lower(venue);
  return v == "arxiv" || v == "biorxiv" || v == "medrxiv" || v == "ssrn" || v == "chemrxiv" ||
         v == "research square" || v == "preprints";
}

// "10511-10520" as first and last page; the whole as the first when it is no
// plain range ("e1234", "1-3, 7").
std::pair<std::string, std::string> page_parts(const std::string& pages) {
  const auto dash = pages.find('-');
  if (dash == std::string::npos || dash == 0 || dash + 1 == pages.size() ||
      pages.find_first_of("-, ;", dash + 1) != std::string::npos ||
      pages.find_first_of(", ;") != std::string::npos) {
    return {pages, {}};
  }
  return {pages.substr(0, dash), pages.substr(dash + 1)};
}

// The abstract's location for a note: its source relative to `base`, and its
// line; "" when it has no source or the source is not under `base`.
std::string location_of(const Abstract& a, const fs::path& base) {
  if (a.source.empty() || base.empty()) return {};
  const fs::path relative =
      fs::path(a.source).lexically_normal().lexically_relative(base.lexically_normal());
  if (relative.empty() || relative.is_absolute() || *relative.begin() == "..") return {};
  return relative.generic_string() + (a.line != 0 ? ":" + std::to_string(a.line) : "");
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The abstract's link: the source's, else its arXiv page, else its DOI's.
std::string link_of(const Abstract& a) {
  if (!a.url.empty()) return a.url;
  return url_of(a);
}

constexpr const char* kMonths[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                   "jul", "aug", "sep", "oct", "nov", "dec"};

std::string two_digits(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

std::string bibtex_entry(const Abstract& a, std::string_view key, std::string_view location,
                         bool biblatex) {
  const WorkKind kind = work_kind(a);
  std::string type;
  switch (kind) {
    case WorkKind::kArticle:
      type = "article";
      break;
    case WorkKind::kConference:
      type = "inproceedings";
      break;
    case WorkKind::kBook:
      type = "book";
      break;
    case WorkKind::kChapter:
      type = "incollection";
      break;
    case WorkKind::kThesis:
      type = biblatex ? "thesis" : "phdthesis";
      break;
    case WorkKind::kReport:
      type = biblatex ? "report" : "techreport";
      break;
    case WorkKind::kPreprint:
    case WorkKind::kOther:
      type = "misc";
      break;
  }
  std::string out = "@" + type + "{" + std::string(key) + ",\n";
  auto field = [&out](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    out += "  ";
    out += name;
    out += std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') + "= {" + value + "},\n";
  };
  auto names = [](const std::vector<Author>& list) {
    std::vector<std::string> out;
    for (const auto& author : list) out.push_back(bibtex_name(author));
    return braced_whole(joined(out, " and "));
  };
  field("author", names(a.authors));
  field("editor", names(a.editors));
  // Double braces keep the title's capitals (LLMs, BERT) in every style; the
  // outer pair is the one a reader takes off.
  field("title", "{" + bibtex_escape(a.title) + "}");
  // A venue and a publisher in braces too: styles change the case of a
  // booktitle, and BibLaTeX reads a publisher as a list of names split at "and".
  const std::string venue = a.venue.empty() ? "" : "{" + bibtex_escape(a.venue) + "}";
  switch (kind) {
    case WorkKind::kArticle:
      field(biblatex ? "journaltitle" : "journal", venue);
      break;
    case WorkKind::kConference:
    case WorkKind::kChapter:
      field("booktitle", venue);
      break;
    case WorkKind::kOther:
      field("howpublished", venue);
      break;
    case WorkKind::kPreprint:
      if (a.arxiv_id.empty()) field("howpublished", venue);
      break;
    case WorkKind::kBook:
    case WorkKind::kThesis:
    case WorkKind::kReport:
      break;  // the work itself: no container
  }
  if (a.year != 0) {
    if (biblatex) {
      std::string date = std::to_string(a.year);
      if (a.month != 0) date += "-" + two_digits(a.month);
      if (a.month != 0 && a.day != 0) date += "-" + two_digits(a.day);
      field("date", date);
    } else {
      field("year", std::to_string(a.year));
    }
  }
  if (!biblatex && a.month >= 1 && a.month <= 12) {
    out += "  month       = " + std::string(kMonths[a.month - 1]) + ",\n";  // a macro, unbraced
  }
  field("volume", bibtex_text(a.volume));
  field("number", bibtex_text(a.issue));
  std::string pages = bibtex_escape(a.pages);
  // BibTeX's range dash: bibtex_escape wrote "-{}-" only for a "--" of the source.
  if (const auto [first, last] = page_parts(a.pages); !last.empty()) {
    pages = bibtex_escape(first) + "--" + bibtex_escape(last);
  }
  field("pages", pages);
  const char* publisher_field = kind == WorkKind::kThesis   ? (biblatex ? "institution" : "school")
                                : kind == WorkKind::kReport ? "institution"
                                                            : "publisher";
  field(publisher_field, a.publisher.empty() ? "" : "{" + bibtex_escape(a.publisher) + "}");
  field("doi", bibtex_identifier(a.doi));
  if (!a.arxiv_id.empty()) {
    field("eprint", bibtex_identifier(a.arxiv_id));
    if (biblatex) {
      field("eprinttype", "arxiv");
    } else {
      field("archiveprefix", "arXiv");
    }
    if (kind == WorkKind::kPreprint && !a.categories.empty()) {
      field(biblatex ? "eprintclass" : "primaryclass", bibtex_identifier(a.categories.front()));
    }
  }
  field("pmid", bibtex_identifier(a.pmid));
  field("pmcid", bibtex_identifier(a.pmcid));
  field("url", bibtex_identifier(link_of(a)));
  field("issn", bibtex_identifier(a.issn));
  field("isbn", bibtex_identifier(a.isbn));
  std::vector<std::string> keywords;
  for (const auto& c : a.categories) keywords.push_back(bibtex_escape(c));
  field("keywords", braced_whole(joined(keywords, ", ")));
  field("note", bibtex_text(location));
  field("abstract", bibtex_text(a.text));
  out.erase(out.size() - 2, 1);  // no comma after the last field
  out += "}\n\n";
  return out;
}

// "Family, Given" ("Smith, John, Jr." is RIS's "Last, First, Suffix"); a name
// of one part ends with its comma ("The ATLAS Collaboration,"), which tells
// EndNote, Zotero and `abstracts index` that the whole is a family name. A
// family name with a comma of its own is in braces, where abstracts (which
// reads LaTeX in every format) splits no name at it; Zotero and bibutils split
// such a name at its first comma whatever the form.
std::string ris_name(const Author& author) {
  auto family = [](const std::string& name) {
    const std::string text = latex_safe(name);
    return name.find(',') == std::string::npos ? text : "{" + text + "}";
  };
  if (const std::string* name = one_name(author)) return family(*name) + ",";
  return family(author.family) + ", " + latex_safe(author.given);
}

std::string ris_record(const Abstract& a, std::string_view key, std::string_view location) {
  std::string out;
  auto tag = [&out](std::string_view name, std::string_view value) {
    if (value.empty()) return;
    out += std::string(name) + "  - " + ris_value(value) + "\r\n";
  };
  const WorkKind kind = work_kind(a);
  static constexpr const char* kTypes[] = {"JOUR", "CONF", "BOOK", "CHAP",
                                           "THES", "RPRT", "UNPB", "GEN"};
  tag("TY", kTypes[static_cast<int>(kind)]);
  for (const auto& author : a.authors) tag("AU", ris_name(author));
  for (const auto& editor : a.editors) tag("ED", ris_name(editor));
  tag("TI", latex_safe(a.title));
  // The venue in the tag readers take for the type's container: JF a journal's
  // full name (T2 is its abbreviation to some), BT a book's or proceedings'.
  switch (kind) {
    case WorkKind::kArticle:
      tag("JF", latex_safe(a.venue));
      break;
    case WorkKind::kConference:
    case WorkKind::kChapter:
      tag("BT", latex_safe(a.venue));
      break;
    case WorkKind::kPreprint:
    case WorkKind::kOther:
      tag("T2", latex_safe(a.venue));
      break;
    case WorkKind::kBook:
    case WorkKind::kThesis:
    case WorkKind::kReport:
      break;  // the work itself: no container
  }
  if (a.year != 0) {
    tag("PY", std::to_string(a.year));
    // RIS leaves an unknown month or day empty: "2007/04/02/", "2007/04//", "2007///".
    auto part = [](int n) { return n == 0 ? std::string() : two_digits(n); };
    tag("DA",
        std::to_string(a.year) + "/" + part(a.month) + "/" + part(a.month != 0 ? a.day : 0) + "/");
  }
  tag("VL", a.volume);
  tag("IS", a.issue);
  const auto [first, last] = page_parts(a.pages);
  tag("SP", first);
  tag("EP", last);
  tag("PB", latex_safe(a.publisher));
  // SN once per number: "0034-6861, 1539-0756" is two ISSNs to a reader, and
  // a book's ISBNs are kept as Zotero lists them, with spaces between.
  for (const std::string* numbers : {&a.issn, &a.isbn}) {
    std::string number;
    for (char c : *numbers + ",") {
      if (c == ',' || c == ';' || c == ' ') {
        if (!trimmed(number).empty()) tag("SN", std::string(trimmed(number)));
        number.clear();
      } else {
        number += c;
      }
    }
  }
  tag("DO", a.doi);
  tag("AB", latex_safe(a.text));
  for (const auto& c : a.categories) tag("KW", latex_safe(c));
  // One link (readers keep one): the arXiv page, RIS's only place for an arXiv
  // id, else the source's link, else the DOI's.
  tag("UR", a.arxiv_id.empty() ? link_of(a) : url_of(a));
  if (!a.pmid.empty()) tag("AN", a.pmid);
  tag("ID", key);
  tag("N1", location);
  out += "ER  - \r\n\r\n";
  return out;
}

std::string csl_json_item(const Abstract& a, std::string_view key, std::string_view location) {
  using Json = nlohmann::ordered_json;
  Json item;
  item["id"] = key;
  // Better CSL JSON's: readers take it for the key, as `id` may be a URI.
  item["citation-key"] = key;
  const WorkKind kind = work_kind(a);
  static constexpr const char* kTypes[] = {"article-journal", "paper-conference", "book",
                                           "chapter",         "thesis",           "report",
                                           "article",         "document"};
  item["type"] = kTypes[static_cast<int>(kind)];
  item["title"] = html_safe(latex_safe(a.title));
  auto names = [](const std::vector<Author>& list) {
    Json out = Json::array();
    for (const auto& author : list) {
      const std::string* name = one_name(author);
      out.push_back(name != nullptr ? Json{{"literal", latex_safe(*name)}}
                                    : Json{{"family", latex_safe(author.family)},
                                           {"given", latex_safe(author.given)}});
    }
    return out;
  };
  if (!a.authors.empty()) item["author"] = names(a.authors);
  if (!a.editors.empty()) item["editor"] = names(a.editors);
  if (a.year != 0) {
    Json parts = Json::array({a.year});
    if (a.month != 0) parts.push_back(a.month);
    if (a.month != 0 && a.day != 0) parts.push_back(a.day);
    item["issued"] = {{"date-parts", Json::array({parts})}};
  }
  std::string publisher = a.publisher;
  if (kind == WorkKind::kPreprint && !a.arxiv_id.empty()) {
    if (publisher.empty()) publisher = "arXiv";
    item["number"] = "arXiv:" + a.arxiv_id;
  } else if (!a.venue.empty() && kind != WorkKind::kBook && kind != WorkKind::kThesis &&
             kind != WorkKind::kReport) {
    item["container-title"] = latex_safe(a.venue);
  }
  auto text = [&item](const char* name, const std::string& value) {
    if (!value.empty()) item[name] = value;
  };
  text("volume", a.volume);
  text("issue", a.issue);
  text("page", a.pages);
  text("publisher", latex_safe(publisher));
  text("DOI", a.doi);
  text("PMID", a.pmid);
  text("PMCID", a.pmcid);
  text("URL", link_of(a));
  text("ISSN", a.issn);
  text("ISBN", a.isbn);
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
      case '~':
        out += "\\textasciitilde{}";  // a bare one is a tie (a space) to LaTeX
        break;
      case '^':
        out += "\\textasciicircum{}";  // a bare one starts a superscript
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

std::optional<CitationFormat> citation_format(std::string_view name) {
  if (name == "bibtex") return CitationFormat::kBibtex;
  if (name == "biblatex") return CitationFormat::kBiblatex;
  if (name == "ris") return CitationFormat::kRis;
  if (name == "csl-json") return CitationFormat::kCslJson;
  return std::nullopt;
}

WorkKind work_kind(const Abstract& a) {
  const std::string type = lower(a.item_type);
  auto any = [&type](std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), type) != names.end();
  };
  // "article" is a journal's in BibTeX and OpenAlex, and a preprint's in CSL.
  const bool preprint = (!a.arxiv_id.empty() && (a.venue.empty() || is_preprint_server(a.venue))) ||
                        (!a.venue.empty() && is_preprint_server(a.venue));
  if (any({"preprint", "unpb", "unpublished", "posted-content"}) ||
      (type == "article" && preprint)) {
    return WorkKind::kPreprint;
  }
  if (any({"article", "jour", "ejour", "mgzn", "news", "jfull", "article-journal",
           "article-magazine", "article-newspaper", "journalarticle", "magazinearticle",
           "newspaperarticle", "review", "journal-article"})) {
    return a.venue.empty() && type == "article" ? WorkKind::kOther : WorkKind::kArticle;
  }
  if (any({"inproceedings", "conference", "conf", "cpaper", "paper-conference", "conferencepaper",
           "proceedings-article"})) {
    return WorkKind::kConference;
  }
  if (any({"book", "ebook", "mvbook", "edbook"})) return WorkKind::kBook;
  if (any({"incollection", "inbook", "chap", "echap", "chapter", "booksection", "book-chapter"})) {
    return WorkKind::kChapter;
  }
  if (any({"phdthesis", "mastersthesis", "thesis", "thes", "dissertation"})) {
    return WorkKind::kThesis;
  }
  if (any({"techreport", "report", "rprt"})) return WorkKind::kReport;
  if (!a.pmid.empty() && !a.venue.empty()) return WorkKind::kArticle;  // PubMed's every type
  if (!type.empty() && !any({"misc", "gen", "document", "online", "webpage", "std"})) {
    // A type of its own (RIS ELEC, CSL dataset, ...): a journal's paper if it names one.
    return !a.doi.empty() && !a.venue.empty() && !preprint ? WorkKind::kArticle : WorkKind::kOther;
  }
  // No type, or a generic one: what the identifiers and the venue tell.
  if (a.venue.empty()) return preprint ? WorkKind::kPreprint : WorkKind::kOther;
  if (preprint) return WorkKind::kPreprint;
  if (!a.doi.empty() || !a.pmid.empty()) return WorkKind::kArticle;
  return type.empty() ? WorkKind::kConference : WorkKind::kOther;
}

bool is_safe_citation_key(std::string_view key) {
  return !key.empty() && key.size() <= kMaxKeyBytes &&
         std::all_of(key.begin(), key.end(), is_key_char);
}

struct CitationWriter::Impl {
  std::ostream& out;
  CitationFormat format;
  ExportOptions options;
  std::unordered_set<std::string> keys;
  std::size_t written = 0;

  std::string key_for(const Abstract& a) {
    std::string key;
    if (is_safe_citation_key(a.citation_key)) {
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
    // The same key twice would make one citation of two when read back.
    std::string unique = key;
    for (int n = 2; keys.count(unique) != 0; ++n) unique = key + "-" + std::to_string(n);
    keys.insert(unique);
    return unique;
  }
};

CitationWriter::CitationWriter(std::ostream& out, CitationFormat format, ExportOptions options)
    : impl_(std::make_unique<Impl>(Impl{out, format, std::move(options), {}, 0})) {}

CitationWriter::~CitationWriter() = default;

std::string CitationWriter::write(const Abstract& a) {
  Impl& s = *impl_;
  const std::string key = s.key_for(a);
  const std::string location = location_of(a, s.options.relative_to);
  switch (s.format) {
    case CitationFormat::kBibtex:
    case CitationFormat::kBiblatex:
      s.out << bibtex_entry(a, key, location, s.format == CitationFormat::kBiblatex);
      break;
    case CitationFormat::kRis:
      s.out << ris_record(a, key, location);
      break;
    case CitationFormat::kCslJson:
      s.out << (s.written == 0 ? "[\n" : ",\n") << csl_json_item(a, key, location);
      break;
  }
  ++s.written;
  return key;
}

void CitationWriter::finish() {
  Impl& s = *impl_;
  if (s.format == CitationFormat::kCslJson) s.out << (s.written == 0 ? "[\n]\n" : "\n]\n");
}

std::size_t CitationWriter::written() const { return impl_->written; }

}  // namespace abstracts
