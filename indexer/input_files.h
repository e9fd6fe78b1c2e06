// The files an index run reads: how the Writer finds them below a folder, names
// them, and measures them for progress.
#ifndef ABSTRACTS_INDEXER_INPUT_FILES_H_
#define ABSTRACTS_INDEXER_INPUT_FILES_H_

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "abstracts/error.h"

namespace abstracts::indexer {

// The name a file is indexed under (its XF term, the key of its state): `p` made
// absolute and normal, with the symbolic links that exist resolved, however the
// user spelled it ("dir", "dir/", "./dir").
std::string absolute_path(const std::filesystem::path& p);

// Throws InputError unless `file` is a regular file (symbolic links followed): a
// device (/dev/zero), a FIFO or a socket could be read forever, or block.
void require_regular_file(const std::filesystem::path& file);

// What a folder holds for indexing.
struct FolderContents {
  // The regular, non-hidden files below the folder, in name order.
  std::vector<std::filesystem::path> files;
  // The folders below it that could not be read: what the index has from them
  // must stay, since nobody can tell whether it is still there.
  std::vector<std::filesystem::path> unreadable;
};

// The files below `dir`, recursively; hidden files and folders are left out, and
// so are devices, FIFOs and sockets. A folder that cannot be read goes to
// `on_error` (as an InputError naming it) and into `unreadable`; a symbolic link
// that loops or leads nowhere goes to `on_warning` and is left out. Throws
// InputError if `dir` itself cannot be read.
FolderContents files_below(const std::filesystem::path& dir,
                           const std::function<void(const InputError&)>& on_error,
                           const std::function<void(const InputError&)>& on_warning);

// Whether `file` is an editor's or a merge tool's leftover ("notes.bib~",
// "#notes.bib#", ".swp", ".bak", ".orig"): a folder's walk leaves it out.
bool is_backup(const std::filesystem::path& file);

// The bytes of `files` on disk, for progress.
std::uint64_t bytes_of(const std::vector<std::filesystem::path>& files);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_INPUT_FILES_H_
