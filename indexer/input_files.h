// The files an index run reads: how the Writer finds them below a folder, names
// them, and measures them for progress.
#ifndef ABSTRACTS_INDEXER_INPUT_FILES_H_
#define ABSTRACTS_INDEXER_INPUT_FILES_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace abstracts::indexer {

// The name a file is indexed under (its XF term, the key of its state): `p` made
// absolute and normal, with the symbolic links that exist resolved, however the
// user spelled it ("dir", "dir/", "./dir").
std::string absolute_path(const std::filesystem::path& p);

// The regular, non-hidden files below `dir`, in name order; hidden folders are not
// entered. Throws InputError if `dir` cannot be read.
std::vector<std::filesystem::path> files_below(const std::filesystem::path& dir);

// The bytes of `files` on disk, for progress.
std::uint64_t bytes_of(const std::vector<std::filesystem::path>& files);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_INPUT_FILES_H_
