// Errors, element types, argument conversion and agreement of the armada Python extension.
#include <mpi.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstring>

#include "armada/linalg/errors.hpp"
#include "armada/rma/error.hpp"
#include "armada/rma/runtime.hpp"
#include "bindings.hpp"

namespace armada::python {

namespace {

// The Python classes of the error kinds, created by register_errors.
std::array<PyObject*, python_error_kinds> g_error_classes{};

}  // namespace

// ---- errors -----------------------------------------------------------------------------------
void fail(ErrorKind kind, const char* op, const std::string& argument, const std::string& value,
          const std::string& reason) {
  throw BindingError(kind, rma::error_message(op, "argument '" + argument + "' = " + value + ": " + reason));
}

std::string repr_of(py::handle obj) {
  try {
    return py::repr(obj).cast<std::string>();
  } catch (const py::error_already_set&) {
    return "<unprintable " + std::string(Py_TYPE(obj.ptr())->tp_name) + ">";
  }
}

// Armada's exceptions (and the binding's own) to the Python classes. Armada's go by their kind
// through python_classes: a bad argument is a ValueError, a wrong element type a TypeError (the
// binding checks indices and dtypes first, so most of those are its own).
std::pair<ErrorKind, std::string> current_error() {
  try {
    throw;
  } catch (const BindingError& e) {
    return {e.kind(), e.what()};
  } catch (const rma::Error& e) {
    return {python_classes[e.kind()], e.what()};
  } catch (const py::error_already_set& e) {
    if (e.matches(PyExc_TypeError)) return {ErrorKind::type, e.what()};
    if (e.matches(PyExc_IndexError)) return {ErrorKind::index, e.what()};
    if (e.matches(PyExc_OverflowError)) return {ErrorKind::overflow, e.what()};
    if (e.matches(PyExc_ValueError)) return {ErrorKind::value, e.what()};
    return {ErrorKind::other, e.what()};
  } catch (const py::cast_error& e) {
    return {ErrorKind::type, e.what()};
  } catch (const std::exception& e) {
    return {ErrorKind::other, e.what()};
  }
}

void register_errors(py::module_& m) {
  py::object error = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc("armada.Error", "Base of every error Armada raises; the message names the rank, "
                                "the operation, the argument and its value.", PyExc_Exception, nullptr));
  m.attr("Error") = error;
  g_error_classes[static_cast<int>(ErrorKind::other)] = error.ptr();
  struct Sub {
    ErrorKind kind;
    const char* name;
    PyObject* builtin;
    const char* doc;
  };
  const Sub subs[] = {
      {ErrorKind::index, "BoundsError", PyExc_IndexError, "An index or patch outside the array."},
      {ErrorKind::type, "DTypeError", PyExc_TypeError, "A dtype Armada does not hold, or one that cannot be cast."},
      {ErrorKind::value, "ArgumentError", PyExc_ValueError, "A bad argument (shape, distribution, patch, ...)."},
      {ErrorKind::state, "StateError", nullptr, "Armada is not initialized, or the array was destroyed."},
      {ErrorKind::linalg, "LinAlgError", nullptr, "A factorization broke down (singular, not positive definite)."},
  };
  for (const Sub& s : subs) {
    py::object bases = s.builtin ? py::make_tuple(error, py::handle(s.builtin)) : py::make_tuple(error);
    std::string qualified = std::string("armada.") + s.name;
    py::object cls = py::reinterpret_steal<py::object>(
        PyErr_NewExceptionWithDoc(qualified.c_str(), s.doc, bases.ptr(), nullptr));
    m.attr(s.name) = cls;
    g_error_classes[static_cast<int>(s.kind)] = cls.release().ptr();
  }
  // An integer too large for the array's dtype: a bad argument, and NumPy 2's OverflowError.
  py::object bases = py::make_tuple(py::handle(g_error_classes[static_cast<int>(ErrorKind::value)]),
                                    py::handle(PyExc_OverflowError));
  py::object overflow = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "armada.IntegerOverflowError", "An integer that does not fit the array's integer dtype.", bases.ptr(), nullptr));
  m.attr("IntegerOverflowError") = overflow;
  g_error_classes[static_cast<int>(ErrorKind::overflow)] = overflow.release().ptr();
  // A file that is not there, or not ours to read: Python's OSError subclasses, as open() raises.
  const Sub files[] = {
      {ErrorKind::not_found, "NoSuchFileError", PyExc_FileNotFoundError, "A file or directory that does not exist."},
      {ErrorKind::permission, "FilePermissionError", PyExc_PermissionError, "A file this process may not read or write."},
  };
  for (const Sub& s : files) {
    std::string qualified = std::string("armada.") + s.name;
    py::object cls = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
        qualified.c_str(), s.doc, py::make_tuple(error, py::handle(s.builtin)).ptr(), nullptr));
    m.attr(s.name) = cls;
    g_error_classes[static_cast<int>(s.kind)] = cls.release().ptr();
  }
  error.release();
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const py::error_already_set&) {
      throw;  // already a Python exception
    } catch (const py::builtin_exception&) {
      throw;
    } catch (...) {
      set_python_error();
    }
  });
}

