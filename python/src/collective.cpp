// Collective calls of armada.GlobalArray: creation and destruction, whole-array operations,
// ghost cells, groups. Each is collective over the array's group; the binding's own argument
// conversion is agreed on before Armada is called (see agreed()), Armada's checks agree by
// themselves, so a bad argument raises on every member and never leaves one waiting.
#include <mpi.h>

#include <cmath>
#include <limits>


#include "armada/rma/group.hpp"
#include "armada/rma/runtime.hpp"
#include "bindings.hpp"

namespace armada::python {

std::optional<rma::Group> optional_group(const char* op, py::handle group) {
  if (group.is_none()) return std::nullopt;
  if (!py::isinstance<rma::Group>(group)) fail(ErrorKind::type, op, "group", repr_of(group), "must be an armada.Group or None");
  return group.cast<rma::Group>();
}

void distribution_options(const char* op, const DistributionArgs& args, int ndims, arrays::ArrayOptions& o) {
  if (!args.chunks.is_none()) o.chunk = coord_of(args.chunks, op, "chunks");
  if (!args.grid.is_none()) o.grid = coord_of(args.grid, op, "grid");
  if (!args.ghosts.is_none()) {
    o.ghosts = coord_of(args.ghosts, op, "ghosts");
    if (PyIndex_Check(args.ghosts.ptr())) o.ghosts = Coord::filled(ndims, o.ghosts[0]);  // one width for all
  }
  if (!args.name.is_none()) {
    if (!py::isinstance<py::str>(args.name)) fail(ErrorKind::type, op, "name", repr_of(args.name), "must be a string");
    o.name = args.name.cast<std::string>();
  }
  if (!args.block_starts.is_none())
    for (py::handle starts : py::iter(args.block_starts))
      o.block_starts.push_back(coord_of(starts, op, "block_starts").to_vector());
}

namespace {

namespace detail = arrays::detail;

Array create(py::handle shape, py::handle dtype, py::handle chunks, py::handle ghosts, py::handle group,
             py::handle name, py::handle grid, py::handle block_starts) {
  constexpr const char* op = "GlobalArray.create";
  require_runtime(op);
  ElemType type{};
  Coord dims;
  arrays::ArrayOptions o;
  o.group = optional_group(op, group);
  agreed(op, o.group ? *o.group : rma::Group::world(), [&] {
    dims = coord_of(shape, op, "shape");
    type = elem_type_of(dtype, op, "dtype");
    distribution_options(op, {chunks, ghosts, name, grid, block_starts}, dims.size(), o);
  });
  py::gil_scoped_release unlocked;
  return Array::create(type, dims, o);
}

// The arrays of one whole-array operation must hold one dtype (the same outcome on every member:
// no agreement needed).
void require_same_type(const char* op, const Array& a, const char* argument, const Array& b) {
  if (a.type() != b.type())
    fail(ErrorKind::type, op, argument, describe(b), "must have the dtype of " + describe(a));
}

/// One element of the array type as a NumPy scalar.
py::object numpy_scalar(ElemType type, const void* value) {
  py::array one(dtype_of(type), std::vector<py::ssize_t>{}, value);
  return one[py::tuple()];
}

void unary(Array& a, const char* op, detail::UnaryOp what, py::handle value) {
  live(a, op);
  alignas(16) std::byte v[16]{};
  agreed(op, a.group(), [&] {
    if (!value.is_none()) scalar_of(value, a.type(), op, "value", v);
  });
  py::gil_scoped_release unlocked;
  detail::unary_patch(what, a, arrays::full_lo(a), arrays::full_hi(a), v);
}

py::object dot(const Array& a, const Array& b) {
  constexpr const char* op = "armada.dot";
  live(const_cast<Array&>(a), op);
  live(const_cast<Array&>(b), op);
  require_same_type(op, a, "b", b);
  alignas(16) std::byte r[16]{};
  {
    py::gil_scoped_release unlocked;
    detail::dot_patch(a, arrays::full_lo(a), arrays::full_hi(a), b, arrays::full_lo(b), arrays::full_hi(b), r);
  }
  return numpy_scalar(a.type(), r);
}

// sum |x|^2 over this rank's block (its local view, strided).
template <class T>
double local_sum_of_squares(const arrays::LocalView<void>& view) {
  if (view.empty()) return 0;
  const int n = view.ndim();
  const T* data = static_cast<const T*>(view.data);
  double sum = 0;
  Coord at = Coord::filled(n, 0);
  const Coord ext = arrays::Patch{view.lo, view.hi}.extents();
  for (;;) {
    Index off = 0;
    for (int d = 0; d < n - 1; ++d) off += at[d] * view.stride[d];
    for (Index i = 0; i < ext[n - 1]; ++i) sum += static_cast<double>(std::norm(data[off + i]));
    int d = n - 2;
    for (; d >= 0; --d) {
      if (++at[d] < ext[d]) break;
      at[d] = 0;
    }
    if (d < 0) return sum;
  }
}

// ord: None or "fro" (sqrt of the sum of |x|^2, any shape), 1 and inf (Armada's 1- and
// infinity norms of a vector or matrix).
double norm(Array& a, py::handle ord) {
  constexpr const char* op = "GlobalArray.norm";
  live(a, op);
  int kind = -1;  // 0: Frobenius, 1: one, 2: infinity
  agreed(op, a.group(), [&] {
    if (ord.is_none() || (py::isinstance<py::str>(ord) && ord.cast<std::string>() == "fro")) {
      kind = 0;
    } else if (PyNumber_Check(ord.ptr()) && !py::isinstance<py::str>(ord)) {
      const double v = ord.cast<double>();
      if (v == 1) kind = 1;
      if (std::isinf(v) && v > 0) kind = 2;
    }
    if (kind < 0) fail(ErrorKind::value, op, "ord", repr_of(ord), "must be None, 'fro', 1 or numpy.inf");
  });
  py::gil_scoped_release unlocked;
  if (kind == 1) return arrays::norm1(a);
  if (kind == 2) return arrays::norm_infinity(a);
  a.sync_group();
  arrays::LocalView<void> view = a.access();
  double sum = with_element_type(a.type(), [&](auto tag) { return local_sum_of_squares<decltype(tag)>(view); });
  a.release();
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, a.group().comm());
  return std::sqrt(sum);
}

void copy(const Array& src, Array& dst) {
  constexpr const char* op = "armada.copy";
  live(const_cast<Array&>(src), op);
  live(dst, op);
  require_same_type(op, src, "dst", dst);
  py::gil_scoped_release unlocked;
  detail::copy_patch(src, arrays::full_lo(src), arrays::full_hi(src), dst, arrays::full_lo(dst), arrays::full_hi(dst), false);
}

void add(const Array& a, const Array& b, Array& c, py::handle alpha, py::handle beta) {
  constexpr const char* op = "armada.add";
  for (const Array* x : {&a, &b, static_cast<const Array*>(&c)}) live(const_cast<Array&>(*x), op);
  require_same_type(op, a, "b", b);
  require_same_type(op, a, "c", c);
  alignas(16) std::byte al[16]{}, be[16]{};
  agreed(op, c.group(), [&] {
    scalar_of(alpha, a.type(), op, "alpha", al);
    scalar_of(beta, a.type(), op, "beta", be);
  });
  py::gil_scoped_release unlocked;
  detail::binary_patch(detail::BinaryOp::Add, al, a, arrays::full_lo(a), arrays::full_hi(a), be, b,
                       arrays::full_lo(b), arrays::full_hi(b), c, arrays::full_lo(c), arrays::full_hi(c));
}

void elementwise(const char* op, detail::BinaryOp what, const Array& a, const Array& b, Array& c) {
  for (const Array* x : {&a, &b, static_cast<const Array*>(&c)}) live(const_cast<Array&>(*x), op);
  require_same_type(op, a, "b", b);
  require_same_type(op, a, "c", c);
  py::gil_scoped_release unlocked;
  detail::binary_patch(what, nullptr, a, arrays::full_lo(a), arrays::full_hi(a), nullptr, b, arrays::full_lo(b),
                       arrays::full_hi(b), c, arrays::full_lo(c), arrays::full_hi(c));
}

rma::Group make_group(const std::vector<int>& ranks) {
  require_runtime("armada.Group");
  py::gil_scoped_release unlocked;
  return rma::Group::create(rma::Group::world(), ranks);
}

}  // namespace

