// Shared pieces of the armada Python extension (armada._core): the errors it raises, NumPy
// dtypes of Armada's element types, argument conversion, and collective agreement.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <complex>
#include <string>
#include <utility>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/error.hpp"

namespace armada::python {

namespace py = pybind11;
using arrays::Array;
using arrays::Coord;
using arrays::ElemType;
using arrays::Index;

// ---- errors -----------------------------------------------------------------------------------
/// The Python exception class an error becomes (all derive from armada.Error; the first three
/// also from IndexError, TypeError, ValueError; overflow from ArgumentError and OverflowError;
/// not_found and permission from FileNotFoundError and PermissionError, with their errno).
enum class ErrorKind : int { none = 0, index, type, value, state, linalg, other, overflow, not_found, permission };
inline constexpr std::size_t python_error_kinds = static_cast<std::size_t>(ErrorKind::permission) + 1;

/// The Python class of each kind of Armada's errors (rma::Error::kind()): the one table
/// current_error consults.
inline constexpr rma::ErrorCodeTable<ErrorKind> python_classes{{{
    {rma::ErrorKind::argument, ErrorKind::value},
    {rma::ErrorKind::handle, ErrorKind::value},
    {rma::ErrorKind::type, ErrorKind::type},  // an element type that does not suit: DTypeError
    {rma::ErrorKind::state, ErrorKind::state},
    {rma::ErrorKind::unsupported, ErrorKind::other},
    {rma::ErrorKind::system, ErrorKind::other},
    {rma::ErrorKind::internal, ErrorKind::other},
    {rma::ErrorKind::singular, ErrorKind::linalg},
    {rma::ErrorKind::not_positive_definite, ErrorKind::linalg},
    {rma::ErrorKind::no_convergence, ErrorKind::linalg},
}}};

/// An error found by the binding itself. The message is complete ("[rank r] op: argument ...").
class BindingError : public std::exception {
 public:
  BindingError(ErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
  ErrorKind kind() const noexcept { return kind_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  ErrorKind kind_;
  std::string message_;
};

/// Throws BindingError: "[rank r] <op>: argument '<argument>' = <value>: <reason>", the form of
/// Armada's own messages.
[[noreturn]] void fail(ErrorKind kind, const char* op, const std::string& argument, const std::string& value,
                       const std::string& reason);
/// repr_of(obj), for messages.
std::string repr_of(py::handle obj);

/// The kind and message of the exception being handled (inside a catch block).
std::pair<ErrorKind, std::string> current_error();

/// Registers armada.Error and its subclasses on `m` and translates C++ exceptions into them.
void register_errors(py::module_& m);

/// Sets the Python error of the exception being handled (inside a catch block), as the
/// translator registered by register_errors does: for functions pybind11 does not call.
void set_python_error();

/// Runs `checks` (this rank's conversion of the arguments of collective call `op`), then agrees
/// with the other members of `group`: when any member failed, every member raises (the failed
/// ones their own error, the others one of the same kind naming the first failed rank), so no
/// member is left waiting in the collective. Armada's own collectives agree on their arguments
/// in the same way.
void agree_on_error(const char* op, const rma::Group& group, ErrorKind kind, const std::string& message);

template <class F>
void agreed(const char* op, const rma::Group& group, F&& checks) {
  ErrorKind kind = ErrorKind::none;
  std::string message;
  try {
    checks();
  } catch (...) {
    std::tie(kind, message) = current_error();
  }
  agree_on_error(op, group, kind, message);
}

// ---- runtime state --------------------------------------------------------------------------
/// Throws armada.StateError naming `op` unless the runtime is initialized.
void require_runtime(const char* op);

// ---- element types ----------------------------------------------------------------------------
/// The NumPy dtype of an element type (int -> int32, long -> int64, ..., complex<double> ->
/// complex128).
py::dtype dtype_of(ElemType type);
/// The element type of a dtype-like object (numpy.float64, "f8", float, ...); TypeError naming
/// `op` and `argument` for anything else.
ElemType elem_type_of(py::handle dtype_like, const char* op, const char* argument);
/// NumPy's name of the element type ("float64").
std::string dtype_name(ElemType type);

/// Calls f(T{}) with T the C++ type of `type`.
using arrays::with_element_type;

// ---- argument conversion ----------------------------------------------------------------------
/// The numpy module (imported once, kept for the life of the process: never released after the
/// interpreter is gone).
py::handle numpy();
/// `value` as a NumPy array of `type`, cast as NumPy's same_kind rule allows (int -> float,
/// float64 -> float32, real -> complex; not float -> int, complex -> real: TypeError). An integer
/// that does not fit an integer `type` is an OverflowError (NumPy 2's rule), not wrapped around.
py::array as_array_of(py::handle value, ElemType type, const char* op, const char* argument);
/// armada.IntegerOverflowError naming `op`, `argument` and the value unless every integer in
/// `src` (an argument as NumPy converted it) fits integer type `type`; nothing for other types.
void check_integers_fit(const py::array& src, ElemType type, const char* op, const char* argument);
/// One element of `type` from a Python scalar, stored in `out` (16 bytes). Same casting rule.
void scalar_of(py::handle value, ElemType type, const char* op, const char* argument, void* out);
/// A tuple of ints (a shape, ghost widths, ...): a sequence of integers or one integer.
Coord coord_of(py::handle value, const char* op, const char* argument);
/// "(1, 2, 3)"
std::string tuple_str(const Coord& c);
py::tuple to_tuple(const Coord& c);

// ---- distributions ----------------------------------------------------------------------------
/// The `group` argument: None (the world) or an armada.Group; TypeError naming `op` otherwise.
std::optional<rma::Group> optional_group(const char* op, py::handle group);
/// The keyword arguments that choose an array's distribution (GlobalArray.create, armada.load).
struct DistributionArgs {
  py::handle chunks, ghosts, name, grid, block_starts;
};
/// Converts `args` (None: left as in `o`) into `o`; an integer `ghosts` is that width in each of
/// `ndims` dimensions.
void distribution_options(const char* op, const DistributionArgs& args, int ndims, arrays::ArrayOptions& o);

// ---- the Python objects -----------------------------------------------------------------------
/// Array and the NumPy side of it. Registered as armada.GlobalArray (array.cpp).
void bind_array(py::module_& m);
/// Whole-array operations: fill, scale, copy, dot, norm, add, ... (collective.cpp).
void bind_collectives(py::module_& m, py::class_<Array>& cls);
/// armada.SparseMatrix (sparse.cpp).
void bind_sparse(py::module_& m);
/// armada._core.linalg (linalg.cpp).
void bind_linalg(py::module_& m);
/// HDF5 I/O: save, load, load_patch, list_datasets, checkpoint, restart (io.cpp).
void bind_io(py::module_& m);

/// Checks that `a` is live and returns it (armada.StateError for a destroyed array).
Array& live(Array& a, const char* op);
/// "array 'A' (float64, shape (4, 8))"
std::string describe(const Array& a);

}  // namespace armada::python
