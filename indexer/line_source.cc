#include "indexer/line_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "abstracts/error.h"
#include "engine/analysis/unicode_text.h"

namespace abstracts::indexer {

LineSource::LineSource(const std::filesystem::path& file) : name_(file.string()) {
    // Only a regular file has an end: a device (/dev/zero), FIFO or socket could
    // be read forever or block. O_NONBLOCK keeps the open of a FIFO from waiting
    // for a writer; fstat then says what was opened.
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw InputError("cannot read " + name_ + ": " + std::strerror(errno), name_, 0);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      throw InputError(name_ + ": " + (S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file"), name_, 0,
                       "give files of abstracts, or folders of them");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    // gzdopen reads plain files transparently, so one path serves both.
    gz_ = gzdopen(fd, "rb");
    if (gz_ == nullptr) {
      ::close(fd);
      throw InputError("cannot read " + name_ + ": " + std::strerror(errno), name_, 0);
    }
    gzbuffer(gz_, 1 << 17);
  }

LineSource::~LineSource() {
  if (gz_ != nullptr) gzclose(gz_);
}

bool LineSource::next(std::string& line) {
  if (!put_back_.empty()) {
    line = std::move(put_back_.back().text);
    number_ = put_back_.back().number;
    continues_ = put_back_.back().continues;
    put_back_.pop_back();
    return true;
  }
  const bool first_piece = !continues_;
  // assign, not swap: `line` keeps its buffer, so a line costs no allocation.
  line.assign(carry_);
  carry_.clear();
  bool any = !line.empty(), piece = false;
  while (true) {
    if (pos_ == end_ && !fill()) break;
    any = true;
    const char* start = buf_.data() + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - pos_));
    std::size_t n = nl != nullptr ? static_cast<std::size_t>(nl - start) + 1 : end_ - pos_;
    if (long_lines_ && line.size() + n > kMaxLineBytes) {
      n = kMaxLineBytes - line.size();
      piece = true;
    }
    line.append(start, n);
    pos_ += n;
    if (piece) break;
    if (line.size() > kMaxLineBytes) {
      throw InputError(where(read_ + 1) + ": line longer than 1 MiB", name_, read_ + 1,
                       "is this really a file of abstracts?");
    }
    if (nl != nullptr) break;
  }
  if (!any) return false;
  if (piece) {
    // A character cut short at the piece's end goes to the next piece whole,
    // so that each piece is UTF-8 by itself.
    std::size_t lead = line.size();
    while (lead > 0 && line.size() - lead < 4 && (static_cast<unsigned char>(line[lead - 1]) & 0xC0) == 0x80) --lead;
    if (lead > 0) {
      const auto c = static_cast<unsigned char>(line[lead - 1]);
      const std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      if (line.size() - (lead - 1) < length) {
        carry_ = line.substr(lead - 1);
        line.resize(lead - 1);
      }
    }
    number_ = read_ + 1;
  } else {
    number_ = ++read_;
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (!line.empty() && line.back() == '\r') line.pop_back();
  }
  continues_ = piece;
  if (number_ == 1 && first_piece && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
  // A NUL byte is no text: it would cut the line short wherever text is a C string.
  if (auto nul = line.find('\0'); nul != std::string::npos) {
    throw InputError(where(number_) + ": a NUL byte (byte " + std::to_string(nul + 1) + " of the line)", name_,
                     number_, "is this a binary file, or text in UTF-16? Convert it to UTF-8");
  }
  if (auto bad = analysis::find_invalid_utf8(line); bad != std::string::npos) {
    throw InputError(where(number_) + ": not valid UTF-8 (byte " + std::to_string(bad + 1) +
                         " of the line)",
                     name_, number_, "convert the file to UTF-8, e.g. with iconv -f latin1 -t utf-8");
  }
  return true;
}

void LineSource::put_back(std::vector<Line> lines) {
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) put_back_.push_back(std::move(*it));
}

// Reads the next block of (decompressed) bytes; false at the end of the file.
bool LineSource::fill() {
  const int n = gzread(gz_, buf_.data(), static_cast<unsigned>(buf_.size()));
  if (n > 0) {
    pos_ = 0;
    end_ = static_cast<std::size_t>(n);
    return true;
  }
  int err = Z_OK;
  const char* msg = gzerror(gz_, &err);
  // Z_BUF_ERROR at the end of compressed data: the file was cut short.
  if (err == Z_BUF_ERROR && gzdirect(gz_) == 0) {
    throw InputError(name_ + ": compressed data ends too early (after line " + std::to_string(read_) + ")",
                     name_, read_ + 1, "the file is truncated; fetch or compress it again");
  }
  if (n < 0 || (err != Z_OK && err != Z_BUF_ERROR)) {
    throw InputError(name_ + ": cannot read: " + msg, name_, read_ + 1);
  }
  return false;
}

std::vector<std::string> split_list(std::string_view text, std::string_view separators, std::size_t most) {
  std::vector<std::string> items;
  for (std::size_t i = 0; i <= text.size() && items.size() < most;) {
    const auto end = std::min(text.size(), text.find_first_of(separators, i));
    if (const auto item = trim(text.substr(i, end - i)); !item.empty()) items.emplace_back(item);
    i = end + 1;
  }
  return items;
}

}  // namespace abstracts::indexer
