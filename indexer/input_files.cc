#include "indexer/input_files.h"

#include <algorithm>
#include <system_error>

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

std::vector<fs::path> files_below(const fs::path& dir) {
  std::error_code ec;
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
  return files;
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
