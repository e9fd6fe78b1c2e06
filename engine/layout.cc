#include "engine/layout.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string_view>

#include "abstracts/error.h"
#include "engine/analysis/unicode_text.h"
#include "engine/neighbours.h"
#include "engine/tiers.h"

namespace abstracts::layout {
namespace fs = std::filesystem;

namespace {

constexpr const char* kStub = "XAPIANDB";
constexpr const char* kLock = "writer.lock";
constexpr std::string_view kGenerationPrefix = "gen-";
constexpr std::string_view kTempPrefix = "tmp-";

void fsync_path(const fs::path& p, int flags) {
  int fd = ::open(p.c_str(), flags | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

// "gen-" and six or more digits: a generation's directory name, and nothing else.
bool is_generation_name(std::string_view name) {
  if (!name.starts_with(kGenerationPrefix)) return false;
  std::string_view digits = name.substr(kGenerationPrefix.size());
  if (digits.size() < 6 || digits.size() > 12) return false;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

[[noreturn]] void damaged_stub(const fs::path& dir, const std::string& what) {
  throw CorruptIndex("the index at " + dir.string() + " is damaged: its stub file " + (dir / kStub).string() +
                         " " + what,
                     "delete " + dir.string() + " and build it again with abstracts::Writer");
}

// The generation the stub names ("glass gen-000002" -> "gen-000002"), or "" if
// there is no stub. The stub is followed only to a generation inside `dir`:
// Xapian's own stub syntax could name any database, another program's included
// ("remote :PROGRAM"), so anything but this one line is a CorruptIndex error.
std::string read_stub(const fs::path& dir) {
  constexpr std::size_t kMaxStub = 256;
  const fs::path stub = dir / kStub;
  std::error_code ec;
  if (!fs::exists(stub, ec)) return {};
  std::ifstream in(stub, std::ios::binary);
  if (!in) throw Error("cannot read " + stub.string() + ": " + std::strerror(errno));
  std::string text(kMaxStub + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.empty()) damaged_stub(dir, "is empty");
  std::string_view line(text);
  if (line.ends_with('\n')) line.remove_suffix(1);
  constexpr std::string_view kBackend = "glass ";
  if (!line.starts_with(kBackend) || !is_generation_name(line.substr(kBackend.size()))) {
    damaged_stub(dir, "should name the current generation (\"glass gen-NNNNNN\") but holds " + shown(text));
  }
  return std::string(line.substr(kBackend.size()));
}

}  // namespace

std::string shown(std::string_view text) {
  constexpr std::size_t kMaxShown = 80;
  std::string out = "\"";
  auto escape = [&](unsigned char c) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", c);
    out += hex;
  };
  std::size_t i = 0;
  while (i < text.size() && i < kMaxShown) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) {
        escape(c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // A character of several bytes, whole and valid, is kept; else its first byte is escaped.
    const std::size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    const std::string_view one = text.substr(i, n);
    if (n > 1 && one.size() == n && analysis::find_invalid_utf8(one) == std::string_view::npos) {
      out += one;
      i += n;
    } else {
      escape(c);
      ++i;
    }
  }
  if (i < text.size()) out += "...";
  return out + "\"";
}

bool has_index(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kStub, ec);
}

void reject_flat_layout(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / "iamglass", ec)) return;
  throw CorruptIndex("the index at " + dir.string() + " was written by an older version of abstracts",
                     "delete " + dir.string() + " and build it again with abstracts::Writer");
}

fs::path current_generation(const fs::path& dir) {
  std::string name = read_stub(dir);
  if (name.empty()) {
    throw IndexNotFound("no index at " + dir.string(),
                        "build one with abstracts::Writer (Writer::open creates it)");
  }
  // A real directory: a link named like a generation could lead anywhere.
  std::error_code ec;
  if (fs::symlink_status(dir / name, ec).type() != fs::file_type::directory) {
    damaged_stub(dir, "names " + name + ", which is not a directory in it");
  }
  return dir / name;
}

std::uintmax_t size_on_disk(const fs::path& dir) {
  const fs::path generation = current_generation(dir);
  std::error_code ec;
  std::uintmax_t bytes = fs::file_size(dir / kStub, ec);
  if (ec) bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(generation, ec)) {
    if (e.is_regular_file(ec)) {
      const std::uintmax_t size = e.file_size(ec);
      if (!ec) bytes += size;
    }
  }
  return bytes;
}

fs::path next_generation(const fs::path& dir) {
  std::string name = read_stub(dir);
  unsigned long n = 0;
  if (!name.empty()) n = std::strtoul(name.c_str() + kGenerationPrefix.size(), nullptr, 10);
  char next[32];
  std::snprintf(next, sizeof next, "gen-%06lu", n + 1);
  return dir / next;
}

void publish(const fs::path& dir, const fs::path& generation) {
  const fs::path tmp = dir / (std::string(kStub) + ".tmp");
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << "glass " << generation.filename().string() << '\n';
    out.flush();
    if (!out) throw Error("cannot write " + tmp.string() + ": " + std::strerror(errno));
  }
  fsync_path(tmp, O_RDONLY);
  fs::rename(tmp, dir / kStub);
  fsync_path(dir, O_RDONLY | O_DIRECTORY);
}

StubVersion stub_version(const fs::path& dir) {
  struct stat st {};
  if (::stat((dir / kStub).c_str(), &st) != 0) return {};
  return {st.st_ino, static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec};
}

void remove_stale(const fs::path& dir) {
  std::string current = read_stub(dir);
  std::error_code ec;
  if (!current.empty()) {
    // What a writer killed while building the generation's side files left.
    fs::remove_all(tiers::building_path(dir / current), ec);
    fs::remove(neighbours::building_path(dir / current), ec);
  }
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    bool stale_generation = !current.empty() && name.rfind(kGenerationPrefix, 0) == 0 && name != current;
    // A temporary folder being made has a '.' before its name (scratch::Folder::make).
    const bool temporary = std::string_view(name).substr(name.starts_with('.') ? 1 : 0).starts_with(kTempPrefix);
    if (stale_generation || temporary) fs::remove_all(entry.path(), ec);
  }
}

scratch::Folder make_temp_dir(const fs::path& dir) {
  return scratch::Folder::make(dir, kTempPrefix, "make room on the disk of " + dir.string());
}

scratch::Folder new_generation(const fs::path& dir) {
  const fs::path path = next_generation(dir);
  std::error_code ec;
  fs::remove_all(path, ec);  // a crash's, never published
  if (::mkdir(path.c_str(), 0700) != 0) {
    throw Error("cannot make " + path.string() + ": " + std::strerror(errno),
                "make room on the disk of " + dir.string());
  }
  return scratch::Folder(path);
}

WriterLock::WriterLock(const fs::path& dir) {
  const fs::path path = dir / kLock;
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error("cannot open " + path.string() + ": " + std::strerror(errno));
  // An open-file-description lock: a second Writer conflicts even in the same process.
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  if (::fcntl(fd_, F_OFD_SETLK, &lock) != 0) {
    int err = errno;
    ::close(fd_);
    fd_ = -1;
    if (err == EAGAIN || err == EACCES) {
      throw IndexLocked("the index at " + dir.string() + " is locked by another writer",
                        "wait until the other abstracts::Writer on it, in this process or another, is destroyed");
    }
    throw Error("cannot lock " + path.string() + ": " + std::strerror(err));
  }
}

WriterLock::~WriterLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the description releases the lock
}

}  // namespace abstracts::layout
