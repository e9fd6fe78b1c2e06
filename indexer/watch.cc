#include "indexer/watch.h"

#include <poll.h>
#include <sys/inotify.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include "abstracts/error.h"
#include "engine/layout.h"
#include "engine/sources.h"
#include "indexer/input_files.h"

namespace abstracts::indexer {
namespace fs = std::filesystem;

namespace {

// What a folder's watch asks to hear of: files written and closed, created,
// deleted, renamed in or out, and the folder itself going.
constexpr std::uint32_t kEvents = IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
                                  IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW;
// What the index's folder and generation tell: a stub renamed into place (a new
// generation), a version file renamed into place (a commit), a lock let go.
constexpr std::uint32_t kIndexEvents = IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR;

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

void SourceWatch::watch_index(const fs::path& dir) {
  index_ = absolute_path(dir);
  std::vector<fs::path> folders{dir};
  try {
    folders.push_back(layout::current_generation(dir));
  } catch (const Error&) {
    // No index yet, or a damaged stub: its folder's events still tell when one comes.
  }
  for (const auto& folder : folders) {
    const int wd = inotify_add_watch(fd_, folder.c_str(), kIndexEvents);
    if (wd < 0) continue;  // then sources added meanwhile wait for the next batch or rescan
    watches_[wd] = folder;
    index_watches_.insert(wd);
  }
}

bool SourceWatch::in_index(const fs::path& path) const {
  return !index_.empty() && sources::is_below(path.string(), index_.string());
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
  if (is_network_file_system(folder) || !watch_folder(folder)) rescan_ = true;
}

bool SourceWatch::watch_folder(const fs::path& folder) {
  const int wd = inotify_add_watch(fd_, folder.c_str(), kEvents);
  if (wd < 0) return false;
  // The same folder (inode) watched again gets its watch back: under its name now.
  watches_[wd] = folder;
  return true;
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
    if (in_index(folder)) continue;  // `index .`: the index's own commits are no change
    if (!watch_folder(folder)) {
      // ENOSPC: the watch limit (fs.inotify.max_user_watches); ENOENT: gone
      // already, which the events that follow tell.
      if (errno != ENOENT) rescan_ = true;
      continue;
    }
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      std::error_code entry_ec;
      if (!is_hidden(it->path()) && !it->is_symlink(entry_ec) && it->is_directory(entry_ec)) {
        pending.push_back(it->path());
      }
    }
  }
}

void SourceWatch::forget_tree(const fs::path& folder) {
  for (auto it = watches_.begin(); it != watches_.end();) {
    if (index_watches_.count(it->first) == 0 && sources::is_below(it->second.string(), folder.string())) {
      inotify_rm_watch(fd_, it->first);
      it = watches_.erase(it);
    } else {
      ++it;
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
      const auto w = watches_.find(e->wd);
      if (w == watches_.end()) continue;
      if ((e->mask & IN_IGNORED) != 0) {
        index_watches_.erase(w->first);
        watches_.erase(w);
        continue;
      }
      if (index_watches_.count(w->first) != 0) {
        index_changed_ = true;
        continue;
      }
      const fs::path folder = w->second;
      if ((e->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) != 0) {
        changed.insert(folder);
        continue;
      }
      if (e->len == 0) continue;
      fs::path path = folder / e->name;
      if (in_index(path)) continue;
      if (files_.count(path) == 0) {
        // A database's journal or write-ahead log: a commit that may not touch
        // the database file itself (WAL mode) until a checkpoint.
        const std::string name = path.string();
        for (const char* suffix : {"-journal", "-wal"}) {
          if (name.ends_with(suffix) && files_.count(name.substr(0, name.size() - std::strlen(suffix))) != 0) {
            path = name.substr(0, name.size() - std::strlen(suffix));
          }
        }
      }
      const bool ours = files_.count(path) != 0 || std::any_of(folders_.begin(), folders_.end(), [&](const fs::path& f) {
                          return sources::is_below(path.string(), f.string());
                        });
      if (!ours) continue;
      if ((e->mask & IN_ISDIR) != 0) {
        // A folder renamed or moved keeps its watch, which would name it as it
        // was: forgotten, and watched again under its new name.
        if ((e->mask & (IN_MOVED_FROM | IN_DELETE)) != 0) forget_tree(path);
        if ((e->mask & (IN_CREATE | IN_MOVED_TO)) != 0 && !is_hidden(path)) {
          add_tree(path);  // made or moved in: its files came with it, unannounced
        }
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
  if (changed.empty()) return changed;  // the index's own events: no batch to gather
  while (std::chrono::steady_clock::now() - first < most) {
    const auto left = most - std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - first);
    p.revents = 0;
    if (poll(&p, 1, static_cast<int>(std::min(settle, left).count())) <= 0) break;
    drain(changed);
  }
  return changed;
}

bool SourceWatch::needs_rescan() { return std::exchange(rescan_, false); }

bool SourceWatch::index_changed() { return std::exchange(index_changed_, false); }

}  // namespace abstracts::indexer
