// armada.GlobalArray: NumPy indexing as one-sided patch operations, nonblocking handles, local
// views, element lists and read_inc.
//
// An index (a[key]) becomes one patch [lo, hi) with a step per dimension: an integer selects
// one index and drops the dimension, a slice a range with its step, an Ellipsis the dimensions
// it stands for. Steps other than 1 use the strided operations; negative steps the same range
// read or written in reverse. A slice reaching past the array is an IndexError (NumPy clips it;
// a put that silently clipped would hide the bug).
#include <Python.h>
#include <mpi.h>

#include <cstring>
#include <optional>
#include <vector>

#include "armada/rma/runtime.hpp"
#include "bindings.hpp"

namespace armada::python {

namespace {

/// What an index selects.
struct Selection {
  Coord lo, hi, skip;         // the patch and its steps (all >= 1), per array dimension
  Coord counts;               // selected elements per array dimension
  std::vector<py::ssize_t> shape;  // the result's shape: counts without the integer dimensions
  std::vector<int> kept;      // array dimension of each result axis
  std::vector<int> reversed;  // result axes selected with a negative step
  bool strided = false;
  bool empty = false;
};

// Index errors name the array: "... argument 'index' = (5, 0): array 'A' (float64, shape (4,
// 6)): index 5 is out of bounds for dimension 0 of size 4".
[[noreturn]] void index_error(const char* op, const Array& a, py::handle key, const std::string& why,
                              ErrorKind kind = ErrorKind::index) {
  fail(kind, op, "index", repr_of(key), describe(a) + ": " + why);
}

// One dimension of the key: an integer or a slice.
void select_dim(const char* op, const Array& a, py::handle key, py::handle entry, int d, Index n, Selection& s) {
  if (PyIndex_Check(entry.ptr()) && !PyBool_Check(entry.ptr())) {
    Index i = PyNumber_AsSsize_t(entry.ptr(), PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      index_error(op, a, key, "index of dimension " + std::to_string(d) + " does not fit in 64 bits");
    }
    if (i < 0) i += n;
    if (i < 0 || i >= n)
      index_error(op, a, key, "index " + repr_of(entry) + " is out of bounds for dimension " + std::to_string(d) +
                               " of size " + std::to_string(n));
    s.lo[d] = i, s.hi[d] = i + 1, s.skip[d] = 1, s.counts[d] = 1;
    return;
  }
  if (!PySlice_Check(entry.ptr()))
    index_error(op, a, key,
                "entries must be integers, slices or '...' (index arrays: use gather/scatter), not " +
                    std::string(Py_TYPE(entry.ptr())->tp_name),
                ErrorKind::type);
  auto* slice = reinterpret_cast<PySliceObject*>(entry.ptr());
  Py_ssize_t start = 0, stop = 0, step = 0;
  if (PySlice_Unpack(entry.ptr(), &start, &stop, &step) < 0) {
    PyErr_Clear();
    index_error(op, a, key, "slice step of dimension " + std::to_string(d) + " must not be zero", ErrorKind::value);
  }
  for (auto [given, value] : {std::pair{slice->start, start}, std::pair{slice->stop, stop}})
    if (given != Py_None && (value < -n || value > n))
      index_error(op, a, key, "slice " + repr_of(entry) + " reaches past dimension " + std::to_string(d) + " of size " +
                               std::to_string(n) + " (a patch must lie inside the array)");
  const Py_ssize_t count = PySlice_AdjustIndices(n, &start, &stop, step);
  s.counts[d] = count;
  s.kept.push_back(d);
  s.shape.push_back(count);
  if (count == 0) {
    s.empty = true;
    s.lo[d] = s.hi[d] = 0, s.skip[d] = 1;
    return;
  }
  if (step > 0) {
    s.lo[d] = start, s.hi[d] = start + (count - 1) * step + 1, s.skip[d] = step;
  } else {
    s.lo[d] = start + (count - 1) * step, s.hi[d] = start + 1, s.skip[d] = -step;
    if (count > 1) s.reversed.push_back(static_cast<int>(s.kept.size()) - 1);
  }
  if (s.skip[d] != 1 && count > 1) s.strided = true;
  if (count == 1) s.skip[d] = 1;
}

Selection select(const char* op, const Array& a, py::handle key) {
  const Coord& dims = a.dims();
  const int n = dims.size();
  py::tuple entries = PyTuple_Check(key.ptr()) ? py::reinterpret_borrow<py::tuple>(key) : py::make_tuple(key);
  int ellipsis = -1, given = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].ptr() == Py_Ellipsis) {
      if (ellipsis >= 0) index_error(op, a, key, "an index can only have a single ellipsis ('...')");
      ellipsis = static_cast<int>(i);
    } else {
      ++given;
    }
  }
  if (given > n)
    index_error(op, a, key, "too many indices for a " + std::to_string(n) + "-dimensional array (" + std::to_string(given) + ")");
  Selection s;
  s.lo = s.hi = s.skip = s.counts = Coord::filled(n, 0);
  const py::object all = py::reinterpret_steal<py::object>(PySlice_New(nullptr, nullptr, nullptr));
  int d = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (static_cast<int>(i) == ellipsis) {
      for (int k = 0; k < n - given; ++k, ++d) select_dim(op, a, key, all, d, dims[d], s);
    } else {
      select_dim(op, a, key, entries[i], d, dims[d], s);
      ++d;
    }
  }
  for (; d < n; ++d) select_dim(op, a, key, all, d, dims[d], s);
  return s;
}

