#include "abstracts/writer.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_set>
#include <xapian.h>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/schema.h"
#include "engine/xapian_errors.h"
#include "indexer/document.h"
#include "indexer/reader.h"

namespace abstracts {
namespace fs = std::filesystem;

namespace {

std::string absolute_path(const fs::path& p) {
  std::error_code ec;
  auto abs = fs::weakly_canonical(fs::absolute(p), ec);
  return (ec ? fs::absolute(p) : abs).lexically_normal().string();
}

// Size, modification time and content hash of a file.
schema::FileState file_state(const fs::path& file) {
  schema::FileState s;
  std::error_code ec;
  s.size = fs::file_size(file, ec);
  auto mtime = fs::last_write_time(file, ec);
  s.mtime_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
  return s;
}

unsigned long long hash_file(const fs::path& file) {
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) return 0;
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::vector<char> buf(1 << 16);
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) XXH3_64bits_update(state, buf.data(), n);
  std::fclose(f);
  auto h = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return h;
}

bool is_hidden(const fs::path& p) {
  auto name = p.filename().string();
  return !name.empty() && name[0] == '.';
}

}  // namespace

struct Writer::Impl {
  fs::path dir;
  Xapian::WritableDatabase db;
  analysis::Analyzer analyzer;

  std::string file_key(const std::string& abs) const { return std::string(schema::kFileKeyPrefix) + abs; }

  // Deletes the documents of `abs` whose docids are not in `keep`.
  std::size_t delete_file_documents(const std::string& abs, const std::set<Xapian::docid>& keep) {
    std::string term = schema::file_term(abs);
    std::vector<Xapian::docid> doomed;
    for (auto it = db.postlist_begin(term); it != db.postlist_end(term); ++it) {
      if (keep.count(*it) == 0) doomed.push_back(*it);
    }
    for (auto id : doomed) db.delete_document(id);
    return doomed.size();
  }

  FileReport index_file(const fs::path& file) {
    FileReport report;
    const std::string abs = absolute_path(file);
    report.path = abs;
    schema::FileState now = file_state(file);
    schema::FileState before;
    bool known = schema::decode(db.get_metadata(file_key(abs)), before);
    if (known && before.size == now.size && before.mtime_ns == now.mtime_ns) {
      report.status = FileReport::Status::kUnchanged;
      report.abstracts = before.abstracts;
      return report;
    }
    now.hash = hash_file(file);
    if (known && before.hash == now.hash) {
      // Touched, not changed: remember the new time so the next run skips quickly.
      now.abstracts = before.abstracts;
      db.set_metadata(file_key(abs), schema::encode(now));
      db.commit();
      report.status = FileReport::Status::kUnchanged;
      report.abstracts = before.abstracts;
      return report;
    }

    // Read and validate the whole file before touching the index.
    auto reader = indexer::Reader::open(file);
    std::vector<std::pair<Abstract, bool>> abstracts;
    while (auto record = reader->next()) {
      bool title_in_text = record->title.empty();
      abstracts.emplace_back(indexer::make_abstract(*record, abs, reader->venue(), reader->year()),
                             title_in_text);
    }

    db.begin_transaction();
    try {
      std::set<Xapian::docid> kept;
      for (const auto& [a, title_in_text] : abstracts) {
        auto doc = indexer::make_document(a, title_in_text, analyzer);
        kept.insert(db.replace_document(schema::id_term(a.id), doc));
      }
      report.removed = delete_file_documents(abs, kept);
      now.abstracts = abstracts.size();
      db.set_metadata(file_key(abs), schema::encode(now));
      db.commit_transaction();
    } catch (...) {
      db.cancel_transaction();
      throw;
    }
    report.abstracts = abstracts.size();
    return report;
  }

  std::size_t remove_file(const std::string& abs) {
    db.begin_transaction();
    std::size_t removed = delete_file_documents(abs, {});
    db.set_metadata(file_key(abs), "");
    db.commit_transaction();
    return removed;
  }
};

