// armada.SparseMatrix: the distributed CSR matrix of armada::arrays (float64 or complex128) and
// its products with 1-D GlobalArrays. Creation and products are collective over the group.
#include <variant>

#include "armada/arrays/sparse.hpp"
#include "bindings.hpp"

namespace armada::python {

namespace {

using arrays::SparseMatrix;

/// The matrix of either element type.
struct Sparse {
  std::variant<SparseMatrix<double>, SparseMatrix<std::complex<double>>> m;
  ElemType type;
};

template <class M>
struct element_of;
template <class T>
struct element_of<SparseMatrix<T>> {
  using type = T;
};

template <class F>
decltype(auto) visit(Sparse& s, F&& f) {
  return std::visit(std::forward<F>(f), s.m);
}

// This rank's triplets: three 1-D arrays of one length (rows, cols: integers; values: cast to T).
template <class T>
std::vector<arrays::Triplet<T>> triplets_of(const char* op, py::handle rows, py::handle cols, py::handle values,
                                            ElemType type) {
  const py::handle np = numpy();
  py::array r = np.attr("asarray")(rows), c = np.attr("asarray")(cols);
  for (auto [name, a] : {std::pair{"rows", r}, std::pair{"cols", c}})
    if (a.size() > 0 && a.dtype().kind() != 'i' && a.dtype().kind() != 'u')
      fail(ErrorKind::type, op, name, "an array of dtype " + repr_of(a.dtype()), "must hold integers");
  py::array v = as_array_of(values, type, op, "values");
  if (r.ndim() != 1 || c.ndim() != 1 || v.ndim() != 1 || r.size() != c.size() || r.size() != v.size())
    fail(ErrorKind::value, op, "values", "shapes " + repr_of(r.attr("shape")) + ", " + repr_of(c.attr("shape")) + ", " +
                                             repr_of(v.attr("shape")),
         "rows, cols and values must be 1-D arrays of one length");
  py::array_t<Index, py::array::c_style | py::array::forcecast> ri(r), ci(c);
  py::array_t<T, py::array::c_style | py::array::forcecast> vi(v);
  std::vector<arrays::Triplet<T>> t(static_cast<std::size_t>(ri.size()));
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = {ri.data()[i], ci.data()[i], vi.data()[i]};
  return t;
}

Sparse create(py::handle shape, py::handle rows, py::handle cols, py::handle values, py::handle dtype,
              py::handle name, std::optional<rma::Group> group) {
  constexpr const char* op = "SparseMatrix.create";
  require_runtime(op);
  Coord dims;
  ElemType type{};
  arrays::SparseOptions o;
  o.group = group;
  std::vector<arrays::Triplet<double>> real;
  std::vector<arrays::Triplet<std::complex<double>>> complex;
  agreed(op, group ? *group : rma::Group::world(), [&] {
    dims = coord_of(shape, op, "shape");
    if (dims.size() != 2) fail(ErrorKind::value, op, "shape", repr_of(shape), "must be (rows, cols)");
    type = elem_type_of(dtype, op, "dtype");
    if (type != ElemType::Double && type != ElemType::ComplexDouble)
      fail(ErrorKind::type, op, "dtype", repr_of(dtype), "sparse matrices hold float64 or complex128");
    if (!name.is_none()) o.name = py::str(name).cast<std::string>();
    if (type == ElemType::Double)
      real = triplets_of<double>(op, rows, cols, values, type);
    else
      complex = triplets_of<std::complex<double>>(op, rows, cols, values, type);
  });
  py::gil_scoped_release unlocked;
  if (type == ElemType::Double) return {SparseMatrix<double>::create(dims[0], dims[1], real, o), type};
  return {SparseMatrix<std::complex<double>>::create(dims[0], dims[1], complex, o), type};
}

// y = alpha * A x + beta * y, or with A's transpose.
void spmv(Sparse& s, const Array& x, Array& y, py::handle alpha, py::handle beta, bool transpose) {
  const char* op = transpose ? "SparseMatrix.spmv_transposed" : "SparseMatrix.spmv";
  live(const_cast<Array&>(x), op);
  live(y, op);
  for (auto [name, a] : {std::pair{"x", &x}, std::pair{"y", static_cast<const Array*>(&y)}})
    if (a->type() != s.type)
      fail(ErrorKind::type, op, name, describe(*a), "must have the matrix's dtype " + dtype_name(s.type));
  alignas(16) std::byte al[16]{}, be[16]{};
  agreed(op, y.group(), [&] {
    scalar_of(alpha, s.type, op, "alpha", al);
    scalar_of(beta, s.type, op, "beta", be);
  });
  py::gil_scoped_release unlocked;
  visit(s, [&](auto& m) {
    using T = typename element_of<std::remove_reference_t<decltype(m)>>::type;
    const arrays::GlobalArray<T> xt(x);
    arrays::GlobalArray<T> yt(y);
    const T a = *reinterpret_cast<const T*>(al), b = *reinterpret_cast<const T*>(be);
    if (transpose)
      arrays::spmv_transposed(m, xt, yt, a, b);
    else
      arrays::spmv(m, xt, yt, a, b);
  });
}

}  // namespace

void bind_sparse(py::module_& m) {
  py::class_<Sparse>(m, "SparseMatrix", "A distributed sparse matrix (CSR by row blocks), float64 or complex128.")
      .def_static("create", &create, py::arg("shape"), py::arg("rows"), py::arg("cols"), py::arg("values"),
                  py::arg("dtype") = py::module_::import("numpy").attr("float64"), py::kw_only(),
                  py::arg("name") = py::none(), py::arg("group") = std::nullopt,
                  "Builds a (rows, cols) matrix from this rank's triplets A[rows[i], cols[i]] += values[i] "
                  "(any rank may pass entries of any row); collective.")
      .def("spmv", [](Sparse& s, const Array& x, Array& y, py::handle alpha, py::handle beta, bool transpose) {
             spmv(s, x, y, alpha, beta, transpose);
           }, py::arg("x"), py::arg("y"), py::arg("alpha") = 1, py::arg("beta") = 0, py::arg("transpose") = false,
           "y = alpha * A @ x + beta * y (A.T with transpose=True, no conjugation); collective.")
      .def_property_readonly("shape", [](Sparse& s) {
        return visit(s, [](auto& m) { return py::make_tuple(m.rows(), m.cols()); });
      })
      .def_property_readonly("dtype", [](Sparse& s) { return dtype_of(s.type); })
      .def("local_rows", [](Sparse& s) { return visit(s, [](auto& m) { return m.local_rows(); }); },
           "(first, last): this rank's rows [first, last).")
      .def("nonzeros", [](Sparse& s) {
        py::gil_scoped_release unlocked;
        return visit(s, [](auto& m) { return m.nonzeros(); });
      }, "Stored entries on every rank (collective).");
}

}  // namespace armada::python
