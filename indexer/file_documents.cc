#include "indexer/file_documents.h"

#include <algorithm>
#include <vector>

#include "engine/schema.h"

namespace abstracts::indexer {

std::vector<std::string> file_terms(const Xapian::Document& doc) {
  std::vector<std::string> out;
  const std::string prefix(schema::kFilePrefix);
  auto t = doc.termlist_begin();
  for (t.skip_to(prefix); t != doc.termlist_end() && (*t).starts_with(prefix); ++t) out.push_back(*t);
  return out;
}

namespace {

// The indexed files' paths, each under its XF term.
std::vector<std::pair<std::string, std::string>> indexed_files(const Xapian::Database& db) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string prefix(schema::kFileKeyPrefix);
  for (auto k = db.metadata_keys_begin(prefix); k != db.metadata_keys_end(prefix); ++k) {
    if (db.get_metadata(*k).empty()) continue;  // forgotten
    std::string path = (*k).substr(prefix.size());
    out.emplace_back(schema::file_term(path), std::move(path));
  }
  return out;
}

}  // namespace

void keep_other_files(const Xapian::Database& db, const std::string& id_term, const std::string& abs,
                      Xapian::Document& doc) {
  auto p = db.postlist_begin(id_term);
  if (p == db.postlist_end(id_term)) return;
  const std::string own = schema::file_term(abs);
  for (const auto& t : file_terms(db.get_document(*p))) {
    if (t != own) doc.add_boolean_term(t);
  }
}

void replace_same_paper(Xapian::WritableDatabase& db, const std::string& id_term, const std::string& abs,
                        Xapian::Document& doc) {
  const std::string own = schema::file_term(abs), prefix(schema::kIdentifierPrefix);
  std::vector<std::string> identifiers;
  auto t = doc.termlist_begin();
  for (t.skip_to(prefix); t != doc.termlist_end() && (*t).starts_with(prefix); ++t) identifiers.push_back(*t);
  for (const auto& identifier : identifiers) {
    std::vector<Xapian::docid> others;
    for (auto p = db.postlist_begin(identifier); p != db.postlist_end(identifier); ++p) others.push_back(*p);
    for (const Xapian::docid other : others) {
      const Xapian::Document copy = db.get_document(other);
      auto q = copy.termlist_begin();
      q.skip_to(id_term);
      if (q != copy.termlist_end() && *q == id_term) continue;  // the same id: replaced as it is
      for (const auto& f : file_terms(copy)) {
        if (f != own) doc.add_boolean_term(f);
      }
      db.delete_document(other);
    }
  }
}

FileRelease release_file_documents(Xapian::WritableDatabase& db, const std::string& abs,
                                   const std::vector<Xapian::docid>& keep, const compression::Decompressor& stored,
                                   Xapian::doccount commit_every) {
  FileRelease out;
  const std::string term = schema::file_term(abs);
  std::vector<Xapian::docid> leaving;
  for (auto it = db.postlist_begin(term); it != db.postlist_end(term); ++it) {
    if (!std::binary_search(keep.begin(), keep.end(), *it)) leaving.push_back(*it);
  }
  std::set<std::string> relocate_terms;
  for (std::size_t i = 0; i < leaving.size(); ++i) {
    if (commit_every != 0 && i != 0 && i % commit_every == 0) db.commit();
    const Xapian::docid id = leaving[i];
    Xapian::Document doc = db.get_document(id);
    std::vector<std::string> files = file_terms(doc);
    std::erase(files, term);
    if (files.empty()) {
      db.delete_document(id);
      ++out.removed;
      continue;
    }
    if (schema::stored_abstract(doc, doc.get_docid(), stored).source == abs) relocate_terms.insert(files.front());
    doc.remove_term(term);
    db.replace_document(id, doc);
  }
  if (!relocate_terms.empty()) {
    for (const auto& [t, path] : indexed_files(db)) {
      if (relocate_terms.count(t) != 0) out.relocate.insert(path);
    }
  }
  return out;
}

}  // namespace abstracts::indexer
