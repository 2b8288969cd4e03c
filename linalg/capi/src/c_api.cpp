// The C API of linalg: array handles (the arrays C API's) over the C++ API; exceptions become
// codes and a per-thread message.
#include "armada/linalg/c_api.h"

#include <string>

#include "armada/arrays/collective.hpp"
#include "armada/linalg/linalg.hpp"
#include "armada/rma/error.hpp"
#include "armada/linalg/c_api_errors.hpp"

namespace arrays = armada::arrays;
namespace linalg = armada::linalg;
namespace rma = armada::rma;
using arrays::Array;
using arrays::Coord;

namespace {

thread_local std::string g_message;
thread_local int64_t g_index = 0;

template <class F>
int guard(const char* fn, F&& f) {
  g_index = 0;
  try {
    f();
    return ARMADA_GA_OK;
  } catch (...) {
    const int code = linalg::capi::error_codes[rma::current_error_kind()];
    try {
      throw;
    } catch (const linalg::NumericalError& e) {
      g_index = e.index();
      g_message = std::string(e.what()) + " (in " + fn + ")";
    } catch (const rma::Error& e) {
      g_message = std::string(e.what()) + " (in " + fn + ")";
    } catch (const std::exception& e) {
      g_message = std::string(fn) + ": " + e.what();
    } catch (...) {
      g_message = std::string(fn) + ": an unknown exception";
    }
    return code;
  }
}

// `fn` names the C function inside the body too (there, __func__ would be the lambda's).
#define GUARD(...)                  \
  const char* const fn = __func__; \
  return guard(fn, [&] { __VA_ARGS__; })

// The same for a collective on array `handle`'s group: when the wrapper's own checks (handles,
// corners) fail on one member, every member fails (arrays::run_as_collective).
#define COLLECTIVE_GUARD(handle, ...) \
  const char* const fn = __func__;    \
  return guard(fn, [&] { arrays::run_as_collective(fn, handle, [&] { __VA_ARGS__; }); })

Array array(int handle, const char* fn) { return arrays::find_array(handle, fn); }

Coord corner(const int64_t* p, const char* fn, const char* arg) {
  if (!p) throw rma::InvalidArgument(fn, arg, "null", "must point to 2 indices");
  return Coord{p[0], p[1]};
}

linalg::Op op_of(int op) { return static_cast<linalg::Op>(op); }  // checked by the C++ API

}  // namespace

extern "C" {

const char* armada_la_error_message(void) { return g_message.c_str(); }
int64_t armada_la_error_index(void) { return g_index; }

int armada_la_gemm(int op_a, int op_b, const void* alpha, int a, int b, const void* beta, int c) {
  COLLECTIVE_GUARD(c, Array ca = array(c, fn); const Array aa = array(a, fn), ba = array(b, fn);
        linalg::detail::gemm(op_of(op_a), op_of(op_b), alpha, aa, ba, beta, ca));
}

int armada_la_matmul_patch(int op_a, int op_b, const void* alpha, int a, const int64_t alo[], const int64_t ahi[],
                           int b, const int64_t blo[], const int64_t bhi[], const void* beta, int c,
                           const int64_t clo[], const int64_t chi[]) {
  COLLECTIVE_GUARD(c, Array ca = array(c, fn);
        linalg::detail::matmul_patch(op_of(op_a), op_of(op_b), alpha, array(a, fn), corner(alo, fn, "alo"),
                                     corner(ahi, fn, "ahi"), array(b, fn), corner(blo, fn, "blo"),
                                     corner(bhi, fn, "bhi"), beta, ca, corner(clo, fn, "clo"),
                                     corner(chi, fn, "chi")));
}

int armada_la_transpose(int a, int b) {
  COLLECTIVE_GUARD(b, Array bb = array(b, fn); linalg::detail::transpose(array(a, fn), bb));
}
int armada_la_symmetrize(int a) { COLLECTIVE_GUARD(a, Array aa = array(a, fn); linalg::detail::symmetrize(aa)); }
int armada_la_conjugate(int a) { COLLECTIVE_GUARD(a, Array aa = array(a, fn); linalg::detail::conjugate(aa)); }

int armada_la_lu_solve(int op, int a, int b) {
  COLLECTIVE_GUARD(a, Array bb = array(b, fn); linalg::detail::lu_solve(op_of(op), array(a, fn), bb));
}
int armada_la_cholesky_solve(int a, int b) {
  COLLECTIVE_GUARD(a, Array bb = array(b, fn); linalg::detail::cholesky_solve(array(a, fn), bb));
}
int armada_la_eigen_symmetric(int a, int v, void* eigenvalues) {
  COLLECTIVE_GUARD(a, Array vv = array(v, fn); linalg::detail::eigen_symmetric(array(a, fn), vv, eigenvalues));
}
int armada_la_inverse(int a, int inv) {
  COLLECTIVE_GUARD(a, Array ii = array(inv, fn); linalg::detail::inverse(array(a, fn), ii));
}
int armada_la_cholesky_inverse(int a, int inv) {
  COLLECTIVE_GUARD(a, Array ii = array(inv, fn); linalg::detail::cholesky_inverse(array(a, fn), ii));
}
int armada_la_set_blas_threads(int n) { GUARD(linalg::set_blas_threads(n)); }

}  // extern "C"
