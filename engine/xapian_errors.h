// The one place where Xapian's exceptions become abstracts::Error.
#ifndef ABSTRACTS_ENGINE_XAPIAN_ERRORS_H_
#define ABSTRACTS_ENGINE_XAPIAN_ERRORS_H_

#include <filesystem>
#include <string>
#include <utility>

#include <xapian.h>

#include "abstracts/error.h"

namespace abstracts {

// Rethrows the Xapian error `e`, raised while working on the index in `dir`,
// as the matching abstracts::Error.
[[noreturn]] inline void rethrow_xapian(const Xapian::Error& e, const std::filesystem::path& dir) {
  // Xapian::Error is not polymorphic; get_type() names the most derived class.
  const std::string type = e.get_type();
  const std::string where = dir.string();
  if (type == "DatabaseLockError") {
    throw IndexLocked("the index at " + where + " is locked by another writer",
                      "wait until the other abstracts::Writer on it, in this process or another, is destroyed");
  }
  if (type == "DatabaseNotFoundError") {
    throw IndexNotFound("no index at " + where,
                        "build one with abstracts::Writer (Writer::open creates it)");
  }
  if (type == "DatabaseCorruptError" || type == "DatabaseVersionError" ||
      type == "DatabaseOpeningError") {
    throw CorruptIndex("cannot read the index at " + where + ": " + e.get_msg(),
                       "delete " + where + " and build it again with abstracts::Writer");
  }
  if (type == "DatabaseModifiedError") {
    throw Error("the index at " + where + " kept changing under this read (a writer is committing to it)",
                "try again when the writer has finished");
  }
  throw Error("index error at " + where + ": " + e.get_description());
}

// Runs `f`, translating Xapian errors for the index in `dir`.
template <class F>
auto xapian_try(const std::filesystem::path& dir, F&& f) -> decltype(f()) {
  try {
    return std::forward<F>(f)();
  } catch (const Xapian::Error& e) {
    rethrow_xapian(e, dir);
  }
}

}  // namespace abstracts

#endif  // ABSTRACTS_ENGINE_XAPIAN_ERRORS_H_
