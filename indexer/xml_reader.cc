#include "indexer/xml_reader.h"

#include <expat.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <exception>
#include <new>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "indexer/markup.h"
#include "indexer/names.h"

namespace abstracts::indexer {
namespace {

// Expat writes a name in a namespace as "URI local": no URI holds a space.
constexpr char kNamespaceSeparator = ' ';
constexpr std::string_view kAtomNamespace = "http://www.w3.org/2005/Atom";
constexpr std::string_view kArxivNamespace = "http://arxiv.org/schemas/atom";

// Bounds that keep memory to about one record (kMaxRecordBytes), whatever the
// file holds.
constexpr std::size_t kMaxDepth = 256;
constexpr std::size_t kMaxPathBytes = 4096;
// What an element inside a record counts towards kMaxRecordBytes besides its
// text and attributes: an empty <Author/> still becomes an Author.
constexpr std::size_t kElementCost = 64;
// Expat is given the file in chunks of about this size, and parses a token (a
// tag, a comment, a declaration) that a chunk leaves unfinished again from its
// start with the next: a token may span at most kMaxTokenBytes, which bounds
// that work (a 60 MB tag fed a line at a time ran for over ten minutes) and the
// memory expat holds it in.
constexpr std::size_t kChunkBytes = 64 << 10;
constexpr std::size_t kMaxTokenBytes = 1 << 20;
// A root start tag up to this size is kept, to open the document again after a
// broken record (PubMed's has no attributes, arXiv's a few namespaces).
constexpr std::size_t kMaxRootTagBytes = 16 << 10;

constexpr const char* kXmlHint =
    "abstracts reads PubMed XML and Atom feeds (arXiv's API) as well-formed XML: is the file "
    "whole?";

// The value of the attribute `local` (in no namespace, as PubMed's and Atom's
// are), or "" when the element has none.
std::string_view attribute(const XML_Char** attrs, std::string_view local) {
  for (; *attrs != nullptr; attrs += 2) {
    if (local == attrs[0]) return attrs[1];
  }
  return {};
}

// `s` without the white space around it (XML text keeps its line breaks).
std::string trimmed(std::string_view s) { return std::string(trim(s, kSpaceAndLineBreaks)); }

// True if `path` is `prefix` or lies below it; `rest` is then the part after
// `prefix` ("" or "/Child/...").
bool below(std::string_view path, std::string_view prefix, std::string_view& rest) {
  if (!path.starts_with(prefix) || (path.size() > prefix.size() && path[prefix.size()] != '/'))
    return false;
  rest = path.substr(prefix.size());
  return true;
}

// Appends `item` to `list` unless it is empty or `seen` has it (a set, as a
// record may list many keywords).
void add_once(std::string item, std::vector<std::string>& list,
              std::unordered_set<std::string>& seen) {
  if (item.empty() || list.size() == kMaxCategories || !seen.insert(item).second) return;
  list.push_back(std::move(item));
}

// Where a format's records and its count of records without an abstract go.
struct Sink {
  std::deque<Record>& records;
  std::size_t& skipped;
};

// What one XML format makes of a document's elements: records, each handed to
// the sink when its end tag completes it. Not thread-safe.
class XmlFormat {
 public:
  explicit XmlFormat(Sink sink) : sink_(sink) {}
  virtual ~XmlFormat() = default;

  // An element opens. `path` is its path from the root, of local names, an
  // element of arXiv's namespace written "arxiv:name" ("/feed/entry/arxiv:doi");
  // `attrs` are expat's name-value pairs; `line` is its start tag's line.
  // Returns the string that takes its text (all the character data inside it,
  // markup such as <b>, <sup> or MathML dropped), or nullptr; the elements
  // inside an element whose text is taken are shown neither to start() nor to
  // end().
  virtual std::string* start(std::string_view path, const XML_Char** attrs, std::uint32_t line) = 0;

  // The element at `path` closes; its text, if start() took it, is complete.
  virtual void end(std::string_view path) = 0;

  // True between a record's start tag and its end tag.
  bool in_record() const { return in_record_; }

  // The local name of a record's element ("PubmedArticle", "entry").
  virtual std::string_view record_name() const = 0;

  // Drops the record being read (over its cap): nothing of it is kept, and
  // in_record() is false until the next record starts.
  virtual void abandon() = 0;

 protected:
  // `field` when it has no text yet, else a scratch string: a field the source
  // gives twice keeps its first value.
  std::string* first(std::string& field) {
    if (field.empty()) return &field;
    scratch_.clear();
    return &scratch_;
  }

  // Hands `record` out, or counts it as skipped when it has no abstract.
  void emit(Record&& record) {
    if (is_empty_text(record.raw_text)) {
      ++sink_.skipped;
      return;
    }
    sink_.records.push_back(std::move(record));
  }

  bool in_record_ = false;

