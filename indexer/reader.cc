#include "indexer/reader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "engine/schema.h"
#include "indexer/bibtex_reader.h"
#include "indexer/json.h"
#include "indexer/line_source.h"
#include "indexer/markup.h"
#include "indexer/names.h"
#include "indexer/xml_reader.h"

namespace abstracts::indexer {
namespace {

// How many lines of a file tell its format (a Cochrane RIS export has a few
// lines before its first record).
constexpr std::size_t kPeekLines = 20;

// The hint of a file of no format abstracts reads.
constexpr const char* kFormatsHint =
    "abstracts reads its text format (a first line like 'NeurIPS 2026 Papers', then "
    "one abstract a line), JSON Lines of BEIR, arXiv's metadata snapshot or "
    "Semantic Scholar; RIS; BibTeX and BibLaTeX; CSL-JSON; OpenAlex; PubMed XML; arXiv's Atom API "
    "(docs/formats.md)";

// What a file of no known format seems to be, by its name's extension.
std::string kind_by_name(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::pair<const char*, const char*> kKinds[] = {
      {".pdf", "PDF"},        {".md", "Markdown"},     {".markdown", "Markdown"}, {".html", "HTML"},
      {".htm", "HTML"},       {".txt", "text"},        {".docx", "document"},     {".doc", "document"},
      {".odt", "document"},   {".rtf", "document"},    {".epub", "document"},     {".png", "image"},
      {".jpg", "image"},      {".jpeg", "image"},      {".gif", "image"},         {".svg", "image"},
      {".tif", "image"},      {".tiff", "image"},      {".webp", "image"},        {".zip", "archive"},
      {".tar", "archive"},    {".7z", "archive"},      {".csv", "CSV"},           {".tsv", "CSV"}};
  for (const auto& [e, kind] : kKinds) {
    if (ext == e) return kind;
  }
  return "other";
}

// Throws UnknownFormat for a PDF or another binary file (NUL bytes among its
// first bytes), told before its bytes are read as text: a PDF is no text in
// another encoding, and the hint for one must not say so. Gzip is read through.
void refuse_binary(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  char head[8192];
  in.read(head, sizeof head);
  const std::string_view bytes(head, static_cast<std::size_t>(in.gcount()));
  if (bytes.starts_with("\x1f\x8b")) return;
  if (bytes.starts_with("%PDF-")) {
    throw UnknownFormat(file.string() + ": a PDF, not a file of abstracts", file.string(), 0,
                        "abstracts indexes abstracts and bibliographies, not papers: export the library's records "
                        "(BibTeX, RIS, CSL-JSON) with their abstracts; " + std::string(kFormatsHint),
                        "PDF");
  }
  // A stray NUL in text is an error on its line (LineSource); images, archives
  // and UTF-16 have them all along.
  if (std::count(bytes.begin(), bytes.end(), '\0') >= 4) {
    throw UnknownFormat(file.string() + ": a binary file (or text in UTF-16), not a file of abstracts",
                        file.string(), 0, std::string("convert text to UTF-8; ") + kFormatsHint, kind_by_name(file));
  }
}

// "NeurIPS 2026 Papers" -> ("NeurIPS", 2026): the venue is what comes before a
// four-digit year.
bool parse_header(std::string_view header, std::string& venue, int& year) {
  // A header is a short label, not a sentence: "Since 2017, transformers ..." is
  // an abstract, and taking it for a header would lose it.
  if (header.size() > 120 || header.back() == '.' || header.find(", ") != std::string_view::npos) {
    return false;
  }
  for (std::size_t i = 0; i + 4 <= header.size(); ++i) {
    bool digits = true;
    for (std::size_t k = 0; k < 4; ++k) digits = digits && std::isdigit(static_cast<unsigned char>(header[i + k]));
    bool word_start = i == 0 || header[i - 1] == ' ';
    bool word_end = i + 4 == header.size() || !std::isalnum(static_cast<unsigned char>(header[i + 4]));
    if (!digits || !word_start || !word_end) continue;
    int y = std::stoi(std::string(header.substr(i, 4)));
    venue = std::string(trim(header.substr(0, i)));
    auto words = [](std::string_view s) {
      std::size_t n = 0;
      for (std::size_t k = 0; k < s.size(); ++k) n += s[k] != ' ' && (k == 0 || s[k - 1] == ' ');
      return n;
    };
    // "<Venue> <Year>", then at most three words ("Papers", "Accepted Papers").
    if (y < 1900 || y > 2199 || venue.empty() || words(venue) > 6 || words(header.substr(i + 4)) > 3) {
      return false;
    }
    year = y;
    return true;
  }
  return false;
}

// A reader of formats whose records are lines (the text format, JSON Lines): a
// line over kMaxLineBytes is a record over its cap.
class LineRecordReader : public Reader {
 protected:
  explicit LineRecordReader(std::unique_ptr<LineSource> src) : src_(std::move(src)) {
    src_->allow_long_lines(true);  // in pieces: a line over the cap is left out, not an error
  }

  // True if the line src_ gave last is the first piece of a line over the cap:
  // the rest of it is read and dropped, and the record rejected.
  bool skip_long_line() {
    if (!src_->line_continues()) return false;
    const std::uint32_t line = src_->number();
    while (src_->line_continues() && src_->next(piece_)) {
    }
    reject(line, "a line over 1 MiB");
    return true;
  }

  std::unique_ptr<LineSource> src_;

 private:
  std::string piece_;
};

class TextReader : public LineRecordReader {
 public:
  // The venue and year are the header line's (parse_header()).
  TextReader(std::unique_ptr<LineSource> src, std::string venue, int year)
      : LineRecordReader(std::move(src)) {
    format_ = Format::kAbstractsText;
    venue_ = std::move(venue);
    year_ = year;
  }

  std::uint64_t bytes_read() const override { return src_->offset(); }

