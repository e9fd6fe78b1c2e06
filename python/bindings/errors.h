// The library's exception tree as Python exceptions (abstracts.Error and its
// subclasses), with the same message and hint.
#ifndef ABSTRACTS_PYTHON_BINDINGS_ERRORS_H_
#define ABSTRACTS_PYTHON_BINDINGS_ERRORS_H_

#include <pybind11/pybind11.h>

#include <exception>

namespace abstracts::python {

// Defines abstracts.Error, IndexNotFound, IndexLocked, CorruptIndex,
// QueryError (also a ValueError), InputError and ShardUnavailable in `m`, and
// registers the translator that raises them for the C++ exceptions of the
// same names, and TypeError for pybind11's cast_error (a value the C++ type
// cannot take). Call once, when the module is made.
void bind_errors(pybind11::module_& m);

// The Python exception object for `e` (an instance of the class above that
// matches its C++ type, with .hint and the type's own attributes; a plain
// abstracts.Error for another std::exception). Needs the GIL.
pybind11::object error_object(const std::exception& e);

}  // namespace abstracts::python

#endif  // ABSTRACTS_PYTHON_BINDINGS_ERRORS_H_