 private:
  Sink sink_;
  std::string scratch_;
};

// PubMed/MEDLINE XML: a record per PubmedArticle (its MedlineCitation, and the
// DOI in its PubmedData) or, in old baseline files, per MedlineCitation directly
// under MedlineCitationSet. Both the 2019+ and the 2012 layouts (DateCreated,
// Affiliation under Article) read the same.
class PubmedFormat : public XmlFormat {
 public:
  // `root` is the document's root element: "PubmedArticleSet" or "MedlineCitationSet".
  PubmedFormat(std::string_view root, Sink sink) : XmlFormat(sink) {
    if (root == "MedlineCitationSet") {
      record_path_ = citation_path_ = "/MedlineCitationSet/MedlineCitation";
      record_name_ = "MedlineCitation";
    } else {
      record_path_ = "/PubmedArticleSet/PubmedArticle";
      citation_path_ = record_path_ + "/MedlineCitation";
    }
    article_id_path_ = record_path_ + "/PubmedData/ArticleIdList/ArticleId";
  }

  std::string_view record_name() const override { return record_name_; }

  std::string* start(std::string_view path, const XML_Char** attrs, std::uint32_t line) override {
    if (path == record_path_) {
      c_ = Citation{};
      c_.record.line = line;
      in_record_ = true;
      return nullptr;
    }
    std::string_view rel;
    if (!in_record_) return nullptr;
    // The article's own ids; those of its references (PubmedData/ReferenceList) are not its.
    if (path == article_id_path_) {
      const auto type = attribute(attrs, "IdType");
      if (type == "pmc") return first(c_.article_id_pmc);
      return type == "doi" ? first(c_.article_id_doi) : nullptr;
    }
    if (!below(path, citation_path_, rel)) return nullptr;
    if (rel == "/PMID") return first(c_.pmid);
    if (rel == "/Article/ArticleTitle") return first(c_.title);
    if (rel == "/Article/Abstract/AbstractText") {
      c_.label = attribute(attrs, "Label");
      c_.part.clear();
      return &c_.part;
    }
    if (rel == "/Article/ELocationID")
      return attribute(attrs, "EIdType") == "doi" ? first(c_.elocation_doi) : nullptr;
    if (rel == "/Article/Journal/Title") return first(c_.journal);
    if (rel == "/Article/Journal/ISOAbbreviation") return first(c_.iso_abbreviation);
    if (rel == "/MedlineJournalInfo/MedlineTA") return first(c_.medline_ta);
    if (rel == "/Article/Journal/JournalIssue/Volume") return first(c_.volume);
    if (rel == "/Article/Journal/JournalIssue/Issue") return first(c_.issue);
    if (rel == "/Article/Pagination/MedlinePgn") return first(c_.pages);
    if (rel == "/Article/Journal/ISSN") return first(c_.issn);
    // The first type is the article's kind ("Journal Article"); more qualify it.
    if (rel == "/Article/PublicationTypeList/PublicationType") return first(c_.publication_type);
    if (rel == "/MeshHeadingList/MeshHeading/DescriptorName" || rel == "/KeywordList/Keyword") {
      c_.term.clear();
      return &c_.term;
    }
    std::string_view rest;
    if (below(rel, "/Article/AuthorList/Author", rest)) {
      if (rest.empty()) {
        c_.author = {};
        c_.author.valid = attribute(attrs, "ValidYN") != "N";  // "N": a name PubMed marks as wrong
      } else if (rest == "/LastName") {
        return &c_.author.last;
      } else if (rest == "/ForeName") {
        return &c_.author.fore;
      } else if (rest == "/Initials") {
        return &c_.author.initials;
      } else if (rest == "/CollectiveName") {
        return &c_.author.collective;
      }
      return nullptr;
    }
    for (std::size_t d = 0; d < kDates; ++d) {
      if (!below(rel, kDatePaths[d], rest)) continue;
      for (std::size_t p = 0; p < kDateParts; ++p) {
        if (rest == kDatePartNames[p]) return first(c_.dates[d][p]);
      }
    }
    return nullptr;
  }

  void abandon() override {
    c_ = Citation{};
    in_record_ = false;
  }

  void end(std::string_view path) override {
    if (!in_record_) return;
    if (path == record_path_) {
      in_record_ = false;
      finish();
      return;
    }
    std::string_view rel;
    if (!below(path, citation_path_, rel)) return;
    if (rel == "/Article/Abstract/AbstractText") {
      // A structured abstract keeps its labels: "BACKGROUND: ... METHODS: ...".
      const std::string part = trimmed(c_.part), label = trimmed(c_.label);
      if (part.empty()) return;
      if (!c_.abstract.empty()) c_.abstract += ' ';
      if (!label.empty()) c_.abstract += label + ": ";
      c_.abstract += part;
    } else if (rel == "/Article/AuthorList/Author") {
      const AuthorParts& a = c_.author;
      const std::string collective = trimmed(a.collective), last = trimmed(a.last);
      if (!a.valid) return;
      if (!collective.empty()) {
        add_author(c_.record.fields, [&] { return Author{collective, {}}; });
      } else if (!last.empty()) {
        add_author(c_.record.fields, [&] {
          const std::string fore = trimmed(a.fore);
          return Author{last, fore.empty() ? trimmed(a.initials) : fore};
        });
      }
    } else if (rel == "/MeshHeadingList/MeshHeading/DescriptorName" ||
               rel == "/KeywordList/Keyword") {
      add_once(trimmed(c_.term), c_.record.fields.categories, c_.terms);
    }
  }

