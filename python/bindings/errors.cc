#include "bindings/errors.h"

#include <pybind11/eval.h>

#include <string>

#include "abstracts/error.h"

namespace py = pybind11;

namespace abstracts::python {
namespace {

// The classes, made once by bind_errors and kept for the module's life (a
// module's exception types live as long as the interpreter).
struct ErrorTypes {
  PyObject* error = nullptr;
  PyObject* index_not_found = nullptr;
  PyObject* index_locked = nullptr;
  PyObject* corrupt_index = nullptr;
  PyObject* query_error = nullptr;
  PyObject* input_error = nullptr;
  PyObject* shard_unavailable = nullptr;
};
ErrorTypes types;

// The classes, in Python: constructors like the C++ ones (message, then what
// the type carries, then the hint), the hint also a note under the traceback.
constexpr const char* kClasses = R"(
class Error(Exception):
    """Base of every error of abstracts. str() is the message; .hint says what
    to do about it ("" if nothing), and is shown under the traceback."""

    def __init__(self, message: str = "", hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint
        if hint:
            self.add_note("hint: " + hint)


class IndexNotFound(Error):
    """There is no index at the given path."""


class IndexLocked(Error):
    """Another writer holds the index's write lock; nothing was changed."""


class CorruptIndex(Error):
    """The index exists but cannot be read: damaged, or written by an
    incompatible version (the hint says how to rebuild it)."""


class QueryError(Error, ValueError):
    """The query cannot be parsed or ran past a limit. .column is the 1-based
    position (in characters) of the offending part."""

    def __init__(self, message: str = "", column: int = 0, hint: str = "") -> None:
        super().__init__(message, hint)
        self.column = column


class InputError(Error):
    """An input cannot be indexed. .file names it; .line is the 1-based line at
    fault, or 0 for the whole file."""

    def __init__(self, message: str = "", file: str = "", line: int = 0, hint: str = "") -> None:
        super().__init__(message, hint)
        self.file = file
        self.line = line


class ShardUnavailable(Error):
    """A shard of a cluster could not be reached or did not answer in time;
    .shard names it as the cluster file does."""

    def __init__(self, message: str = "", shard: str = "", hint: str = "") -> None:
        super().__init__(message, hint)
        self.shard = shard
)";

PyObject* type_of(const std::exception& e) {
  if (dynamic_cast<const QueryError*>(&e) != nullptr) return types.query_error;
  if (dynamic_cast<const InputError*>(&e) != nullptr) return types.input_error;
  if (dynamic_cast<const IndexNotFound*>(&e) != nullptr) return types.index_not_found;
  if (dynamic_cast<const IndexLocked*>(&e) != nullptr) return types.index_locked;
  if (dynamic_cast<const CorruptIndex*>(&e) != nullptr) return types.corrupt_index;
  if (dynamic_cast<const ShardUnavailable*>(&e) != nullptr) return types.shard_unavailable;
  return types.error;
}

}  // namespace

py::object error_object(const std::exception& e) {
  py::handle type(type_of(e));
  const auto* ae = dynamic_cast<const Error*>(&e);
  py::str message(e.what());
  py::str hint(ae != nullptr ? ae->hint() : std::string());
  if (const auto* q = dynamic_cast<const QueryError*>(&e)) return type(message, q->column(), hint);
  if (const auto* i = dynamic_cast<const InputError*>(&e))
    return type(message, py::str(i->file()), i->line(), hint);
  if (const auto* s = dynamic_cast<const ShardUnavailable*>(&e))
    return type(message, py::str(s->shard()), hint);
  return type(message, hint);
}

void bind_errors(py::module_& m) {
  py::dict scope;
  scope["__name__"] = "abstracts";
  py::exec(kClasses, scope);
  auto take = [&](const char* name) {
    py::object type = scope[name];
    m.add_object(name, type);
    return type.release().ptr();  // kept for the interpreter's life
  };
  types.error = take("Error");
  types.index_not_found = take("IndexNotFound");
  types.index_locked = take("IndexLocked");
  types.corrupt_index = take("CorruptIndex");
  types.query_error = take("QueryError");
  types.input_error = take("InputError");
  types.shard_unavailable = take("ShardUnavailable");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      py::object error = error_object(e);
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
    } catch (const py::cast_error& e) {
      // A Python value a C++ type cannot take (pybind11 would say RuntimeError).
      PyErr_SetString(PyExc_TypeError, e.what());
    }
  });
}

}  // namespace abstracts::python