 protected:
  std::optional<Record> read_next() override {
    while (src_->next(line_)) {
      if (skip_long_line()) continue;
      std::string_view text = trim(line_);
      if (text.empty()) continue;
      return Record{{}, std::string(text), src_->number()};
    }
    return std::nullopt;
  }

 private:
  std::string line_;
};

// "1234-5678" or "1234-567X" (also without the hyphen): an ISSN, not a book's ISBN.
bool is_issn(std::string_view value) {
  std::string digits;
  for (char c : value) {
    if (c != '-') digits += c;
  }
  if (digits.size() != 8) return false;
  for (std::size_t i = 0; i < 8; ++i) {
    const char c = digits[i];
    if (!(c >= '0' && c <= '9') && !(i == 7 && (c == 'X' || c == 'x'))) return false;
  }
  return true;
}

// A first and a last page as one range ("10511-10520"); the first alone when
// the last is missing or the same.
std::string page_range(const std::string& first, const std::string& last) {
  if (first.empty()) return last;
  if (last.empty() || last == first) return first;
  return first + "-" + last;
}

// A value CSL-JSON may give as a string or a number ("volume": 12).
std::string text_or_number(Json j, std::string_view key) {
  if (const auto value = find(j, key); value && is_integer(*value)) return std::to_string(integer(*value));
  return text_of(j, key);
}

// A record of a JSON file that cannot be read: what is wrong with it. The
// reader leaves it out and reads on (Reader::reject).
struct BadRecord {
  std::string what;
};

void beir(Json j, Record& r) {
  const Json id = *find(j, "_id");
  if (std::string_view text; id.get(text) == simdjson::SUCCESS) {
    r.fields.id = text;
  } else if (is_integer(id)) {
    r.fields.id = std::to_string(integer(id));
  } else {
    throw BadRecord{"\"_id\" is neither a string nor an integer"};
  }
  if (r.fields.id.empty() || r.fields.id.size() > 200) throw BadRecord{"\"_id\" is empty or longer than 200 bytes"};
  r.raw_text = text_of(j, "text");
  r.fields.title = text_of(j, "title");
}

// arXiv's metadata snapshot (the Kaggle file): "authors_parsed" is
// [family, given, suffix] in Unicode; "authors" the same names in LaTeX.
void arxiv(Json j, Record& r) {
  r.raw_text = text_of(j, "abstract");
  r.fields.title = text_of(j, "title");
  r.fields.arxiv_id = text_of(j, "id");
  r.fields.doi = text_of(j, "doi");
  r.fields.venue = "arXiv";
  r.fields.item_type = "preprint";
  if (const auto parsed = find_array(j, "authors_parsed")) {
    for (const Json name : *parsed) {
      // The strings of [family, given, suffix]; a name without its family is none.
      std::string_view part[3];
      const std::size_t size = array_size(name);
      if (size == 0 || array_at(name, 0).get(part[0]) != simdjson::SUCCESS) continue;
      for (std::size_t k = 1; k < 3 && k < size; ++k) {
        if (array_at(name, k).get(part[k]) != simdjson::SUCCESS) part[k] = {};  // not a string: none
      }
      add_author(r.fields, [&] {
        Author a{std::string(part[0]), std::string(part[1])};
        if (!part[2].empty()) a.given += (a.given.empty() ? "" : ", ") + std::string(part[2]);
        return a;
      });
    }
  } else {
    parse_name_list(text_of(j, "authors"), r.fields);
  }
  r.fields.categories = split_list(text_of(j, "categories"), " ", kMaxCategories);
  // The first version's date is the paper's; update_date is the record's.
  std::string date = text_of(j, "update_date");
  if (const auto versions = find(j, "versions"); versions && array_size(*versions) > 0 &&
                                                  array_at(*versions, 0).is_object()) {
    date = text_of(array_at(*versions, 0), "created");
  }
  parse_date(date, r.fields.year, r.fields.month, r.fields.day);
}

// Semantic Scholar's Open Research Corpus (the old schema: "paperAbstract").
void semantic_scholar(Json j, Record& r) {
  r.raw_text = text_of(j, "paperAbstract");
  r.fields.title = text_of(j, "title");
  r.fields.doi = text_of(j, "doi");
  r.fields.pmid = text_of(j, "pmid");
  r.fields.venue = text_of(j, "journalName");
  if (r.fields.venue.empty()) r.fields.venue = text_of(j, "venue");
  r.fields.volume = trim(text_of(j, "journalVolume"));
  r.fields.pages = trim(text_of(j, "journalPages"));
  if (const auto year = find(j, "year"); year && is_integer(*year)) r.fields.year = static_cast<int>(integer(*year));
  if (const auto authors = find_array(j, "authors")) {
    for (const Json a : *authors) {
      if (a.is_object()) add_author(r.fields, [&] { return parse_name(text_of(a, "name")); });
    }
  }
  if (const auto entities = find_array(j, "entities")) {
    for (const Json e : *entities) {
      if (r.fields.categories.size() == kMaxCategories) break;
      if (std::string_view entity; e.get(entity) == simdjson::SUCCESS) r.fields.categories.emplace_back(entity);
    }
  }
  // Without a DOI or PMID, Semantic Scholar's own id names the paper.
  if (r.fields.doi.empty() && r.fields.pmid.empty()) r.fields.id = text_of(j, "id");
}

// The last segment of a URL ("https://openalex.org/W3122893125" -> "W3122893125").
std::string last_segment(const std::string& url) { return url.substr(url.find_last_of('/') + 1); }

// An OpenAlex work (the /works API): the abstract comes as an inverted index,
// word -> positions, and is rebuilt; its words may hold MathML and "&#13;".
void openalex(Json j, Record& r) {
  simdjson::dom::object index;
  if (const auto value = find(j, "abstract_inverted_index"); value && value->get(index) == simdjson::SUCCESS) {
    // A word given twice has the positions it was given last.
    std::map<std::string_view, Json> positions_of;
    for (const simdjson::dom::key_value_pair field : index) positions_of[field.key] = field.value;
    std::vector<std::pair<long long, std::string>> words;
    for (const auto& [word, positions] : positions_of) {
      simdjson::dom::array list;
      if (positions.get(list) != simdjson::SUCCESS) continue;
      for (const Json p : list) {
        if (is_integer(p)) words.emplace_back(integer(p), word);
      }
    }
    std::sort(words.begin(), words.end());
    std::string text;
    for (const auto& [position, word] : words) {
      if (!text.empty()) text += ' ';
      text += word;
    }
    // A literal "\n" (backslash, n) stands for a line break in some works.
    for (std::size_t at; (at = text.find("\\n")) != std::string::npos;) text.replace(at, 2, " ");
    r.raw_text = strip_markup(text);
  }
  r.fields.title = strip_markup(text_of(j, "title"));
  if (r.fields.title.empty()) r.fields.title = strip_markup(text_of(j, "display_name"));
  r.fields.doi = text_of(j, "doi");
  if (const auto ids = find_object(j, "ids")) {
    const std::string pmid = text_of(*ids, "pmid");
    if (!pmid.empty()) r.fields.pmid = last_segment(pmid);
    r.fields.pmcid = text_of(*ids, "pmcid");  // a link, made "PMC..." by the indexer
  }
  if (const auto year = find(j, "publication_year"); year && is_integer(*year)) {
    r.fields.year = static_cast<int>(integer(*year));
  }
  int year = 0, month = 0, day = 0;
  if (parse_date(text_of(j, "publication_date"), year, month, day) && year == r.fields.year) {
    r.fields.month = month;
    r.fields.day = day;
  }
  if (const auto authorships = find_array(j, "authorships")) {
    for (const Json a : *authorships) {
      if (const auto author = find_object(a, "author")) {
        const std::string name = text_of(*author, "display_name");
        if (!name.empty()) add_author(r.fields, [&] { return parse_name(name); });
      }
    }
  }
  if (const auto location = find_object(j, "primary_location")) {
    if (const auto source = find_object(*location, "source")) {
      r.fields.venue = text_of(*source, "display_name");
      r.fields.issn = text_of(*source, "issn_l");
      r.fields.publisher = text_of(*source, "host_organization_name");
    }
    r.fields.url = text_of(*location, "landing_page_url");
  }
  r.fields.item_type = text_of(j, "type");  // "article", "book-chapter", ... (Crossref's types)
  if (const auto biblio = find_object(j, "biblio")) {
    r.fields.volume = text_of(*biblio, "volume");
    r.fields.issue = text_of(*biblio, "issue");
    r.fields.pages = page_range(text_of(*biblio, "first_page"), text_of(*biblio, "last_page"));
  }
  if (const auto keywords = find_array(j, "keywords")) {
    for (const Json k : *keywords) {
      if (r.fields.categories.size() == kMaxCategories) break;
      if (!k.is_object()) continue;
      std::string name = text_of(k, "display_name");
      if (!name.empty()) r.fields.categories.push_back(std::move(name));
    }
  }
  if (r.fields.doi.empty() && r.fields.pmid.empty()) r.fields.id = last_segment(text_of(j, "id"));
}

// A CSL-JSON name: "family" (after its particles, as pandoc and citeproc
// write them: "van der" + "Berg") and "given" (with its "suffix": "John, Jr.");
// else "literal", one name kept whole as a family name (an institution's, or a
// name the source left unsplit, as Zotero's one-field names); else "given"
// alone ("Plato"), the one name there is, as the family name.
Author csl_name(Json a) {
  std::string family;
  for (const char* part : {"dropping-particle", "non-dropping-particle", "family"}) {
    const std::string text = text_of(a, part);
    if (text.empty()) continue;
    // "d'" + "Enterria": an apostrophe ends a particle without a space.
    const bool joined = family.empty() || family.ends_with('\'') || family.ends_with("\u2019");
    family += (joined ? "" : " ") + text;
  }
  std::string given = text_of(a, "given");
  if (family.empty()) {
    std::string literal = text_of(a, "literal");
    return {literal.empty() ? std::move(given) : std::move(literal), {}};
  }
  if (const std::string suffix = text_of(a, "suffix"); !suffix.empty()) {
    given += (given.empty() ? "" : ", ") + suffix;
  }
  return {std::move(family), std::move(given)};
}

// CSL-JSON (Zotero, Better CSL JSON, Manubot): "author" (csl_name()),
// "issued" {"date-parts": [[y, m, d]]}, "container-title", "DOI",
// "PMID", "keyword", and HTML in "abstract". Manubot keeps the paper's own id
// in "note" ("standard_id: arxiv:1106.5730").
void csl(Json j, Record& r) {
  r.raw_text = strip_markup(text_of(j, "abstract"));
  r.fields.title = strip_markup(text_of(j, "title"));
  r.fields.venue = text_of(j, "container-title");
  // A preprint (type "article") names its server as publisher: "arXiv", "bioRxiv".
  if (r.fields.venue.empty() && text_of(j, "type") == "article") r.fields.venue = text_of(j, "publisher");
  r.fields.doi = text_of(j, "DOI");
  r.fields.pmid = text_of(j, "PMID");
  r.fields.pmcid = text_of(j, "PMCID");
  r.fields.isbn = text_of(j, "ISBN");
  r.fields.item_type = text_of(j, "type");
  r.fields.volume = text_or_number(j, "volume");
  r.fields.issue = text_or_number(j, "issue");
  r.fields.pages = text_or_number(j, "page");
  r.fields.publisher = text_of(j, "publisher");
  r.fields.url = text_of(j, "URL");
  r.fields.issn = text_of(j, "ISSN");
  // Zotero writes an arXiv preprint's id as "number": "arXiv:0704.0001", and its link as "URL".
  if (const std::string number = text_of(j, "number"); number.rfind("arXiv:", 0) == 0) {
    r.fields.arxiv_id = number.substr(6);
  } else if (const std::string url = text_of(j, "URL"); url.find("arxiv.org/abs/") != std::string::npos) {
    r.fields.arxiv_id = url.substr(url.find("arxiv.org/abs/") + 14);
  }
  if (const auto authors = find_array(j, "author")) {
    for (const Json a : *authors) {
      if (!a.is_object()) continue;
      Author name = csl_name(a);
      if (!name.family.empty()) add_author(r.fields, [&] { return std::move(name); });
    }
  }
  if (const auto issued = find_object(j, "issued")) {
    const auto parts = find_array(*issued, "date-parts");
    if (Json first; parts && parts->at(0).get(first) == simdjson::SUCCESS && first.is_array()) {
      int* fields[] = {&r.fields.year, &r.fields.month, &r.fields.day};
      for (std::size_t k = 0; k < 3 && k < array_size(first); ++k) {
        const Json v = array_at(first, k);
        if (is_integer(v)) *fields[k] = static_cast<int>(integer(v));
        if (std::string_view text; v.get(text) == simdjson::SUCCESS) *fields[k] = std::atoi(std::string(text).c_str());
      }
    } else {
      parse_date(text_of(*issued, "raw"), r.fields.year, r.fields.month, r.fields.day);
    }
    settle_date(r.fields.year, r.fields.month, r.fields.day);
  }
  r.fields.categories = split_list(text_of(j, "keyword"), ",;", kMaxCategories);
  const std::string note = text_of(j, "note");
  if (const auto at = note.find("standard_id: "); at != std::string::npos) {
    const std::string id = note.substr(at + 13, note.find_first_of(" \n", at + 13) - (at + 13));
    if (id.rfind("arxiv:", 0) == 0) r.fields.arxiv_id = id.substr(6);
    if (id.rfind("doi:", 0) == 0 && r.fields.doi.empty()) r.fields.doi = id.substr(4);
    if (id.rfind("pmid:", 0) == 0 && r.fields.pmid.empty()) r.fields.pmid = id.substr(5);
  }
  r.fields.citation_key = text_of(j, "citation-key");
  if (r.fields.citation_key.empty()) {
    const std::string id = text_of(j, "id");  // Better CSL JSON: the key; Zotero: an item URI
    if (!id.empty() && id.size() <= 100 && id.find_first_of("/: ") == std::string::npos) r.fields.citation_key = id;
  }
}

// The record the JSON value `j` (from line `line`) describes, of whichever
// kind its keys say (docs/formats.md); nullopt for one without something to
// search (an abstract; for BEIR, text or a title). Throws BadRecord for a value
// that is no object, or an object of no known kind.
std::optional<Record> json_record(Json j, std::uint32_t line) {
  if (!j.is_object()) throw BadRecord{"not a JSON object"};
  Record r;
  r.line = line;
  const auto authors = find(j, "authors");
  if (contains(j, "_id")) {
    beir(j, r);
    if (r.raw_text.empty() && r.fields.title.empty()) return std::nullopt;
    return r;
  }
  const bool csl_keys =
      contains(j, "type") || contains(j, "author") || contains(j, "issued") || contains(j, "container-title");
  if (contains(j, "paperAbstract")) {
    semantic_scholar(j, r);
  } else if (contains(j, "abstract_inverted_index")) {
    openalex(j, r);
  } else if (contains(j, "abstract") && contains(j, "id") &&
             (contains(j, "authors_parsed") || contains(j, "versions") || (authors && authors->is_string()) ||
              !csl_keys)) {
    // "id" and "abstract" suffice: a CSL-JSON item has them too, and its own keys.
    arxiv(j, r);
  } else if (csl_keys) {
    csl(j, r);
  } else {
    throw BadRecord{
        "an object of no known kind (BEIR has \"_id\", arXiv's snapshot \"id\" and \"abstract\", "
        "Semantic Scholar \"paperAbstract\", OpenAlex \"abstract_inverted_index\", CSL-JSON \"type\" "
        "or \"author\")"};
  }
  if (is_empty_text(r.raw_text)) return std::nullopt;
  return r;
}

// `text` parsed as JSON by `parser`, valid until it parses again; BadRecord if
// it is not JSON.
Json parse_json(JsonParser& parser, std::string_view text) {
  const std::optional<Json> j = parser.parse(text);
  if (!j) throw BadRecord{"not valid JSON"};
  return *j;
}

// One JSON object a line. A line may also be a whole OpenAlex response (the
// API sends it minified: {"meta": ..., "results": [...]}, as saved page by page),
// whose works are then read in turn. A line that is not JSON, or not an object
// of a known kind, is left out (as is such a work of a response), and the next
// line read.
class JsonLinesReader : public LineRecordReader {
 public:
  JsonLinesReader(std::unique_ptr<LineSource> src, std::string first)
      : LineRecordReader(std::move(src)), pending_(std::move(first)), has_pending_(true) {
    format_ = Format::kJsonLines;
  }

