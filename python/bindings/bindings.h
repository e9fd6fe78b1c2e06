// The parts of the extension module abstracts._abstracts, one function each,
// called once by module.cc when the module is made.
#ifndef ABSTRACTS_PYTHON_BINDINGS_BINDINGS_H_
#define ABSTRACTS_PYTHON_BINDINGS_BINDINGS_H_

#include <pybind11/pybind11.h>

namespace abstracts::python {

// abstracts.Index, Stats, Acronym (index.cc).
void bind_index(pybind11::module_& m);

// abstracts.Writer, Progress, FileReport, IndexSummary (writer.cc).
void bind_writer(pybind11::module_& m);

}  // namespace abstracts::python

#endif  // ABSTRACTS_PYTHON_BINDINGS_BINDINGS_H_