Writer::Writer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&&) noexcept = default;

Writer::~Writer() {
  if (!impl_) return;
  try {
    impl_->db.commit();
  } catch (...) {
    // A destructor must not throw; uncommitted changes are lost, the index stays
    // as of the last commit.
  }
}

Writer Writer::open(const fs::path& dir) {
  return xapian_try(dir, [&] {
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
      throw IndexNotFound(dir.string() + " is not a directory", "give --index a directory");
    }
    fs::create_directories(dir, ec);
    if (ec) throw Error("cannot create the index directory " + dir.string() + ": " + ec.message());
    auto impl = std::make_unique<Impl>();
    impl->dir = dir;
    impl->db = Xapian::WritableDatabase(dir.string(), Xapian::DB_CREATE_OR_OPEN | Xapian::DB_BACKEND_GLASS);
    std::string version = impl->db.get_metadata(std::string(schema::kSchemaKey));
    if (version.empty() && impl->db.get_doccount() == 0) {
      impl->db.set_metadata(std::string(schema::kSchemaKey), std::string(schema::kSchemaVersion));
      impl->db.commit();
    } else if (version != schema::kSchemaVersion) {
      throw CorruptIndex("the index at " + dir.string() + " was written by another version of abstracts",
                         "delete " + dir.string() + " and run `abstracts index` to rebuild it");
    }
    return Writer(std::move(impl));
  });
}

FileReport Writer::index_file(const fs::path& file) {
  return xapian_try(impl_->dir, [&] { return impl_->index_file(file); });
}

std::size_t Writer::index_directory(const fs::path& dir,
                                    const std::function<void(const FileReport&)>& on_file,
                                    const std::function<void(const std::exception&)>& on_error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(dir.string() + ": not a directory", dir.string(), 0);
  }
  std::vector<fs::path> files;
  auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw InputError("cannot read " + dir.string() + ": " + ec.message(), dir.string(), 0);
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (is_hidden(it->path())) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());

  std::size_t failed = 0;
  std::unordered_set<std::string> seen;
  for (const auto& f : files) {
    seen.insert(absolute_path(f));
    try {
      auto report = index_file(f);
      if (on_file) on_file(report);
    } catch (const Error& e) {
      ++failed;
      if (!on_error) throw;
      on_error(e);
    }
  }
  // Files that were indexed from below `dir` and are gone now.
  xapian_try(impl_->dir, [&] {
    std::string prefix = std::string(schema::kFileKeyPrefix) + absolute_path(dir) + "/";
    std::vector<std::string> gone;
    for (auto k = impl_->db.metadata_keys_begin(prefix); k != impl_->db.metadata_keys_end(prefix); ++k) {
      std::string path = (*k).substr(schema::kFileKeyPrefix.size());
      if (seen.count(path) == 0 && !fs::exists(path, ec)) gone.push_back(path);
    }
    for (const auto& path : gone) impl_->remove_file(path);
  });
  return failed;
}

std::string Writer::add(Abstract a) {
  return xapian_try(impl_->dir, [&] {
    if (a.id.empty()) a.id = content_id(a.text);
    a.text = display_text(a.text);
    a.title = a.title.empty() ? derive_title(a.text) : display_text(a.title);
    impl_->db.replace_document(schema::id_term(a.id),
                               indexer::make_document(a, true, impl_->analyzer));
    return a.id;
  });
}

bool Writer::remove(std::string_view id) {
  return xapian_try(impl_->dir, [&] {
    std::string term = schema::id_term(id);
    if (!impl_->db.term_exists(term)) return false;
    impl_->db.delete_document(term);
    return true;
  });
}

std::size_t Writer::remove_file(const fs::path& file) {
  return xapian_try(impl_->dir, [&] { return impl_->remove_file(absolute_path(file)); });
}

void Writer::commit() {
  xapian_try(impl_->dir, [&] { impl_->db.commit(); });
}

}  // namespace abstracts
