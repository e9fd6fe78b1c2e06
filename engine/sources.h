// The sources of an index (abstracts/source.h) as its metadata keeps them, and
// which files each one yields: shared by the Writer, which syncs them, and the
// Index, which lists them.
#ifndef ABSTRACTS_ENGINE_SOURCES_H_
#define ABSTRACTS_ENGINE_SOURCES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

#include "abstracts/source.h"

namespace abstracts::sources {

// Metadata key of a source: "source:" + its absolute path.
inline constexpr std::string_view kKeyPrefix = "source:";
std::string key(std::string_view absolute_path);

// The value kept under the key: kind, last sync and globs.
std::string encode(const Source& source);
std::optional<Source> decode(std::string_view absolute_path, std::string_view value);

// The sources `db` keeps, in path order.
std::vector<Source> of(const Xapian::Database& db);

// Whether a glob (ripgrep's syntax: `*`, `?`, `[...]`, `**`, a leading `!` to
// exclude) lets through the file at `relative` (below a folder source, with
// '/' between its parts): the last glob that matches decides; with none
// matching, a file passes unless some glob includes (has no `!`). A glob
// without '/' matches a name (an excluding one, any folder's name on the way
// too); one with '/' the path from the folder.
bool passes_globs(const std::vector<std::string>& globs, std::string_view relative);

// Whether `source` yields the file `absolute_path` (absolute and normal): the
// file itself, or a file below the folder, not hidden (no part of the path
// below the folder starts with '.'), through its globs.
bool yields(const Source& source, std::string_view absolute_path);

// Whether `absolute_path` is `folder` or below it.
bool is_below(std::string_view absolute_path, std::string_view folder);

}  // namespace abstracts::sources

#endif  // ABSTRACTS_ENGINE_SOURCES_H_
