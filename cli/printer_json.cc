#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/context.h"
#include "cli/escape.h"
#include "cli/printer.h"

namespace abstracts::cli {
namespace {

using Json = nlohmann::ordered_json;

// A path as JSON: a string, or when its bytes are not UTF-8 (a file name in
// Latin-1, say) {"bytes": BASE64}, as ripgrep writes such data, so that it still
// names the file (a string would have U+FFFD where the bytes were).
Json path_value(const std::string& path) {
  if (find_invalid_utf8(path) == std::string::npos) return Json(path);
  return Json::object({{"bytes", base64(path)}});
}

// Fields shared by hits and `show`: where the abstract is and what it says.
void describe(Json& j, const Abstract& a) {
  j["id"] = a.id;
  j["source"] = a.source.empty() ? Json() : path_value(display_path(a.source));
  j["path"] = a.source.empty() ? Json() : path_value(a.source);
  j["line"] = a.line == 0 ? Json() : Json(a.line);
  j["venue"] = a.venue.empty() ? Json() : Json(a.venue);
  j["year"] = a.year == 0 ? Json() : Json(a.year);
  j["title"] = a.title;
  Json authors = Json::array();
  for (const auto& author : a.authors) authors.push_back({{"family", author.family}, {"given", author.given}});
  j["authors"] = std::move(authors);
  j["author_count"] = std::max(a.author_count, a.authors.size());
  const std::string date = iso_date(a);
  j["date"] = date.empty() ? Json() : Json(date);
  j["categories"] = a.categories;
  auto text_or_null = [](const std::string& s) { return s.empty() ? Json() : Json(s); };
  j["doi"] = text_or_null(a.doi);
  j["arxiv"] = text_or_null(a.arxiv_id);
  j["pmid"] = text_or_null(a.pmid);
  j["pmcid"] = text_or_null(a.pmcid);
  j["isbn"] = text_or_null(a.isbn);
  j["citation_key"] = text_or_null(a.citation_key);
  Json editors = Json::array();
  for (const auto& e : a.editors) editors.push_back({{"family", e.family}, {"given", e.given}});
  j["editors"] = std::move(editors);
  j["item_type"] = text_or_null(a.item_type);
  j["tags"] = a.tags;
  j["collections"] = a.collections;
  j["zotero_key"] = text_or_null(a.zotero_key);
  j["zotero_link"] = text_or_null(zotero_link(a));
}

class JsonPrinter : public Printer {
 public:
  explicit JsonPrinter(std::ostream& out) : out_(out) {}

  void query(const std::string& label, const std::string&) override { label_ = label; }

  void matched(std::size_t, bool, std::size_t, std::size_t) override {}

  void count(const std::string& label, std::size_t matches) override {
    Json j;
    if (!label.empty()) j["query"] = label;
    j["count"] = matches;
    emit(j);
  }

  void hit(const Hit& h) override {
    Json j;
    if (!label_.empty()) j["query"] = label_;
    j["rank"] = h.rank;
    describe(j, h.abstract);
    j["score"] = h.score;
    j["snippet"] = h.snippet.text;
    Json highlights = Json::array();
    for (const auto& r : h.snippet.highlights) highlights.push_back({r.begin, r.end});
    j["highlights"] = std::move(highlights);
    if (!h.explanation.empty()) {
      Json why = Json::object();
      for (const auto& w : h.explanation) why[w.term] = w.weight;
      j["explanation"] = std::move(why);
    }
    emit(j);
  }

  void acronym(const AcronymEntry& e) override {
    Json j;
    j["short_form"] = e.short_form;
    j["long_form"] = e.long_form;
    j["count"] = e.count;
    j["used"] = e.used;
    emit(j);
  }

  void source(const SourceStatus& s) override {
    Json j;
    j["path"] = path_value(s.source.path.string());
    j["kind"] = to_string(s.source.kind);
    j["abstracts"] = s.abstracts;
    j["last_sync"] = s.source.last_sync == 0 ? Json(nullptr) : Json(utc_time(s.source.last_sync));
    j["present"] = s.present;
    j["globs"] = s.source.globs;
    emit(j);
  }

  void facets(const std::string& by, const std::vector<FacetCount>& counts) override {
    for (const auto& c : counts) facet(by, c);
  }

  void facet(const std::string& by, const FacetCount& c) {
    Json j;
    j["by"] = by;
    j["value"] = c.value;
    j["abstracts"] = c.abstracts;
    emit(j);
  }

  void abstract(const Abstract& a) override {
    Json j;
    describe(j, a);
    j["text"] = a.text;
    emit(j);
  }

  void stats(const IndexStats& s) override {
    Json j;
    j["path"] = path_value(s.path);
    j["abstracts"] = s.abstracts;
    j["files"] = s.files;
    j["terms"] = s.terms;
    j["size_bytes"] = s.size_bytes;
    j["average_length"] = s.average_length;
    j["vectors"] = s.vectors;
    j["graph"] = s.graph;
    emit(j);
  }

 private:
  void emit(const Json& j) {
    // Invalid UTF-8 cannot reach here (inputs are validated, paths are path_value()),
    // but never throw on output.
    out_ << escape_json_controls(j.dump(-1, ' ', false, Json::error_handler_t::replace)) << '\n';
  }

  std::ostream& out_;
  std::string label_;  // the batch's current query, "" for a single query
};

}  // namespace

std::unique_ptr<Printer> make_json_printer(std::ostream& out) { return std::make_unique<JsonPrinter>(out); }

}  // namespace abstracts::cli