  std::uint64_t bytes_read() const override { return src_->offset(); }

 protected:
  std::optional<Record> read_next() override {
    while (true) {
      try {
        if (auto r = next_of_line()) return r;
        if (done_) return std::nullopt;
      } catch (const BadRecord& bad) {
        reject(src_->number(), bad.what, kHint);
      }
    }
  }

 private:
  static constexpr const char* kHint =
      "each line of a JSON Lines file is one object: BEIR's {\"_id\", \"title\", \"text\"}, "
      "a record of arXiv's metadata snapshot, or of Semantic Scholar's corpus, or an OpenAlex response";

  // The next record of the line being read, or of the lines after it; nullopt
  // for a record without anything to search (counted), and at the end of the
  // file (done_). Throws BadRecord for a line, or a work of a response, that
  // cannot be read.
  std::optional<Record> next_of_line() {
    if (next_result_ < results_.size()) {
      auto r = json_record(results_[next_result_++], src_->number());
      if (!r) ++skipped_;
      return r;
    }
    results_.clear();
    next_result_ = 0;
    if (has_pending_) {
      has_pending_ = false;
    } else if (!src_->next(pending_)) {
      done_ = true;
      return std::nullopt;
    } else if (skip_long_line()) {
      return std::nullopt;
    }
    if (is_blank(pending_)) return std::nullopt;
    const Json j = parse_json(parser_, pending_);
    if (const auto results = find_array(j, "results")) {
      results_.assign(results->begin(), results->end());
      return std::nullopt;
    }
    std::optional<Record> r = json_record(j, src_->number());
    // A record without an abstract (Cranfield has two) holds nothing to search.
    if (!r) ++skipped_;
    return r;
  }