// The buffer's layout as Global Arrays' `ld` (ld[d]: the buffer's extent in dimension d+1), or
// nothing when the buffer is not a row-major box with padding (then it is copied). Dimensions of
// extent 1 may have any stride; they get the dense one.
std::optional<Coord> leading_dims(const py::array& buf, const Selection& s, std::size_t esize) {
  if (buf.flags() & py::array::c_style) return Coord{};
  const int n = s.counts.size();
  std::vector<Index> bytes(static_cast<std::size_t>(n), 0);
  for (std::size_t axis = 0; axis < s.kept.size(); ++axis)
    bytes[static_cast<std::size_t>(s.kept[axis])] = buf.strides(static_cast<py::ssize_t>(axis));
  Coord ld = Coord::filled(std::max(n - 1, 0), 0);
  Index next = 1;  // element stride of dimension d + 1
  for (int d = n - 1; d >= 0; --d) {
    Index stride = d == n - 1 ? 1 : next * s.counts[d + 1];
    if (s.counts[d] > 1) {
      const Index b = bytes[static_cast<std::size_t>(d)];
      if (b <= 0 || b % static_cast<Index>(esize) != 0) return std::nullopt;
      stride = b / static_cast<Index>(esize);
    }
    if (d == n - 1) {
      if (stride != 1) return std::nullopt;
    } else {
      if (stride % next != 0 || stride / next < s.counts[d + 1]) return std::nullopt;
      ld[d] = stride / next;
    }
    next = stride;
  }
  return ld;
}

// `buf` (shaped like the result) with the reversed axes of `s` reversed: a view, no copy.
py::array reverse_axes(const py::array& buf, const Selection& s) {
  if (s.reversed.empty()) return buf;
  py::tuple index(static_cast<std::size_t>(buf.ndim()));
  for (py::ssize_t i = 0; i < buf.ndim(); ++i)
    index[static_cast<std::size_t>(i)] = py::reinterpret_steal<py::object>(PySlice_New(nullptr, nullptr, nullptr));
  for (int axis : s.reversed)
    index[static_cast<std::size_t>(axis)] =
        py::reinterpret_steal<py::object>(PySlice_New(nullptr, nullptr, py::int_(-1).ptr()));
  return buf[index];
}

// The result of a get: the reversed view, or a NumPy scalar when every dimension was an integer.
py::object result_of(const py::array& buf, const Selection& s) {
  if (s.shape.empty()) return buf[py::tuple()];
  return reverse_axes(buf, s);
}