 private:
  // The dates a citation may give, the most fitting first, and their parts.
  static constexpr std::size_t kDates = 4, kDateParts = 4;
  static constexpr std::string_view kDatePaths[kDates] = {"/Article/Journal/JournalIssue/PubDate",
                                                          "/Article/ArticleDate", "/DateCompleted",
                                                          "/DateCreated"};
  static constexpr std::string_view kDatePartNames[kDateParts] = {"/Year", "/Month", "/Day",
                                                                  "/MedlineDate"};

  struct AuthorParts {
    std::string last, fore, initials, collective;
    bool valid = true;
  };

  // What the citation being read has said so far.
  struct Citation {
    Record record;
    std::string pmid, title, abstract, part, label, journal, iso_abbreviation, medline_ta;
    std::string article_id_doi, article_id_pmc, elocation_doi, term;
    std::string volume, issue, pages, issn, publication_type;
    std::unordered_set<std::string> terms;  // the categories so far
    AuthorParts author;
    std::string dates[kDates][kDateParts];  // year, month ("05" or "May"), day, MedlineDate
  };

  // Year, month and day of one date element; false without a year.
  static bool read_date(const std::string (&parts)[kDateParts], Abstract& f) {
    const std::string year = trimmed(parts[0]), month = trimmed(parts[1]), day = trimmed(parts[2]);
    if (year.empty()) {
      // "1998 Dec-1999 Jan" -> 1998-12; "2000 Spring" -> 2000.
      return parse_date(trimmed(parts[3]), f.year, f.month, f.day);
    }
    std::string date = year;
    if (!month.empty()) date += " " + month + (day.empty() ? "" : " " + day);
    return parse_date(date, f.year, f.month, f.day);
  }

  void finish() {
    Abstract& f = c_.record.fields;
    f.pmid = trimmed(c_.pmid);
    f.title = trimmed(c_.title);
    for (const std::string* venue : {&c_.journal, &c_.iso_abbreviation, &c_.medline_ta}) {
      if (f.venue.empty()) f.venue = trimmed(*venue);
    }
    f.doi = trimmed(c_.article_id_doi);
    if (f.doi.empty()) f.doi = trimmed(c_.elocation_doi);
    f.pmcid = trimmed(c_.article_id_pmc);
    f.volume = trimmed(c_.volume);
    f.issue = trimmed(c_.issue);
    f.pages = trimmed(c_.pages);
    f.issn = trimmed(c_.issn);
    f.item_type = trimmed(c_.publication_type);
    for (const auto& date : c_.dates) {
      if (read_date(date, f)) break;
    }
    c_.record.raw_text = std::move(c_.abstract);
    emit(std::move(c_.record));
  }

  std::string record_path_, citation_path_, article_id_path_;
  std::string_view record_name_ = "PubmedArticle";
  Citation c_;
};

// An Atom feed: a record per entry. arXiv's API answers so, in two layouts
// that read the same here (namespaces are resolved): the classic one declares
// the arxiv: namespace on each element, the 2025 one on <feed>.
class AtomFormat : public XmlFormat {
 public:
  explicit AtomFormat(Sink sink) : XmlFormat(sink) {}

  std::string_view record_name() const override { return "entry"; }

  std::string* start(std::string_view path, const XML_Char** attrs, std::uint32_t line) override {
    static constexpr std::string_view kEntry = "/feed/entry";
    if (path == kEntry) {
      e_ = Entry{};
      e_.record.line = line;
      in_record_ = true;
      return nullptr;
    }
    std::string_view rel;
    if (!in_record_ || !below(path, kEntry, rel)) return nullptr;
    if (rel == "/id") return first(e_.id);
    if (rel == "/title") {
      e_.title_html = attribute(attrs, "type") == "html";
      return first(e_.title);
    }
    if (rel == "/summary") {
      e_.summary_html = attribute(attrs, "type") == "html";
      return first(e_.summary);
    }
    if (rel == "/published") return first(e_.published);
    if (rel == "/updated") return first(e_.updated);
    if (rel == "/author/name") {
      e_.name.clear();
      return &e_.name;
    }
    if (rel == "/arxiv:doi") return first(e_.doi);
    if (rel == "/arxiv:primary_category") e_.primary = trimmed(attribute(attrs, "term"));
    if (rel == "/category") {
      std::string term = trimmed(attribute(attrs, "term"));
      if (!term.empty() && e_.categories.size() < kMaxCategories) e_.categories.push_back(std::move(term));
    }
    return nullptr;
  }

