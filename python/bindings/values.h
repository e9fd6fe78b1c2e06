// The user's Python values as the C++ types the library takes. A value of
// another type, or one the C++ type cannot hold (a str with a lone surrogate,
// which UTF-8 cannot encode; an int out of the type's range), is a TypeError
// naming what it was given for, as pybind11 makes it for a typed argument.
#ifndef ABSTRACTS_PYTHON_BINDINGS_VALUES_H_
#define ABSTRACTS_PYTHON_BINDINGS_VALUES_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace abstracts::python {

// `value`, a str, as UTF-8. `what` names it in the error ("record[\"text\"]").
std::string utf8_of(const pybind11::handle& value, const std::string& what);

// `value`, an int, as an int or a std::uint32_t.
int int_of(const pybind11::handle& value, const std::string& what);
std::uint32_t uint32_of(const pybind11::handle& value, const std::string& what);

// Ids from a str (one id) or an iterable of str: a lone str is never read as
// its characters. `what` names the argument ("within").
std::vector<std::string> ids_of(const pybind11::handle& ids, const std::string& what);

// The name of `value`'s type ("int"), for messages.
std::string type_name(const pybind11::handle& value);

}  // namespace abstracts::python

#endif  // ABSTRACTS_PYTHON_BINDINGS_VALUES_H_
