// The C API's collective operations (operations.hpp): whole arrays and patches, the patch forms
// in both index views.
#include <cstdio>
#include <iostream>

#include "capi_internal.hpp"

namespace arrays = armada::arrays;
namespace capi = armada::arrays::capi;
namespace detail = armada::arrays::detail;
using arrays::Array;
using arrays::Coord;
using capi::Convention;
using capi::need;

namespace {

Coord lo_of(const Array& a) { return arrays::full_lo(a); }
Coord hi_of(const Array& a) { return arrays::full_hi(a); }

// One array and a patch of it, in the C++ API's terms.
struct Part {
  Array a;
  Coord lo, hi;
  Part(const Convention& cv, const char* fn, int handle, const int64_t* l, const int64_t* h, const char* lo_name,
       const char* hi_name)
      : a(capi::arr(handle, fn)), lo(cv.index(l, a.ndim(), fn, lo_name)), hi(cv.tuple(h, a.ndim(), fn, hi_name)) {
    cv.check_patch(fn, a, l, h, nullptr, lo_name, hi_name);
  }
  // The whole array.
  Part(int handle, const char* fn) : a(capi::arr(handle, fn)), lo(lo_of(a)), hi(hi_of(a)) {}
};

// The whole array.
int unary(const char* fn, detail::UnaryOp op, int handle, const void* value, bool needs_value) {
  return capi::collective_guard(fn, handle, [&] {
    if (needs_value) need(value, fn, op == detail::UnaryOp::Fill ? "value" : "alpha");
    Part p(handle, fn);
    detail::unary_patch(op, p.a, p.lo, p.hi, value);
  });
}

void binary(detail::BinaryOp op, const void* alpha, const Part& a, const void* beta, const Part& b, Part& c) {
  detail::binary_patch(op, alpha, a.a, a.lo, a.hi, beta, b.a, b.lo, b.hi, c.a, c.lo, c.hi);
}

namespace impl {

int unary_patch(const Convention& cv, const char* fn, detail::UnaryOp op, int handle, const int64_t* lo,
                const int64_t* hi, const void* value, bool needs_value) {
  return capi::collective_guard(fn, handle, [&] {
    if (needs_value) need(value, fn, op == detail::UnaryOp::Fill ? "value" : "alpha");
    Part p(cv, fn, handle, lo, hi, "lo", "hi");
    detail::unary_patch(op, p.a, p.lo, p.hi, value);
  });
}
int fill_patch(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi,
               const void* value) {
  return unary_patch(cv, fn, detail::UnaryOp::Fill, handle, lo, hi, value, true);
}
int zero_patch(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi) {
  const unsigned char zero[16] = {};  // zero of every element type (complex<double> is 16 bytes)
  return unary_patch(cv, fn, detail::UnaryOp::Fill, handle, lo, hi, zero, true);
}
int scale_patch(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi,
                const void* alpha) {
  return unary_patch(cv, fn, detail::UnaryOp::Scale, handle, lo, hi, alpha, true);
}
int add_constant_patch(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi,
                       const void* alpha) {
  return unary_patch(cv, fn, detail::UnaryOp::AddConstant, handle, lo, hi, alpha, true);
}
int abs_patch(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi) {
  return unary_patch(cv, fn, detail::UnaryOp::Abs, handle, lo, hi, nullptr, false);
}
int reciprocal_patch(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi) {
  return unary_patch(cv, fn, detail::UnaryOp::Reciprocal, handle, lo, hi, nullptr, false);
}

int copy_patch(const Convention& cv, const char* fn, int ha, const int64_t* alo, const int64_t* ahi, int hb,
               const int64_t* blo, const int64_t* bhi, int transpose) {
  return capi::collective_guard(fn, hb, [&] {
    const Part a(cv, fn, ha, alo, ahi, "alo", "ahi");
    Part b(cv, fn, hb, blo, bhi, "blo", "bhi");
    detail::copy_patch(a.a, a.lo, a.hi, b.a, b.lo, b.hi, transpose != 0);
  });
}

int binary_patch(const Convention& cv, const char* fn, detail::BinaryOp op, const void* alpha, int ha,
                 const int64_t* alo, const int64_t* ahi, const void* beta, int hb, const int64_t* blo,
                 const int64_t* bhi, int hc, const int64_t* clo, const int64_t* chi) {
  return capi::collective_guard(fn, hc, [&] {
    if (op == detail::BinaryOp::Add) {
      need(alpha, fn, "alpha");
      need(beta, fn, "beta");
    }
    const Part a(cv, fn, ha, alo, ahi, "alo", "ahi"), b(cv, fn, hb, blo, bhi, "blo", "bhi");
    Part c(cv, fn, hc, clo, chi, "clo", "chi");
    binary(op, alpha, a, beta, b, c);
  });
}
int add_patch(const Convention& cv, const char* fn, const void* alpha, int a, const int64_t* alo, const int64_t* ahi,
              const void* beta, int b, const int64_t* blo, const int64_t* bhi, int c, const int64_t* clo,
              const int64_t* chi) {
  return binary_patch(cv, fn, detail::BinaryOp::Add, alpha, a, alo, ahi, beta, b, blo, bhi, c, clo, chi);
}
#define ARMADA_GA_ELEMENTWISE(name, op)                                                                          \
  int name(const Convention& cv, const char* fn, int a, const int64_t* alo, const int64_t* ahi, int b,          \
           const int64_t* blo, const int64_t* bhi, int c, const int64_t* clo, const int64_t* chi) {             \
    return binary_patch(cv, fn, detail::BinaryOp::op, nullptr, a, alo, ahi, nullptr, b, blo, bhi, c, clo, chi); \
  }
ARMADA_GA_ELEMENTWISE(elem_multiply_patch, Multiply)
ARMADA_GA_ELEMENTWISE(elem_divide_patch, Divide)
ARMADA_GA_ELEMENTWISE(elem_max_patch, Max)
ARMADA_GA_ELEMENTWISE(elem_min_patch, Min)
#undef ARMADA_GA_ELEMENTWISE

int dot_patch(const Convention& cv, const char* fn, int ha, const int64_t* alo, const int64_t* ahi, int hb,
              const int64_t* blo, const int64_t* bhi, void* result) {
  return capi::collective_guard(fn, ha, [&] {
    need(result, fn, "result");
    const Part a(cv, fn, ha, alo, ahi, "alo", "ahi"), b(cv, fn, hb, blo, bhi, "blo", "bhi");
    detail::dot_patch(a.a, a.lo, a.hi, b.a, b.lo, b.hi, result);
  });
}

void select(const Convention& cv, const char* fn, const Part& p, int want_max, void* value, int64_t* index) {
  need(value, fn, "value");
  need(index, fn, "index");
  cv.out_index(detail::select(p.a, p.lo, p.hi, want_max != 0, value), index);
}
int select_elem(const Convention& cv, const char* fn, int handle, int want_max, void* value, int64_t* index) {
  return capi::collective_guard(fn, handle, [&] { select(cv, fn, Part(handle, fn), want_max, value, index); });
}
int select_elem_patch(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi,
                      int want_max, void* value, int64_t* index) {
  return capi::collective_guard(fn, handle, [&] { select(cv, fn, Part(cv, fn, handle, lo, hi, "lo", "hi"), want_max, value, index); });
}

int print_patch(const Convention& cv, const char* fn, int handle, const int64_t* lo, const int64_t* hi) {
  return capi::collective_guard(fn, handle, [&] {
    const Part p(cv, fn, handle, lo, hi, "lo", "hi");
    arrays::print_patch(p.a, p.lo, p.hi, std::cout);
    std::cout.flush();
  });
}

}  // namespace impl
}  // namespace

