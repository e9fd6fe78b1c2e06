#include "reading_list.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "abstracts/abstracts.h"

namespace reading_list {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxIdLength = 256;

constexpr const char* kHeader =
    "# reading-list: one abstract id per line, in the order added.\n"
    "# Lines starting with '#' are comments; text after an id and '#' is a note.\n"
    "# Edit by hand or with `reading-list add` and `reading-list remove`.\n";

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string errno_message() { return std::strerror(errno); }

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
  if (id.empty() || id.size() > kMaxIdLength) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::strchr("-_.:/+@", c) != nullptr;
  });
}

ReadingList ReadingList::load(const fs::path& file) {
  ReadingList list;
  list.file_ = file;
  std::error_code ec;
  if (!fs::exists(file, ec)) return list;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw abstracts::Error("cannot read the reading list " + file.string() + ": " + errno_message(),
                           "check the file's permissions, or give another file with --list FILE");
  }
  std::string text;
  std::size_t number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (!text.empty() && text.back() == '\r') text.pop_back();  // written on Windows
    std::string_view content = trim(text);
    Line line{text, {}};
    if (!content.empty() && content.front() != '#') {
      auto end = std::find_if(content.begin(), content.end(), is_blank) - content.begin();
      std::string_view id = content.substr(0, end);
      std::string_view rest = trim(content.substr(end));
      auto bad = [&](const std::string& what) {
        return abstracts::InputError(
            file.string() + ":" + std::to_string(number) + ": " + what, file.string(), number,
            "a list line holds one abstract id, optionally followed by '# a note'; "
            "comment lines start with '#'");
      };
      if (!rest.empty() && rest.front() != '#') {
        throw bad("expected one id per line, found '" + std::string(content) + "'");
      }
      if (!is_valid_id(id)) {
        throw bad("'" + std::string(id) + "' is not an abstract id");
      }
      if (list.contains(id)) {
        throw bad("the id " + std::string(id) + " is on the list twice");
      }
      line.id = id;
      list.ids_.push_back(line.id);
    }
    list.lines_.push_back(std::move(line));
  }
  if (in.bad()) {
    throw abstracts::Error("cannot read the reading list " + file.string() + ": " +
                           errno_message());
  }
  return list;
}

bool ReadingList::contains(std::string_view id) const {
  return std::find(ids_.begin(), ids_.end(), id) != ids_.end();
}

bool ReadingList::add(const std::string& id, std::string_view note) {
  if (contains(id)) return false;
  if (lines_.empty()) {
    std::istringstream header(kHeader);
    for (std::string text; std::getline(header, text);) lines_.push_back({text, {}});
  }
  std::string text = id;
  if (!note.empty()) {
    text += "  # ";
    // A note is one line, whatever the title holds.
    for (char c : note) text += (c == '\n' || c == '\r') ? ' ' : c;
  }
  lines_.push_back({text, id});
  ids_.push_back(id);
  return true;
}

bool ReadingList::remove(std::string_view id) {
  auto it = std::find_if(lines_.begin(), lines_.end(), [&](const Line& l) { return l.id == id; });
  if (it == lines_.end()) return false;
  lines_.erase(it);
  ids_.erase(std::find(ids_.begin(), ids_.end(), id));
  return true;
}

void ReadingList::save() const {
  const fs::path target = target_of(file_);
  create_directory_for(target);
  auto fail = [&](const std::string& what) {
    return abstracts::Error(
        "cannot write the reading list " + target.string() + ": " + what,
        "the list was left as it was; check the directory's permissions and free space");
  };

  std::string content;
  for (const auto& line : lines_) content += line.text + '\n';

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
