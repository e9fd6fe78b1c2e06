#include "citation.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace reading_list {

std::string bibtex_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '%':
      case '&':
      case '$':
      case '#':
      case '_':
        out += '\\';
        out += c;
        break;
      case '{':
        out += "\\textbraceleft{}";
        break;
      case '}':
        out += "\\textbraceright{}";
        break;
      case '\\':
        out += "\\textbackslash{}";
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      default:
        out += c;
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

std::string citation_key(const abstracts::Abstract& a) { return a.citation_key.empty() ? a.id : a.citation_key; }

namespace {

// "Family, Given" for BibTeX's author list; a name of one part (an organisation,
// "IEEE", "The ATLAS Collaboration") in braces, so no style splits it.
std::string bibtex_name(const abstracts::Author& author) {
  if (author.given.empty()) return "{" + bibtex_escape(author.family) + "}";
  return bibtex_escape(author.family) + ", " + bibtex_escape(author.given);
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

// A link to the paper: its arXiv page, else its DOI.
std::string url_of(const abstracts::Abstract& a) {
  if (!a.arxiv_id.empty()) return "https://arxiv.org/abs/" + a.arxiv_id;
  if (!a.doi.empty()) return "https://doi.org/" + a.doi;
  return {};
}

}  // namespace

std::string bibtex_entry(const abstracts::Abstract& a, std::string_view location) {
  const Kind kind = kind_of(a);
  const char* type = kind == Kind::kArticle ? "@article{" : kind == Kind::kConference ? "@inproceedings{" : "@misc{";
  std::string out = type + citation_key(a) + ",\n";
  auto field = [&out](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    out += "  ";
    out += name;
    out += std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') + "= {" + value + "},\n";
  };
  std::vector<std::string> names;
  for (const auto& author : a.authors) names.push_back(bibtex_name(author));
  field("author", joined(names, " and "));
  // Double braces keep the title's capitals (LLMs, BERT) in every style.
  field("title", "{" + bibtex_escape(a.title) + "}");
  const std::string year = a.year != 0 ? std::to_string(a.year) : std::string();
  switch (kind) {
    case Kind::kArticle:
      field("journal", bibtex_escape(a.venue));
      break;
    case Kind::kPreprint:
      field("eprint", bibtex_escape(a.arxiv_id));
      field("archiveprefix", "arXiv");
      if (!a.categories.empty()) field("primaryclass", bibtex_escape(a.categories.front()));
      break;
    case Kind::kConference:
      field("booktitle", bibtex_escape(year.empty() ? a.venue : a.venue + " " + year));
      break;
    case Kind::kOther:
      break;
  }
  field("year", year);
  field("doi", bibtex_escape(a.doi));
  field("pmid", bibtex_escape(a.pmid));
  if (kind == Kind::kPreprint) field("url", bibtex_escape(url_of(a)));
  std::vector<std::string> keywords;
  for (const auto& c : a.categories) keywords.push_back(bibtex_escape(c));
  field("keywords", joined(keywords, ", "));
  field("note", bibtex_escape(location));
  field("abstract", bibtex_escape(a.text));
  out.erase(out.size() - 2, 1);  // no comma after the last field
  out += "}\n\n";
  return out;
}

std::string ris_record(const abstracts::Abstract& a, std::string_view location) {
  std::string out;
  // A tag line; a value's line breaks would end it early, so they become spaces.
  auto tag = [&out](std::string_view name, std::string value) {
    if (value.empty()) return;
    for (char& c : value) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    out += std::string(name) + "  - " + value + "\r\n";
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
    tag("AU", author.family + "," + (author.given.empty() ? "" : " " + author.given));
  }
  tag("TI", a.title);
  tag("T2", a.venue);
  if (a.year != 0) {
    tag("PY", std::to_string(a.year));
    // RIS leaves an unknown month or day empty: "2007/04/02/", "2007/04//", "2007///".
    auto part = [](int n) { return n == 0 ? std::string() : (n < 10 ? "0" : "") + std::to_string(n); };
    tag("DA", std::to_string(a.year) + "/" + part(a.month) + "/" + part(a.month != 0 ? a.day : 0) + "/");
  }
  tag("DO", a.doi);
  tag("AB", a.text);
  for (const auto& c : a.categories) tag("KW", c);
  tag("UR", url_of(a));
  if (!a.pmid.empty()) tag("AN", a.pmid);
  tag("ID", citation_key(a));
  tag("N1", std::string(location));
  out += "ER  - \r\n\r\n";
  return out;
}

std::string csl_json_item(const abstracts::Abstract& a, std::string_view location) {
  using Json = nlohmann::ordered_json;
  Json item;
  item["id"] = citation_key(a);
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
  item["title"] = a.title;
  if (!a.authors.empty()) {
    Json authors = Json::array();
    for (const auto& author : a.authors) {
      authors.push_back(author.given.empty() ? Json{{"literal", author.family}}
                                             : Json{{"family", author.family}, {"given", author.given}});
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
    item["container-title"] = a.venue;
  }
  if (!a.doi.empty()) item["DOI"] = a.doi;
  if (!a.pmid.empty()) item["PMID"] = a.pmid;
  if (const std::string url = url_of(a); !url.empty()) item["URL"] = url;
  item["abstract"] = a.text;
  if (!a.categories.empty()) item["keyword"] = joined(a.categories, ", ");
  if (!location.empty()) item["note"] = std::string(location);
  return item.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace reading_list
