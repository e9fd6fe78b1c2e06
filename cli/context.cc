#include "cli/context.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <unordered_map>

namespace abstracts::cli {
namespace fs = std::filesystem;

namespace {

// A one-line progress bar on stderr: percentage, abstracts, rate and time left.
// Redrawn at most ten times a second; silent unless enabled (a terminal).
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled), start_(Clock::now()) {}

  void update(const IndexProgress& p) {
    if (!enabled_ || p.bytes_total == 0) return;
    auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    double seconds = std::chrono::duration<double>(now - start_).count();
    double fraction = static_cast<double>(p.bytes_done) / static_cast<double>(p.bytes_total);
    double rate = seconds > 0 ? static_cast<double>(p.abstracts) / seconds : 0;
    double left = fraction > 0.01 ? seconds * (1 - fraction) / fraction : 0;
    constexpr int kWidth = 30;
    int filled = static_cast<int>(fraction * kWidth);
    std::fprintf(stderr, "\r[%.*s%*s] %3.0f%%  %llu abstracts  %.0f/s  %d:%02d left \x1b[K",
                 filled, "==============================", kWidth - filled, "", fraction * 100,
                 static_cast<unsigned long long>(p.abstracts), rate, static_cast<int>(left) / 60,
                 static_cast<int>(left) % 60);
    drawn_ = true;
  }

  void clear() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r\x1b[K");
    drawn_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool drawn_ = false;
  Clock::time_point start_;
  Clock::time_point last_{};
};

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
    std::cerr << "abstracts: no index yet at " << dir.string() << "; indexing the bundled corpus ("
              << corpus_dir().string() << ") first\n";
    if (run_indexing(*this, {}, false) != 0) {
      throw Error("could not index the bundled corpus", "see the errors above");
    }
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

std::string escape_controls(std::string_view text) {
  auto is_control = [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  };
  std::string out;
  out.reserve(text.size());
  // Copied in runs between control characters: a hit's text has none, mostly.
  for (auto run = text.begin(); run != text.end();) {
    const auto control = std::find_if(run, text.end(), is_control);
    out.append(run, control);
    if (control == text.end()) break;
    char hex[5];
    std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(*control));
    out += hex;
    run = control + 1;
  }
  return out;
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

std::string count_of(std::size_t n, const char* noun) {
  return std::to_string(n) + ' ' + noun + (n == 1 ? "" : "s");
}

std::size_t run_indexing(const Context& ctx, const std::vector<std::string>& paths, bool quiet, const Shard& shard) {
  std::vector<fs::path> inputs(paths.begin(), paths.end());
  if (inputs.empty()) inputs.push_back(ctx.corpus_dir());
  auto dir = ctx.index_dir();
  std::error_code ec;
  const bool first_run = !fs::exists(dir, ec);
  std::optional<Writer> writer;
  try {
    writer = Writer::open(dir, WriterOptions{shard});
  } catch (const IndexNotFound& e) {  // not a directory: a cluster file, say
    throw Error(e.what(), "give --index a directory; a cluster file is only searched, and each of its "
                          "shards is built with `abstracts index --index SHARD --shard K/N`");
  }
  std::size_t files = 0, changed = 0, abstracts = 0, removed = 0, skipped = 0, rejected = 0,
              failed = 0, gone = 0, others = 0;
  ProgressBar bar(!quiet && isatty(STDERR_FILENO) != 0);
  IndexOptions options;
  options.on_file = [&](const FileReport& r) {
    removed += r.removed;
    if (r.status == FileReport::Status::kRemoved) {
      ++gone;
      return;
    }
    ++files;
    abstracts += r.abstracts;
    skipped += r.skipped;
    rejected += r.rejected;
    others += r.other_shards;
    if (r.status == FileReport::Status::kIndexed) ++changed;
  };
  options.on_error = [&](const std::exception& e) {
    ++failed;
    bar.clear();
    print_error(e, ctx);
  };
  options.on_warning = [&](const std::exception& e) {
    bar.clear();
    std::cerr << "warning: " << escape_controls(e.what()) << '\n';
  };
  options.on_progress = [&](const IndexProgress& p) { bar.update(p); };
  // Nothing to search: leave no empty index behind to be mistaken for one.
  auto remove_new_index = [&] {
    writer.reset();
    fs::remove_all(dir, ec);
  };
  try {
    writer->index(inputs, options);
    writer->commit();
  } catch (...) {  // not one file's fault (those go to on_error): the disk, ICU's data
    bar.clear();
    if (first_run) remove_new_index();
    throw;
  }
  bar.clear();
  if (first_run && failed > 0 && abstracts == 0) {
    remove_new_index();
    if (!quiet) std::cerr << "no index written: nothing could be indexed\n";
    return failed;
  }
  if (!quiet) {
    std::cerr << "indexed " << count_of(files, "file") << " (" << count_of(abstracts, "abstract") << ") into "
              << escape_controls(dir.string()) << ": " << changed << " new or changed, " << files - changed
              << " unchanged, ";
    if (gone > 0) std::cerr << count_of(gone, "file") << " gone, ";
    std::cerr << count_of(removed, "abstract") << " removed";
    if (skipped > 0 || rejected > 0) std::cerr << ", skipped ";
    if (skipped > 0) std::cerr << count_of(skipped, "record") << " without an abstract";
    if (skipped > 0 && rejected > 0) std::cerr << " and ";
    if (rejected > 0) std::cerr << count_of(rejected, "record") << " that could not be read";
    if (shard.count != 0) {
      std::cerr << ", left " << count_of(others, "abstract") << " to the other shards of " << shard.count;
    }
    if (failed > 0) std::cerr << ", " << count_of(failed, "file") << " failed";
    std::cerr << '\n';
  }
  return failed;
}

}  // namespace abstracts::cli