extern "C" {

ARMADA_GA_BOTH_VIEWS(fill_patch, (int handle, const int64_t lo[], const int64_t hi[], const void* value), handle, lo,
                     hi, value)
ARMADA_GA_BOTH_VIEWS(zero_patch, (int handle, const int64_t lo[], const int64_t hi[]), handle, lo, hi)
ARMADA_GA_BOTH_VIEWS(scale_patch, (int handle, const int64_t lo[], const int64_t hi[], const void* alpha), handle, lo,
                     hi, alpha)
ARMADA_GA_BOTH_VIEWS(add_constant_patch, (int handle, const int64_t lo[], const int64_t hi[], const void* alpha),
                     handle, lo, hi, alpha)
ARMADA_GA_BOTH_VIEWS(abs_patch, (int handle, const int64_t lo[], const int64_t hi[]), handle, lo, hi)
ARMADA_GA_BOTH_VIEWS(reciprocal_patch, (int handle, const int64_t lo[], const int64_t hi[]), handle, lo, hi)
ARMADA_GA_BOTH_VIEWS(copy_patch,
                     (int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[], const int64_t bhi[],
                      int transpose),
                     a, alo, ahi, b, blo, bhi, transpose)
ARMADA_GA_BOTH_VIEWS(add_patch,
                     (const void* alpha, int a, const int64_t alo[], const int64_t ahi[], const void* beta, int b,
                      const int64_t blo[], const int64_t bhi[], int c, const int64_t clo[], const int64_t chi[]),
                     alpha, a, alo, ahi, beta, b, blo, bhi, c, clo, chi)
#define ARMADA_GA_ELEMENTWISE_VIEWS(name)                                                                   \
  ARMADA_GA_BOTH_VIEWS(name,                                                                                \
                       (int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],        \
                        const int64_t bhi[], int c, const int64_t clo[], const int64_t chi[]),              \
                       a, alo, ahi, b, blo, bhi, c, clo, chi)
ARMADA_GA_ELEMENTWISE_VIEWS(elem_multiply_patch)
ARMADA_GA_ELEMENTWISE_VIEWS(elem_divide_patch)
ARMADA_GA_ELEMENTWISE_VIEWS(elem_max_patch)
ARMADA_GA_ELEMENTWISE_VIEWS(elem_min_patch)
#undef ARMADA_GA_ELEMENTWISE_VIEWS
ARMADA_GA_BOTH_VIEWS(dot_patch,
                     (int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[], const int64_t bhi[],
                      void* result),
                     a, alo, ahi, b, blo, bhi, result)
