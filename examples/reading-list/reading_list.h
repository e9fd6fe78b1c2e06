// The reading-list file: a plain text list of abstract ids, in the order added.
//
// Format (README.md has the user's version):
//   - one abstract id per line, optionally followed by white space and a
//     `# note` (reading-list writes the title there);
//   - blank lines and lines starting with `#` are comments, kept as they are;
//   - an id is 1 to 256 bytes of UTF-8 without white space or control
//     characters, not starting with `#` (every id `abstracts` prints, DOIs
//     such as 10.1002/(SICI)1097-4636(199709)36:3<398::AID-JBM15>3.0.CO;2-F
//     included);
//   - every id appears once;
//   - the file is a regular file (or a symbolic link to one) of UTF-8 text
//     without NUL bytes, at most kMaxBytes long, of lines of at most
//     kMaxLineBytes, holding at most kMaxIds ids.
#ifndef READING_LIST_READING_LIST_H_
#define READING_LIST_READING_LIST_H_

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace reading_list {

// Whether `id` can stand on a line of the list (see the format above).
bool is_valid_id(std::string_view id);

// A list file, read into memory. Edits change the copy; save() writes it back.
// Not thread-safe; one process editing a file at a time is ensured by ListLock.
class ReadingList {
 public:
  // The bounds of a list. 100,000 entries with their titles as notes take
  // about 15 MB; every command holds the whole list in memory (search and
  // suggest hand every id to the library), so a file past these bounds is far
  // more likely the wrong file than a reading list, and is refused before it
  // costs more than its own size in memory.
  static constexpr std::size_t kMaxBytes = 16 << 20;
  static constexpr std::size_t kMaxLineBytes = 1 << 20;  // as `abstracts index` reads lines
  static constexpr std::size_t kMaxIds = 100'000;

  // Reads the list in `file` as it streams; a file that does not exist is an
  // empty list. Throws abstracts::InputError (naming the file, and the 1-based
  // line when one is at fault) for a file that is not a regular file, is over
  // kMaxBytes or kMaxIds, has a line over kMaxLineBytes, a NUL byte, bytes that
  // are not UTF-8, or a line that is not an id; abstracts::Error when the file
  // cannot be read. Blank and comment lines cost their bytes and no more.
  static ReadingList load(const std::filesystem::path& file);

  // The ids, in the order they stand in the file.
  const std::vector<std::string>& ids() const { return ids_; }
  bool contains(std::string_view id) const;
  const std::filesystem::path& file() const { return file_; }

  // Appends `id` (which must be valid) with `note` as its comment (made one
  // line of visible text). Returns false, changing nothing, when the id is
  // already on the list. Throws abstracts::Error, changing nothing, when the
  // list holds kMaxIds ids.
  bool add(const std::string& id, std::string_view note = {});

  // Removes the line of `id`. Returns false when the id is not on the list.
  bool remove(std::string_view id);

  // Writes the list to its file atomically: to a temporary file in the same
  // directory, flushed to disk, then renamed over the old file (whose
  // permissions it keeps; through a symbolic link, the link's target is
  // replaced). A crash leaves either the old or the new list, never a mix.
  // Creates the directory if needed. Throws abstracts::Error on failure, and
  // when the list would be over kMaxBytes, with the old file untouched and no
  // temporary file left behind.
  void save() const;

 private:
  // A line holding an id, with the comment and blank lines above it.
  struct IdLine {
    std::string before;  // those lines, each with its '\n': a blank line is one byte
    std::string text;    // the id's line as read or written, without its line break
  };

  // Takes in line `number` of the file (without its line break).
  void read_line(std::string& text, std::size_t number);

  std::filesystem::path file_;
  std::vector<IdLine> lines_;  // lines_[i] holds ids_[i]
  std::string tail_;           // the comment and blank lines after the last id
  std::vector<std::string> ids_;
  std::unordered_set<std::string> id_set_;
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
