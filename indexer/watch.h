// Watching the sources of an index for changes (Linux inotify), for
// abstracts::watch: which paths changed since the last look, whether the index
// itself changed (another writer may have added a source), and where inotify
// cannot follow (a network file system, the watch limit, a lost event queue),
// that only a full rescan can tell.
#ifndef ABSTRACTS_INDEXER_WATCH_H_
#define ABSTRACTS_INDEXER_WATCH_H_

#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace abstracts::indexer {

class SourceWatch {
 public:
  // Throws Error if inotify cannot be had at all.
  SourceWatch();
  ~SourceWatch();
  SourceWatch(const SourceWatch&) = delete;
  SourceWatch& operator=(const SourceWatch&) = delete;

  // Watches the index in `dir` (its stub file and current generation), so that
  // a commit by any writer makes index_changed() true. Its folders are never
  // taken for a source's, even below a watched folder. Watch it again after a
  // new generation (index_changed() says when).
  void watch_index(const std::filesystem::path& dir);

  // Watches a folder and the folders below it (hidden ones, and links to
  // folders, left out, as a sync leaves them out), or a file (through its
  // folder, so that a file replaced by a rename is seen; for a database, its
  // -journal and -wal count as the file). Adding a path again watches the
  // folders made below it since. A path on a network file system, or past the
  // watch limit, is not watched: needs_rescan() says so.
  void add(const std::filesystem::path& path);

  // Waits up to `timeout` for changes, then gathers them until none has come for
  // `settle` (but no longer than `most`), so that an editor's save (a temporary
  // file renamed over the old one) or a burst of changes is one batch. Returns
  // the paths changed (files, and folders created, moved in or gone), empty if
  // none. A folder renamed or moved in is watched under its new name at once.
  std::set<std::filesystem::path> wait(std::chrono::milliseconds timeout, std::chrono::milliseconds settle,
                                       std::chrono::milliseconds most);

  // True when a change may have been missed (inotify's queue overflowed) or a
  // path could not be watched; cleared by the call.
  bool needs_rescan();

  // True when the index was written to since the last call (by this process's
  // writer too); cleared by the call.
  bool index_changed();

 private:
  // Watches `folder` (a real folder, not a link) under the name `folder`.
  bool watch_folder(const std::filesystem::path& folder);
  void add_tree(const std::filesystem::path& dir);
  // Stops watching `folder` and the folders below it: moved away or gone.
  void forget_tree(const std::filesystem::path& folder);
  // Whether `path` is below the index's folder, or is it.
  bool in_index(const std::filesystem::path& path) const;
  // Reads the events that are ready into `changed`.
  void drain(std::set<std::filesystem::path>& changed);

  int fd_ = -1;
  std::unordered_map<int, std::filesystem::path> watches_;  // watch descriptor -> folder
  std::set<std::filesystem::path> files_;                   // file sources: their folders' other files are not ours
  std::set<std::filesystem::path> folders_;                 // folder sources
  std::filesystem::path index_;                             // the index's folder, if watched
  std::set<int> index_watches_;                              // its folder's and its generation's
  bool rescan_ = false;
  bool index_changed_ = false;
};

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_WATCH_H_