void bind_collectives(py::module_& m, py::class_<Array>& cls) {
  py::class_<rma::Group>(m, "Group", "An ordered subset of Armada's ranks (its world).")
      .def(py::init(&make_group), py::arg("ranks"),
           "A group of the listed world ranks; collective over the world (every rank passes the same list).")
      .def_property_readonly("size", &rma::Group::size)
      .def_property_readonly("rank", &rma::Group::rank, "This rank's place in the group, -1 if not a member.")
      .def_property_readonly("ranks", [](const rma::Group& g) {
        return std::vector<int>(g.world_ranks().begin(), g.world_ranks().end());
      })
      .def_property_readonly("is_member", &rma::Group::is_member);

  cls.def_static("create", &create, py::arg("shape"), py::arg("dtype") = py::module_::import("numpy").attr("float64"),
                 py::kw_only(), py::arg("chunks") = py::none(), py::arg("ghosts") = py::none(),
                 py::arg("group") = py::none(), py::arg("name") = py::none(), py::arg("grid") = py::none(),
                 py::arg("block_starts") = py::none(),
                 "A new zeroed array; collective over the group (default: every rank).")
      .def("duplicate", [](Array& a, const std::string& name) {
             live(a, "GlobalArray.duplicate");
             py::gil_scoped_release unlocked;
             return a.duplicate(name);
           }, py::arg("name") = "", "A new zeroed array of the same dtype, distribution, ghosts and group.")
      .def("destroy", [](Array& a) {
             live(a, "GlobalArray.destroy");
             py::gil_scoped_release unlocked;
             a.destroy();
           }, "Frees the array (collective over its group); local() views of it become invalid.")
      .def("fill", [](Array& a, py::handle v) { unary(a, "GlobalArray.fill", detail::UnaryOp::Fill, v); }, py::arg("value"))
      .def("zero", [](Array& a) { unary(a, "GlobalArray.zero", detail::UnaryOp::Fill, py::int_(0)); })
      .def("scale", [](Array& a, py::handle v) { unary(a, "GlobalArray.scale", detail::UnaryOp::Scale, v); }, py::arg("alpha"))
      .def("add_constant", [](Array& a, py::handle v) { unary(a, "GlobalArray.add_constant", detail::UnaryOp::AddConstant, v); },
           py::arg("alpha"))
      .def("dot", &dot, py::arg("other"), "sum(a * other) without conjugation; collective.")
      .def("norm", &norm, py::arg("ord") = py::none(), "Frobenius (None, 'fro'), 1 or inf norm; collective.")
      .def("copy_to", &copy, py::arg("dst"), "dst[...] = a[...] for any distributions; collective.")
      .def("update_ghosts", [](Array& a, bool periodic) {
             live(a, "GlobalArray.update_ghosts");
             py::gil_scoped_release unlocked;
             a.update_ghosts(periodic);
           }, py::arg("periodic") = false, "Fills every rank's ghost cells from their owners; collective.")
      .def("sync_group", [](Array& a) {
             live(a, "GlobalArray.sync_group");
             py::gil_scoped_release unlocked;
             a.sync_group();
           }, "Completes this rank's operations and barriers the array's group.");

  m.def("dot", &dot, py::arg("a"), py::arg("b"));
  m.def("copy", &copy, py::arg("src"), py::arg("dst"));
  m.def("add", &add, py::arg("a"), py::arg("b"), py::arg("c"), py::arg("alpha") = 1, py::arg("beta") = 1,
        "c = alpha * a + beta * b; collective.");
  m.def("multiply", [](const Array& a, const Array& b, Array& c) {
    elementwise("armada.multiply", detail::BinaryOp::Multiply, a, b, c);
  }, py::arg("a"), py::arg("b"), py::arg("c"), "c = a * b element-wise; collective.");
}

}  // namespace armada::python