void set_python_error() {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (...) {
    auto [kind, message] = current_error();
    PyObject* cls = g_error_classes[static_cast<int>(kind)];
    if (kind == ErrorKind::not_found || kind == ErrorKind::permission) {
      // OSError(errno, text): e.errno is set as for the built-in file errors.
      const int code = kind == ErrorKind::not_found ? ENOENT : EACCES;
      PyErr_SetObject(cls, py::make_tuple(code, message).ptr());
    } else {
      PyErr_SetString(cls, message.c_str());
    }
  }
}

void agree_on_error(const char* op, const rma::Group& group, ErrorKind kind, const std::string& message) {
  MPI_Comm comm = group.comm();
  if (comm == MPI_COMM_NULL) {  // not a member: Armada's call says so
    if (kind != ErrorKind::none) throw BindingError(kind, message);
    return;
  }
  int me = 0;
  MPI_Comm_rank(comm, &me);
  int first = kind != ErrorKind::none ? me : INT_MAX;  // the lowest failed member speaks for all
  int header[2] = {static_cast<int>(kind), static_cast<int>(message.size())};
  std::string text = message;
  {
    py::gil_scoped_release unlocked;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == INT_MAX) return;
    MPI_Bcast(header, 2, MPI_INT, first, comm);
    text.resize(static_cast<std::size_t>(header[1]));
    MPI_Bcast(text.data(), header[1], MPI_CHAR, first, comm);
  }
  if (me == first) throw BindingError(kind, message);
  throw BindingError(static_cast<ErrorKind>(header[0]),
                     rma::error_message(op, "group rank " + std::to_string(first) + " failed: " + text));
}

void require_runtime(const char* op) {
  if (!rma::initialized())
    throw BindingError(ErrorKind::state, std::string(op) + ": Armada is not initialized (call armada.init())");
}

// ---- element types: one table ------------------------------------------------------------------
namespace {
struct TypeEntry {
  ElemType type;
  const char* numpy_name;
};
constexpr TypeEntry type_table[] = {
    {ElemType::Int, "int32"},        {ElemType::Long, "int64"},          {ElemType::Float, "float32"},
    {ElemType::Double, "float64"},   {ElemType::ComplexFloat, "complex64"}, {ElemType::ComplexDouble, "complex128"},
};
}  // namespace

py::dtype dtype_of(ElemType type) {
  return with_element_type(type, [](auto tag) { return py::dtype::of<decltype(tag)>(); });
}

std::string dtype_name(ElemType type) {
  for (const TypeEntry& e : type_table)
    if (e.type == type) return e.numpy_name;
  return "?";
}

ElemType elem_type_of(py::handle dtype_like, const char* op, const char* argument) {
  py::dtype dt;
  try {
    dt = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype_like));
  } catch (const py::error_already_set&) {
    fail(ErrorKind::type, op, argument, repr_of(dtype_like), "is not a NumPy dtype");
  }
  for (const TypeEntry& e : type_table)
    if (dt.is(dtype_of(e.type)) || dt.equal(dtype_of(e.type))) return e.type;
  fail(ErrorKind::type, op, argument, repr_of(dtype_like),
       "Armada holds int32, int64, float32, float64, complex64 and complex128");
}

// ---- conversion -------------------------------------------------------------------------------
py::handle numpy() {
  static py::handle module = py::module_::import("numpy").release();
  return module;
}