  void abandon() override {
    e_ = Entry{};
    in_record_ = false;
  }

  void end(std::string_view path) override {
    if (!in_record_) return;
    if (path == "/feed/entry") {
      in_record_ = false;
      finish();
    } else if (path == "/feed/entry/author/name") {
      if (const std::string name = trimmed(e_.name); !name.empty()) {
        add_author(e_.record.fields, [&] { return parse_name(name); });
      }
    }
  }

 private:
  // What the entry being read has said so far.
  struct Entry {
    Record record;
    std::string id, title, summary, published, updated, name, doi, primary;
    std::vector<std::string> categories;
    bool title_html = false, summary_html = false;
  };

  // "http://arxiv.org/abs/0704.0001v2" -> "0704.0001", "…/abs/hep-th/9901001v1"
  // -> "hep-th/9901001"; "" for an id that is not an arXiv abstract's.
  static std::string arxiv_id(std::string_view id) {
    std::string_view rest;
    for (std::string_view prefix : {"http://arxiv.org/abs", "https://arxiv.org/abs"}) {
      if (below(id, prefix, rest) && rest.size() > 1) {
        std::string out(rest.substr(1));
        const auto v = out.rfind('v');
        if (v != std::string::npos && v + 1 < out.size() &&
            out.find_first_not_of("0123456789", v + 1) == std::string::npos) {
          out.erase(v);
        }
        return out;
      }
    }
    return {};
  }

  void finish() {
    Abstract& f = e_.record.fields;
    const std::string id = trimmed(e_.id);
    // arXiv's answer to a bad query: an entry titled "Error", not a paper.
    if (id.starts_with("http://arxiv.org/api/errors") ||
        id.starts_with("https://arxiv.org/api/errors")) {
      e_.summary.clear();
    }
    f.arxiv_id = arxiv_id(id);
    // The venue of a preprint, as for arXiv's metadata snapshot (journal_ref is not read there
    // either).
    if (!f.arxiv_id.empty()) {
      f.venue = "arXiv";
      f.item_type = "preprint";
    }
    f.title = e_.title_html ? strip_markup(e_.title) : trimmed(e_.title);
    e_.record.raw_text = e_.summary_html ? strip_markup(e_.summary) : std::move(e_.summary);
    f.doi = trimmed(e_.doi);
    // "2007-04-02T19:18:42Z": the date before the time.
    const std::string date = trimmed(e_.published.empty() ? e_.updated : e_.published);
    parse_date(std::string_view(date).substr(0, date.find('T')), f.year, f.month, f.day);
    // The primary category first, each once.
    std::unordered_set<std::string> seen;
    add_once(std::move(e_.primary), f.categories, seen);
    for (auto& c : e_.categories) add_once(std::move(c), f.categories, seen);
    emit(std::move(e_.record));
  }

  Entry e_;
};

// Feeds a file's lines to expat, a chunk at a time, and hands out the records
// they complete. The root element chooses the format (read_root()).
//
// After a record that is not well-formed, expat cannot go on: the record is
// left out, and the text after what is wrong is searched for the next record's
// start tag ("<PubmedArticle", "<entry", with the root's prefix), where a new
// parser starts on the root's start tag as the file wrote it (its namespaces
// too), then the file from there. Records nest at a known depth and never in
// each other, so the tag starts a record unless it lies in a comment or CDATA
// section of the broken part; then that parser fails too, and the search goes
// on past it. Each search starts past the point the last one reached: reading
// ends.
class XmlReader final : public Reader {
 public:
  XmlReader(std::unique_ptr<LineSource> src, std::string formats_hint)
      : src_(std::move(src)), formats_hint_(std::move(formats_hint)), parser_(make_parser()) {
    // A record bounds memory, not a line: XML may come on one line of megabytes.
    src_->allow_long_lines(true);
  }
  ~XmlReader() override { XML_ParserFree(parser_); }
  XmlReader(const XmlReader&) = delete;
  XmlReader& operator=(const XmlReader&) = delete;

  // Parses up to the root element's start tag, which sets the format. Throws
  // InputError for a root of neither format and for XML that is not well-formed.
  void read_root() {
    while (format_handler_ == nullptr && feed_or_keep_error()) {
    }
    if (format_handler_ != nullptr) return;
    if (error_) std::rethrow_exception(error_);
    fail(current_line(), "no root element");  // expat said so already
  }

  std::uint64_t bytes_read() const override { return src_->offset(); }

 protected:
  // The records a chunk completed before an error in it come out first, then the error.
  std::optional<Record> read_next() override {
    while (records_.empty() && feed_or_keep_error()) {
    }
    if (records_.empty()) {
      if (error_) std::rethrow_exception(error_);
      return std::nullopt;
    }
    Record r = std::move(records_.front());
    records_.pop_front();
    return r;
  }

