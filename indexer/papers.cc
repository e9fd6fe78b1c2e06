#include "indexer/papers.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <set>
#include <unordered_map>
#include <utility>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/schema.h"

namespace abstracts::indexer {
namespace {

// The order in which a paper's records are kept; the last is shown. Records on
// one line of one file (a JSON array written on one line) are ordered by their
// contents, so no order of reading decides.
bool shown_before(const PaperRecord& x, const PaperRecord& y) {
  if (const int c = x.abstract.source.compare(y.abstract.source); c != 0) return c < 0;
  if (x.abstract.line != y.abstract.line) return x.abstract.line < y.abstract.line;
  return schema::encode(x.abstract, x.title_in_text) < schema::encode(y.abstract, y.title_in_text);
}

// The records slot: each record's encoding after its length (4 bytes, little-endian).
std::string pack(const std::vector<PaperRecord>& records) {
  std::string out;
  for (const auto& r : records) {
    const std::string e = schema::encode(r.abstract, r.title_in_text);
    const auto n = static_cast<std::uint32_t>(e.size());
    for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
    out += e;
  }
  return out;
}

std::vector<PaperRecord> unpack(std::string_view data, Xapian::docid docid) {
  std::vector<PaperRecord> out;
  while (!data.empty()) {
    if (data.size() < 4) break;
    std::uint32_t n = 0;
    for (int i = 0; i < 4; ++i) n |= static_cast<std::uint32_t>(static_cast<unsigned char>(data[i])) << (8 * i);
    data.remove_prefix(4);
    if (n > data.size()) break;
    PaperRecord r;
    r.abstract = schema::decode(data.substr(0, n), &r.title_in_text);
    out.push_back(std::move(r));
    data.remove_prefix(n);
  }
  if (!data.empty()) {
    throw CorruptIndex("the records of document " + std::to_string(docid) + " cannot be read",
                       "build the index again");
  }
  return out;
}

// Union-find over record numbers.
struct Groups {
  std::vector<std::size_t> parent;
  explicit Groups(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  std::size_t root(std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void join(std::size_t a, std::size_t b) { parent[root(a)] = root(b); }
};

}  // namespace

std::vector<std::string> link_terms(const Abstract& a) {
  std::vector<std::string> out{schema::id_term(a.id)};
  for (const auto& [scheme, value] : {std::pair<std::string_view, const std::string&>{"doi", a.doi},
                                      {"arxiv", a.arxiv_id},
                                      {"pmid", a.pmid}}) {
    if (!value.empty()) out.push_back(schema::identifier_term(scheme, value));
  }
  return out;
}

std::vector<std::vector<PaperRecord>> group_papers(std::vector<PaperRecord> records) {
  // Records of one file with one id stay records of their paper, each with its
  // own citation key and identifiers (a .bib with Romatschke2018 and
  // Romatschke2018a of one DOI is found by both keys); the last is shown.
  Groups groups(records.size());
  std::unordered_map<std::string, std::size_t> first_with;
  for (std::size_t i = 0; i < records.size(); ++i) {
    for (auto& term : link_terms(records[i].abstract)) {
      auto [at, fresh] = first_with.try_emplace(std::move(term), i);
      if (!fresh) groups.join(i, at->second);
    }
  }
  std::unordered_map<std::size_t, std::size_t> group_of_root;
  std::vector<std::vector<PaperRecord>> out;
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto [at, fresh] = group_of_root.try_emplace(groups.root(i), out.size());
    if (fresh) out.emplace_back();
    out[at->second].push_back(std::move(records[i]));
  }
  for (auto& paper : out) std::sort(paper.begin(), paper.end(), shown_before);
  // In the order of the records shown, so the same records are written in the same order.
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return shown_before(x.back(), y.back()); });
  return out;
}

Xapian::Document PaperWriter::document(const std::vector<PaperRecord>& paper) const {
  const PaperRecord& shown = paper.back();
  if (paper.size() == 1) return make_(shown.abstract, shown.title_in_text);
  Abstract merged = shown.abstract;
  for (auto r = paper.rbegin() + 1; r != paper.rend(); ++r) {
    if (merged.doi.empty()) merged.doi = r->abstract.doi;
    if (merged.arxiv_id.empty()) merged.arxiv_id = r->abstract.arxiv_id;
    if (merged.pmid.empty()) merged.pmid = r->abstract.pmid;
  }
  Xapian::Document doc = make_(merged, shown.title_in_text);
  for (const auto& r : paper) {
    if (!r.abstract.zotero_key.empty()) doc.add_boolean_term(schema::record_term(r.abstract.source, r.abstract.line));
    for (const auto& term : link_terms(r.abstract)) doc.add_boolean_term(term);
    if (!r.abstract.citation_key.empty()) doc.add_boolean_term(schema::citation_key_term(r.abstract.citation_key));
    if (r.abstract.source.empty()) continue;
    const auto name = std::filesystem::path(r.abstract.source).filename().string();
    doc.add_boolean_term(schema::field_term(schema::kSourcePrefix, analysis::Analyzer::fold(name)));
    doc.add_boolean_term(schema::file_term(r.abstract.source));
  }
  doc.add_value(schema::kRecordsSlot, compressor_.compress(pack(paper)));
  return doc;
}

