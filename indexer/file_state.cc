#include "indexer/file_state.h"

#include <xxhash.h>

#include <chrono>
#include <cstdio>
#include <system_error>
#include <vector>

namespace abstracts::indexer {
namespace fs = std::filesystem;

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

std::optional<schema::FileState> unchanged(Xapian::WritableDatabase& db, const fs::path& file,
                                           const std::string& abs, schema::FileState& now) {
  now = file_state(file);
  schema::FileState before;
  const bool known = schema::decode(db.get_metadata(schema::file_key(abs)), before);
  now.sources = before.sources;
  // The content decides, not the time: `cp -p`, `touch -r` and file systems with
  // coarse timestamps keep a changed file's size and time.
  now.hash = hash_file(file);
  if (!known || before.size != now.size || before.hash != now.hash) return std::nullopt;
  if (before.mtime_ns != now.mtime_ns) {
    now.abstracts = before.abstracts;
    now.rejected = before.rejected;
    db.set_metadata(schema::file_key(abs), schema::encode(now));  // committed with the run
  }
  return before;
}

}  // namespace abstracts::indexer