// The source of a put or acc: `value` cast to the array's dtype, broadcast to the selection's
// shape, in the patch's order, and laid out so that Armada can read it (copied only if needed).
struct Source {
  py::array data;
  Coord ld;
};
Source source_of(const char* op, const Array& a, const Selection& s, py::handle value) {
  py::array src = as_array_of(value, a.type(), op, "value");
  // Leading dimensions of extent 1 beyond the selection's go, as in NumPy's assignment.
  while (src.ndim() > static_cast<py::ssize_t>(s.shape.size()) && src.shape(0) == 1) src = src[py::int_(0)];
  const std::vector<py::ssize_t> shape(src.shape(), src.shape() + src.ndim());
  if (shape != s.shape) {
    const py::object broadcast_to = numpy().attr("broadcast_to");
    try {
      src = broadcast_to(src, py::tuple(py::cast(s.shape)));
    } catch (const py::error_already_set&) {
      fail(ErrorKind::value, op, "value", "an array of shape " + repr_of(py::tuple(py::cast(shape))),
           "cannot be broadcast to the selection's shape " + repr_of(py::tuple(py::cast(s.shape))));
    }
  }
  src = reverse_axes(src, s);
  if (auto ld = leading_dims(src, s, a.element_size())) return {src, *ld};
  return {py::array::ensure(src, py::array::c_style), Coord{}};
}

// The transfers of one selection, with the GIL released: a get into `p`, or a put (scale null)
// or accumulate from `src`; nonblocking where Armada has the nonblocking form, while strided
// selections complete before the call returns (an empty handle).
arrays::NbHandle fetch(Array& a, const Selection& s, void* p, const Coord& ld, bool blocking) {
  arrays::NbHandle h;
  if (s.empty) return h;
  if (s.strided)
    a.get_strided(s.lo, s.hi, s.skip, p, ld);
  else if (blocking)
    a.get(s.lo, s.hi, p, ld);
  else
    h = a.get_nb(s.lo, s.hi, p, ld);
  return h;
}

arrays::NbHandle update(Array& a, const Selection& s, const Source& src, const void* scale, bool blocking) {
  arrays::NbHandle h;
  const void* p = src.data.data();
  if (s.empty) return h;
  if (s.strided && scale)
    a.acc_strided(s.lo, s.hi, s.skip, p, scale, src.ld);
  else if (s.strided)
    a.put_strided(s.lo, s.hi, s.skip, p, src.ld);
  else if (blocking && scale)
    a.acc(s.lo, s.hi, p, scale, src.ld);
  else if (blocking)
    a.put(s.lo, s.hi, p, src.ld);
  else
    h = scale ? a.acc_nb(s.lo, s.hi, p, scale, src.ld) : a.put_nb(s.lo, s.hi, p, src.ld);
  return h;
}

/// Where a get puts the data: a new C-ordered array, or the caller's `out` when Armada can write
/// into it in place (its dtype and the selection's shape, a row-major box, no reversed axes).
/// Otherwise (`direct` false) the data goes through a new array and is copied into `out`.
struct Destination {
  py::array buffer;
  Coord ld;
  bool direct = true;
};
Destination destination_of(const char* op, const Array& a, const Selection& s, py::handle out) {
  if (out.is_none()) return {py::array(dtype_of(a.type()), s.shape), Coord{}, true};
  if (!py::isinstance<py::array>(out))
    fail(ErrorKind::type, op, "out", repr_of(out), "must be a numpy.ndarray");
  py::array o = py::reinterpret_borrow<py::array>(out);
  if (!o.dtype().equal(dtype_of(a.type())))
    fail(ErrorKind::type, op, "out", "an array of dtype " + repr_of(o.dtype()), "must have the array's dtype " + dtype_name(a.type()));
  if (std::vector<py::ssize_t>(o.shape(), o.shape() + o.ndim()) != s.shape)
    fail(ErrorKind::value, op, "out", "an array of shape " + repr_of(o.attr("shape")),
         "must have the selection's shape " + repr_of(py::tuple(py::cast(s.shape))));
  if (!o.writeable()) fail(ErrorKind::value, op, "out", "a read-only array", "must be writable");
  if (s.reversed.empty())
    if (auto ld = leading_dims(o, s, a.element_size())) return {o, *ld, true};
  return {py::array(dtype_of(a.type()), s.shape), Coord{}, false};
}

