// A scratch directory for an index that only lives as long as one run.
#ifndef ABSTRACTS_BENCH_RELEVANCE_TEMP_DIR_H_
#define ABSTRACTS_BENCH_RELEVANCE_TEMP_DIR_H_

#include <filesystem>
#include <string>

namespace abstracts::eval {

// Creates a new, empty directory under the system temp dir (honours $TMPDIR);
// removes it with everything in it on destruction. Throws std::runtime_error
// (or std::filesystem::filesystem_error) when it cannot be created.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "abstracts-relevance-");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_TEMP_DIR_H_
