#include "cli/indexing.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>

#include "cli/escape.h"

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

// What the run did, file by file, for the summary.
struct Tally {
  std::size_t files = 0, changed = 0, records = 0, removed = 0, skipped_records = 0, rejected = 0, gone = 0,
              others = 0, same_paper = 0, failed = 0;
  std::map<std::string, std::size_t> skipped_files;  // by kind
  std::size_t skipped_total = 0;
};

// The demo sources of the index: the bundled corpus the first search put in.
std::vector<Source> demo_sources(const Writer& writer) {
  std::vector<Source> out;
  for (auto& s : writer.sources()) {
    if (s.kind == Source::Kind::kDemo) out.push_back(std::move(s));
  }
  return out;
}

std::size_t run(const Context& ctx, const IndexRequest& request, bool demo) {
  const fs::path dir = ctx.index_dir();
  std::error_code ec;
  const bool first_run = !fs::exists(dir, ec);
  if (request.paths.empty() && !request.zotero && !demo && first_run && !ctx.index_is_default()) {
    throw Error("nothing to index: " + dir.string() + " is no index yet, and no files or folders were given",
                "give the files or folders to index: `abstracts --index " + dir.string() +
                    " index PATH...`; the bundled demo corpus is at " + ctx.corpus_dir().string());
  }
  std::optional<Writer> writer;
  try {
    writer = Writer::open(dir, WriterOptions{request.shard});
  } catch (const IndexNotFound& e) {  // not a directory: a cluster file, say
    throw Error(e.what(), "give --index a directory; a cluster file is only searched, and each of its "
                          "shards is built with `abstracts index --index SHARD --shard K/N`");
  }
  Tally t;
  ProgressBar bar(!request.quiet && isatty(STDERR_FILENO) != 0);
  IndexOptions options;
  options.globs = request.globs;
  options.demo = demo;
  options.strict = request.strict;
  options.on_file = [&](const FileReport& r) {
    t.removed += r.removed;
    switch (r.status) {
      case FileReport::Status::kRemoved:
        ++t.gone;
        if (request.verbose) std::cerr << "removed " << escape_controls(display_path(r.path.string())) << '\n';
        return;
      case FileReport::Status::kSkipped:
        ++t.skipped_files[r.kind];
        ++t.skipped_total;
        if (request.verbose) {
          bar.clear();
          std::cerr << "skipped " << escape_controls(display_path(r.path.string())) << " (" << r.kind << ")\n";
        }
        return;
      case FileReport::Status::kIndexed:
        ++t.changed;
        break;
      case FileReport::Status::kUnchanged:
        break;
    }
    ++t.files;
    t.records += r.abstracts;
    t.skipped_records += r.skipped;
    t.rejected += r.rejected;
    t.others += r.other_shards;
    t.same_paper += r.same_paper;
    if (request.verbose) {
      bar.clear();
      std::cerr << (r.status == FileReport::Status::kIndexed ? "indexed " : "unchanged ")
                << escape_controls(display_path(r.path.string())) << ": " << count_of(r.abstracts, "record") << '\n';
    }
  };
  options.on_error = [&](const std::exception& e) {
    ++t.failed;
    bar.clear();
    print_error(e, ctx);
  };
  options.on_warning = [&](const std::exception& e) {
    bar.clear();
    std::cerr << "warning: " << escape_controls(e.what()) << '\n';
  };
  options.on_source_gone = [&](const fs::path& path) {
    bar.clear();
    const std::string shown = escape_controls(path.string());
    std::cerr << "warning: " << shown << " is gone: its abstracts left the index; `abstracts"
              << (ctx.index_is_default() ? "" : " --index " + escape_controls(dir.string())) << " forget "
              << shown << "` forgets it\n";
  };
  options.on_progress = [&](const IndexProgress& p) { bar.update(p); };
  // Nothing to search: leave no empty index behind to be mistaken for one.
  auto remove_new_index = [&] {
    writer.reset();
    fs::remove_all(dir, ec);
  };
  try {
    std::vector<fs::path> paths(request.paths.begin(), request.paths.end());
    if (request.zotero) {
      const char* home = std::getenv("HOME");
      const auto database = zotero_database(home != nullptr ? home : "");
      if (!database) {
        throw Error("no Zotero database found (neither in the data directory the Zotero profile's prefs.js "
                    "names nor in ~/Zotero)",
                    "give the database itself: `abstracts index PATH/zotero.sqlite` (Zotero shows its data "
                    "directory under Settings, Advanced, Files and Folders)");
      }
      paths.push_back(*database);
    }
    if (demo) paths = {ctx.corpus_dir()};
    if (paths.empty() && writer->sources().empty()) {
      // The demo corpus goes into a new default index only: one whose sources
      // were forgotten is the user's, and stays empty until given some.
      if (!ctx.index_is_default() || !first_run) {
        throw Error("nothing to index: " + dir.string() + " has no sources" + (first_run ? " yet" : ""),
                    "give the files or folders to index: `abstracts" +
                        (ctx.index_is_default() ? std::string() : " --index " + dir.string()) +
                        " index PATH...`; the bundled demo corpus is at " + ctx.corpus_dir().string());
      }
      paths = {ctx.corpus_dir()};
      options.demo = true;
    }
    if (!paths.empty() && !options.demo && ctx.index_is_default()) {
      // The demo corpus makes way for the user's own files, once.
      std::vector<fs::path> demos;
      for (const auto& s : demo_sources(*writer)) demos.push_back(s.path);
      if (!demos.empty()) {
        const std::size_t left = writer->forget(demos);
        if (!request.quiet) {
          std::cerr << "note: the bundled demo corpus (" << count_of(left, "abstract")
                    << ") left the index, which now holds your own files; `abstracts index "
                    << escape_controls(demos.front().string()) << "` puts it back\n";
        }
      }
    }
    if (paths.empty()) {
      writer->sync(options);
    } else {
      writer->index(paths, options);
    }
    writer->commit();
  } catch (...) {  // not one file's fault (those go to on_error): the disk, ICU's data
    bar.clear();
    if (first_run) remove_new_index();
    throw;
  }
  bar.clear();
  if (first_run && t.failed > 0 && t.records == 0) {
    remove_new_index();
    if (!request.quiet) std::cerr << "no index written: nothing could be indexed\n";
    return t.failed;
  }
  if (!request.quiet) {
    std::cerr << "indexed " << count_of(t.files, "file") << " (" << count_of(t.records, "record") << ") into "
              << escape_controls(dir.string()) << ": " << t.changed << " new or changed, " << t.files - t.changed
              << " unchanged, ";
    if (t.gone > 0) std::cerr << count_of(t.gone, "file") << " gone, ";
    std::cerr << count_of(t.removed, "abstract") << " removed";
    if (t.skipped_records > 0 || t.rejected > 0) std::cerr << ", skipped ";
    if (t.skipped_records > 0) std::cerr << count_of(t.skipped_records, "record") << " without an abstract";
    if (t.skipped_records > 0 && t.rejected > 0) std::cerr << " and ";
    if (t.rejected > 0) std::cerr << count_of(t.rejected, "record") << " that could not be read";
    if (request.shard.count != 0) {
      std::cerr << ", left " << count_of(t.others, "abstract") << " to the other shards of " << request.shard.count;
    }
    if (t.failed > 0) std::cerr << ", " << count_of(t.failed, "file") << " failed";
    if (t.same_paper > 0) std::cerr << ", " << count_of(t.same_paper, "record") << " the same paper as another";
    std::cerr << "; the index holds " << count_of(writer->abstracts(), "abstract") << '\n';
    if (t.skipped_total > 0) {
      std::cerr << "skipped " << count_of(t.skipped_total, "file") << " that "
                << (t.skipped_total == 1 ? "is" : "are") << " no bibliography (";
      // Most first, "other" last.
      std::vector<std::pair<std::string, std::size_t>> kinds(t.skipped_files.begin(), t.skipped_files.end());
      std::stable_sort(kinds.begin(), kinds.end(), [](const auto& x, const auto& y) {
        return std::pair(x.first == "other", y.second) < std::pair(y.first == "other", x.second);
      });
      for (std::size_t i = 0; i < kinds.size(); ++i) std::cerr << (i == 0 ? "" : ", ") << kinds[i].second << ' ' << kinds[i].first;
      std::cerr << ")" << (request.verbose ? "" : "; --verbose lists them") << '\n';
    }
  }
  return t.failed;
}

}  // namespace