// The result: `out` (filled), or the new array (its reversed view; all integers: a scalar).
py::object finish_get(const Destination& d, const Selection& s, py::handle out) {
  if (out.is_none()) return result_of(d.buffer, s);
  if (!d.direct) {
    const py::object copyto = numpy().attr("copyto");
    copyto(out, reverse_axes(d.buffer, s));
  }
  return py::reinterpret_borrow<py::object>(out);
}

py::object get_as(const char* op, Array& a, py::handle key, py::handle out) {
  live(a, op);
  const Selection s = select(op, a, key);
  Destination d = destination_of(op, a, s, out);
  void* p = d.buffer.mutable_data();
  {
    py::gil_scoped_release unlocked;
    fetch(a, s, p, d.ld, true);
  }
  return finish_get(d, s, out);
}

// a[key] = value (alpha none) or a[key] += alpha * value.
void put_or_acc(Array& a, py::handle key, py::handle value, std::optional<py::handle> alpha) {
  const char* op = alpha ? "GlobalArray.acc" : "GlobalArray.__setitem__";
  live(a, op);
  alignas(16) std::byte scale[16];
  if (alpha) scalar_of(*alpha, a.type(), op, "alpha", scale);
  const Selection s = select(op, a, key);
  const Source src = source_of(op, a, s, value);
  py::gil_scoped_release unlocked;
  update(a, s, src, alpha ? scale : nullptr, true);
}

void put(Array& a, py::handle key, py::handle value) { put_or_acc(a, key, value, std::nullopt); }
void acc(Array& a, py::handle key, py::handle value, py::handle alpha) { put_or_acc(a, key, value, alpha); }

// ---- nonblocking ------------------------------------------------------------------------------
/// The operations of one nonblocking get, put or acc, with the buffers they use: the result
/// (get) or the source (put, acc) lives until the operations completed.
struct Request {
  py::array buffer;         // declared first: destroyed after the handle waited
  py::object result = py::none();
  arrays::NbHandle handle;

  py::object wait() {
    py::gil_scoped_release unlocked;
    handle.wait();
    return result;
  }
  bool done() { return handle.test(); }
};

// A get into a new array or into `out`; when `out` cannot be written in place the get completes
// before the call returns (then copied into `out`).
Request get_nb(Array& a, py::handle key, py::handle out) {
  constexpr const char* op = "GlobalArray.get_nb";
  live(a, op);
  const Selection s = select(op, a, key);
  Destination d = destination_of(op, a, s, out);
  Request r;
  r.buffer = d.buffer;
  void* p = r.buffer.mutable_data();
  {
    py::gil_scoped_release unlocked;
    r.handle = fetch(a, s, p, d.ld, d.direct);
  }
  r.result = finish_get(d, s, out);
  return r;
}

Request update_nb(Array& a, py::handle key, py::handle value, std::optional<py::handle> alpha) {
  const char* op = alpha ? "GlobalArray.acc_nb" : "GlobalArray.put_nb";
  live(a, op);
  Request r;
  // The scale must outlive the operations: Armada's nonblocking acc copies it (NbHandle keeps it).
  alignas(16) std::byte scale[16];
  if (alpha) scalar_of(*alpha, a.type(), op, "alpha", scale);
  const Selection s = select(op, a, key);
  const Source src = source_of(op, a, s, value);
  r.buffer = src.data;
  py::gil_scoped_release unlocked;
  r.handle = update(a, s, src, alpha ? scale : nullptr, false);
  return r;
}

// ---- local data -------------------------------------------------------------------------------
py::array local(Array& a, bool ghosts) {
  constexpr const char* op = "GlobalArray.local";
  live(a, op);
  arrays::LocalView<void> v = ghosts ? a.access_ghosts() : a.access();
  a.release();  // the view stays valid until the array is destroyed; Armada only counts accesses
  std::vector<py::ssize_t> shape, strides;
  const auto esize = static_cast<py::ssize_t>(a.element_size());
  for (int d = 0; d < v.ndim(); ++d) {
    shape.push_back(v.empty() ? 0 : v.hi[d] - v.lo[d]);
    strides.push_back(v.stride[d] * esize);
  }
  if (v.empty()) return py::array(dtype_of(a.type()), shape);
  // The view keeps a reference to the array object (not to its memory: destroy() frees that).
  return py::array(dtype_of(a.type()), shape, strides, v.data, py::cast(a));
}

