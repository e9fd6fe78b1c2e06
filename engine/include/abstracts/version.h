// What this build of the library is and runs on: for `--version` output and bug
// reports.
#ifndef ABSTRACTS_VERSION_H_
#define ABSTRACTS_VERSION_H_

#include <string>

namespace abstracts {

// The versions of the library and of the libraries it was linked with, as loaded
// at run time. Plain values.
struct VersionInfo {
  std::string library;  // this library, "0.1.0"
  std::string xapian;   // Xapian, "1.4.22"
  std::string icu;      // ICU, "72.1"
  std::string schema;   // the index schema it reads and writes; an index of another is refused
};

// Returns the versions. Thread-safe; throws nothing but std::bad_alloc.
VersionInfo version_info();

}  // namespace abstracts

#endif  // ABSTRACTS_VERSION_H_