py::array as_array_of(py::handle value, ElemType type, const char* op, const char* argument) {
  py::array src;
  if (py::isinstance<py::array>(value)) {
    src = py::reinterpret_borrow<py::array>(value);
  } else {
    src = py::array::ensure(value);  // an empty handle (error cleared) when NumPy cannot convert it
    if (!src) fail(ErrorKind::type, op, argument, repr_of(value), "is not convertible to a NumPy array");
  }
  py::dtype want = dtype_of(type);
  if (src.dtype().equal(want)) return src;
  // NumPy makes Python integers it cannot hold in one integer dtype float64 ([-1, 2**63]) or
  // object: look at them as the Python integers they are.
  const char kind = src.dtype().kind();
  const bool as_given = (type == ElemType::Int || type == ElemType::Long) && !py::isinstance<py::array>(value) &&
                        (kind == 'f' || kind == 'O');
  check_integers_fit(as_given ? py::array(numpy().attr("array")(value, py::dtype("O"))) : src, type, op, argument);
  const py::object can_cast = numpy().attr("can_cast");
  if (!can_cast(src.dtype(), want, "same_kind").cast<bool>())
    fail(ErrorKind::type, op, argument, "an array of dtype " + repr_of(src.dtype()),
         "cannot be cast to the array's dtype " + dtype_name(type) + " (NumPy's same_kind rule)");
  return src.attr("astype")(want);
}

void check_integers_fit(const py::array& src, ElemType type, const char* op, const char* argument) {
  if ((type != ElemType::Int && type != ElemType::Long) || src.size() == 0) return;
  const char kind = src.dtype().kind();
  const py::dtype want = dtype_of(type);
  if (kind != 'O' && ((kind != 'i' && kind != 'u') || numpy().attr("can_cast")(src.dtype(), want, "safe").cast<bool>()))
    return;  // not integers, or every value of the dtype fits
  const py::object info = numpy().attr("iinfo")(want);
  const py::object lo = info.attr("min"), hi = info.attr("max");
  // Python integers beyond int64 make NumPy's dtype object; an object array of anything else
  // is left to the dtype check that follows.
  const py::object items = kind == 'O' ? src.attr("ravel")() : py::make_tuple(src.attr("min")(), src.attr("max")());
  for (py::handle item : items) {
    if (kind == 'O' && !PyLong_Check(item.ptr())) return;
    const py::int_ n(py::reinterpret_borrow<py::object>(item));  // a NumPy integer as a Python int
    if (n < lo || n > hi)
      throw BindingError(ErrorKind::overflow,
                         rma::error_message(op, "argument '" + std::string(argument) + "' = " +
                                                    (src.size() == 1 ? repr_of(n) : "an array holding " + repr_of(n)) +
                                                    ": does not fit the array's dtype " + dtype_name(type) + " [" +
                                                    repr_of(lo) + ", " + repr_of(hi) + "]"));
  }
}

void scalar_of(py::handle value, ElemType type, const char* op, const char* argument, void* out) {
  py::array a = as_array_of(value, type, op, argument);
  if (a.ndim() != 0 && a.size() != 1) fail(ErrorKind::value, op, argument, repr_of(value), "must be a scalar");
  std::memcpy(out, a.data(), arrays::size_of(type));
}

Coord coord_of(py::handle value, const char* op, const char* argument) {
  std::vector<Index> v;
  try {
    if (PyIndex_Check(value.ptr())) {
      v.push_back(py::cast<Index>(value));
    } else {
      for (py::handle item : py::iter(value)) {
        if (!PyIndex_Check(item.ptr())) throw py::type_error("");
        v.push_back(py::cast<Index>(item));
      }
    }
  } catch (const py::error_already_set&) {
    fail(ErrorKind::type, op, argument, repr_of(value), "must be an integer or a sequence of integers");
  } catch (const py::builtin_exception&) {
    fail(ErrorKind::type, op, argument, repr_of(value), "must be an integer or a sequence of integers");
  }
  return Coord(v);
}

std::string tuple_str(const Coord& c) {
  std::string s = "(";
  for (int i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + (c.size() == 1 ? ",)" : ")");
}

py::tuple to_tuple(const Coord& c) {
  py::tuple t(static_cast<std::size_t>(c.size()));
  for (int i = 0; i < c.size(); ++i) t[static_cast<std::size_t>(i)] = py::int_(c[i]);
  return t;
}

}  // namespace armada::python
