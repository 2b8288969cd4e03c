// Argument checks of linalg (see internal.hpp).
#include <algorithm>

#include "armada/linalg/errors.hpp"
#include "armada/rma/error.hpp"
#include "armada/rma/runtime.hpp"
#include "internal.hpp"

namespace armada::linalg {

NumericalError::NumericalError(rma::ErrorKind kind, std::string operation, std::int64_t index,
                               const std::string& text)
    : rma::Error(kind, operation, rma::error_message(operation, text)), index_(index) {}

SingularMatrix::SingularMatrix(std::string operation, std::int64_t pivot)
    : NumericalError(rma::ErrorKind::singular, operation, pivot,
                     "the matrix is singular: pivot " + std::to_string(pivot) + " (U(" + std::to_string(pivot) +
                         "," + std::to_string(pivot) + "), one-based) is exactly zero") {}

NotPositiveDefinite::NotPositiveDefinite(std::string operation, std::int64_t minor)
    : NumericalError(rma::ErrorKind::not_positive_definite, operation, minor,
                     "the matrix is not positive definite: its leading minor of order " + std::to_string(minor) +
                         " is not positive definite") {}

NoConvergence::NoConvergence(std::string operation, std::int64_t info)
    : NumericalError(rma::ErrorKind::no_convergence, operation, info,
                     "the eigensolver did not converge (ScaLAPACK info " + std::to_string(info) + ")") {}

namespace detail {

Box Box::intersect(const Box& o) const {
  return {std::max(r0, o.r0), std::min(r1, o.r1), std::max(c0, o.c0), std::min(c1, o.c1)};
}

void reject(const char* op, const char* arg, const std::string& value, const std::string& reason,
            rma::ErrorKind kind) {
  throw rma::InvalidArgument(op, arg, value, reason, kind);
}

std::string shape(Index rows, Index cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

void require_matrix(const char* op, const char* arg, const Array& a) {
  if (!a.impl()) reject(op, arg, "(no array)", "the array was never created", rma::ErrorKind::handle);
  if (a.ndim() != 2)  // a destroyed array throws rma::StateError here
    reject(op, arg, a.name() + " with dims " + a.dims().str(), "linalg works on 2-D arrays");
  const auto t = a.type();
  if (t != arrays::ElemType::Float && t != arrays::ElemType::Double && t != arrays::ElemType::ComplexFloat &&
      t != arrays::ElemType::ComplexDouble)
    reject(op, arg, a.name() + " of type " + arrays::to_string(t),
           "linalg works on float, double, complex<float> and complex<double> arrays", rma::ErrorKind::type);
  if (!a.group().is_member())
    reject(op, arg, a.name(), "the calling rank is not a member of the array's group");
}

void require_square(const char* op, const char* arg, const Array& a) {
  require_matrix(op, arg, a);
  if (a.dims()[0] != a.dims()[1]) reject(op, arg, a.name() + " with dims " + a.dims().str(), "must be square");
}

void require_like(const char* op, const char* arg, const Array& a, const char* ref_arg, const Array& ref) {
  if (a.type() != ref.type())
    reject(op, arg, a.name() + " of type " + arrays::to_string(a.type()),
           std::string("must have the element type of '") + ref_arg + "' (" + arrays::to_string(ref.type()) + ")",
           rma::ErrorKind::type);
  if (!(a.group() == ref.group()))
    reject(op, arg, a.name(), std::string("must be on the group of '") + ref_arg + "' (" + ref.name() + ")");
}

void require_distinct(const char* op, const char* arg, const Array& a, const char* other_arg, const Array& other) {
  if (a.impl() == other.impl())
    reject(op, arg, a.name(), std::string("must not be the same array as '") + other_arg + "'");
}

void require_patch(const char* op, const char* lo_arg, const char* hi_arg, const Array& a, const Coord& lo,
                   const Coord& hi) {
  if (lo.size() != 2) reject(op, lo_arg, lo.str(), "a patch corner of a 2-D array has 2 entries");
  if (hi.size() != 2) reject(op, hi_arg, hi.str(), "a patch corner of a 2-D array has 2 entries");
  for (int d = 0; d < 2; ++d) {
    if (lo[d] < 0 || lo[d] > a.dims()[d])
      reject(op, lo_arg, lo.str(), "outside array " + a.name() + " with dims " + a.dims().str());
    if (hi[d] < lo[d] || hi[d] > a.dims()[d])
      reject(op, hi_arg, hi.str(),
             "outside array " + a.name() + " with dims " + a.dims().str() + " or below lo " + lo.str());
  }
}

// A ScaLAPACK argument error is a bug of ours, not of the caller: an internal error.
void require_ok_arguments(const char* op, const char* routine, int info) {
  if (info < 0)
    throw rma::Error(rma::ErrorKind::internal, op,
                     rma::error_message(op, std::string(routine) + " rejected its argument " + std::to_string(-info) +
                                            " (a bug: please report this message)"));
}

void require_op(const char* op, const char* arg, Op value) {
  const int v = static_cast<int>(value);
  if (v < 0 || v > 2)
    reject(op, arg, std::to_string(v), "must be none (0), transpose (1) or conjugate transpose (2)");
}

}  // namespace detail
}  // namespace armada::linalg
