#include "cli/queries_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "abstracts/error.h"
#include "cli/escape.h"

namespace abstracts::cli {
namespace {

constexpr const char* kFileHint = "--queries takes a file with one query per line, or - for standard input";

}  // namespace

QueriesFile::QueriesFile(const std::string& path) : name_(path == "-" ? "standard input" : path) {
  if (path == "-") {
    fd_ = STDIN_FILENO;
    return;
  }
  // Only a regular file has an end: /dev/zero would be read forever. O_NONBLOCK
  // keeps the open of a FIFO from waiting for a writer; fstat says what it is.
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) throw Error(path + ": cannot read: " + std::strerror(errno), kFileHint);
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    if (S_ISDIR(st.st_mode)) throw Error(path + ": is a directory", kFileHint);
    throw Error(path + ": not a regular file (a device, FIFO or socket)",
                "--queries reads a file; to read a pipe, give --queries - and the pipe as standard input");
  }
  owned_ = true;
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
}

QueriesFile::~QueriesFile() {
  if (owned_) ::close(fd_);
}

bool QueriesFile::next(QueryLine& line) {
  while (read_line()) {
    if (read_ == 1 && line_.starts_with("\xEF\xBB\xBF")) line_.erase(0, 3);
    // A NUL byte is no text: it would cut the query short where text is a C string.
    if (const auto nul = line_.find('\0'); nul != std::string::npos) {
      throw InputError(where(read_) + ": a NUL byte (byte " + std::to_string(nul + 1) + " of the line)", name_,
                       read_, "is this a binary file, or text in UTF-16? Convert it to UTF-8");
    }
    if (const auto bad = find_invalid_utf8(line_); bad != std::string::npos) {
      throw InputError(where(read_) + ": not valid UTF-8 (byte " + std::to_string(bad + 1) + " of the line)",
                       name_, read_, "convert the file to UTF-8, e.g. with iconv -f latin1 -t utf-8");
    }
    if (line_.find_first_not_of(" \t") == std::string::npos) continue;
    line.number = read_;
    const auto tab = line_.find('\t');
    if (tab == std::string::npos) {
      line.id = std::to_string(read_);
      line.query = line_;
      return true;
    }
    // An id left empty would print a count or a hit of no query; taking the line
    // number instead could clash with another line's id.
    if (line_.find_first_not_of(' ') >= tab) {
      throw InputError(where(read_) + ": the id before the tab is empty", name_, read_,
                       "write ID<TAB>QUERY, or the query alone to have its line number as its id");
    }
    line.id = line_.substr(0, tab);
    line.query = line_.substr(tab + 1);
    return true;
  }
  return false;
}

// Reads the next line into line_, without its "\n" or "\r\n"; false at the end.
bool QueriesFile::read_line() {
  line_.clear();
  bool any = false;
  while (pos_ < end_ || fill()) {
    any = true;
    const char* start = buf_.data() + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - pos_));
    const std::size_t n = nl != nullptr ? static_cast<std::size_t>(nl - start) : end_ - pos_;
    if (line_.size() + n > kMaxQueryLineBytes) {
      throw InputError(where(read_ + 1) + ": line longer than 1 MiB", name_, read_ + 1,
                       "each line of --queries FILE is one query, ID<TAB>QUERY or QUERY");
    }
    line_.append(start, n);
    pos_ += n;
    if (nl != nullptr) {
      ++pos_;
      break;
    }
  }
  if (!any) return false;
  ++read_;
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  return true;
}

// Reads the next block into buf_; false at the end of the file.
bool QueriesFile::fill() {
  ssize_t n;
  do {
    n = ::read(fd_, buf_.data(), buf_.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0) throw Error(name_ + ": cannot read: " + std::strerror(errno), kFileHint);
  pos_ = 0;
  end_ = static_cast<std::size_t>(n);
  return n > 0;
}

}  // namespace abstracts::cli
