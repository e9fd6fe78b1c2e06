#include "indexer/reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "abstracts/error.h"
#include "engine/analysis/unicode_text.h"

namespace abstracts::indexer {
namespace {

constexpr std::size_t kMaxLineBytes = 1 << 20;

// Lines of a plain or gzip-compressed file, numbered from 1, without "\n" or "\r\n".
class LineSource {
 public:
  explicit LineSource(const std::filesystem::path& file) : name_(file.string()) {
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
  ~LineSource() {
    if (gz_ != nullptr) gzclose(gz_);
  }
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  // Reads the next line into `line`; false at the end of the file.
  bool next(std::string& line) {
    line.clear();
    bool any = false;
    while (true) {
      if (pos_ == end_ && !fill()) break;
      any = true;
      const char* start = buf_.data() + pos_;
      const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - pos_));
      const std::size_t n = nl != nullptr ? static_cast<std::size_t>(nl - start) + 1 : end_ - pos_;
      line.append(start, n);
      pos_ += n;
      if (line.size() > kMaxLineBytes) {
        throw InputError(where(number_ + 1) + ": line longer than 1 MiB", name_, number_ + 1,
                         "is this really a file of abstracts?");
      }
      if (nl != nullptr) break;
    }
    if (!any) return false;
    ++number_;
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number_ == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
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

  std::uint32_t number() const { return number_; }
  std::uint64_t offset() const { return static_cast<std::uint64_t>(gzoffset(gz_)); }
  const std::string& name() const { return name_; }
  std::string where(std::uint32_t line) const { return name_ + ":" + std::to_string(line); }

 private:
  // Reads the next block of (decompressed) bytes; false at the end of the file.
  bool fill() {
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
      throw InputError(name_ + ": compressed data ends too early (after line " + std::to_string(number_) + ")",
                       name_, number_ + 1, "the file is truncated; fetch or compress it again");
    }
    if (n < 0 || (err != Z_OK && err != Z_BUF_ERROR)) {
      throw InputError(name_ + ": cannot read: " + msg, name_, number_ + 1);
    }
    return false;
  }

  std::string name_;
  gzFile gz_ = nullptr;
  std::vector<char> buf_ = std::vector<char>(1 << 16);
  std::size_t pos_ = 0, end_ = 0;  // the unread bytes of buf_
  std::uint32_t number_ = 0;
};

bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\f\v") == std::string_view::npos; }

std::string_view trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t\f\v");
  if (b == std::string_view::npos) return {};
  auto e = s.find_last_not_of(" \t\f\v");
  return s.substr(b, e - b + 1);
}

// "NeurIPS 2026 Papers" -> ("NeurIPS", 2026): the venue is what comes before a
// four-digit year.
bool parse_header(std::string_view header, std::string& venue, int& year) {
  // A header is a short label, not a sentence: "Since 2017, transformers ..." is
  // an abstract, and taking it for a header would lose it.
  if (header.size() > 120 || header.back() == '.' || header.find(", ") != std::string_view::npos) {
    return false;
  }
  for (std::size_t i = 0; i + 4 <= header.size(); ++i) {
    bool digits = true;
    for (std::size_t k = 0; k < 4; ++k) digits = digits && std::isdigit(static_cast<unsigned char>(header[i + k]));
    bool word_start = i == 0 || header[i - 1] == ' ';
    bool word_end = i + 4 == header.size() || !std::isalnum(static_cast<unsigned char>(header[i + 4]));
    if (!digits || !word_start || !word_end) continue;
    int y = std::stoi(std::string(header.substr(i, 4)));
    venue = std::string(trim(header.substr(0, i)));
    auto words = [](std::string_view s) {
      std::size_t n = 0;
      for (std::size_t k = 0; k < s.size(); ++k) n += s[k] != ' ' && (k == 0 || s[k - 1] == ' ');
      return n;
    };
    // "<Venue> <Year>", then at most three words ("Papers", "Accepted Papers").
    if (y < 1900 || y > 2199 || venue.empty() || words(venue) > 6 || words(header.substr(i + 4)) > 3) {
      return false;
    }
    year = y;
    return true;
  }
  return false;
}

