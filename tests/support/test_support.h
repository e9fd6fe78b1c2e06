// Helpers shared by the tests: temporary directories, running the real binary,
// and abstracts to index.
#ifndef ABSTRACTS_TESTS_SUPPORT_TEST_SUPPORT_H_
#define ABSTRACTS_TESTS_SUPPORT_TEST_SUPPORT_H_

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "abstracts/abstract.h"
#include "abstracts/search.h"

namespace abstracts::testing {

// A fresh directory under the system temp dir, removed with everything in it
// when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// The argv and envp arrays posix_spawn takes: `program` and `args`, and the
// environment of this process changed by `env` (a value of kUnset removes the
// variable). The arrays point into the object: keep it alive across the spawn.
class SpawnArgs {
 public:
  SpawnArgs(const std::string& program, const std::vector<std::string>& args,
            const std::map<std::string, std::string>& env);
  char** argv() { return argv_.data(); }
  char** envp() { return envp_.data(); }

 private:
  std::vector<std::string> argv_strings_, env_strings_;
  std::vector<char*> argv_, envp_;
};

// A process a test started, killed and reaped by its pid when the test ends
// however it ends (an ASSERT that returns early, an exception), unless stop()
// was called.
class ChildProcess {
 public:
  explicit ChildProcess(pid_t pid) : pid_(pid) {}
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Sends `signal` and waits for the process; returns its wait status.
  int stop(int signal);

 private:
  pid_t pid_;
};

struct RunResult {
  int status = -1;  // exit status; 128 + signal if killed by a signal
  std::string out;
  std::string err;
  bool timed_out = false;  // killed by run_with_limit
  // The program's peak resident set (ru_maxrss): at least this process's resident set at the
  // spawn, as the child starts as its copy.
  long peak_rss_kb = 0;
};

// Runs `program` with `args` (no shell), with the environment of this process
// changed by `env` (a value of "\x01unset" removes the variable), in `cwd` if
// not empty, with `input` on standard input. Captures stdout and stderr.
RunResult run(const std::string& program, const std::vector<std::string>& args,
              const std::map<std::string, std::string>& env = {},
              const std::filesystem::path& cwd = {}, const std::string& input = {});

// As run(), but kills the program (SIGKILL) once it has run for `limit` and
// returns what it printed so far, with timed_out set: a hang fails the test
// that asked, instead of blocking the whole suite.
RunResult run_with_limit(std::chrono::milliseconds limit, const std::string& program,
                         const std::vector<std::string>& args,
                         const std::map<std::string, std::string>& env = {},
                         const std::filesystem::path& cwd = {});

// Runs the abstracts binary under test (ABSTRACTS_BIN).
RunResult run_abstracts(const std::vector<std::string>& args,
                        const std::map<std::string, std::string>& env = {},
                        const std::filesystem::path& cwd = {});

inline constexpr const char* kUnset = "\x01unset";

// An environment (for run()) that keeps the binary away from the user's files
// and settings: HOME and XDG_DATA_HOME below `dir`; ABSTRACTS_INDEX,
// ABSTRACTS_CORPUS and NO_COLOR unset.
std::map<std::string, std::string> sandbox_env(const std::filesystem::path& dir);

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Writes `content` to `path` (binary), creating parent directories.
void write_file(const std::filesystem::path& path, const std::string& content);
std::string read_file(const std::filesystem::path& path);

// Splits on '\n', dropping a final empty piece.
std::vector<std::string> lines(const std::string& text);

// An abstract to add directly, with no source file.
inline Abstract make_abstract(std::string text, std::string id = {}, std::string title = {}) {
  Abstract a;
  a.id = std::move(id);
  a.title = std::move(title);
  a.text = std::move(text);
  return a;
}

// `word` `n` times, each after a space (" lorem lorem"): filler of a known length.
inline std::string repeated(const std::string& word, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += " " + word;
  return out;
}

// The ids of `results`' hits, best first.
inline std::vector<std::string> hit_ids(const SearchResults& results) {
  std::vector<std::string> ids;
  for (const auto& h : results.hits) ids.push_back(h.abstract.id);
  return ids;
}

}  // namespace abstracts::testing

#endif  // ABSTRACTS_TESTS_SUPPORT_TEST_SUPPORT_H_
