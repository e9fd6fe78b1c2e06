#include "reading_list.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "abstracts/abstracts.h"
#include "utf8.h"
#include "visible.h"

namespace reading_list {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxIdBytes = 256;

constexpr const char* kHeader =
    "# reading-list: one abstract id per line, in the order added.\n"
    "# Lines starting with '#' are comments; text after an id and '#' is a note.\n"
    "# Edit by hand or with `reading-list add` and `reading-list remove`.\n";

constexpr const char* kOtherFileHint = "give another list file with --list FILE";

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string errno_message() { return std::strerror(errno); }

// Closes a file descriptor when it goes.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() { ::close(fd_); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

 private:
  int fd_;
};

// Where the list really lives: the target of a symbolic link, so that saving
// replaces the target and keeps the link.
fs::path target_of(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_symlink(file, ec)) return file;
  fs::path target = fs::read_symlink(file, ec);
  if (ec) return file;
  return target.is_absolute() ? target : file.parent_path() / target;
}

fs::path directory_of(const fs::path& file) {
  fs::path dir = file.parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

void create_directory_for(const fs::path& file) {
  std::error_code ec;
  fs::create_directories(directory_of(file), ec);
  if (ec) {
    throw abstracts::Error(
        "cannot create the directory " + directory_of(file).string() + ": " + ec.message(),
        "give another list file with --list FILE");
  }
}

// Closes a file descriptor and removes a temporary file unless released.
class TempFile {
 public:
  TempFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  int close() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }
  void release() { path_.clear(); }

 private:
  int fd_;
  std::string path_;
};

}  // namespace

bool is_valid_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxIdBytes || id.front() == '#') return false;
  for (std::size_t i = 0; i < id.size();) {
    char32_t c;
    if (!next_code_point(id, i, c)) return false;
    // White space would end the id on its line; a control character or a line
    // separator could end the line itself for another program.
    if (c <= 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029) return false;
  }
  return true;
}

ReadingList ReadingList::load(const fs::path& file) {
  ReadingList list;
  list.file_ = file;
  const std::string name = file.string();
  auto bad_file = [&](const std::string& what, std::size_t line, const std::string& hint) {
    return abstracts::InputError(name + (line == 0 ? "" : ":" + std::to_string(line)) + ": " + what,
                                 name, line, hint);
  };
  auto too_big = [&] {
    return bad_file("over 16 MiB, more than a reading list holds", 0,
                    "a reading list holds one id per line, at most 100,000 of them in 16 MiB; is " +
                        name + " the right file? " + kOtherFileHint);
  };
  // O_NONBLOCK: opening a FIFO does not wait for a writer; fstat then refuses
  // it, and a device such as /dev/zero, which could be read forever.
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return list;  // a new list (or a link to one)
    throw abstracts::Error("cannot read the reading list " + name + ": " + errno_message(),
                           "check the file's permissions, or " + std::string(kOtherFileHint));
  }
  FileDescriptor guard(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    throw abstracts::Error("cannot read the reading list " + name + ": " + errno_message());
  }
  if (!S_ISREG(st.st_mode)) {
    throw bad_file(
        S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file (a device, FIFO or socket)", 0,
        "the reading list is a regular file, or a symbolic link to one; " +
            std::string(kOtherFileHint));
  }
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxBytes) throw too_big();

  // Read as it streams, and counted: the file may grow while it is read.
  std::string line;
  std::size_t number = 0, total = 0;
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw abstracts::Error("cannot read the reading list " + name + ": " + errno_message());
    }
    if (n == 0) break;
    total += static_cast<std::size_t>(n);
    if (total > kMaxBytes) throw too_big();
    for (std::string_view chunk(buf, static_cast<std::size_t>(n)); !chunk.empty();) {
      const std::size_t end = chunk.find('\n');
      const std::string_view piece = chunk.substr(0, end);
      if (line.size() + piece.size() > kMaxLineBytes) {
        throw bad_file(
            "line longer than 1 MiB", number + 1,
            "a list line holds one abstract id and a note; is " + name + " really a reading list?");
      }
      line.append(piece);
      if (end == std::string_view::npos) break;
      list.read_line(line, ++number);
      line.clear();
      chunk.remove_prefix(end + 1);
    }
  }
  if (!line.empty()) list.read_line(line, ++number);
  return list;
}

