#include "indexer/watch.h"

#include <poll.h>
#include <sys/inotify.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "abstracts/error.h"

namespace abstracts::indexer {
namespace fs = std::filesystem;

namespace {

// What a folder's watch asks to hear of: files written and closed, created,
// deleted, renamed in or out, and the folder itself going.
constexpr std::uint32_t kEvents = IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
                                  IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

// File systems whose changes on another machine inotify never hears of (the
// magic numbers of statfs(2)): their sources are rescanned instead.
bool is_network_file_system(const fs::path& path) {
  struct statfs st {};
  if (statfs(path.c_str(), &st) != 0) return false;
  switch (static_cast<unsigned long>(st.f_type)) {
    case 0x6969:      // NFS
    case 0x517b:      // SMB
    case 0xfe534d42:  // SMB2
    case 0xff534d42:  // CIFS
    case 0x65735546:  // FUSE (sshfs, rclone, ...)
    case 0x01021997:  // 9P
    case 0x5346414f:  // AFS
    case 0x00c36400:  // Ceph
      return true;
  }
  return false;
}

bool is_hidden(const fs::path& p) {
  const std::string name = p.filename().string();
  return !name.empty() && name[0] == '.';
}

}  // namespace

SourceWatch::SourceWatch() : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
  if (fd_ < 0) throw Error(std::string("cannot watch for changes: inotify: ") + std::strerror(errno));
}

SourceWatch::~SourceWatch() {
  if (fd_ >= 0) close(fd_);
}

void SourceWatch::add(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    folders_.insert(path);
    add_tree(path);
    return;
  }
  files_.insert(path);
  const fs::path folder = path.parent_path();
  if (is_network_file_system(folder)) {
    rescan_ = true;
    return;
  }
  const int wd = inotify_add_watch(fd_, folder.c_str(), kEvents);
  if (wd < 0) {
    rescan_ = true;
    return;
  }
  watches_.emplace_back(wd, folder);
}

void SourceWatch::add_tree(const fs::path& dir) {
  if (is_network_file_system(dir)) {
    rescan_ = true;
    return;
  }
  std::vector<fs::path> pending{dir};
  while (!pending.empty()) {
    const fs::path folder = std::move(pending.back());
    pending.pop_back();
    const int wd = inotify_add_watch(fd_, folder.c_str(), kEvents);
    if (wd < 0) {
      rescan_ = true;  // ENOSPC: the watch limit (fs.inotify.max_user_watches)
      continue;
    }
    watches_.emplace_back(wd, folder);
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      std::error_code entry_ec;
      if (!is_hidden(it->path()) && it->is_directory(entry_ec) && !it->is_symlink(entry_ec)) {
        pending.push_back(it->path());
      }
    }
  }
}

void SourceWatch::drain(std::set<fs::path>& changed) {
  alignas(inotify_event) char buffer[64 * 1024];
  while (true) {
    const ssize_t n = read(fd_, buffer, sizeof buffer);
    if (n <= 0) return;  // EAGAIN: nothing more for now
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
      if ((e->mask & IN_Q_OVERFLOW) != 0) {
        rescan_ = true;
        continue;
      }
      const auto w = std::find_if(watches_.begin(), watches_.end(), [&](const auto& x) { return x.first == e->wd; });
      if (w == watches_.end()) continue;
      if ((e->mask & IN_IGNORED) != 0) {
        watches_.erase(w);
        continue;
      }
      const fs::path folder = w->second;
      if ((e->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) != 0) {
        changed.insert(folder);
        continue;
      }
      if (e->len == 0) continue;
      const fs::path path = folder / e->name;
      const bool ours = files_.count(path) != 0 ||
                        std::any_of(folders_.begin(), folders_.end(), [&](const fs::path& f) {
                          auto rel = path.lexically_relative(f);
                          return !rel.empty() && *rel.begin() != "..";
                        });
      if (!ours) continue;
      if ((e->mask & IN_ISDIR) != 0 && (e->mask & (IN_CREATE | IN_MOVED_TO)) != 0 && !is_hidden(path)) {
        add_tree(path);  // a folder made or moved in: its files came with it, unannounced
      }
      changed.insert(path);
    }
  }
}

std::set<fs::path> SourceWatch::wait(std::chrono::milliseconds timeout, std::chrono::milliseconds settle,
                                     std::chrono::milliseconds most) {
  std::set<fs::path> changed;
  pollfd p{fd_, POLLIN, 0};
  if (poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return changed;
  const auto first = std::chrono::steady_clock::now();
  drain(changed);
  while (std::chrono::steady_clock::now() - first < most) {
    const auto left = most - std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - first);
    p.revents = 0;
    if (poll(&p, 1, static_cast<int>(std::min(settle, left).count())) <= 0) break;
    drain(changed);
  }
  return changed;
}

bool SourceWatch::needs_rescan() {
  const bool r = rescan_;
  rescan_ = false;
  return r;
}

}  // namespace abstracts::indexer
