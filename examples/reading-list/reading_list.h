// The reading-list file: a plain text list of abstract ids, in the order added.
//
// Format (README.md has the user's version):
//   - one abstract id per line, optionally followed by white space and a
//     `# note` (reading-list writes the title there);
//   - blank lines and lines starting with `#` are comments, kept as they are;
//   - an id is 1 to 256 characters from A-Z a-z 0-9 and - _ . : / + @
//     (what `abstracts` prints, and what can be a BibTeX key);
//   - every id appears once.
#ifndef READING_LIST_READING_LIST_H_
#define READING_LIST_READING_LIST_H_

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace reading_list {

// Whether `id` can stand on a line of the list (see the format above).
bool is_valid_id(std::string_view id);

// A list file, read into memory. Edits change the copy; save() writes it back.
// Not thread-safe; one process editing a file at a time is ensured by ListLock.
class ReadingList {
 public:
  // Reads the list in `file`; a file that does not exist is an empty list.
  // Throws abstracts::InputError (naming the file and the 1-based line) for a
  // line that is not an id, and abstracts::Error when the file cannot be read.
  static ReadingList load(const std::filesystem::path& file);

  // The ids, in the order they stand in the file.
  const std::vector<std::string>& ids() const { return ids_; }
  bool contains(std::string_view id) const;
  const std::filesystem::path& file() const { return file_; }

  // Appends `id` (which must be valid) with `note` as its comment. Returns
  // false, changing nothing, when the id is already on the list.
  bool add(const std::string& id, std::string_view note = {});

  // Removes the line of `id`. Returns false when the id is not on the list.
  bool remove(std::string_view id);

  // Writes the list to its file atomically: to a temporary file in the same
  // directory, flushed to disk, then renamed over the old file (whose
  // permissions it keeps; through a symbolic link, the link's target is
  // replaced). A crash leaves either the old or the new list, never a mix.
  // Creates the directory if needed. Throws abstracts::Error on failure, with
  // the old file untouched and no temporary file left behind.
  void save() const;

 private:
  struct Line {
    std::string text;  // as read or written, without the line break
    std::string id;    // "" for a comment or blank line
  };

  std::filesystem::path file_;
  std::vector<Line> lines_;
  std::vector<std::string> ids_;
};

// An exclusive advisory lock (flock) on the directory of a list file, so that
// two reading-list processes editing the same list do not lose each other's
// changes (read, change and save under the lock). Creates the directory if
// needed. Blocks until the lock is free; released by the destructor.
class ListLock {
 public:
  explicit ListLock(const std::filesystem::path& file);
  ~ListLock();
  ListLock(const ListLock&) = delete;
  ListLock& operator=(const ListLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace reading_list

#endif  // READING_LIST_READING_LIST_H_
