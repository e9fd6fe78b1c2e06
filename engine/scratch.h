// Scratch folders: what the tool writes only to throw away (a private copy of a
// Zotero database in $TMPDIR, a bulk build's shards, a generation of the index
// being written). Each is private (mode 0700), held by its process (a flock on
// the folder) while in use, removed by its owner on every way out: normally, on
// an exception, and on a signal that would end the process (SIGHUP, SIGINT,
// SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU, SIGXFSZ) where the program has no handler
// of its own for it; one a kill -9 left is removed by sweep() at the next start.
#ifndef ABSTRACTS_ENGINE_SCRATCH_H_
#define ABSTRACTS_ENGINE_SCRATCH_H_

#include <filesystem>
#include <string>
#include <string_view>

namespace abstracts::scratch {

class Folder {
 public:
  // Makes a new private folder in `parent` named `prefix` and six random
  // characters, held from the moment its name shows, so sweep() never takes it.
  // Throws Error (with `hint`) if it cannot be made.
  static Folder make(const std::filesystem::path& parent, std::string_view prefix, const std::string& hint);

  // Guards the folder `path`, made by the caller (the index's generation being
  // written): removed with its contents on a signal, and by the destructor.
  explicit Folder(std::filesystem::path path);

  Folder() = default;  // guards nothing
  Folder(Folder&& other) noexcept;
  Folder& operator=(Folder&& other) noexcept;
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;
  // Removes the folder with its contents, unless released.
  ~Folder();

  const std::filesystem::path& path() const { return path_; }
  // Keeps the folder (a generation about to be published); returns its path.
  std::filesystem::path release();

 private:
  void forget();  // no longer removed on a signal
  void remove();

  std::filesystem::path path_;
  int fd_ = -1;    // the folder, open and flock'ed
  int slot_ = -1;  // its place among those a signal removes
};

// Removes the folders in `parent` named `prefix`... that no process holds: left
// by a run that was killed. Only real folders of this user's; a folder being
// made (a name with a leading '.') only once a minute old. Never throws.
void sweep(const std::filesystem::path& parent, std::string_view prefix);

// Removes every folder a live Folder guards, with system calls alone: for a
// process about to end where no destructor will run. Never throws.
void remove_all() noexcept;

// $TMPDIR, else /tmp.
std::filesystem::path temp_directory();

}  // namespace abstracts::scratch

#endif  // ABSTRACTS_ENGINE_SCRATCH_H_