py::tuple local_bounds(Array& a, bool ghosts) {
  live(a, "GlobalArray.local_bounds");
  arrays::Patch p = a.owned();
  if (ghosts && !p.empty()) {
    const Coord g = a.ghosts();
    for (int d = 0; d < p.lo.size(); ++d) p.lo[d] -= g[d], p.hi[d] += g[d];
  }
  return py::make_tuple(to_tuple(p.lo), to_tuple(p.hi));
}

// ---- element lists ----------------------------------------------------------------------------
// Index arrays: a tuple of one integer array per dimension (NumPy's a[rows, cols]), or an
// (n, ndim) integer array ((n,) for a 1-D array). Negative indices count from the end.
std::vector<Coord> subscripts_of(const char* op, const Array& a, py::handle indices) {
  const int n = a.ndim();
  const py::handle np = numpy();
  py::array idx;
  try {
    if (PyTuple_Check(indices.ptr())) {
      if (static_cast<int>(py::len(indices)) != n)
        fail(ErrorKind::value, op, "indices", repr_of(indices),
             "a tuple of index arrays needs one per dimension (" + std::to_string(n) + ")");
      idx = np.attr("stack")(np.attr("broadcast_arrays")(*indices), -1);
    } else {
      idx = np.attr("asarray")(indices);
      if (n == 1 && idx.ndim() == 1) idx = idx.attr("reshape")(-1, 1);
    }
  } catch (const py::error_already_set&) {
    fail(ErrorKind::type, op, "indices", repr_of(indices), "is not an integer index array");
  }
  const char kind = idx.dtype().kind();
  if (idx.size() > 0 && kind != 'i' && kind != 'u')
    fail(ErrorKind::type, op, "indices", "an array of dtype " + repr_of(idx.dtype()), "index arrays must hold integers");
  if (idx.size() == 0) return {};
  if (idx.ndim() != 2 || idx.shape(1) != n)
    fail(ErrorKind::value, op, "indices", "an array of shape " + repr_of(idx.attr("shape")),
         "needs shape (n, " + std::to_string(n) + ")" + (n == 1 ? " or (n,)" : ""));
  py::array_t<Index, py::array::c_style | py::array::forcecast> flat(idx);
  const Index* p = flat.data();
  const Coord& dims = a.dims();
  std::vector<Coord> subs(static_cast<std::size_t>(flat.shape(0)), Coord::filled(n, 0));
  for (std::size_t i = 0; i < subs.size(); ++i)
    for (int d = 0; d < n; ++d) {
      Index v = p[i * static_cast<std::size_t>(n) + static_cast<std::size_t>(d)];
      if (v < 0) v += dims[d];
      if (v < 0 || v >= dims[d])
        fail(ErrorKind::index, op, "indices", "row " + std::to_string(i) + " = " + repr_of(idx[py::int_(i)]),
             "index " + std::to_string(p[i * static_cast<std::size_t>(n) + static_cast<std::size_t>(d)]) +
                 " is out of bounds for dimension " + std::to_string(d) + " of size " + std::to_string(dims[d]));
      subs[i][d] = v;
    }
  return subs;
}

py::array gather(Array& a, py::handle indices) {
  constexpr const char* op = "GlobalArray.gather";
  live(a, op);
  const std::vector<Coord> subs = subscripts_of(op, a, indices);
  py::array values(dtype_of(a.type()), std::vector<py::ssize_t>{static_cast<py::ssize_t>(subs.size())});
  if (subs.empty()) return values;
  void* p = values.mutable_data();
  py::gil_scoped_release unlocked;
  a.gather(subs, p);
  return values;
}

py::array values_of(const char* op, const Array& a, py::handle values, std::size_t n) {
  py::array v = as_array_of(values, a.type(), op, "values");
  const py::object broadcast_to = numpy().attr("broadcast_to");
  try {
    v = broadcast_to(v, py::make_tuple(n));
  } catch (const py::error_already_set&) {
    fail(ErrorKind::value, op, "values", "an array of shape " + repr_of(v.attr("shape")),
         "needs one value per index (" + std::to_string(n) + ") or one for all");
  }
  return py::array::ensure(v, py::array::c_style);
}

