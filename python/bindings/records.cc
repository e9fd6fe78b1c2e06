#include "bindings/records.h"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "abstracts/export.h"
#include "bindings/values.h"

namespace py = pybind11;

namespace abstracts::python {
namespace {

std::vector<std::string> names_of(const std::vector<Author>& authors) {
  std::vector<std::string> names;
  names.reserve(authors.size());
  for (const Author& a : authors) names.push_back(display_name(a));
  return names;
}

// The fields every abstract has, in the order to_dict() gives them.
py::dict abstract_dict(const Abstract& a) {
  py::dict d;
  d["id"] = a.id;
  d["title"] = a.title;
  d["text"] = a.text;
  d["authors"] = names_of(a.authors);
  d["date"] = iso_date(a);
  d["year"] = a.year;
  d["venue"] = a.venue;
  d["doi"] = a.doi;
  d["arxiv"] = a.arxiv_id;
  d["pmid"] = a.pmid;
  d["pmcid"] = a.pmcid;
  d["categories"] = a.categories;
  d["citation_key"] = a.citation_key;
  d["item_type"] = a.item_type;
  d["url"] = a.url;
  d["volume"] = a.volume;
  d["issue"] = a.issue;
  d["pages"] = a.pages;
  d["publisher"] = a.publisher;
  d["issn"] = a.issn;
  d["isbn"] = a.isbn;
  d["tags"] = a.tags;
  d["collections"] = a.collections;
  d["editors"] = names_of(a.editors);
  d["source"] = a.source;
  d["line"] = a.line;
  return d;
}

Author author_from(const py::handle& value, const char* key) {
  const std::string what = std::string("a name in record[\"") + key + "\"]";
  if (py::isinstance<py::str>(value)) {
    const std::string name = utf8_of(value, what);
    // "Balázs, C." is family, given; a name without a comma stays whole, as
    // the library keeps a name the source does not split.
    const auto comma = name.find(',');
    if (comma == std::string::npos) return Author{name, ""};
    std::string family = name.substr(0, comma);
    std::string given = name.substr(comma + 1);
    while (!given.empty() && given.front() == ' ') given.erase(given.begin());
    return Author{family, given};
  }
  if (py::isinstance<py::dict>(value)) {
    auto d = value.cast<py::dict>();
    Author author;
    if (d.contains("family")) author.family = utf8_of(d["family"], what + "[\"family\"]");
    if (d.contains("given")) author.given = utf8_of(d["given"], what + "[\"given\"]");
    return author;
  }
  if (py::isinstance<py::tuple>(value) && py::len(value) == 2) {
    auto t = value.cast<py::tuple>();
    return Author{utf8_of(t[0], what), utf8_of(t[1], what)};
  }
  throw py::type_error(
      std::string("record[\"") + key +
      "\"]: each name is a str (\"Family, Given\"), a (family, given) pair or a dict");
}

std::vector<Author> authors_from(const py::handle& value, const char* key) {
  if (py::isinstance<py::str>(value)) {
    throw py::type_error(std::string("record[\"") + key + "\"] is a list of names, not one str");
  }
  std::vector<Author> out;
  for (const py::handle& item : value) out.push_back(author_from(item, key));
  return out;
}

std::vector<std::string> strings_from(const py::handle& value, const char* key) {
  if (py::isinstance<py::str>(value)) {
    throw py::type_error(std::string("record[\"") + key + "\"] is a list of str, not one str");
  }
  if (!py::isinstance<py::iterable>(value)) {
    throw py::type_error(std::string("record[\"") + key + "\"] is a list of str, not " + type_name(value));
  }
  std::vector<std::string> out;
  const std::string each = std::string("an item of record[\"") + key + "\"]";
  for (const py::handle& item : value) out.push_back(utf8_of(item, each));
  return out;
}

int date_part(std::string_view part, const std::string& date) {
  int n = 0;
  auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), n);
  if (ec != std::errc() || end != part.data() + part.size()) {
    throw py::value_error("record[\"date\"] is YYYY, YYYY-MM or YYYY-MM-DD, not \"" + date + "\"");
  }
  return n;
}

