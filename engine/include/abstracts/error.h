// The one exception hierarchy of the public API. Xapian, ICU and zlib errors are
// translated into these in one place; no other exception type leaves the library
// (except std::bad_alloc).
#ifndef ABSTRACTS_ERROR_H_
#define ABSTRACTS_ERROR_H_

#include <cstddef>
#include <stdexcept>
#include <string>

namespace abstracts {

// Base of every error the library throws. what() is one line for the user;
// hint() is an optional second line saying what to do about it (may be empty).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, std::string hint = {});
  const std::string& hint() const noexcept { return hint_; }

 private:
  std::string hint_;
};

// There is no index at the given directory (or it is not a Xapian database).
class IndexNotFound : public Error {
 public:
  using Error::Error;
};

// Another writer holds the index's write lock. Nothing was changed.
class IndexLocked : public Error {
 public:
  using Error::Error;
};

// The index exists but cannot be read: damaged files, or written by an
// incompatible version of abstracts (the hint says how to rebuild it).
class CorruptIndex : public Error {
 public:
  using Error::Error;
};

// The query cannot be parsed. column() is the 1-based position (in characters)
// of the offending part of the query.
class QueryError : public Error {
 public:
  QueryError(const std::string& message, std::size_t column, std::string hint = {});
  std::size_t column() const noexcept { return column_; }

 private:
  std::size_t column_;
};

// An input file cannot be indexed: unreadable, not UTF-8, not in a known format.
// file() names it; line() is the 1-based line at fault, or 0 for the whole file.
// The index is left as it was before the file was read.
class InputError : public Error {
 public:
  InputError(const std::string& message, std::string file, std::size_t line,
             std::string hint = {});
  const std::string& file() const noexcept { return file_; }
  std::size_t line() const noexcept { return line_; }

 private:
  std::string file_;
  std::size_t line_;
};

// A shard of a cluster (docs/scale-out.md) could not be reached, or did not
// answer within the cluster's timeout. shard() names it as the cluster file
// does ("10.0.0.2:33333", or a local shard's path).
class ShardUnavailable : public Error {
 public:
  ShardUnavailable(const std::string& message, std::string shard, std::string hint = {});
  const std::string& shard() const noexcept { return shard_; }

 private:
  std::string shard_;
};

}  // namespace abstracts

#endif  // ABSTRACTS_ERROR_H_