ARMADA_GA_BOTH_VIEWS(select_elem, (int handle, int want_max, void* value, int64_t index[]), handle, want_max, value,
                     index)
ARMADA_GA_BOTH_VIEWS(select_elem_patch,
                     (int handle, const int64_t lo[], const int64_t hi[], int want_max, void* value, int64_t index[]),
                     handle, lo, hi, want_max, value, index)
ARMADA_GA_BOTH_VIEWS(print_patch, (int handle, const int64_t lo[], const int64_t hi[]), handle, lo, hi)

// ---- whole arrays (no index tuples: one form serves both views) ---------------------------------
int armada_ga_fill(int handle, const void* value) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return unary(fn, detail::UnaryOp::Fill, handle, value, true);
}
int armada_ga_zero(int handle) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  const unsigned char zero[16] = {};
  return unary(fn, detail::UnaryOp::Fill, handle, zero, true);
}
int armada_ga_scale(int handle, const void* alpha) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return unary(fn, detail::UnaryOp::Scale, handle, alpha, true);
}
int armada_ga_add_constant(int handle, const void* alpha) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return unary(fn, detail::UnaryOp::AddConstant, handle, alpha, true);
}
int armada_ga_abs(int handle) { return unary(__func__, detail::UnaryOp::Abs, handle, nullptr, false); }
int armada_ga_reciprocal(int handle) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return unary(fn, detail::UnaryOp::Reciprocal, handle, nullptr, false);
}
int armada_ga_copy(int ha, int hb) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, hb, [&] {
    const Part a(ha, fn);
    Part b(hb, fn);
    detail::copy_patch(a.a, a.lo, a.hi, b.a, b.lo, b.hi, false);
  });
}
int armada_ga_add(const void* alpha, int ha, const void* beta, int hb, int hc) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, hc, [&] {
    need(alpha, fn, "alpha");
    need(beta, fn, "beta");
    const Part a(ha, fn), b(hb, fn);
    Part c(hc, fn);
    binary(detail::BinaryOp::Add, alpha, a, beta, b, c);
  });
}
#define ARMADA_GA_ELEMENTWISE_WHOLE(name, op)                                \
  int name(int ha, int hb, int hc) {                                         \
    const char* const fn = __func__;                                         \
    return capi::collective_guard(fn, hc, [&] {                              \
      const Part a(ha, fn), b(hb, fn);                                       \
      Part c(hc, fn);                                                        \
      binary(detail::BinaryOp::op, nullptr, a, nullptr, b, c);     \
    });                                                                      \
  }
ARMADA_GA_ELEMENTWISE_WHOLE(armada_ga_elem_multiply, Multiply)
ARMADA_GA_ELEMENTWISE_WHOLE(armada_ga_elem_divide, Divide)
ARMADA_GA_ELEMENTWISE_WHOLE(armada_ga_elem_max, Max)
ARMADA_GA_ELEMENTWISE_WHOLE(armada_ga_elem_min, Min)
#undef ARMADA_GA_ELEMENTWISE_WHOLE
int armada_ga_dot(int ha, int hb, void* result) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, ha, [&] {
    need(result, fn, "result");
    const Part a(ha, fn), b(hb, fn);
    detail::dot_patch(a.a, a.lo, a.hi, b.a, b.lo, b.hi, result);
  });
}
int armada_ga_norm1(int handle, double* result) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, handle, [&] {
    need(result, fn, "result");
    *result = arrays::norm1(capi::arr(handle, fn));
  });
}
int armada_ga_norm_infinity(int handle, double* result) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, handle, [&] {
    need(result, fn, "result");
    *result = arrays::norm_infinity(capi::arr(handle, fn));
  });
}
// The Fortran view: a 2-D array's columns are the C view's rows, so the two matrix norms trade
// places (a vector's norms are the same in both views).
int armada_gaf_norm1(int handle, double* result) {
  const char* const fn = __func__;
  return capi::collective_guard(fn, handle, [&] {
    need(result, fn, "result");
    const arrays::Array a = capi::arr(handle, fn);
    *result = a.ndim() == 2 ? arrays::norm_infinity(a) : arrays::norm1(a);
  });
}
int armada_gaf_norm_infinity(int handle, double* result) {
  const char* const fn = __func__;
  return capi::collective_guard(fn, handle, [&] {
    need(result, fn, "result");
    const arrays::Array a = capi::arr(handle, fn);
    *result = a.ndim() == 2 ? arrays::norm1(a) : arrays::norm_infinity(a);
  });
}
int armada_ga_update_ghosts(int handle, int periodic) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, handle, [&] { capi::arr(handle, fn).update_ghosts(periodic != 0); });
}
int armada_ga_print(int handle) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, handle, [&] {
    arrays::print(capi::arr(handle, fn), std::cout);
    std::cout.flush();
  });
}
int armada_ga_summary(void) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    std::fputs(arrays::summary().c_str(), stdout);
    std::fflush(stdout);
  });
}

}  // extern "C"