// "2007-04-02" into the abstract's year, month and day.
void set_date(Abstract& a, const std::string& date) {
  if (date.empty()) return;
  std::string_view rest = date;
  int* parts[] = {&a.year, &a.month, &a.day};
  for (int* part : parts) {
    const auto dash = rest.find('-');
    *part = date_part(rest.substr(0, dash), date);
    if (dash == std::string_view::npos) return;
    rest.remove_prefix(dash + 1);
  }
  throw py::value_error("record[\"date\"] is YYYY, YYYY-MM or YYYY-MM-DD, not \"" + date + "\"");
}

py::list highlights_of(const Snippet& s) {
  py::list out;
  for (const Highlight& h : s.highlights) {
    out.append(py::make_tuple(char_offset(s.text, h.begin), char_offset(s.text, h.end)));
  }
  return out;
}

py::dict hit_dict(const Hit& h) {
  py::dict d;
  d["rank"] = h.rank;
  d["score"] = h.score;
  for (auto item : abstract_dict(h.abstract)) d[item.first] = item.second;
  d["snippet"] = h.snippet.text;
  return d;
}

const Abstract& abstract_of(const py::handle& item) {
  if (py::isinstance<Hit>(item)) return item.cast<const Hit&>().abstract;
  if (py::isinstance<Abstract>(item)) return item.cast<const Abstract&>();
  throw py::type_error("export() takes Hit and Abstract objects, not " +
                       py::str(py::type::of(item).attr("__name__")).cast<std::string>());
}

// The citations of `items` (Hits or Abstracts) in one format.
std::string export_citations(const py::iterable& items, const std::string& format,
                             const std::optional<std::filesystem::path>& relative_to) {
  const std::optional<CitationFormat> f = citation_format(format);
  if (!f)
    throw py::value_error("format is bibtex, biblatex, ris or csl-json, not \"" + format + "\"");
  std::ostringstream out;
  ExportOptions options;
  if (relative_to) options.relative_to = *relative_to;
  CitationWriter writer(out, *f, options);
  for (const py::handle& item : items) writer.write(abstract_of(item));
  writer.finish();
  return std::move(out).str();
}

std::string abstract_repr(const Abstract& a) {
  return "<abstracts.Abstract " + a.id + ": " + py::repr(py::str(a.title)).cast<std::string>() +
         ">";
}

}  // namespace

std::size_t char_offset(const std::string& text, std::size_t byte) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++chars;
  }
  return chars;
}

PySearchResult to_python(SearchResults&& results) {
  PySearchResult out;
  for (Hit& hit : results.hits) out.hits.append(py::cast(std::move(hit)));
  out.total = results.estimated_matches;
  out.total_is_exact = results.exact_matches;
  out.indexed = results.indexed_abstracts;
  out.suggestion = std::move(results.suggestion);
  out.corrected = results.corrected;
  out.notes = std::move(results.notes);
  return out;
}

