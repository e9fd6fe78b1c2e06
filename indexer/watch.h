// Watching the sources of an index for changes (Linux inotify), for
// Writer::watch: which paths changed since the last look, and where inotify
// cannot follow (a network file system, the watch limit, a lost event queue),
// that only a full rescan can tell.
#ifndef ABSTRACTS_INDEXER_WATCH_H_
#define ABSTRACTS_INDEXER_WATCH_H_

#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace abstracts::indexer {

class SourceWatch {
 public:
  // Throws Error if inotify cannot be had at all.
  SourceWatch();
  ~SourceWatch();
  SourceWatch(const SourceWatch&) = delete;
  SourceWatch& operator=(const SourceWatch&) = delete;

  // Watches a folder and the folders below it (hidden ones left out), or a
  // file (through its folder, so that a file replaced by a rename is seen).
  // A path on a network file system, or past the watch limit, is not watched:
  // needs_rescan() says so.
  void add(const std::filesystem::path& path);

  // Waits up to `timeout` for changes, then gathers them until none has come for
  // `settle` (but no longer than `most`), so that an editor's save (a temporary
  // file renamed over the old one) or a burst of changes is one batch. Returns
  // the paths changed (files, and folders created or gone), empty if none.
  std::set<std::filesystem::path> wait(std::chrono::milliseconds timeout, std::chrono::milliseconds settle,
                                       std::chrono::milliseconds most);

  // True when a change may have been missed (inotify's queue overflowed) or a
  // path could not be watched; cleared by the call.
  bool needs_rescan();

 private:
  void add_tree(const std::filesystem::path& dir);
  // Reads the events that are ready into `changed`.
  void drain(std::set<std::filesystem::path>& changed);

  int fd_ = -1;
  std::vector<std::pair<int, std::filesystem::path>> watches_;  // watch descriptor -> folder
  std::set<std::filesystem::path> files_;                       // file sources: their folders' other files are not ours
  std::set<std::filesystem::path> folders_;                     // folder sources
  bool rescan_ = false;
};

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_WATCH_H_