std::vector<PaperRecord> paper_records(const Xapian::Document& doc, const compression::Decompressor& stored) {
  const std::string packed = doc.get_value(schema::kRecordsSlot);
  if (!packed.empty()) return unpack(stored.decompress(packed, doc.get_docid()), doc.get_docid());
  PaperRecord r;
  r.abstract = schema::decode(stored.decompress(doc.get_value(schema::kStoredSlot), doc.get_docid()),
                              &r.title_in_text);
  return {std::move(r)};
}

bool PaperWriter::add(PaperRecord record, bool replace) {
  std::set<Xapian::docid> linked;
  for (const auto& term : link_terms(record.abstract)) {
    for (auto p = db_.postlist_begin(term); p != db_.postlist_end(term); ++p) linked.insert(*p);
  }
  if (linked.empty()) {
    put(document({record}));
    return false;
  }
  std::vector<PaperRecord> all;
  for (const Xapian::docid d : linked) {
    for (auto& r : paper_records(db_.get_document(d), stored_)) all.push_back(std::move(r));
    drop(d);
  }
  if (replace) {
    std::erase_if(all, [&](const PaperRecord& r) {
      return r.abstract.source == record.abstract.source && r.abstract.id == record.abstract.id;
    });
  }
  const std::string source = record.abstract.source, id = record.abstract.id;
  const auto is_this = [&](const PaperRecord& r) { return r.abstract.source == source && r.abstract.id == id; };
  // A record of the file with the same id, read before it, is this paper too.
  bool shared = std::any_of(all.begin(), all.end(), is_this);
  all.push_back(std::move(record));
  for (const auto& paper : group_papers(std::move(all))) {
    if (paper.size() > 1 && std::any_of(paper.begin(), paper.end(), is_this)) shared = true;
    put(document(paper));
  }
  return shared;
}

void PaperWriter::put(const Xapian::Document& doc) {
  db_.add_document(doc);
  if (pending_ != nullptr) pending_->bytes += room::document_bytes(doc);
}

void PaperWriter::drop(Xapian::docid doc) {
  db_.delete_document(doc);
  if (pending_ != nullptr) pending_->bytes += room::kDeletedDocumentBytes;
}

std::vector<std::string> PaperWriter::remove_file(const std::string& abs, Xapian::doccount commit_every) {
  const std::string term = schema::file_term(abs);
  std::vector<Xapian::docid> holding;
  for (auto p = db_.postlist_begin(term); p != db_.postlist_end(term); ++p) holding.push_back(*p);
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < holding.size(); ++i) {
    if (commit_every != 0 && i != 0 && i % commit_every == 0) {
      if (pending_ != nullptr) {
        room::commit(db_, *pending_);
      } else {
        db_.commit();
      }
    }
    const Xapian::Document doc = db_.get_document(holding[i]);
    if (doc.get_value(schema::kRecordsSlot).empty()) {
      // One record, and it is the file's: its id is the document's one id term.
      auto t = doc.termlist_begin();
      t.skip_to(std::string(schema::kIdPrefix));
      if (t != doc.termlist_end() && (*t).starts_with(schema::kIdPrefix)) ids.push_back((*t).substr(1));
      drop(holding[i]);
      continue;
    }
    std::vector<PaperRecord> rest = paper_records(doc, stored_);
    std::erase_if(rest, [&](const PaperRecord& r) {
      if (r.abstract.source != abs) return false;
      ids.push_back(r.abstract.id);
      return true;
    });
    drop(holding[i]);
    for (const auto& paper : group_papers(std::move(rest))) put(document(paper));
  }
  return ids;
}

std::string PaperWriter::remove_record(const std::string& abs, std::uint32_t line) {
  const std::string term = schema::record_term(abs, line);
  std::vector<Xapian::docid> holding;
  for (auto p = db_.postlist_begin(term); p != db_.postlist_end(term); ++p) holding.push_back(*p);
  std::string id;
  for (const Xapian::docid d : holding) {
    std::vector<PaperRecord> rest = paper_records(db_.get_document(d), stored_);
    std::erase_if(rest, [&](const PaperRecord& r) {
      if (r.abstract.source != abs || r.abstract.line != line) return false;
      id = r.abstract.id;
      return true;
    });
    drop(d);
    for (const auto& paper : group_papers(std::move(rest))) put(document(paper));
  }
  return id;
}

}  // namespace abstracts::indexer