Abstract abstract_from_dict(const py::dict& record) {
  // The keys that are one str, and those that are a list of str.
  static const std::pair<const char*, std::string Abstract::*> kText[] = {
      {"id", &Abstract::id},
      {"title", &Abstract::title},
      {"text", &Abstract::text},
      {"venue", &Abstract::venue},
      {"doi", &Abstract::doi},
      {"arxiv", &Abstract::arxiv_id},
      {"pmid", &Abstract::pmid},
      {"pmcid", &Abstract::pmcid},
      {"citation_key", &Abstract::citation_key},
      {"item_type", &Abstract::item_type},
      {"url", &Abstract::url},
      {"volume", &Abstract::volume},
      {"issue", &Abstract::issue},
      {"pages", &Abstract::pages},
      {"publisher", &Abstract::publisher},
      {"issn", &Abstract::issn},
      {"isbn", &Abstract::isbn},
      {"source", &Abstract::source}};
  static const std::pair<const char*, std::vector<std::string> Abstract::*> kLists[] = {
      {"categories", &Abstract::categories},
      {"tags", &Abstract::tags},
      {"collections", &Abstract::collections}};
  Abstract a;
  bool has_text = false;
  for (auto [k, value] : record) {
    if (!py::isinstance<py::str>(k)) throw py::type_error("a record's keys are str");
    const std::string key = utf8_of(k, "a record's key");
    const std::string what = "record[\"" + key + "\"]";
    auto text = std::find_if(std::begin(kText), std::end(kText),
                             [&](const auto& f) { return key == f.first; });
    auto list = std::find_if(std::begin(kLists), std::end(kLists),
                             [&](const auto& f) { return key == f.first; });
    if (text != std::end(kText)) {
      a.*(text->second) = utf8_of(value, what);
      has_text = has_text || key == "text";
    } else if (list != std::end(kLists)) {
      a.*(list->second) = strings_from(value, list->first);
    } else if (key == "authors") {
      a.authors = authors_from(value, "authors");
      a.author_count = a.authors.size();
    } else if (key == "editors") {
      a.editors = authors_from(value, "editors");
    } else if (key == "date") {
      set_date(a, utf8_of(value, what));
    } else if (key == "year") {
      // A date given too says the same year, or the date wins; 0 is no year.
      const int year = int_of(value, what);
      if (a.month == 0) a.year = year;
    } else if (key == "line") {
      a.line = uint32_of(value, what);
    } else {
      throw py::type_error("record has an unknown key \"" + key +
                           "\" (the keys are those of Abstract.to_dict())");
    }
  }
  if (!has_text) throw py::value_error("record has no \"text\": the abstract itself");
  return a;
}

