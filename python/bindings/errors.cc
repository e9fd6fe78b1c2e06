#include "bindings/errors.h"

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

PyObject* make_type(py::module_& m, const char* name, PyObject* bases, const char* doc) {
  const std::string qualified = std::string("abstracts.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(type));
  return type;
}

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
  py::object error = type(py::str(e.what()));
  const auto* ae = dynamic_cast<const Error*>(&e);
  const std::string hint = ae != nullptr ? ae->hint() : std::string();
  error.attr("hint") = py::str(hint);
  // Shown under the traceback, as the CLI's "hint:" line.
  if (!hint.empty()) error.attr("add_note")(py::str("hint: " + hint));
  if (const auto* q = dynamic_cast<const QueryError*>(&e)) error.attr("column") = q->column();
  if (const auto* i = dynamic_cast<const InputError*>(&e)) {
    error.attr("file") = py::str(i->file());
    error.attr("line") = i->line();
  }
  if (const auto* s = dynamic_cast<const ShardUnavailable*>(&e)) error.attr("shard") = py::str(s->shard());
  return error;
}

void bind_errors(py::module_& m) {
  types.error = make_type(m, "Error", PyExc_Exception,
                          "Base of every error of abstracts. str() is the message; .hint says what to do "
                          "about it (may be empty).");
  types.index_not_found =
      make_type(m, "IndexNotFound", types.error, "There is no index at the given path.");
  types.index_locked =
      make_type(m, "IndexLocked", types.error, "Another writer holds the index's write lock; nothing was changed.");
  types.corrupt_index = make_type(m, "CorruptIndex", types.error,
                                  "The index exists but cannot be read: damaged, or written by an incompatible "
                                  "version (the hint says how to rebuild it).");
  py::tuple query_bases = py::make_tuple(py::handle(types.error), py::handle(PyExc_ValueError));
  types.query_error = make_type(m, "QueryError", query_bases.ptr(),
                                "The query cannot be parsed or ran past a limit. .column is the 1-based "
                                "position (in characters) of the offending part.");
  types.input_error = make_type(m, "InputError", types.error,
                                "An input cannot be indexed. .file names it; .line is the 1-based line at "
                                "fault, or 0 for the whole file.");
  types.shard_unavailable = make_type(m, "ShardUnavailable", types.error,
                                      "A shard of a cluster could not be reached or did not answer in time; "
                                      ".shard names it.");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      py::object error = error_object(e);
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
    }
  });
}

}  // namespace abstracts::python
