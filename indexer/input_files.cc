#include "indexer/input_files.h"

#include <algorithm>
#include <system_error>
#include <utility>

#include "abstracts/error.h"

namespace abstracts::indexer {
namespace fs = std::filesystem;

namespace {

bool is_hidden(const fs::path& p) {
  auto name = p.filename().string();
  return !name.empty() && name[0] == '.';
}

}  // namespace

std::string absolute_path(const fs::path& p) {
  std::error_code ec;
  auto abs = fs::weakly_canonical(fs::absolute(p), ec);
  return (ec ? fs::absolute(p) : abs).lexically_normal().string();
}

void require_regular_file(const fs::path& file) {
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec) throw InputError("cannot read " + file.string() + ": " + ec.message(), file.string(), 0);
  if (fs::is_directory(st)) throw InputError(file.string() + ": is a directory", file.string(), 0);
  if (!fs::is_regular_file(st)) {
    throw InputError(file.string() + ": not a regular file (a device, FIFO or socket)", file.string(), 0,
                     "give files of abstracts, or folders of them");
  }
}

FolderContents files_below(const fs::path& dir, const std::function<void(const InputError&)>& on_error,
                           const std::function<void(const InputError&)>& on_warning) {
  FolderContents out;
  // Folders still to read; a link to a folder is not followed (it could loop).
  std::vector<fs::path> pending{dir};
  while (!pending.empty()) {
    const fs::path folder = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const fs::path& p = it->path();
      if (is_hidden(p)) continue;
      std::error_code entry_ec;
      const fs::file_status st = it->status(entry_ec);  // follows a symbolic link
      if (entry_ec) {
        if (it->is_symlink(entry_ec)) {
          on_warning(InputError(p.string() + ": skipped, a symbolic link that loops or leads nowhere",
                                p.string(), 0));
        } else {
          out.unreadable.push_back(p);
          on_error(InputError("cannot read " + p.string() + ": " + entry_ec.message(), p.string(), 0));
        }
      } else if (fs::is_regular_file(st)) {
        out.files.push_back(p);
      } else if (fs::is_directory(st) && !it->is_symlink(entry_ec)) {
        pending.push_back(p);
      }
    }
    if (ec) {
      if (folder == dir) throw InputError("cannot read " + dir.string() + ": " + ec.message(), dir.string(), 0);
      out.unreadable.push_back(folder);
      on_error(InputError("cannot read the folder " + folder.string() + ": " + ec.message(), folder.string(), 0,
                          "nothing indexed from it was removed; make it readable, or index without it"));
    }
  }
  std::sort(out.files.begin(), out.files.end());
  return out;
}

bool is_backup(const fs::path& file) {
  const std::string name = file.filename().string();
  if (name.ends_with('~') || (name.size() > 1 && name.front() == '#' && name.back() == '#')) return true;
  for (const char* ext : {".swp", ".swo", ".swx", ".bak", ".orig", ".rej", ".tmp"}) {
    if (name.ends_with(ext)) return true;
  }
  return false;
}

std::uint64_t bytes_of(const std::vector<fs::path>& files) {
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto& f : files) {
    auto size = fs::file_size(f, ec);
    if (!ec) total += size;
  }
  return total;
}

}  // namespace abstracts::indexer
