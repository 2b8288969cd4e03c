// armada._core.linalg: distributed gemm, LU and Cholesky solves, symmetric eigensolver and
// inverse (armada::linalg) on GlobalArrays. Collective over the arrays' group.
#include "armada/linalg/linalg.hpp"

#include "bindings.hpp"

namespace armada::python {

namespace {

namespace la = armada::linalg;

// The binding's checks depend only on the arrays (the same on every member) or are agreed.
void require_float(const char* op, const char* argument, const Array& a) {
  live(const_cast<Array&>(a), op);
  if (a.type() == ElemType::Int || a.type() == ElemType::Long)
    fail(ErrorKind::type, op, argument, describe(a), "linalg needs float32, float64, complex64 or complex128");
}

void require_same_type(const char* op, const Array& a, const char* argument, const Array& b) {
  require_float(op, argument, b);
  if (a.type() != b.type()) fail(ErrorKind::type, op, argument, describe(b), "must have the dtype of " + describe(a));
}

la::Op op_of(const char* op, const char* argument, const std::string& trans) {
  if (trans == "N" || trans == "n") return la::Op::none;
  if (trans == "T" || trans == "t") return la::Op::transpose;
  if (trans == "C" || trans == "c" || trans == "H" || trans == "h") return la::Op::conj_transpose;
  fail(ErrorKind::value, op, argument, "'" + trans + "'", "must be 'N' (as is), 'T' (transpose) or 'C' (conjugate transpose)");
}

void gemm(const Array& a, const Array& b, Array& c, py::handle alpha, py::handle beta, const std::string& transa,
          const std::string& transb) {
  constexpr const char* op = "armada.linalg.gemm";
  require_float(op, "a", a);
  require_same_type(op, a, "b", b);
  require_same_type(op, a, "c", c);
  alignas(16) std::byte al[16]{}, be[16]{};
  la::Op opa{}, opb{};
  agreed(op, c.group(), [&] {
    scalar_of(alpha, a.type(), op, "alpha", al);
    scalar_of(beta, a.type(), op, "beta", be);
    opa = op_of(op, "transa", transa);
    opb = op_of(op, "transb", transb);
  });
  py::gil_scoped_release unlocked;
  la::detail::gemm(opa, opb, al, a, b, be, c);
}

void lu_solve(const Array& a, Array& b, const std::string& trans) {
  constexpr const char* op = "armada.linalg.lu_solve";
  require_float(op, "a", a);
  require_same_type(op, a, "b", b);
  la::Op o{};
  agreed(op, a.group(), [&] { o = op_of(op, "trans", trans); });
  py::gil_scoped_release unlocked;
  la::detail::lu_solve(o, a, b);
}

// An operation on a matrix and one output of its dtype, with no other argument to agree on.
template <void (*call)(const Array&, Array&)>
void on_matrix_and_output(const char* op, const char* output, const Array& a, Array& out) {
  require_float(op, "a", a);
  require_same_type(op, a, output, out);
  py::gil_scoped_release unlocked;
  call(a, out);
}

// Eigenvalues (a NumPy array of the real dtype) into w; eigenvectors into v.
py::array eigen_symmetric(const Array& a, Array& v) {
  constexpr const char* op = "armada.linalg.eigen_symmetric";
  require_float(op, "a", a);
  require_same_type(op, a, "v", v);
  const ElemType real = a.type() == ElemType::ComplexFloat ? ElemType::Float
                        : a.type() == ElemType::ComplexDouble ? ElemType::Double
                                                               : a.type();
  if (a.ndim() != 2) fail(ErrorKind::value, op, "a", describe(a), "must be a square matrix");
  py::array w(dtype_of(real), std::vector<py::ssize_t>{a.dims()[0]});
  void* p = w.mutable_data();
  py::gil_scoped_release unlocked;
  la::detail::eigen_symmetric(a, v, p);
  return w;
}


}  // namespace

void bind_linalg(py::module_& m) {
  py::module_ la = m.def_submodule("linalg", "Distributed linear algebra (armada::linalg).");
  la.def("gemm", &gemm, py::arg("a"), py::arg("b"), py::arg("c"), py::arg("alpha") = 1, py::arg("beta") = 0,
         py::arg("transa") = "N", py::arg("transb") = "N");
  la.def("lu_solve", &lu_solve, py::arg("a"), py::arg("b"), py::arg("trans") = "N");
  la.def("cholesky_solve", [](const Array& a, Array& b) {
    on_matrix_and_output<&la::detail::cholesky_solve>("armada.linalg.cholesky_solve", "b", a, b);
  }, py::arg("a"), py::arg("b"));
  la.def("eigen_symmetric", &eigen_symmetric, py::arg("a"), py::arg("v"));
  la.def("inverse", [](const Array& a, Array& inv) {
    on_matrix_and_output<&la::detail::inverse>("armada.linalg.inverse", "inv", a, inv);
  }, py::arg("a"), py::arg("inv"));
}

}  // namespace armada::python