std::size_t run_indexing(const Context& ctx, const IndexRequest& request) { return run(ctx, request, false); }

std::size_t index_demo(const Context& ctx) { return run(ctx, IndexRequest{}, true); }

namespace {

std::atomic<bool> stop_requested{false};

extern "C" void request_stop(int) { stop_requested = true; }

}  // namespace

std::size_t run_watch(const Context& ctx, const IndexRequest& request) {
  std::size_t failed = run_indexing(ctx, request);
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  const fs::path dir = ctx.index_dir();
  if (!request.quiet) {
    std::cerr << "watching the sources of " << escape_controls(dir.string()) << " (Ctrl-C stops)\n";
  }
  WatchOptions options;
  options.stop = [] { return stop_requested.load(); };
  options.index.strict = request.strict;
  auto say = [&](const std::string& what) {
    if (!request.quiet) std::cerr << local_time(std::time(nullptr)) << "  " << what << '\n';
  };
  options.index.on_file = [&](const FileReport& r) {
    const std::string path = escape_controls(display_path(r.path.string()));
    switch (r.status) {
      case FileReport::Status::kIndexed:
        say("indexed " + path + " (" + count_of(r.abstracts, "record") + ")");
        break;
      case FileReport::Status::kRemoved:
        say("removed " + path + " (" + count_of(r.removed, "abstract") + " left the index)");
        break;
      case FileReport::Status::kSkipped:
        if (request.verbose) say("skipped " + path + " (" + r.kind + ")");
        break;
      case FileReport::Status::kUnchanged:
        break;
    }
  };
  options.index.on_error = [&](const std::exception& e) {
    ++failed;
    print_error(e, ctx);
  };
  options.index.on_warning = [&](const std::exception& e) {
    std::cerr << "warning: " << escape_controls(e.what()) << '\n';
  };
  options.index.on_source_gone = [&](const fs::path& path) {
    std::cerr << "warning: " << escape_controls(path.string()) << " is gone: its abstracts left the index\n";
  };
  watch(dir, options);
  if (!request.quiet) std::cerr << "stopped watching\n";
  return failed;
}

}  // namespace abstracts::cli