  std::string pending_;
  bool has_pending_;
  bool done_ = false;  // the file's end was read
  JsonParser parser_;
  std::vector<Json> results_;  // the works of an OpenAlex response line (in parser_'s document)
  std::size_t next_result_ = 0;
};

// A JSON array of records, one object an element (CSL-JSON from Zotero and
// Manubot, or arXiv records), or the "results" array of a JSON document (an
// OpenAlex response), read element by element: memory holds one record, never
// the file. Each element's kind is told by its keys, as for JSON Lines. An
// element that is not valid JSON, or not an object of a known kind, is left out
// and the next one read: the array's brackets and strings still tell where it
// ends. Where they do not (a file cut short, a stray '}'), the records before
// stay and the rest of the file is left out, as one problem.
class JsonArrayReader : public Reader {
 public:
  // `first`: the file's first non-blank line, or its first piece (a minified
  // document on one line); the source is set to give long lines in pieces.
  JsonArrayReader(std::unique_ptr<LineSource> src, std::string first) : src_(std::move(src)), line_(std::move(first)) {
    format_ = Format::kJsonArray;
    src_->allow_long_lines(true);
    line_number_ = src_->number();
    line_ended_ = !src_->line_continues();
  }

  std::uint64_t bytes_read() const override { return src_->offset(); }