 private:
  // A record that cannot be parsed, thrown in a callback: what is wrong, said
  // at `line`; the search for the next record's start tag begins at byte
  // `resume` of the parser's input.
  struct Broken {
    std::uint32_t line;
    std::string what;
    std::int64_t resume;
  };

  // A namespace-aware expat parser calling this reader's handlers.
  XML_Parser make_parser() {
    // The encoding is UTF-8 whatever the XML declaration says: LineSource checked it.
    XML_Parser parser = XML_ParserCreateNS("UTF-8", kNamespaceSeparator);
    if (parser == nullptr) throw std::bad_alloc();
    XML_SetUserData(parser, this);
    XML_SetElementHandler(parser, on_start, on_end);
    XML_SetCharacterDataHandler(parser, on_text);
    // What has no handler of its own (comments, declarations, white space
    // outside the root) only shows that expat moves on (kMaxTokenBytes);
    // entities are still expanded.
    XML_SetDefaultHandlerExpand(parser, on_other);
    XML_SetEntityDeclHandler(parser, on_entity_declaration);
    XML_SetAttlistDeclHandler(parser, on_attribute_declaration);
    // No external DTD or parameter entity is ever read (expat's default, said
    // here); with entity declarations refused, no entity can expand, and expat's
    // own guard against amplification (billion laughs) stays on as well.
    XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER);
    return parser;
  }

  // As feed(), but an error is kept in error_ (and false returned), to be thrown
  // once the records before it are handed out.
  bool feed_or_keep_error() {
    if (error_) return false;
    try {
      return feed();
    } catch (const InputError&) {
      error_ = std::current_exception();
      return false;
    }
  }

  // Parses the next chunk of the file (about kChunkBytes of its lines); false at
  // its end, once expat has checked that the document is complete.
  bool feed() {
    if (done_) return false;
    // Seeking a record's start tag, the end of the chunk before is searched again:
    // the tag may be cut between them.
    chunk_.clear();
    if (seeking_) chunk_.swap(carry_);
    const std::size_t carried = chunk_.size();
    if (carried == 0) chunk_line_ = 0;
    std::exception_ptr unread;  // a line after those of the chunk that LineSource refused
    try {
      while (chunk_.size() < carried + kChunkBytes && src_->next(line_)) {
        // Reader::open skipped the blank lines before the first: expat's line 1 is this one.
        if (line_offset_ < 0) line_offset_ = static_cast<std::int64_t>(src_->number()) - 1;
        if (chunk_line_ == 0) chunk_line_ = src_->number();
        // A lone CR is a line break to expat, not to LineSource: as a space, the
        // line numbers stay the file's (XML makes it white space either way).
        std::replace(line_.begin(), line_.end(), '\r', ' ');
        chunk_ += line_;
        if (!src_->line_continues()) chunk_ += '\n';
      }
    } catch (const InputError&) {
      unread = std::current_exception();
    }
    if (chunk_.size() == carried && !unread) {
      done_ = true;
      if (!seeking_) parse(0, true);
      return false;
    }
    const std::uint64_t events = events_;
    parse_chunk();  // an error in the lines before comes first
    if (unread) std::rethrow_exception(unread);
    quiet_bytes_ = events_ == events && !seeking_ ? quiet_bytes_ + chunk_.size() : 0;
    if (quiet_bytes_ > kMaxTokenBytes) {
      fail(current_line(), "a tag, comment or declaration over 1 MiB",
           "PubMed XML and Atom feeds have none: is this file what it seems, and whole?");
    }
    return true;
  }

  // Parses chunk_; after a broken record, from the next record's start tag
  // on, in this chunk or (seeking_) in those after it.
  void parse_chunk() {
    std::size_t from = 0;
    while (true) {
      if (seeking_) {
        const std::size_t at = find_record_start(from);
        if (at == std::string::npos) {
          // Its last bytes are searched again with the next chunk.
          const std::size_t keep = std::min(chunk_.size() - from, record_tag_.size());
          carry_ = chunk_.substr(chunk_.size() - keep);
          chunk_line_ = line_at(chunk_.size() - keep);
          return;
        }
        restart(at);
        from = at;
      }
      const std::optional<std::size_t> resume = parse(from, false);
      if (!resume) return;
      from = *resume;
      seeking_ = true;
    }
  }

