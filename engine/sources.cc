#include "engine/sources.h"

#include <charconv>

namespace abstracts {

const char* to_string(Source::Kind kind) {
  switch (kind) {
    case Source::Kind::kFolder:
      return "folder";
    case Source::Kind::kDemo:
      return "demo";
    case Source::Kind::kZotero:
      return "zotero";
    case Source::Kind::kFile:
      break;
  }
  return "file";
}

namespace sources {
namespace {

// Fields of a value, and globs among them, are separated as in the stored
// abstract (engine/schema.cc): characters no path or glob a user types holds.
constexpr char kSep = '\x1f';
constexpr char kListSep = '\x1e';

// `glob` against `text`, both without '/' unless `**` lets it cross them.
bool match(std::string_view glob, std::string_view text) {
  if (glob.empty()) return text.empty();
  if (glob.starts_with("**")) {
    std::string_view rest = glob.substr(2);
    if (rest.starts_with('/')) rest.remove_prefix(1);
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if ((i == 0 || text[i - 1] == '/') && match(rest, text.substr(i))) return true;
    }
    return rest.empty();
  }
  switch (glob[0]) {
    case '*':
      for (std::size_t i = 0; i <= text.size(); ++i) {
        if (match(glob.substr(1), text.substr(i))) return true;
        if (i < text.size() && text[i] == '/') return false;
      }
      return false;
    case '?':
      return !text.empty() && text[0] != '/' && match(glob.substr(1), text.substr(1));
    case '[': {
      const auto close = glob.find(']', 2);
      if (close == std::string_view::npos || text.empty()) break;  // a '[' with no ']' is itself
      std::string_view set = glob.substr(1, close - 1);
      const bool negated = set.starts_with('!') || set.starts_with('^');
      if (negated) set.remove_prefix(1);
      bool in = false;
      for (std::size_t i = 0; i < set.size(); ++i) {
        if (i + 2 < set.size() && set[i + 1] == '-') {
          in = in || (text[0] >= set[i] && text[0] <= set[i + 2]);
          i += 2;
        } else {
          in = in || text[0] == set[i];
        }
      }
      return in != negated && text[0] != '/' && match(glob.substr(close + 1), text.substr(1));
    }
    case '\\':
      if (glob.size() > 1) return !text.empty() && text[0] == glob[1] && match(glob.substr(2), text.substr(1));
      break;
  }
  return !text.empty() && text[0] == glob[0] && match(glob.substr(1), text.substr(1));
}

}  // namespace

std::string key(std::string_view absolute_path) {
  std::string k(kKeyPrefix);
  k.append(absolute_path);
  return k;
}

std::string encode(const Source& s) {
  std::string out = to_string(s.kind);
  out += kSep;
  out += std::to_string(s.last_sync);
  out += kSep;
  for (std::size_t i = 0; i < s.globs.size(); ++i) {
    if (i != 0) out += kListSep;
    out += s.globs[i];
  }
  return out;
}

std::optional<Source> decode(std::string_view absolute_path, std::string_view value) {
  Source s;
  s.path = std::string(absolute_path);
  const auto first = value.find(kSep), second = value.find(kSep, first == value.npos ? value.npos : first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  const std::string_view kind = value.substr(0, first), time = value.substr(first + 1, second - first - 1);
  if (kind == "folder") {
    s.kind = Source::Kind::kFolder;
  } else if (kind == "demo") {
    s.kind = Source::Kind::kDemo;
  } else if (kind == "zotero") {
    s.kind = Source::Kind::kZotero;
  } else if (kind != "file") {
    return std::nullopt;
  }
  std::from_chars(time.data(), time.data() + time.size(), s.last_sync);
  for (std::string_view globs = value.substr(second + 1); !globs.empty();) {
    const auto end = globs.find(kListSep);
    s.globs.emplace_back(globs.substr(0, end));
    globs = end == std::string_view::npos ? std::string_view() : globs.substr(end + 1);
  }
  return s;
}

std::vector<Source> of(const Xapian::Database& db) {
  std::vector<Source> out;
  const std::string prefix(kKeyPrefix);
  for (auto k = db.metadata_keys_begin(prefix); k != db.metadata_keys_end(prefix); ++k) {
    if (auto s = decode(std::string_view(*k).substr(prefix.size()), db.get_metadata(*k))) out.push_back(std::move(*s));
  }
  return out;
}

bool passes_globs(const std::vector<std::string>& globs, std::string_view relative) {
  std::optional<bool> verdict;
  bool any_include = false;
  for (std::string_view glob : globs) {
    const bool exclude = glob.starts_with('!');
    if (exclude) glob.remove_prefix(1);
    any_include = any_include || !exclude;
    bool matched;
    if (glob.find('/') != std::string_view::npos) {
      if (glob.starts_with('/')) glob.remove_prefix(1);
      matched = match(glob, relative);
      // An excluded folder excludes what is below it.
      for (std::size_t at = relative.find('/'); exclude && !matched && at != std::string_view::npos;
           at = relative.find('/', at + 1)) {
        matched = match(glob, relative.substr(0, at));
      }
    } else {
      const auto slash = relative.rfind('/');
      matched = match(glob, slash == std::string_view::npos ? relative : relative.substr(slash + 1));
      for (std::size_t start = 0, at; exclude && !matched && (at = relative.find('/', start)) != std::string_view::npos;
           start = at + 1) {
        matched = match(glob, relative.substr(start, at - start));
      }
    }
    if (matched) verdict = !exclude;
  }
  return verdict.value_or(!any_include);
}

bool is_below(std::string_view path, std::string_view folder) {
  if (folder.ends_with('/')) folder.remove_suffix(1);
  return path == folder || (path.starts_with(folder) && path.size() > folder.size() && path[folder.size()] == '/');
}

bool yields(const Source& source, std::string_view path) {
  const std::string root = source.path.string();
  if (source.kind == Source::Kind::kFile || source.kind == Source::Kind::kZotero) return path == root;
  if (!is_below(path, root) || path.size() == root.size()) return false;
  std::string_view relative = path.substr(root.size());
  while (relative.starts_with('/')) relative.remove_prefix(1);
  for (std::size_t start = 0; start < relative.size();) {
    if (relative[start] == '.') return false;  // hidden
    const auto at = relative.find('/', start);
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return passes_globs(source.globs, relative);
}

}  // namespace sources
}  // namespace abstracts