void bind_records(py::module_& m) {
  py::class_<Abstract>(m, "Abstract", "One abstract as the index keeps it. Plain value; read-only.")
      .def_readonly("id", &Abstract::id,
                    "Stable short id (derived from the text, or the record's own).")
      .def_readonly("title", &Abstract::title)
      .def_readonly("text", &Abstract::text, "Display text: LaTeX removed, accents kept.")
      .def_property_readonly(
          "authors", [](const Abstract& a) { return names_of(a.authors); },
          "Display names (\"C. Balázs\"), in the source's order.")
      .def_readonly("author_count", &Abstract::author_count)
      .def_property_readonly(
          "date", [](const Abstract& a) { return iso_date(a); },
          "\"2007\", \"2007-04\" or \"2007-04-02\"; \"\" without a year.")
      .def_readonly("year", &Abstract::year)
      .def_readonly("month", &Abstract::month)
      .def_readonly("day", &Abstract::day)
      .def_readonly("venue", &Abstract::venue)
      .def_readonly("doi", &Abstract::doi)
      .def_readonly("arxiv", &Abstract::arxiv_id)
      .def_readonly("pmid", &Abstract::pmid)
      .def_readonly("pmcid", &Abstract::pmcid)
      .def_readonly("categories", &Abstract::categories)
      .def_readonly("citation_key", &Abstract::citation_key)
      .def_readonly("item_type", &Abstract::item_type)
      .def_readonly("url", &Abstract::url)
      .def_readonly("volume", &Abstract::volume)
      .def_readonly("issue", &Abstract::issue)
      .def_readonly("pages", &Abstract::pages)
      .def_readonly("publisher", &Abstract::publisher)
      .def_readonly("issn", &Abstract::issn)
      .def_readonly("isbn", &Abstract::isbn)
      .def_readonly("tags", &Abstract::tags)
      .def_readonly("collections", &Abstract::collections)
      .def_property_readonly("editors", [](const Abstract& a) { return names_of(a.editors); })
      .def_readonly("source", &Abstract::source,
                    "Absolute path of the file read (\"\" if added directly).")
      .def_readonly("line", &Abstract::line, "1-based line in source (0 if added directly).")
      .def("to_dict", &abstract_dict,
           "The fields as a dict of plain values (Writer.add() takes it back).")
      .def("__repr__", &abstract_repr);

  py::class_<Hit>(m, "Hit",
                  "One hit of a search: its rank, score, snippet and abstract. Read-only.")
      .def_readonly("rank", &Hit::rank, "1-based, counting from the best hit (offset included).")
      .def_readonly("score", &Hit::score, "BM25 score; only comparable within one search.")
      .def_readonly("abstract", &Hit::abstract, "The whole Abstract.")
      .def_property_readonly("id", [](const Hit& h) { return h.abstract.id; })
      .def_property_readonly("title", [](const Hit& h) { return h.abstract.title; })
      .def_property_readonly("text", [](const Hit& h) { return h.abstract.text; })
      .def_property_readonly("authors", [](const Hit& h) { return names_of(h.abstract.authors); })
      .def_property_readonly("date", [](const Hit& h) { return iso_date(h.abstract); })
      .def_property_readonly("year", [](const Hit& h) { return h.abstract.year; })
      .def_property_readonly("venue", [](const Hit& h) { return h.abstract.venue; })
      .def_property_readonly("doi", [](const Hit& h) { return h.abstract.doi; })
      .def_property_readonly("arxiv", [](const Hit& h) { return h.abstract.arxiv_id; })
      .def_property_readonly("pmid", [](const Hit& h) { return h.abstract.pmid; })
      .def_property_readonly("source", [](const Hit& h) { return h.abstract.source; })
      .def_property_readonly("line", [](const Hit& h) { return h.abstract.line; })
      .def_property_readonly(
          "snippet", [](const Hit& h) { return h.snippet.text; },
          "The best window of the text, \"…\" where cut; \"\" without snippets.")
      .def_property_readonly(
          "highlights", [](const Hit& h) { return highlights_of(h.snippet); },
          "(start, end) of each match in snippet, as str indices.")
      .def("to_dict", &hit_dict, "rank, score, the abstract's fields and the snippet, as a dict.")
      .def("__repr__", [](const Hit& h) {
        return "<abstracts.Hit " + std::to_string(h.rank) + ". " + h.abstract.id + ": " +
               py::repr(py::str(h.abstract.title)).cast<std::string>() + ">";
      });

  py::class_<PySearchResult>(m, "SearchResult",
                             "The hits of a search and what the engine made of the query.")
      .def_readonly("hits", &PySearchResult::hits, "list[Hit], best first (or as sorted).")
      .def_readonly("total", &PySearchResult::total,
                    "Matches in the whole index: exact if total_is_exact, else Xapian's estimate.")
      .def_readonly("total_is_exact", &PySearchResult::total_is_exact)
      .def_readonly("indexed", &PySearchResult::indexed, "Abstracts in the index searched.")
      .def_readonly("suggestion", &PySearchResult::suggestion,
                    "\"Did you mean\": the query respelt with words the index has; \"\" if none.")
      .def_readonly("corrected", &PySearchResult::corrected,
                    "True when the query matched nothing and the hits are the suggestion's.")
      .def_readonly("notes", &PySearchResult::notes, "What was read as words rather than syntax.")
      .def("__len__", [](const PySearchResult& r) { return py::len(r.hits); })
      .def("__iter__", [](const PySearchResult& r) { return r.hits.attr("__iter__")(); })
      .def("__getitem__", [](const PySearchResult& r, py::object key) { return r.hits[key]; })
      .def(
          "to_dicts",
          [](const PySearchResult& r) {
            py::list out;
            for (const py::handle& h : r.hits) out.append(hit_dict(h.cast<const Hit&>()));
            return out;
          },
          "Each hit's to_dict(), in order.")
      .def("__repr__", [](const PySearchResult& r) {
        return "<abstracts.SearchResult " + std::to_string(py::len(r.hits)) + " hits of " +
               (r.total_is_exact ? "" : "about ") + std::to_string(r.total) + ">";
      });

  m.def(
      "export", &export_citations, py::arg("items"), py::arg("format") = "bibtex",
      py::arg("relative_to") = py::none(),
      "The citations of items (Hits or Abstracts), in their order, as one str: format is "
      "\"bibtex\", \"biblatex\", \"ris\" or \"csl-json\" (one JSON array). Keys are unique within "
      "the export. A source below relative_to is named relative to it in a note; no absolute "
      "path is written. Raises ValueError for another format, TypeError for another item.");
}

}  // namespace abstracts::python