  // Parses chunk_ from byte `from`, or with `last` the end of the document.
  // Returns where in chunk_ the search for the next record's start tag begins
  // after a record that broke (left out, with its problem), or nullopt.
  std::optional<std::size_t> parse(std::size_t from, bool last) {
    const char* data = last ? nullptr : chunk_.data() + from;
    const std::size_t size = last ? 0 : chunk_.size() - from;
    chunk_index_ = fed_ - static_cast<std::int64_t>(from);
    fed_ += static_cast<std::int64_t>(size);
    if (XML_Parse(parser_, data, static_cast<int>(size), last ? XML_TRUE : XML_FALSE) == XML_STATUS_OK)
      return std::nullopt;
    if (failure_) std::rethrow_exception(failure_);
    const std::string error =
        std::string("not well-formed XML (") + XML_ErrorString(XML_GetErrorCode(parser_)) + ")";
    // Before the root element there is no record to leave out: the file is not XML.
    if (format_handler_ == nullptr) fail(current_line(), error);
    // Past what expat stopped at: a start tag it refused is not taken again.
    Broken broken = broken_ ? std::move(*broken_) : Broken{current_line(), error, XML_GetCurrentByteIndex(parser_) + 1};
    broken_.reset();
    if (root_tag_.empty() && !last) {
      // The document cannot be opened again: what is left of it is lost.
      broken.what += ", and the rest of the file cannot be read";
      done_ = true;
    }
    reject(broken.line, std::move(broken.what), kXmlHint);
    if (last || done_) return std::nullopt;
    return static_cast<std::size_t>(std::clamp<std::int64_t>(broken.resume - chunk_index_,
                                                             static_cast<std::int64_t>(from),
                                                             static_cast<std::int64_t>(chunk_.size())));
  }

  // Where in chunk_, from `from` on, the next record's start tag begins, or npos.
  std::size_t find_record_start(std::size_t from) const {
    for (std::size_t at = from; (at = chunk_.find(record_tag_, at)) != std::string::npos; ++at) {
      const std::size_t after = at + record_tag_.size();
      // "<PubmedArticleSet" is no record; a tag cut at the chunk's end is told with the next.
      if (after < chunk_.size() && std::string_view(" \t\n/>").find(chunk_[after]) != std::string_view::npos) {
        return at;
      }
    }
    return std::string::npos;
  }