void ReadingList::read_line(std::string& text, std::size_t number) {
  // Nothing is allocated for a line but its text: a list may hold millions.
  auto bad = [&](const std::string& what, const std::string& hint) {
    const std::string name = file_.string();
    return abstracts::InputError(name + ":" + std::to_string(number) + ": " + what, name, number,
                                 hint);
  };
  if (!text.empty() && text.back() == '\r') text.pop_back();  // written on Windows
  // A NUL would cut the id short wherever text is a C string.
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    throw bad("a NUL byte (byte " + std::to_string(nul + 1) + " of the line)",
              "a reading list is UTF-8 text; is " + file_.string() +
                  " a binary file, or text in UTF-16?");
  }
  if (const auto at = find_invalid_utf8(text); at != std::string::npos) {
    throw bad("not valid UTF-8 (byte " + std::to_string(at + 1) + " of the line)",
              "a reading list is UTF-8 text; convert it, e.g. with iconv -f latin1 -t utf-8");
  }
  const std::string_view content = trim(text);
  if (content.empty() || content.front() == '#') {
    tail_ += text;
    tail_ += '\n';
    return;
  }
  constexpr const char* kLineHint =
      "a list line holds one abstract id, optionally followed by '# a note'; "
      "comment lines start with '#'";
  const auto end = std::find_if(content.begin(), content.end(), is_blank) - content.begin();
  const std::string_view id = content.substr(0, static_cast<std::size_t>(end));
  const std::string_view rest = trim(content.substr(static_cast<std::size_t>(end)));
  if (!rest.empty() && rest.front() != '#') {
    throw bad("expected one id per line, found '" + std::string(content) + "'", kLineHint);
  }
  if (!is_valid_id(id)) throw bad("'" + std::string(id) + "' is not an abstract id", kLineHint);
  if (contains(id)) throw bad("the id " + std::string(id) + " is on the list twice", kLineHint);
  if (ids_.size() == kMaxIds) {
    throw bad("more than 100,000 ids, more than a reading list holds",
              "is " + file_.string() + " the right file? " + kOtherFileHint);
  }
  ids_.emplace_back(id);
  id_set_.emplace(id);
  lines_.push_back({std::move(tail_), text});
  tail_.clear();
}

bool ReadingList::contains(std::string_view id) const {
  return id_set_.count(std::string(id)) != 0;
}

bool ReadingList::add(const std::string& id, std::string_view note) {
  if (contains(id)) return false;
  if (ids_.size() >= kMaxIds) {
    throw abstracts::Error(
        "the reading list " + file_.string() + " holds 100,000 ids, the most it may",
        "remove some with `reading-list remove ID...`, or start another list with --list FILE");
  }
  if (lines_.empty() && tail_.empty()) tail_ = kHeader;
  std::string text = id;
  // The note is the rest of the id's line: one line, and nothing in it acts on
  // a terminal that shows the file.
  if (!note.empty()) text += "  # " + visible(note);
  lines_.push_back({std::move(tail_), std::move(text)});
  tail_.clear();
  ids_.push_back(id);
  id_set_.insert(id);
  return true;
}

bool ReadingList::remove(std::string_view id) {
  const auto it = std::find(ids_.begin(), ids_.end(), id);
  if (it == ids_.end()) return false;
  const auto at = static_cast<std::size_t>(it - ids_.begin());
  // The comments above the line stay, above the next one.
  std::string& next_before = at + 1 < lines_.size() ? lines_[at + 1].before : tail_;
  next_before.insert(0, lines_[at].before);
  lines_.erase(lines_.begin() + static_cast<std::ptrdiff_t>(at));
  id_set_.erase(*it);
  ids_.erase(it);
  return true;
}

void ReadingList::save() const {
  const fs::path target = target_of(file_);
  auto fail = [&](const std::string& what) {
    return abstracts::Error(
        "cannot write the reading list " + target.string() + ": " + what,
        "the list was left as it was; check the directory's permissions and free space");
  };

  std::string content;
  for (const auto& line : lines_) {
    content += line.before;
    content += line.text;
    content += '\n';
  }
  content += tail_;
  // A list this program could not read back is not written.
  if (content.size() > kMaxBytes) {
    throw abstracts::Error(
        "the reading list " + file_.string() + " would be over 16 MiB",
        "the list was left as it was; remove ids or comments, or start another list "
        "with --list FILE");
  }
  create_directory_for(target);
  // The temporary file sits in the same directory: rename() is atomic only
  // within one file system.
  std::string temp_name = ".";
  temp_name += target.filename().string();
  temp_name += ".tmp-XXXXXX";
  std::string name = (directory_of(target) / temp_name).string();
  int fd = ::mkstemp(name.data());
  if (fd < 0) throw fail(errno_message());
  TempFile temp(fd, name);

  // mkstemp creates the file 0600: give it the old file's mode, or the usual one.
  struct stat old;
  mode_t mode;
  if (::stat(target.c_str(), &old) == 0) {
    mode = old.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(temp.fd(), mode) != 0) throw fail(errno_message());

  for (std::size_t done = 0; done < content.size();) {
    ssize_t n = ::write(temp.fd(), content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw fail(errno_message());
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(temp.fd()) != 0) throw fail(errno_message());
  if (temp.close() != 0) throw fail(errno_message());
  if (::rename(temp.path().c_str(), target.c_str()) != 0) throw fail(errno_message());
  temp.release();

  // Make the rename itself durable.
  int dir = ::open(directory_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

ListLock::ListLock(const fs::path& file) {
  const fs::path target = target_of(file);
  create_directory_for(target);
  fd_ = ::open(directory_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) {
    throw abstracts::Error("cannot open the directory of the reading list " + target.string() +
                           ": " + errno_message());
  }
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    std::string message = errno_message();
    ::close(fd_);
    fd_ = -1;
    throw abstracts::Error("cannot lock the reading list " + target.string() + ": " + message);
  }
}

ListLock::~ListLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace reading_list