class TextReader : public Reader {
 public:
  TextReader(std::unique_ptr<LineSource> src, const std::string& header) : src_(std::move(src)) {
    format_ = Format::kAbstractsText;
    if (!parse_header(trim(header), venue_, year_)) {
      throw InputError(src_->where(src_->number()) +
                           ": missing header line naming the venue and year",
                       src_->name(), src_->number(),
                       "the first line of a file of abstracts names venue and year, "
                       "like 'NeurIPS 2026 Papers'");
    }
  }

  std::optional<Record> next() override {
    while (src_->next(line_)) {
      std::string_view text = trim(line_);
      if (text.empty()) continue;
      return Record{{}, {}, std::string(text), src_->number()};
    }
    return std::nullopt;
  }

  std::uint64_t bytes_read() const override { return src_->offset(); }

 private:
  std::unique_ptr<LineSource> src_;
  std::string line_;
};

class JsonLinesReader : public Reader {
 public:
  JsonLinesReader(std::unique_ptr<LineSource> src, std::string first)
      : src_(std::move(src)), pending_(std::move(first)), has_pending_(true) {
    format_ = Format::kJsonLines;
  }

  std::optional<Record> next() override {
    while (true) {
      if (has_pending_) {
        has_pending_ = false;
      } else if (!src_->next(pending_)) {
        return std::nullopt;
      }
      if (is_blank(pending_)) continue;
      Record r = parse(pending_);
      if (r.raw_text.empty() && r.title.empty()) {
        ++skipped_;  // an empty record (Cranfield has two) holds nothing to search
        continue;
      }
      return r;
    }
  }

  std::uint64_t bytes_read() const override { return src_->offset(); }

 private:
  Record parse(const std::string& line) const {
    const auto n = src_->number();
    auto fail = [&](const std::string& what) {
      return InputError(src_->where(n) + ": " + what, src_->name(), n,
                        "each line of a JSON Lines file is an object like "
                        "{\"_id\": \"...\", \"title\": \"...\", \"text\": \"...\"}");
    };
    nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) throw fail("not valid JSON");
    if (!j.is_object()) throw fail("not a JSON object");
    Record r;
    r.line = n;
    auto id = j.find("_id");
    if (id == j.end()) throw fail("no \"_id\"");
    if (id->is_string()) {
      r.id = id->get<std::string>();
    } else if (id->is_number_integer()) {
      r.id = std::to_string(id->get<long long>());
    } else {
      throw fail("\"_id\" is neither a string nor an integer");
    }
    if (r.id.empty() || r.id.size() > 200) throw fail("\"_id\" is empty or longer than 200 bytes");
    auto text = j.find("text");
    if (text != j.end() && text->is_string()) r.raw_text = text->get<std::string>();
    auto title = j.find("title");
    if (title != j.end() && title->is_string()) r.title = title->get<std::string>();
    return r;
  }

  std::unique_ptr<LineSource> src_;
  std::string pending_;
  bool has_pending_;
};

}  // namespace

std::unique_ptr<Reader> Reader::open(const std::filesystem::path& file) {
  auto src = std::make_unique<LineSource>(file);
  std::string first;
  while (src->next(first)) {
    if (is_blank(first)) continue;
    if (trim(first).front() == '{') return std::make_unique<JsonLinesReader>(std::move(src), first);
    return std::make_unique<TextReader>(std::move(src), first);
  }
  throw InputError(src->name() + ": empty file", src->name(), 0,
                   "a file of abstracts starts with a header line like 'NeurIPS 2026 Papers'");
}

std::vector<Record> read_all(const std::filesystem::path& file) {
  auto reader = Reader::open(file);
  std::vector<Record> records;
  while (auto r = reader->next()) records.push_back(std::move(*r));
  return records;
}

}  // namespace abstracts::indexer