 protected:
  std::optional<Record> read_next() override {
    try {
      while (auto element = next_element()) {
        if (element_over_) {
          reject(element_line_, "a JSON element over 16 MiB");
          continue;
        }
        try {
          if (auto r = json_record(parse_json(parser_, *element), element_line_)) return r;
          ++skipped_;
        } catch (const BadRecord& bad) {
          reject(element_line_, bad.what, kElementHint);
        }
      }
    } catch (const Broken& broken) {
      done_ = true;
      reject(line_number_, broken.what, "a JSON array of records is [ {...}, {...} ]");
    }
    return std::nullopt;
  }

 private:
  static constexpr const char* kElementHint =
      "a JSON array of records holds CSL-JSON items, or arXiv or BEIR records";

  // The array's structure, or the document's, cannot be followed past here.
  struct Broken {
    std::string what;
  };
  [[noreturn]] void malformed(std::string what) const { throw Broken{std::move(what)}; }

  // The next character, or '\0' at the end of the file (a NUL byte is refused
  // by LineSource, so it cannot be a character of the file).
  char get() {
    while (pos_ >= line_.size()) {
      if (!src_->next(line_)) return '\0';
      line_number_ = src_->number();
      pos_ = 0;
      if (!element_.empty() && line_ended_) element_ += '\n';
      line_ended_ = !src_->line_continues();
    }
    return line_[pos_++];
  }

  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

  // The next character that is not white space ('\0' at the end).
  char get_non_space() {
    char c = get();
    while (is_space(c)) c = get();
    return c;
  }

  // The text of the next element of the top-level array, or nullopt after its
  // ']'. Of an element over kMaxRecordBytes, "" and element_over_ set.
  std::optional<std::string> next_element() {
    if (done_) return std::nullopt;
    for (char c; (c = get_non_space()) != '\0';) {
      if (!opened_) {
        if (c == '{') {
          in_document_ = true;
          find_results();  // an OpenAlex response: {"meta": {...}, "results": [...]}
        } else if (c != '[') {
          malformed("not a JSON array");
        }
        opened_ = true;
        continue;
      }
      if (c == ']') {
        done_ = true;
        // What follows "results" in a document is not read; after an array, nothing may follow.
        if (!in_document_ && get_non_space() != '\0') {
          malformed("text after the array's closing ']' (another array?), which is not read");
        }
        return std::nullopt;
      }
      if (c == ',' && !first_element_) continue;
      if (c != '{') {
        skip_element(c);
        continue;
      }
      first_element_ = false;
      element_line_ = line_number_;
      element_over_ = false;
      element_.assign(1, c);
      read_rest_of_value(c, &element_, "the array ends inside an element");
      std::string out;
      out.swap(element_);
      return out;
    }
    if (!opened_) malformed("not a JSON array");
    malformed("the array is never closed with ']'");
  }

  // Reads past an element that `first` starts and that is no object: a string,
  // an array, a number or a literal, left out. Any other character (a stray
  // '}', ':') breaks the array.
  void skip_element(char first) {
    const std::uint32_t line = line_number_;
    auto is_literal = [](char c) {
      return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
             c == '+' || c == '.';
    };
    if (first == '"' || first == '[') {
      read_rest_of_value(first, nullptr, "the array ends inside an element");
    } else if (is_literal(first)) {
      while (pos_ < line_.size() && is_literal(line_[pos_])) ++pos_;
    } else {
      const bool shown = first > ' ' && first < 0x7f;  // a byte of a longer UTF-8 character is not
      malformed("the array's brackets do not match (" +
                (shown ? "'" + std::string(1, first) + "'" : std::string("a character")) +
                " where an element or ']' should be), so the rest of the file is not read");
    }
    first_element_ = false;
    reject(line, "an element that is not an object", kElementHint);
  }

