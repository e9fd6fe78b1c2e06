// The queries of `search --queries FILE`, one a line, read a block at a time:
// memory is bounded by the longest line allowed, however long the file runs.
#ifndef ABSTRACTS_CLI_QUERIES_FILE_H_
#define ABSTRACTS_CLI_QUERIES_FILE_H_

#include <cstddef>
#include <string>
#include <vector>

namespace abstracts::cli {

// No line of a queries file may be longer (as no line of an input file).
inline constexpr std::size_t kMaxQueryLineBytes = 1 << 20;

// One line of a queries file.
struct QueryLine {
  std::size_t number = 0;  // 1-based
  std::string id;          // the text before the line's first tab, else its number
  std::string query;       // the text after that tab, else the whole line
};

// The lines of a queries file, `ID<TAB>QUERY` or `QUERY`, numbered from 1;
// blank lines are skipped, "\r\n" ends a line as "\n" does, and a UTF-8 BOM at
// the start is dropped. Not thread-safe.
class QueriesFile {
 public:
  // Opens `path`, or standard input for "-". Throws Error, with a hint, when
  // `path` cannot be read or is no regular file: a folder, or a device, FIFO or
  // socket, which need not ever end.
  explicit QueriesFile(const std::string& path);
  ~QueriesFile();
  QueriesFile(const QueriesFile&) = delete;
  QueriesFile& operator=(const QueriesFile&) = delete;

  // Reads the next query into `line`; false at the end. Throws InputError,
  // naming the file and line, for a line over kMaxQueryLineBytes, a NUL byte,
  // bytes that are not UTF-8, an empty id (a line that starts with a tab), and
  // Error for a read that fails.
  bool next(QueryLine& line);

 private:
  bool read_line();
  bool fill();
  std::string where(std::size_t line) const { return name_ + ":" + std::to_string(line); }

  std::string name_;  // the path, or "standard input"
  int fd_ = -1;
  bool owned_ = false;  // fd_ is closed with the object (not standard input)
  std::vector<char> buf_ = std::vector<char>(1 << 16);
  std::size_t pos_ = 0, end_ = 0;  // the unread bytes of buf_
  std::size_t read_ = 0;           // lines read
  std::string line_;               // the line read last
};

}  // namespace abstracts::cli

#endif  // ABSTRACTS_CLI_QUERIES_FILE_H_