void scatter(Array& a, py::handle indices, py::handle values, std::optional<py::object> alpha) {
  const char* op = alpha ? "GlobalArray.scatter_acc" : "GlobalArray.scatter";
  live(a, op);
  alignas(16) std::byte scale[16];
  if (alpha) scalar_of(*alpha, a.type(), op, "alpha", scale);
  const std::vector<Coord> subs = subscripts_of(op, a, indices);
  const py::array v = values_of(op, a, values, subs.size());
  if (subs.empty()) return;
  const void* p = v.data();
  py::gil_scoped_release unlocked;
  if (alpha)
    a.scatter_acc(subs, p, scale);
  else
    a.scatter(subs, p);
}

// One element's index: a tuple of ndim integers (an integer for a 1-D array), negative ones
// counting from the end; IndexError outside the array.
Coord element_index(const char* op, const Array& a, py::handle index) {
  Coord at = coord_of(index, op, "index");
  const Coord& dims = a.dims();
  if (at.size() != dims.size())
    fail(ErrorKind::index, op, "index", repr_of(index), describe(a) + ": needs " + std::to_string(dims.size()) + " entries");
  for (int d = 0; d < at.size(); ++d) {
    if (at[d] < 0) at[d] += dims[d];
    if (at[d] < 0 || at[d] >= dims[d])
      fail(ErrorKind::index, op, "index", repr_of(index),
           describe(a) + ": out of bounds for dimension " + std::to_string(d) + " of size " + std::to_string(dims[d]));
  }
  return at;
}

long read_inc(Array& a, py::handle index, py::handle increment) {
  constexpr const char* op = "GlobalArray.read_inc";
  live(a, op);
  if (a.type() != ElemType::Int && a.type() != ElemType::Long)
    fail(ErrorKind::type, op, "array", describe(a), "read_inc needs an int32 or int64 array");
  // Converted as every other value: an increment that does not fit is an OverflowError.
  alignas(16) std::byte by[16];
  scalar_of(increment, a.type(), op, "increment", by);
  long step = 0;
  if (a.type() == ElemType::Int) {
    int narrow = 0;
    std::memcpy(&narrow, by, sizeof narrow);
    step = narrow;
  } else {
    std::memcpy(&step, by, sizeof step);
  }
  const Coord at = element_index(op, a, index);
  py::gil_scoped_release unlocked;
  return a.read_inc(at, step);
}

// The C++ baseline of bench/python/bench_patch.py, in the same process: `iterations` blocking
// gets or puts of patch [lo, hi) through the C++ API, no Python in the loop, on the caller's
// C-contiguous `buffer` (the very bytes the Python loop uses, so that both see the same caches
// and alignment). Seconds.
double time_patch(Array& a, const std::string& what, py::handle lo_arg, py::handle hi_arg, py::array buffer,
                  int iterations) {
  constexpr const char* op = "armada._core.time_patch";
  live(a, op);
  const Coord lo = coord_of(lo_arg, op, "lo"), hi = coord_of(hi_arg, op, "hi");
  if (what != "get" && what != "put") fail(ErrorKind::value, op, "what", what, "must be 'get' or 'put'");
  const auto bytes = static_cast<py::ssize_t>(arrays::Patch{lo, hi}.elements()) * static_cast<py::ssize_t>(a.element_size());
  if (!(buffer.flags() & py::array::c_style) || buffer.nbytes() != bytes || !buffer.writeable())
    fail(ErrorKind::value, op, "buffer", "an array of " + std::to_string(buffer.nbytes()) + " bytes",
         "must be a writable C-contiguous array of the patch's " + std::to_string(bytes) + " bytes");
  void* p = buffer.mutable_data();
  py::gil_scoped_release unlocked;
  const double start = MPI_Wtime();
  for (int i = 0; i < iterations; ++i) {
    if (what == "get")
      a.get(lo, hi, p);
    else
      a.put(lo, hi, p);
  }
  return MPI_Wtime() - start;
}

}  // namespace

