#include "cli/context.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <optional>
#include <unordered_map>

#include "cli/escape.h"
#include "cli/indexing.h"

namespace abstracts::cli {
namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

fs::path executable_dir() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

}  // namespace

fs::path Context::index_dir() const {
  if (!index_option.empty()) return index_option;
  if (auto v = env("ABSTRACTS_INDEX"); !v.empty()) return v;
  if (auto v = env("XDG_DATA_HOME"); !v.empty()) return fs::path(v) / "abstracts" / "index";
  if (auto v = env("HOME"); !v.empty()) return fs::path(v) / ".local" / "share" / "abstracts" / "index";
  return fs::path(".abstracts-index");
}

bool Context::index_is_default() const { return index_option.empty() && env("ABSTRACTS_INDEX").empty(); }

fs::path Context::corpus_dir() const {
  if (auto v = env("ABSTRACTS_CORPUS"); !v.empty()) return v;
  std::error_code ec;
  auto installed = executable_dir().parent_path() / ABSTRACTS_INSTALL_CORPUS_DIR;
  if (fs::is_directory(installed, ec)) return installed;
  return ABSTRACTS_SOURCE_CORPUS_DIR;
}

bool Context::use_color() const {
  if (color == "always") return true;
  if (color == "never") return false;
  if (!env("NO_COLOR").empty() || env("TERM") == "dumb") return false;
  return isatty(STDOUT_FILENO) != 0;
}

Index Context::open_index() const {
  auto dir = index_dir();
  std::error_code ec;
  if (index_is_default() && !fs::exists(dir, ec)) {
    std::cerr << "abstracts: no index yet at " << escape_controls(dir.string()) << "; indexing the bundled corpus ("
              << escape_controls(corpus_dir().string()) << ") first\n";
    if (index_demo(*this) != 0) throw Error("could not index the bundled corpus", "see the errors above");
  }
  OpenOptions options;
  options.allow_partial = allow_partial;
  options.on_shard_left_out = [](const ShardUnavailable& e) {
    std::cerr << "warning: " << escape_controls(e.what()) << "; searching the other shards\n";
  };
  return Index::open(dir, options);
}

std::string cli_hint(const Error& e, const Context& ctx) {
  if (dynamic_cast<const IndexLocked*>(&e) != nullptr) {
    return "wait for the other `abstracts index` (or program writing the index) to finish";
  }
  const fs::path dir = ctx.index_dir();
  std::error_code ec;
  if (fs::is_regular_file(dir, ec)) {
    // A cluster file: its errors name the file's line or the shard at fault.
    if (dynamic_cast<const IndexNotFound*>(&e) != nullptr && !e.hint().empty()) {
      return "build each shard the cluster file names with `abstracts index --index SHARD --shard K/N`";
    }
    // A line that is no shard, a shard missing, built wrong or damaged: the
    // library's hints for the last two name its API (WriterOptions{Shard{K, N}},
    // abstracts::Writer), so each gets the CLI's.
    if (dynamic_cast<const CorruptIndex*>(&e) != nullptr) {
      return "a cluster file has a line `remote HOST:PORT` or `auto PATH` for each shard K of N, an index "
             "built with `abstracts index --index SHARD --shard K/N` (docs/scale-out.md)";
    }
    return e.hint();
  }
  const std::string index_command =
      ctx.index_is_default() ? "abstracts index" : "abstracts index --index " + dir.string() + " [PATH...]";
  if (dynamic_cast<const IndexNotFound*>(&e) != nullptr) return "create it with `" + index_command + "`";
  if (dynamic_cast<const CorruptIndex*>(&e) != nullptr && !e.hint().empty()) {
    return "delete " + dir.string() + " and run `" + index_command + "` to rebuild it";
  }
  return e.hint();
}

void print_error(const std::exception& e, const Context& ctx) {
  std::cerr << "error: " << escape_controls(e.what()) << '\n';
  if (const auto* ae = dynamic_cast<const Error*>(&e); ae != nullptr && !cli_hint(*ae, ctx).empty()) {
    std::cerr << "hint: " << escape_controls(cli_hint(*ae, ctx)) << '\n';
  } else if (dynamic_cast<const ShardUnavailable*>(&e) != nullptr) {
    std::cerr << "hint: start the shard's xapian-tcpsrv, or add --allow-partial to search the shards that answer\n";
  }
}

std::string quote_query(std::string_view query) {
  const std::string text = escape_controls(query);
  if (text.find('"') == std::string::npos) return '"' + text + '"';
  // Single quotes, each ' in the text written as the shell's '\''.
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string display_path(const std::string& path) {
  // The command never changes its directory: asked once, not once per hit; and
  // a search's hits come from a few files, each made relative once.
  static const fs::path cwd = [] {
    std::error_code ec;
    fs::path p = fs::current_path(ec);
    return ec ? fs::path() : p;
  }();
  static thread_local std::unordered_map<std::string, std::string> shown;
  if (cwd.empty()) return path;
  auto [it, added] = shown.try_emplace(path);
  if (added) {
    auto rel = fs::path(path).lexically_relative(cwd);
    it->second = rel.empty() || *rel.begin() == ".." ? path : rel.string();
  }
  return it->second;
}

std::string local_time(std::int64_t seconds) {
  const std::time_t t = seconds;
  std::tm tm{};
  localtime_r(&t, &tm);
  char out[32];
  std::strftime(out, sizeof out, "%Y-%m-%d %H:%M", &tm);
  return out;
}

std::string utc_time(std::int64_t seconds) {
  const std::time_t t = seconds;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char out[32];
  std::strftime(out, sizeof out, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return out;
}

std::string count_of(std::size_t n, const char* noun) {
  return std::to_string(n) + ' ' + noun + (n == 1 ? "" : "s");
}

}  // namespace abstracts::cli