  // The file's line of byte `at` of chunk_.
  std::uint32_t line_at(std::size_t at) const {
    return chunk_line_ + static_cast<std::uint32_t>(
                             std::count(chunk_.begin(), chunk_.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  }

  // A new parser, on the root's start tag, to parse chunk_ from byte `at` on.
  void restart(std::size_t at) {
    XML_ParserFree(parser_);
    parser_ = nullptr;  // make_parser may throw
    parser_ = make_parser();
    depth_ = 0;
    path_.clear();
    path_lengths_.clear();
    capture_ = nullptr;
    skipping_ = false;
    record_bytes_ = 0;
    seeking_ = false;
    // The root's start tag has no line break (they became spaces): chunk_[at] is on expat's line 1.
    line_offset_ = static_cast<std::int64_t>(line_at(at)) - 1;
    fed_ = static_cast<std::int64_t>(root_tag_.size());
    if (XML_Parse(parser_, root_tag_.data(), static_cast<int>(root_tag_.size()), XML_FALSE) != XML_STATUS_OK) {
      if (failure_) std::rethrow_exception(failure_);
      fail(line_at(at), "the root element cannot be read again after a broken record");  // it was read once
    }
  }

  // The file's line that expat is at (the start tag's, in a start handler).
  std::uint32_t current_line() const {
    const auto line = static_cast<std::int64_t>(XML_GetCurrentLineNumber(parser_)) +
                      std::max<std::int64_t>(line_offset_, 0);
    // At the end of the file, expat is on the line after the last "\n".
    return static_cast<std::uint32_t>(
        std::clamp<std::int64_t>(line, 1, std::max<std::uint32_t>(src_->number(), 1)));
  }

  [[noreturn]] void fail(std::uint32_t line, const std::string& what,
                         const std::string& hint = kXmlHint) const {
    throw InputError(src_->where(line) + ": " + what, src_->name(), line, hint);
  }

  // Ends the record being parsed, or what is between records, as broken for
  // `what`, said at `line`; the search for the next record starts at the
  // current event (`here`), or past its first byte.
  [[noreturn]] void broken(std::uint32_t line, std::string what, bool here) const {
    throw Broken{line, std::move(what), XML_GetCurrentByteIndex(parser_) + (here ? 0 : 1)};
  }

  // Adds `bytes` to the current record's size. Past kMaxRecordBytes the record
  // is left out: what it held is dropped, and the rest of it only parsed.
  void count(std::size_t bytes) {
    record_bytes_ += bytes;
    if (record_bytes_ <= kMaxRecordBytes) return;
    // Outside a record, only one element's attributes count: kMaxTokenBytes
    // stops them first.
    if (!format_handler_->in_record()) fail(current_line(), "an element over 16 MiB");
    reject(record_line_, "an XML record over 16 MiB");
    format_handler_->abandon();
    capture_ = nullptr;
    skipping_ = true;
  }

  void start(const XML_Char* name, const XML_Char** attrs) {
    if (++depth_ > kMaxDepth) broken(current_line(), "elements nested over 256 deep", false);
    std::string_view qualified(name), ns, local = qualified;
    if (const auto sep = qualified.find(kNamespaceSeparator); sep != std::string_view::npos) {
      ns = qualified.substr(0, sep);
      local = qualified.substr(sep + 1);
    }
    path_lengths_.push_back(path_.size());
    path_ += '/';
    if (ns == kArxivNamespace) {
      path_ += "arxiv:";
    } else if (!ns.empty() && ns != kAtomNamespace) {
      path_ += "{" + std::string(ns) + "}";  // Clark's notation: no format reads these
    }
    path_ += local;
    if (path_.size() > kMaxPathBytes) broken(current_line(), "element names nested over 4 KiB deep", false);
    if (depth_ == 1 && root_tag_.empty()) keep_root_tag();
    if (skipping_) return;  // inside a record over its cap
    // A record's start tag inside a record: the one before was never closed,
    // and would take every record after it along.
    if (format_handler_ != nullptr && format_handler_->in_record() && depth_ > record_depth_ &&
        (ns.empty() || ns == kAtomNamespace) && local == format_handler_->record_name()) {
      broken(record_line_,
             "the <" + std::string(local) + "> that starts here is not closed before the next one, on line " +
                 std::to_string(current_line()),
             true);
    }
    std::size_t cost = kElementCost;
    for (const XML_Char** a = attrs; *a != nullptr; ++a) cost += std::strlen(*a);
    if (capture_ != nullptr) {  // markup inside a text: its text is kept
      count(cost);
      return;
    }
    if (depth_ == 1) choose_format(ns, local);
    const bool in_record = format_handler_->in_record();
    if (!in_record) record_bytes_ = 0;  // each record counts from its start tag
    capture_ = format_handler_->start(path_, attrs, current_line());
    if (capture_ != nullptr) capture_depth_ = depth_;
    if (!in_record && format_handler_->in_record()) {
      record_depth_ = depth_;
      record_line_ = current_line();
    }
    count(cost);
  }

  // Keeps the root's start tag as the file wrote it, to start a parser on
  // after a broken record; "<x/>" as "<x>", since records are to follow.
  void keep_root_tag() {
    int offset = 0, size = 0;
    const char* buffer = XML_GetInputContext(parser_, &offset, &size);
    const int bytes = XML_GetCurrentByteCount(parser_);
    if (buffer == nullptr || bytes <= 0 || offset < 0 || offset + bytes > size ||
        static_cast<std::size_t>(bytes) > kMaxRootTagBytes) {
      return;  // then a broken record ends the file
    }
    root_tag_.assign(buffer + offset, static_cast<std::size_t>(bytes));
    std::replace(root_tag_.begin(), root_tag_.end(), '\n', ' ');
    if (root_tag_.ends_with("/>")) root_tag_.erase(root_tag_.size() - 2, 1);
  }

  void end() {
    if (skipping_) {
      skipping_ = depth_ != record_depth_;  // until the record's end tag
    } else {
      if (capture_ != nullptr && depth_ == capture_depth_) capture_ = nullptr;
      if (capture_ == nullptr) format_handler_->end(path_);
    }
    path_.resize(path_lengths_.back());
    path_lengths_.pop_back();
    --depth_;
  }

  void text(const XML_Char* s, int size) {
    if (capture_ == nullptr) return;
    count(static_cast<std::size_t>(size));
    if (capture_ == nullptr) return;  // the record went over its cap
    capture_->append(s, static_cast<std::size_t>(size));
  }

  void choose_format(std::string_view ns, std::string_view root) {
    const Sink sink{records_, skipped_};
    if (ns.empty() && (root == "PubmedArticleSet" || root == "MedlineCitationSet")) {
      format_ = Format::kPubmedXml;
      format_handler_ = std::make_unique<PubmedFormat>(root, sink);
    } else if (ns == kAtomNamespace && root == "feed") {
      format_ = Format::kArxivAtom;
      format_handler_ = std::make_unique<AtomFormat>(sink);
    } else {
      fail(
          current_line(),
          "not a format abstracts reads (an XML document whose root element is <" +
              std::string(root) +
              ">: abstracts reads PubMed's PubmedArticleSet or MedlineCitationSet, and Atom feeds)",
          formats_hint_);
    }
    // A record's start tag as the file writes it: with the root's prefix, if any ("<atom:entry").
    const std::string_view tag(root_tag_);
    const std::string_view qname = tag.substr(std::min<std::size_t>(1, tag.size()),
                                              tag.find_first_of(" \t\n/>") - std::min<std::size_t>(1, tag.size()));
    const std::size_t colon = qname.find(':');
    record_tag_ = "<" + std::string(colon == std::string_view::npos ? "" : qname.substr(0, colon + 1)) +
                  std::string(format_handler_->record_name());
  }

  // Runs `f`, a part of an expat callback: an exception must not cross expat's C
  // frames, so it stops the parser and is thrown again when XML_Parse returns.
  template <class F>
  static void guard(void* self, const F& f) {
    auto& reader = *static_cast<XmlReader*>(self);
    // expat may still call back after XML_StopParser
    if (reader.failure_ || reader.broken_) return;
    try {
      f(reader);
    } catch (Broken& broken) {
      reader.broken_ = std::move(broken);
      XML_StopParser(reader.parser_, XML_FALSE);
    } catch (...) {
      reader.failure_ = std::current_exception();
      XML_StopParser(reader.parser_, XML_FALSE);
    }
  }

  static void XMLCALL on_start(void* self, const XML_Char* name, const XML_Char** attrs) {
    guard(self, [&](XmlReader& r) {
      ++r.events_;
      r.start(name, attrs);
    });
  }
  static void XMLCALL on_end(void* self, const XML_Char*) {
    guard(self, [&](XmlReader& r) {
      ++r.events_;
      r.end();
    });
  }
  static void XMLCALL on_text(void* self, const XML_Char* s, int size) {
    guard(self, [&](XmlReader& r) {
      ++r.events_;
      r.text(s, size);
    });
  }
  static void XMLCALL on_other(void* self, const XML_Char*, int) {
    ++static_cast<XmlReader*>(self)->events_;
  }
  // An entity declared in the document (<!ENTITY lol "...">) could expand to
  // anything (billion laughs); PubMed and arXiv declare none.
  static void XMLCALL on_entity_declaration(void* self, const XML_Char* name, int, const XML_Char*,
                                            int, const XML_Char*, const XML_Char*, const XML_Char*,
                                            const XML_Char*) {
    guard(self, [&](XmlReader& r) {
      r.fail(r.current_line(),
             "declares the entity '" + std::string(name) +
                 "' (<!ENTITY>), which abstracts does not expand",
             "PubMed XML and Atom feeds declare no entities; is this file what it seems?");
    });
  }

  // An attribute's default declared in the document (<!ATTLIST AbstractText
  // Label CDATA "INJECTED">) would be applied to elements that do not give the
  // attribute, though no DTD is read; PubMed and arXiv declare none.
  // Declarations without a default (#IMPLIED, #REQUIRED) change nothing.
  static void XMLCALL on_attribute_declaration(void* self, const XML_Char* element,
                                               const XML_Char* attribute, const XML_Char*,
                                               const XML_Char* default_value, int) {
    if (default_value == nullptr) return;
    guard(self, [&](XmlReader& r) {
      r.fail(
          r.current_line(),
          "declares a default for the attribute '" + std::string(attribute) + "' of <" +
              std::string(element) + "> (<!ATTLIST>), which abstracts does not apply",
          "PubMed XML and Atom feeds declare no attribute defaults; is this file what it seems?");
    });
  }

  std::unique_ptr<LineSource> src_;
  std::string formats_hint_;
  XML_Parser parser_;
  std::unique_ptr<XmlFormat> format_handler_;  // set by the root element
  std::deque<Record> records_;                 // completed, not handed out yet
  std::exception_ptr failure_;                 // thrown in a callback
  std::exception_ptr error_;                   // next() throws once the records before it are out
  std::optional<Broken> broken_;               // thrown in a callback
  std::string line_, chunk_;
  std::uint32_t chunk_line_ = 0;   // the file's line of chunk_[0]
  std::int64_t fed_ = 0;           // bytes given to parser_ so far
  std::int64_t chunk_index_ = 0;   // parser_'s byte index of chunk_[0] (negative after a restart)
  std::string root_tag_;           // the root's start tag as written, line breaks as spaces
  std::string record_tag_;         // a record's start tag up to its name: "<PubmedArticle"
  bool seeking_ = false;           // after a broken record, seeking the next one's start tag
  std::string carry_;              // the end of the chunk searched last, searched again
  std::int64_t line_offset_ = -1;  // file line = expat line + this; -1 before the first line
  std::uint64_t events_ = 0;       // expat's callbacks so far
  std::size_t quiet_bytes_ = 0;    // fed to expat since a chunk that made a callback
  bool done_ = false;
  std::size_t depth_ = 0;
  std::string path_;                       // "/PubmedArticleSet/PubmedArticle/..."
  std::vector<std::size_t> path_lengths_;  // path_'s length before each open element
  std::string* capture_ = nullptr;         // where character data goes, or nullptr
  std::size_t capture_depth_ = 0;          // the depth of the element whose text it is
  std::size_t record_bytes_ = 0;           // of the current record: text, attributes, elements
  std::uint32_t record_line_ = 0;          // the current record's start tag's
  std::size_t record_depth_ = 0;           // and its depth
  bool skipping_ = false;                  // inside a record over its cap, left out
};

}  // namespace

std::unique_ptr<Reader> open_xml(std::unique_ptr<LineSource> src, const std::string& formats_hint) {
  auto reader = std::make_unique<XmlReader>(std::move(src), formats_hint);
  reader->read_root();
  return reader;
}

}  // namespace abstracts::indexer