Array& live(Array& a, const char* op) {
  require_runtime(op);
  if (!a.valid())
    throw BindingError(ErrorKind::state,
                       rma::error_message(op, "the array was destroyed (or Armada finalized since it was created)"));
  return a;
}

std::string describe(const Array& a) {
  if (!a.valid()) return "destroyed array";
  return "array '" + a.name() + "' (" + dtype_name(a.type()) + ", shape " + tuple_str(a.dims()) + ")";
}

namespace {

// GlobalArray.get in CPython's vectorcall convention (METH_FASTCALL | METH_KEYWORDS). pybind11
// 2.10 builds a dict for every call with keywords: 0.26 us of the 0.87 us of `a.get(key, out=b)`
// at 8 B (positional: 0.61 us), and `out=` is how NumPy users write it. This reads the keyword
// names in place; the conversions and the checks are get_as's, as for every other entry point.
PyObject* get_fastcall(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  constexpr const char* names[] = {"index", "out"};
  PyObject* given[2] = {nullptr, nullptr};
  if (nargs > 2) return PyErr_Format(PyExc_TypeError, "GlobalArray.get() takes at most 2 arguments (%zd given)", nargs);
  for (Py_ssize_t i = 0; i < nargs; ++i) given[i] = args[i];
  const Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < keywords; ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    int which = -1;
    for (int n = 0; n < 2 && which < 0; ++n)
      if (PyUnicode_CompareWithASCIIString(name, names[n]) == 0) which = n;
    if (which < 0) return PyErr_Format(PyExc_TypeError, "GlobalArray.get() got an unexpected keyword argument '%U'", name);
    if (given[which])
      return PyErr_Format(PyExc_TypeError, "GlobalArray.get() got multiple values for argument '%s'", names[which]);
    given[which] = args[nargs + k];
  }
  try {
    Array& a = py::cast<Array&>(py::handle(self));
    return get_as("GlobalArray.get", a, given[0] ? given[0] : Py_Ellipsis, given[1] ? given[1] : Py_None).release().ptr();
  } catch (...) {
    set_python_error();
    return nullptr;
  }
}

// a[key] = value as the type's mapping slot itself. CPython calls mp_ass_subscript for every
// item assignment; pybind11's slot looks __setitem__ up by name and runs its generic argument
// loader, which cost ~0.5 us of the 1.1 us of an 8 B put (the get above is the same call without
// it). The conversions and checks stay put_or_acc's; `del a[key]` (value null) is refused.
int setitem_slot(PyObject* self, PyObject* key, PyObject* value) {
  if (!value) {
    PyErr_SetString(PyExc_TypeError, "GlobalArray does not support item deletion (del a[index])");
    return -1;
  }
  try {
    put_or_acc(py::cast<Array&>(py::handle(self)), key, value, std::nullopt);
    return 0;
  } catch (...) {
    set_python_error();
    return -1;
  }
}

PyMethodDef g_get_method{
    "get", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&get_fastcall)), METH_FASTCALL | METH_KEYWORDS,
    "get($self, /, index=..., out=None)\n--\n\n"
    "The patch a[index] as a NumPy array (a one-sided get); into `out` when given (no copy when out is "
    "C-contiguous or a row-major box of the array's dtype)."};

}  // namespace

