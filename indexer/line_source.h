// The lines of an input file, as every reader sees them: decompressed, checked
// to be UTF-8, numbered; and the small text helpers the readers share.
#ifndef ABSTRACTS_INDEXER_LINE_SOURCE_H_
#define ABSTRACTS_INDEXER_LINE_SOURCE_H_

#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace abstracts::indexer {

// No line of an input file may be longer, unless it is read in pieces
// (LineSource::allow_long_lines): then it is the size of a piece, and of a
// record of the text format or JSON Lines (a line each).
inline constexpr std::size_t kMaxLineBytes = 1 << 20;

// One line of a file and its 1-based number.
struct Line {
  std::string text;
  std::uint32_t number = 0;
  bool continues = false;  // a piece of a longer line (LineSource::allow_long_lines)
};

// Lines of a plain or gzip-compressed regular file, numbered from 1, without
// "\n" or "\r\n"; a UTF-8 BOM at the start is dropped. Not thread-safe.
// Throws InputError (naming the file and line) for a file that cannot be read
// or is no regular file, a line over kMaxLineBytes, a NUL byte, bytes that are
// not UTF-8, and compressed data cut short.
class LineSource {
 public:
  explicit LineSource(const std::filesystem::path& file);
  ~LineSource();
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  // Reads the next line into `line`; false at the end of the file. Lines given
  // back with put_back() come first.
  bool next(std::string& line);

  // With `allow` true, a line longer than kMaxLineBytes is no error: next()
  // returns it in pieces of at most that size (cut between characters), each
  // with the line's number, and line_continues() says a piece is not the line's
  // last. Every reader reads so (a minified JSON document, or XML, may stand on
  // one line) and bounds memory by record, not by line (reader.h).
  void allow_long_lines(bool allow) { long_lines_ = allow; }

  // True if what next() returned last is a piece of a longer line.
  bool line_continues() const { return continues_; }

  // Gives back lines read ahead (to tell the format), in file order: next()
  // returns them again, with their numbers, before reading on.
  void put_back(std::vector<Line> lines);

  // The number of the line next() returned last.
  std::uint32_t number() const { return number_; }
  // Bytes of the file consumed so far, as stored (compressed, for gzip).
  std::uint64_t offset() const { return static_cast<std::uint64_t>(gzoffset(gz_)); }
  const std::string& name() const { return name_; }
  // "file:line", for error messages.
  std::string where(std::uint32_t line) const { return name_ + ":" + std::to_string(line); }

 private:
  bool fill();

  std::string name_;
  gzFile gz_ = nullptr;
  std::vector<char> buf_ = std::vector<char>(1 << 16);
  std::size_t pos_ = 0, end_ = 0;  // the unread bytes of buf_
  std::uint32_t read_ = 0;         // lines read from the file
  std::uint32_t number_ = 0;       // the number of the line returned last
  std::vector<Line> put_back_;     // lines given back, last first
  bool long_lines_ = false;        // see allow_long_lines()
  bool continues_ = false;         // see line_continues()
  std::string carry_;              // a character cut short at the end of a piece
};

// True if `s` holds nothing but spaces and tabs.
inline bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\f\v") == std::string_view::npos; }

// A record's text with nothing in it: white space of any kind, a value's line breaks too.
inline bool is_empty_text(std::string_view s) {
  return s.find_first_not_of(" \t\f\v\r\n") == std::string_view::npos;
}

// The white space of a value that may span lines (XML text, a name in a list).
inline constexpr std::string_view kSpaceAndLineBreaks = " \t\r\n";

// `s` without the characters of `space` around it (by default the blanks of a line).
inline std::string_view trim(std::string_view s, std::string_view space = " \t\f\v") {
  const auto b = s.find_first_not_of(space);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(space) - b + 1);
}

// The items of a list written as one string ("hep-ph math.CO", "a, b; c"),
// split at any of `separators` and trimmed; empty ones are left out. At most
// `most` (the first).
std::vector<std::string> split_list(std::string_view text, std::string_view separators,
                                    std::size_t most = SIZE_MAX);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_LINE_SOURCE_H_
