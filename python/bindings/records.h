// What searches return, as Python sees it: Abstract, Hit, SearchResult, and the
// citations of abstracts (abstracts.export).
#ifndef ABSTRACTS_PYTHON_BINDINGS_RECORDS_H_
#define ABSTRACTS_PYTHON_BINDINGS_RECORDS_H_

#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>
#include <vector>

#include "abstracts/abstract.h"
#include "abstracts/search.h"

namespace abstracts::python {

// The results of one search: the C++ results less the hits, which are already
// Python objects (so the list is made once, not at each access of .hits).
struct PySearchResult {
  pybind11::list hits;
  std::size_t total = 0;
  bool total_is_exact = false;
  std::size_t indexed = 0;
  std::string suggestion;
  bool corrected = false;
  std::vector<std::string> notes;
};

// Takes the results of a search; needs the GIL.
PySearchResult to_python(SearchResults&& results);

// An Abstract from a dict with the keys of Abstract.to_dict() (all optional but
// "text"; authors and editors as "Family, Given" strings, (family, given)
// pairs or {"family": ..., "given": ...} dicts; "date" as "YYYY[-MM[-DD]]").
// Throws TypeError or ValueError naming the key at fault.
Abstract abstract_from_dict(const pybind11::dict& record);

// Byte offset `byte` of the UTF-8 `text` as an index of the Python str.
std::size_t char_offset(const std::string& text, std::size_t byte);

// Defines the classes Abstract, Hit and SearchResult (read-only values) and the
// function export() in `m`.
void bind_records(pybind11::module_& m);

}  // namespace abstracts::python

#endif  // ABSTRACTS_PYTHON_BINDINGS_RECORDS_H_