  // In a top-level object, reads up to the '[' that opens its "results" array,
  // skipping the values of the keys before it.
  void find_results() {
    while (true) {
      char c = get_non_space();
      while (c == ',') c = get_non_space();
      if (c != '"') malformed("an object without a \"results\" array");
      std::string key;
      for (char k; (k = get()) != '"';) {
        if (k == '\0') malformed("the file ends inside a key");
        key += k;
        if (k == '\\') key += get();
      }
      if (get_non_space() != ':') malformed("not a JSON object");
      c = get_non_space();
      if (key == "results") {
        if (c != '[') malformed("\"results\" is not an array");
        return;
      }
      if (c == '"' || c == '{' || c == '[') {
        read_rest_of_value(c, nullptr, "the file ends inside a value");
      } else {  // a number or a literal: up to the ',' or '}' after it
        while (pos_ < line_.size() && line_[pos_] != ',' && line_[pos_] != '}') ++pos_;
      }
    }
  }

  // Reads the rest of the string, object or array that `first` opened, to its
  // end (brackets and quotes inside strings do not count), appending what it
  // reads to `into` if given, up to kMaxRecordBytes (then `into` is emptied and
  // element_over_ set); `cut` says what it is when the file ends first.
  void read_rest_of_value(char first, std::string* into, const char* cut) {
    int depth = (first == '{' || first == '[') ? 1 : 0;
    bool in_string = first == '"', escaped = false;
    while (depth > 0 || in_string) {
      const char d = get();
      if (d == '\0') malformed(cut);
      if (into != nullptr) {
        *into += d;
        if (into->size() > kMaxRecordBytes) {
          *into = std::string();  // its memory too: the rest is only scanned
          into = nullptr;
          element_over_ = true;
        }
      }
      if (in_string) {
        if (escaped) {
          escaped = false;
        } else if (d == '\\') {
          escaped = true;
        } else if (d == '"') {
          in_string = false;
        }
      } else if (d == '"') {
        in_string = true;
      } else if (d == '{' || d == '[') {
        ++depth;
      } else if (d == '}' || d == ']') {
        --depth;
      }
    }
  }

  std::unique_ptr<LineSource> src_;
  JsonParser parser_;
  std::string line_;
  std::size_t pos_ = 0;
  std::uint32_t line_number_ = 0;
  bool line_ended_ = true;  // line_ is a whole line, or a long line's last piece
  std::uint32_t element_line_ = 0;
  std::string element_;
  bool element_over_ = false;  // the element read last is over kMaxRecordBytes
  bool opened_ = false, first_element_ = true, done_ = false, in_document_ = false;
};

// RIS ("TY  - JOUR" ... "ER  - "): one tag a line, "XX  - value" (some
// exporters write two spaces after the dash); an untagged line inside a record
// continues the value before it (Web of Science wraps abstracts so); lines
// outside records are left out (Cochrane heads each record with a few). A "TY"
// line starts a record, and ends the one before it if its "ER" is missing. A
// record over kMaxRecordBytes is left out, read to its end without being kept;
// so is a record without its "TY" line: tag lines outside a record, up to the
// next "ER" or "TY".
class RisReader : public Reader {
 public:
  explicit RisReader(std::unique_ptr<LineSource> src) : src_(std::move(src)) {
    format_ = Format::kRis;
    src_->allow_long_lines(true);  // a record is bounded, not its lines
  }

  // True if one of `head` (a file's first lines, or pieces of them) is a "TY  - " line.
  static bool starts(const std::vector<Line>& head) {
    std::string tag, value;
    bool line_start = true;
    for (const Line& l : head) {
      if (line_start && tag_line(l.text, tag, value) && tag == "TY") return true;
      line_start = !l.continues;
    }
    return false;
  }

  // "TY  - JOUR" -> ("TY", "JOUR"); false for a line that is no tag line.
  static bool tag_line(std::string_view line, std::string& tag, std::string& value) {
    if (line.size() < 5 || !is_tag_char(line[0], true) || !is_tag_char(line[1], false)) return false;
    if (line.substr(2, 3) != "  -") return false;
    if (line.size() > 5 && line[5] != ' ') return false;
    tag.assign(line.substr(0, 2));
    value.assign(trim(line.substr(5)));
    return true;
  }

  std::uint64_t bytes_read() const override { return src_->offset(); }

 protected:
  std::optional<Record> read_next() override {
    std::string tag, value;
    while (read_line(in_record_ && !over_ ? kMaxRecordBytes - record_bytes_ : 0)) {
      const bool tagged = tag_line(line_, tag, value);
      if (tagged && tag == "TY") {
        end_untyped();
        std::optional<Record> before = in_record_ ? finish() : std::nullopt;
        start();
        record_.fields.item_type = value;  // "JOUR", "CONF", ...
        if (before) return before;
        continue;
      }
      if (!in_record_) {
        if (tagged && tag == "ER") {
          end_untyped();
        } else if (tagged && !untyped_) {  // the first tag of a record whose TY is missing
          untyped_ = true;
          untyped_line_ = number_;
          untyped_tag_ = tag;
        }
        continue;
      }
      if (tagged && tag == "ER") {
        in_record_ = false;
        if (auto r = finish()) return r;
        continue;
      }
      if (over_) continue;
      record_bytes_ += line_.size() + 1;
      if (line_cut_ || record_bytes_ > kMaxRecordBytes) {
        over_ = true;
        const std::uint32_t first = record_.line;
        record_ = Record{};  // its memory too: the rest is only read past
        record_.line = first;
        last_ = nullptr;
        continue;
      }
      if (!tagged) {  // a continuation line
        if (last_ != nullptr && !is_blank(line_)) last_->append(" ").append(trim(line_));
        continue;
      }
      add(tag, value);
    }
    end_untyped();
    if (in_record_) {  // the last record without its ER line
      in_record_ = false;
      return finish();
    }
    return std::nullopt;
  }

