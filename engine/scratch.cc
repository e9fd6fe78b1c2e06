#include "engine/scratch.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <system_error>
#include <utility>

#include "abstracts/error.h"

namespace abstracts::scratch {
namespace fs = std::filesystem;

namespace {

// The folders a signal removes: a fixed table, which a signal handler may read
// without a lock or an allocation. A slot is 0 (free), 1 (being written) or 2
// (a folder's); past its size a folder is only swept later.
constexpr int kSlots = 64;
constexpr std::size_t kMaxPath = 4096;
struct Slot {
  std::atomic<int> state{0};
  char path[kMaxPath];
};
std::array<Slot, kSlots> slots;

constexpr int kSignals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU, SIGXFSZ};

// Removes `name` in the folder `at`, and what it holds, with system calls
// alone (async-signal-safe: no allocation, no lock). Links are removed, never
// followed. `depth` bounds the recursion: the tool's folders are two deep.
void remove_at(int at, const char* name, int depth) {
  if (::unlinkat(at, name, 0) == 0 || (errno != EISDIR && errno != EPERM)) return;
  const int fd = ::openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  // Entries removed while read may make getdents skip others: read again
  // until a pass removes nothing.
  for (bool removed = true; removed;) {
    removed = false;
    ::lseek(fd, 0, SEEK_SET);
    alignas(8) char buffer[4096];
    while (true) {
      const long n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
      if (n <= 0) break;
      for (long pos = 0; pos < n;) {
        // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
        unsigned short reclen = 0;
        std::memcpy(&reclen, buffer + pos + 16, sizeof reclen);
        const char* entry = buffer + pos + 19;
        pos += reclen;
        if (std::strcmp(entry, ".") == 0 || std::strcmp(entry, "..") == 0) continue;
        if (depth < 8) remove_at(fd, entry, depth + 1);
        removed = true;
      }
    }
  }
  ::close(fd);
  ::unlinkat(at, name, AT_REMOVEDIR);
}

extern "C" void remove_on_signal(int sig) {
  const int saved = errno;
  remove_all();
  // Then as if this handler were not there: the signal's own end of the process.
  ::signal(sig, SIG_DFL);
  ::raise(sig);
  errno = saved;
}

// Once: where a signal would end the process (no handler of the program's,
// not ignored), it removes the folders first.
void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0) continue;
      if ((old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL) continue;
      struct sigaction action {};
      action.sa_handler = remove_on_signal;
      sigemptyset(&action.sa_mask);
      for (int other : kSignals) sigaddset(&action.sa_mask, other);
      ::sigaction(sig, &action, nullptr);
    }
  });
}

// The slot's folder is now `path` (a signal meanwhile leaves it alone).
void set_slot(int slot, const fs::path& path) {
  slots[slot].state.store(1, std::memory_order_release);
  std::memcpy(slots[slot].path, path.c_str(), path.native().size() + 1);
  slots[slot].state.store(2, std::memory_order_release);
}

int take_slot(const fs::path& path) {
  if (path.native().size() >= kMaxPath) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!slots[i].state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) continue;
    set_slot(i, path);
    return i;
  }
  return -1;
}

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

}  // namespace

Folder Folder::make(const fs::path& parent, std::string_view prefix, const std::string& hint) {
  install_handlers();
  for (int attempt = 0; attempt < 100; ++attempt) {
    // Made under a hidden name, held, then given its name: sweep() never sees
    // a folder of this name that nobody holds.
    std::string hidden(".");
    hidden.append(prefix).append("XXXXXX");
    std::string making = (parent / hidden).string();
    if (::mkdtemp(making.data()) == nullptr) {
      const int err = errno;
      throw Error("cannot make a private folder in " + parent.string() + ": " + errno_text(err), hint);
    }
    const int slot = take_slot(making);  // removed on a signal under either name
    const int fd = ::open(making.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0 && ::flock(fd, LOCK_EX) == 0) {
      const fs::path named = parent / (std::string(prefix) + making.substr(making.size() - 6));
      if (::renameat2(AT_FDCWD, making.c_str(), AT_FDCWD, named.c_str(), RENAME_NOREPLACE) == 0) {
        if (slot >= 0) set_slot(slot, named);
        Folder folder;
        folder.path_ = named;
        folder.fd_ = fd;
        folder.slot_ = slot;
        return folder;
      }
    }
    const int err = errno;
    if (slot >= 0) slots[slot].state.store(0, std::memory_order_release);
    if (fd >= 0) ::close(fd);
    ::rmdir(making.c_str());
    if (err != EEXIST) throw Error("cannot make a private folder in " + parent.string() + ": " + errno_text(err), hint);
  }
  throw Error("cannot make a private folder in " + parent.string(), hint);
}

Folder::Folder(fs::path path) : path_(std::move(path)) {
  ::chmod(path_.c_str(), 0700);
  fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  slot_ = take_slot(path_);
  install_handlers();
}

Folder::Folder(Folder&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), slot_(std::exchange(other.slot_, -1)) {
  other.path_.clear();
}

Folder& Folder::operator=(Folder&& other) noexcept {
  if (this != &other) {
    remove();
    path_ = std::move(other.path_);
    other.path_.clear();
    fd_ = std::exchange(other.fd_, -1);
    slot_ = std::exchange(other.slot_, -1);
  }
  return *this;
}

Folder::~Folder() { remove(); }

void Folder::remove() {
  if (path_.empty()) return;
  forget();
  std::error_code ec;
  fs::remove_all(path_, ec);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  path_.clear();
}

void Folder::forget() {
  if (slot_ >= 0) slots[slot_].state.store(0, std::memory_order_release);
  slot_ = -1;
}

fs::path Folder::release() {
  forget();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  return std::exchange(path_, {});
}

void sweep(const fs::path& parent, std::string_view prefix) {
  std::error_code ec;
  const auto now = std::chrono::system_clock::now();
  for (fs::directory_iterator it(parent, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool making = name.size() > prefix.size() + 1 && name[0] == '.' && name.compare(1, prefix.size(), prefix) == 0;
    if (!making && !name.starts_with(prefix)) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (making && now - std::chrono::system_clock::from_time_t(st.st_mtime) < std::chrono::minutes(1)) continue;
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      std::error_code removing;
      fs::remove_all(it->path(), removing);
    }
    ::close(fd);
  }
}

void remove_all() noexcept {
  for (auto& slot : slots) {
    if (slot.state.load(std::memory_order_acquire) == 2) remove_at(AT_FDCWD, slot.path, 0);
  }
}

fs::path temp_directory() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? fs::path(tmp) : fs::path("/tmp");
}

}  // namespace abstracts::scratch