void bind_array(py::module_& m) {
  py::class_<Request>(m, "Request", "The operations of one nonblocking get, put or acc.")
      .def("wait", &Request::wait,
           "Waits until the operations completed; returns the data (get) or None (put, acc).")
      .def("done", &Request::done, "True once the operations completed (then wait() returns at once).");

  py::class_<Array> cls(m, "GlobalArray", "A distributed N-d array (docs/python.md).");
  PyObject* get_method = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), &g_get_method);
  if (!get_method) throw py::error_already_set();
  cls.attr("get") = py::reinterpret_steal<py::object>(get_method);
  cls.def("__getitem__", [](Array& a, py::handle key) { return get_as("GlobalArray.__getitem__", a, key, py::none()); },
          py::arg("index"))
      .def("__setitem__", &put, py::arg("index"), py::arg("value"))  // named; a[k] = v takes the slot below
      .def("put", &put, py::arg("index"), py::arg("value"), "a[index] = value (a one-sided put, broadcasting).")
      .def("acc", &acc, py::arg("index"), py::arg("value"), py::arg("alpha") = 1,
           "a[index] += alpha * value, atomically per element (a one-sided accumulate).")
      .def("get_nb", &get_nb, py::arg("index") = py::ellipsis(), py::arg("out") = py::none(),
           "A nonblocking get: wait() returns the data (`out` when given).")
      .def("put_nb", [](Array& a, py::handle k, py::handle v) { return update_nb(a, k, v, std::nullopt); },
           py::arg("index"), py::arg("value"))
      .def("acc_nb", [](Array& a, py::handle k, py::handle v, py::handle alpha) { return update_nb(a, k, v, alpha); },
           py::arg("index"), py::arg("value"), py::arg("alpha") = 1)
      .def("local", &local, py::arg("ghosts") = false,
           "This rank's block as a writable NumPy view (no copy); with ghosts=True including the ghost cells.")
      .def("local_bounds", &local_bounds, py::arg("ghosts") = false,
           "(lo, hi): the global index range [lo, hi) of local().")
      .def("gather", &gather, py::arg("indices"), "The elements at the index arrays, as a 1-D array.")
      .def("scatter", [](Array& a, py::handle i, py::handle v) { scatter(a, i, v, std::nullopt); },
           py::arg("indices"), py::arg("values"))
      .def("scatter_acc", [](Array& a, py::handle i, py::handle v, py::object alpha) { scatter(a, i, v, alpha); },
           py::arg("indices"), py::arg("values"), py::arg("alpha") = 1)
      .def("read_inc", &read_inc, py::arg("index"), py::arg("increment") = py::int_(1),
           "Atomically adds increment to the int32/int64 element and returns its old value.")
      .def_property_readonly("shape", [](const Array& a) { return to_tuple(live(const_cast<Array&>(a), "GlobalArray.shape").dims()); })
      .def_property_readonly("ndim", [](const Array& a) { return live(const_cast<Array&>(a), "GlobalArray.ndim").ndim(); })
      .def_property_readonly("size", [](const Array& a) { return live(const_cast<Array&>(a), "GlobalArray.size").dims().product(); })
      .def_property_readonly("dtype", [](const Array& a) { return dtype_of(live(const_cast<Array&>(a), "GlobalArray.dtype").type()); })
      .def_property_readonly("name", [](const Array& a) { return live(const_cast<Array&>(a), "GlobalArray.name").name(); })
      .def_property_readonly("ghosts", [](const Array& a) { return to_tuple(live(const_cast<Array&>(a), "GlobalArray.ghosts").ghosts()); })
      .def_property_readonly("valid", &Array::valid, "False once destroyed.")
      .def("owner", [](Array& a, py::handle index) {
             constexpr const char* op = "GlobalArray.owner";
             return a.locate(element_index(op, live(a, op), index));
           }, py::arg("index"), "The rank owning the element at index.")
      .def("block", [](Array& a, int rank) {
             arrays::Patch p = live(a, "GlobalArray.block").owned(rank);
             return py::make_tuple(to_tuple(p.lo), to_tuple(p.hi));
           }, py::arg("rank"), "(lo, hi): the block owned by rank.")
      .def("__len__", [](const Array& a) { return live(const_cast<Array&>(a), "GlobalArray.__len__").dims()[0]; })
      .def("__repr__", [](const Array& a) {
        return a.valid() ? "<armada.GlobalArray " + describe(a) + ">" : std::string("<armada.GlobalArray (destroyed)>");
      });
  bind_collectives(m, cls);
  // After every def: pybind11 filled the slot from __setitem__ (a heap type: its slots are ours).
  reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_as_mapping->mp_ass_subscript = &setitem_slot;
  m.def("_time_patch", &time_patch, py::arg("a"), py::arg("what"), py::arg("lo"), py::arg("hi"), py::arg("buffer"),
        py::arg("iterations"));
}

}  // namespace armada::python