 private:
  // Leaves out the record without a TY line that ends here, if there is one.
  void end_untyped() {
    if (!untyped_) return;
    untyped_ = false;
    reject(untyped_line_, "a RIS record without its TY line (its first tag is " + untyped_tag_ + ")",
           "a RIS record starts with a 'TY  - ' line and ends with an 'ER  - ' line");
  }

  static bool is_tag_char(char c, bool first) {
    return (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
  }

  // Reads the next line into line_; false at the end of the file. Of a line
  // over `room` bytes, line_ keeps the pieces that fit (at least the first:
  // enough to tell its tag) and line_cut_ is set; the rest is read past.
  bool read_line(std::size_t room) {
    if (!src_->next(line_)) return false;
    number_ = src_->number();
    line_cut_ = false;
    while (src_->line_continues() && src_->next(piece_)) {
      if (!line_cut_ && line_.size() + piece_.size() <= room) {
        line_ += piece_;
      } else {
        line_cut_ = true;
      }
    }
    return true;
  }

  // The "TY" line just read starts a record.
  void start() {
    in_record_ = true;
    over_ = false;
    record_ = Record{};
    record_.line = number_;
    start_page_.clear();
    end_page_.clear();
    record_bytes_ = line_.size() + 1;
    last_ = nullptr;
    sponsors_.clear();
    web_of_science_ = false;
  }

  void add(const std::string& tag, const std::string& value) {
    Abstract& f = record_.fields;
    last_ = nullptr;
    std::string* field = nullptr;
    if (tag == "AB" || tag == "N2") {
      field = &record_.raw_text;
    } else if (tag == "TI" || tag == "T1" || tag == "CT") {
      field = &f.title;
    } else if (tag == "DO") {
      field = &f.doi;
    } else if (tag == "ID") {
      field = &f.citation_key;  // the exporter's key for the record
    } else if (tag == "SN") {
      // A journal's ISSN or a book's ISBN, one line each (Web of Science gives a
      // chapter both; a journal its print and electronic ISSNs).
      if (!schema::isbn13(value).empty()) f.isbn += (f.isbn.empty() ? "" : " ") + value;
      if (is_issn(value)) f.issn += (f.issn.empty() ? "" : ", ") + value;
      return;
    } else if (tag == "N1") {
      // A note, or Zotero's Extra ("PMCID: PMC5584645").
      if (const std::string pmcid = extra_line(value, "PMCID"); f.pmcid.empty()) f.pmcid = pmcid;
      return;
    } else if (tag == "UR") {
      // An arXiv preprint's only identifier in RIS is its link.
      if (const auto at = value.find("arxiv.org/abs/"); at != std::string::npos && f.arxiv_id.empty()) {
        f.arxiv_id = value.substr(at + 14);
      }
      if (f.url.empty()) f.url = value;  // the first of several links: the paper's own
      return;
    } else if (tag == "VL") {
      field = &f.volume;
    } else if (tag == "IS") {
      field = &f.issue;
    } else if (tag == "SP") {
      field = &start_page_;
    } else if (tag == "EP") {
      field = &end_page_;
    } else if (tag == "PB") {
      field = &f.publisher;
    } else if (tag == "T2" || tag == "JO" || tag == "JF" || tag == "JA" || tag == "J2" || tag == "BT" ||
               tag == "C3") {
      // The journal's name as the exporter spells it first (T2 in Zotero and Web
      // of Science); C3, Zotero's proceedings title, for a conference paper.
      if (f.venue.empty()) field = &f.venue;
    } else if (tag == "AU" || tag == "A1") {
      // Split into names at the record's end; past kMaxAuthors only counted.
      const std::size_t kept = f.authors.size();
      add_author(f, [&] { return Author{value, {}}; });
      if (f.authors.size() > kept) last_ = &f.authors.back().family;
      if (tag == "A1") sponsors_.push_back(f.authors.size() > kept ? kept : kMaxAuthors);
      return;
    } else if (tag == "WE") {
      web_of_science_ = true;
      return;
    } else if (tag == "KW") {
      if (f.categories.size() == kMaxCategories) {
        last_ = nullptr;  // past the cap: nor its continuation lines
        return;
      }
      f.categories.push_back(value);
      last_ = &f.categories.back();
      return;
    } else if (tag == "PY" || tag == "Y1" || tag == "DA") {
      int year = 0, month = 0, day = 0;
      // The most precise date: DA "2025/04/02/" over PY "2025".
      if (parse_date(value, year, month, day) && (f.year == 0 || month != 0)) {
        f.year = year;
        f.month = month;
        f.day = day;
      }
      return;
    }
    if (field == nullptr) return;
    if (!field->empty()) *field += " ";
    *field += value;
    last_ = field;
  }

  // The record read, or nullopt for one left out: over its cap, or without an abstract.
  std::optional<Record> finish() {
    if (over_) {
      reject(record_.line, "a RIS record over 16 MiB");
      return std::nullopt;
    }
    // Web of Science (the only exporter with a WE tag, its edition) writes a
    // conference's sponsors as A1 ("IEEE", "ACM"), its authors as AU.
    if (web_of_science_) {
      auto& authors = record_.fields.authors;
      for (auto at = sponsors_.rbegin(); at != sponsors_.rend(); ++at) {
        if (*at < authors.size()) authors.erase(authors.begin() + static_cast<std::ptrdiff_t>(*at));
      }
      record_.fields.author_count -= sponsors_.size();
    }
    for (auto& author : record_.fields.authors) author = parse_name(author.family);
    record_.fields.pages = page_range(start_page_, end_page_);
    if (is_blank(record_.raw_text)) {
      ++skipped_;
      return std::nullopt;
    }
    return std::move(record_);
  }

  std::unique_ptr<LineSource> src_;
  std::string line_, piece_;
  std::uint32_t number_ = 0;  // line_'s
  bool line_cut_ = false;     // see read_line()
  bool in_record_ = false;
  bool over_ = false;             // the record is over its cap: read past, not kept
  std::size_t record_bytes_ = 0;  // of the record's lines so far
  Record record_;
  std::string start_page_, end_page_;  // SP, EP: Abstract::pages at the record's end
  std::string* last_ = nullptr;  // the value a continuation line extends
  std::vector<std::size_t> sponsors_;  // where A1 names are in the authors (kMaxAuthors: not kept)
  bool web_of_science_ = false;        // the record has a WE tag
  bool untyped_ = false;          // in tag lines outside a record: one without its TY
  std::uint32_t untyped_line_ = 0;
  std::string untyped_tag_;       // its first tag
};

// The reader of the format `file` holds (Reader::open).
std::unique_ptr<Reader> open_format(const std::filesystem::path& file) {
  refuse_binary(file);
  auto src = std::make_unique<LineSource>(file);
  std::string first;
  bool any = false;
  // A JSON document may be one long line (minified); other formats bound their
  // records, not their lines, but their first line tells the format.
  src->allow_long_lines(true);
  while ((any = src->next(first)) && is_blank(first) && !src->line_continues()) {
  }
  if (!any) {
    // No format to name: an empty .jsonl or .bib is as empty as a text file.
    throw InputError(src->name() + ": empty file", src->name(), 0,
                     "there is nothing in it to index: is it the file you meant, and was it written in full?");
  }
  const std::string_view head = trim(first);
  // "{" alone on its line, or a line too long for JSON Lines, opens a JSON
  // document (an OpenAlex response, pretty-printed or minified).
  if (!head.empty() && (head == "{" || head.front() == '[' || (head.front() == '{' && src->line_continues()))) {
    return std::make_unique<JsonArrayReader>(std::move(src), first);
  }
  // XML may be one long line too (written without line breaks).
  if (!head.empty() && head.front() == '<') {
    src->put_back({{first, src->number(), src->line_continues()}});
    return open_xml(std::move(src), kFormatsHint);
  }
  if (src->line_continues()) {
    throw InputError(src->where(src->number()) + ": line longer than 1 MiB", src->name(), src->number(),
                     "is this really a file of abstracts?");
  }
  if (head.front() == '{') return std::make_unique<JsonLinesReader>(std::move(src), first);
  std::string venue;
  int year = 0;
  // "% Zotero export 2024" is no header: '%' and '@' start BibTeX's lines.
  if (head.front() != '%' && head.front() != '@' && parse_header(head, venue, year)) {
    return std::make_unique<TextReader>(std::move(src), std::move(venue), year);
  }
  // The other formats are told by their first lines, read ahead (a long line in
  // pieces, each counted) and given back.
  const std::uint32_t first_line = src->number();
  std::vector<Line> peeked{{first, first_line}};
  for (std::string line; peeked.size() < kPeekLines && src->next(line);) {
    peeked.push_back({line, src->number(), src->line_continues()});
  }
  const bool ris = RisReader::starts(peeked);
  const bool bibtex = BibtexReader::starts(peeked);
  src->put_back(std::move(peeked));
  // RIS, perhaps after a few lines of its own (Cochrane: "Record #1 of 78", ...).
  if (ris) return std::make_unique<RisReader>(std::move(src));
  // BibTeX, perhaps after comments or free text (Zotero: "% Zotero export").
  if (bibtex) return std::make_unique<BibtexReader>(std::move(src));
  throw UnknownFormat(src->where(first_line) +
                          ": not a format abstracts reads (as its text format, the header line naming "
                          "the venue and year is missing)",
                      src->name(), first_line, kFormatsHint, kind_by_name(file));
}

}  // namespace

std::unique_ptr<Reader> Reader::open(const std::filesystem::path& file) {
  std::unique_ptr<Reader> reader = open_format(file);
  reader->file_ = file.string();
  return reader;
}

std::optional<Record> Reader::next() {
  std::optional<Record> record = read_next();
  if (strict_ && first_problem_) throw refusal();
  if (record) {
    ++read_;
    return record;
  }
  // Not one record read: the file holds nothing but what is wrong with it.
  if (first_problem_ && read_ == 0 && skipped_ == 0) throw refusal();
  return record;
}

void Reader::reject(std::uint32_t line, std::string what, std::string hint) {
  ++rejected_;
  problems_.push_back({line, std::move(what), std::move(hint)});
  if (!first_problem_) first_problem_ = problems_.back();
}

InputError Reader::refusal() const {
  const RecordProblem& first = *first_problem_;
  std::string message = file_ + ":" + std::to_string(first.line) + ": " + first.what;
  if (!strict_ && rejected_ > 1) {
    message += "; nor could the file's " + std::to_string(rejected_ - 1) + " other record" +
               (rejected_ == 2 ? "" : "s") + " be read";
  }
  return InputError(message, file_, first.line, first.hint);
}

InputError skipped_record(const std::filesystem::path& file, const RecordProblem& problem) {
  const std::string name = file.string();
  return InputError(
      name + ":" + std::to_string(problem.line) + ": " + problem.what + "; record skipped", name,
      problem.line);
}

std::string extra_line(std::string_view text, std::string_view key) {
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = trim(text.substr(0, end), kSpaceAndLineBreaks);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (line.size() <= key.size() || line[key.size()] != ':') continue;
    if (!std::equal(key.begin(), key.end(), line.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      continue;
    }
    line = trim(line.substr(key.size() + 1), kSpaceAndLineBreaks);
    return std::string(line.substr(0, line.find_first_of(" \t")));
  }
  return "";
}

void warn_skipped(Reader& reader, const std::filesystem::path& file,
                  const std::function<void(const std::exception&)>& warn) {
  for (const RecordProblem& problem : reader.take_problems()) {
    if (warn) warn(skipped_record(file, problem));
  }
}

std::vector<Record> read_all(const std::filesystem::path& file) {
  auto reader = Reader::open(file);
  std::vector<Record> records;
  while (auto r = reader->next()) records.push_back(std::move(*r));
  return records;
}

}  // namespace abstracts::indexer
