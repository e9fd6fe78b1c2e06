#include "bindings/values.h"

#include <limits>

namespace py = pybind11;

namespace abstracts::python {
namespace {

// `value`, an int within [low, high].
long long int_within(const py::handle& value, const std::string& what, long long low, long long high) {
  // bool is an int to Python, and a flag given for a number is a slip.
  if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value)) {
    throw py::type_error(what + " is an int, not " + type_name(value));
  }
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (n == -1 && PyErr_Occurred() != nullptr) throw py::error_already_set();
  if (overflow != 0 || n < low || n > high) {
    throw py::type_error(what + " is an int from " + std::to_string(low) + " to " + std::to_string(high) +
                         ", not " + py::repr(value).cast<std::string>());
  }
  return n;
}

}  // namespace

std::string type_name(const py::handle& value) {
  return py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>();
}

std::string utf8_of(const py::handle& value, const std::string& what) {
  if (!py::isinstance<py::str>(value)) throw py::type_error(what + " is a str, not " + type_name(value));
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
  if (data == nullptr) {
    PyErr_Clear();
    throw py::type_error(what + " is a str UTF-8 cannot encode (it has a lone surrogate, as '\\ud800')");
  }
  return std::string(data, static_cast<std::size_t>(size));
}

int int_of(const py::handle& value, const std::string& what) {
  return static_cast<int>(
      int_within(value, what, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

std::uint32_t uint32_of(const py::handle& value, const std::string& what) {
  return static_cast<std::uint32_t>(int_within(value, what, 0, std::numeric_limits<std::uint32_t>::max()));
}

std::vector<std::string> ids_of(const py::handle& ids, const std::string& what) {
  if (py::isinstance<py::str>(ids)) return {utf8_of(ids, what)};
  if (!py::isinstance<py::iterable>(ids)) {
    throw py::type_error(what + " is an id (str) or an iterable of ids, not " + type_name(ids));
  }
  std::vector<std::string> out;
  const Py_ssize_t hint = PyObject_LengthHint(ids.ptr(), 0);
  if (hint < 0) PyErr_Clear();
  if (hint > 0) out.reserve(static_cast<std::size_t>(hint));
  const std::string each = "an id in " + what;
  for (const py::handle& id : ids) out.push_back(utf8_of(id, each));
  return out;
}

}  // namespace abstracts::python
