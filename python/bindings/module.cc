// abstracts._abstracts: the extension module under the Python package
// `abstracts` (python/abstracts/__init__.py re-exports it). Built on the public
// C++ API only (engine/include/abstracts/).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "abstracts/version.h"
#include "bindings/bindings.h"
#include "bindings/errors.h"
#include "bindings/records.h"

namespace py = pybind11;

PYBIND11_MODULE(_abstracts, m) {
  m.doc() = "The abstracts search engine: the compiled part of the package `abstracts`.";
  abstracts::python::bind_errors(m);
  abstracts::python::bind_records(m);
  abstracts::python::bind_index(m);
  abstracts::python::bind_writer(m);
  m.def(
      "version_info",
      [] {
        const abstracts::VersionInfo v = abstracts::version_info();
        py::dict d;
        d["library"] = v.library;
        d["xapian"] = v.xapian;
        d["icu"] = v.icu;
        d["schema"] = v.schema;
        return d;
      },
      "The versions of the library, of Xapian and ICU as loaded, and of the index schema.");
  // The bundled corpus of the source tree this module was built from, for
  // Index.default() in a build tree.
  m.attr("source_corpus_dir") = ABSTRACTS_SOURCE_CORPUS_DIR;
}
