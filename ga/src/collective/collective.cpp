// Whole-array and patch operations, collective over the arrays' group: zero, fill, scale, copy,
// add, dot products, dgemm, transpose, symmetrize, print.
#include <algorithm>
#include <array>
#include <complex>
#include <iostream>
#include <sstream>
#include <type_traits>
#include <utility>
#include <vector>

#include "armada/arrays/collective.hpp"
#include "armada/linalg/linalg.hpp"
#include "armada/rma/runtime.hpp"
#include "base/call.hpp"
#include "base/index.hpp"
#include "base/types.hpp"
#include "create/handles.hpp"
#include "groups/groups.hpp"
#include "macdecls.h"

using namespace armada;
using namespace armada::ga;

namespace {

void require_value(const char* function, const char* argument, const void* value) {
  if (!value) bad_argument(function, argument, "NULL", "a value of the array's type is required");
}

/// GA's patch-transpose flags: 'N' or 'T' (either case).
bool transposed(const char* function, const char* argument, char flag) {
  if (flag == 'N' || flag == 'n') return false;
  if (flag == 'T' || flag == 't') return true;
  bad_argument(function, argument, std::string("'") + flag + "'", "must be 'N' or 'T'");
}

void unary(const char* function, arrays::detail::UnaryOp op, int g_a, const void* value, bool needs_value) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    if (needs_value) require_value(function, "value", value);
    arrays::detail::unary_patch(op, a, arrays::full_lo(a), arrays::full_hi(a), value);
  });
}

template <class I>
void unary_patch(const char* function, arrays::detail::UnaryOp op, int g_a, const I* lo, const I* hi,
                 const void* value, bool needs_value) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    const arrays::Patch p = patch(function, a, lo, hi);
    if (needs_value) require_value(function, "value", value);
    arrays::detail::unary_patch(op, a, p.lo, p.hi, value);
  });
}

/// GA's C type of a result of element type T (its complex structs for the complex types).
template <class T>
struct GaValue {
  using type = T;
  static type from(const T& v) { return v; }
};
template <class R, class S>
struct GaComplex {
  using type = S;
  static S from(const std::complex<R>& v) { return S{v.real(), v.imag()}; }
};
template <>
struct GaValue<std::complex<float>> : GaComplex<float, SingleComplex> {};
template <>
struct GaValue<std::complex<double>> : GaComplex<double, DoubleComplex> {};

/// GA's name of the array type each typed entry point needs.
template <class T>
const char* ga_type_name() {
  switch (rma::acc_type_of<T>()) {
    case ElemType::Int: return "C_INT";
    case ElemType::Long: return "C_LONG or C_LONGLONG";
    case ElemType::Float: return "C_FLOAT";
    case ElemType::Double: return "C_DBL";
    case ElemType::ComplexFloat: return "C_SCPL";
    case ElemType::ComplexDouble: break;
  }
  return "C_DCPL";
}

/// Sum of a(i) * b(i) over whole arrays (no conjugation, as GA), as GA's type of the result.
template <class T>
typename GaValue<T>::type dot(const char* function, int g_a, int g_b) {
  return guarded(function, [&] {
    const Array& a = array(function, g_a);
    const Array& b = array(function, g_b);
    require_type(function, "g_a", g_a, a, rma::acc_type_of<T>(), ga_type_name<T>());
    require_type(function, "g_b", g_b, b, rma::acc_type_of<T>(), ga_type_name<T>());
    T result{};
    arrays::detail::dot_patch(a, arrays::full_lo(a), arrays::full_hi(a), b, arrays::full_lo(b),
                              arrays::full_hi(b), &result);
    return GaValue<T>::from(result);
  });
}

/// C = alpha op(A) op(B) + beta C on the leading parts (GA's ?gemm); `alpha`, `beta` point to T.
template <class T>
void gemm(const char* function, char ta, char tb, std::int64_t m, std::int64_t n, std::int64_t k,
          const void* alpha, int g_a, int g_b, const void* beta, int g_c) {
  guarded(function, [&] {
    const linalg::Op op_a = op_of(function, "ta", ta), op_b = op_of(function, "tb", tb);
    if (m < 1) bad_argument(function, "m", std::to_string(m), "must be >= 1");
    if (n < 1) bad_argument(function, "n", std::to_string(n), "must be >= 1");
    if (k < 1) bad_argument(function, "k", std::to_string(k), "must be >= 1");
    const Array& a = array(function, g_a);
    const Array& b = array(function, g_b);
    Array& c = array(function, g_c);
    require_type(function, "g_a", g_a, a, rma::acc_type_of<T>(), ga_type_name<T>());
    require_type(function, "g_b", g_b, b, rma::acc_type_of<T>(), ga_type_name<T>());
    require_type(function, "g_c", g_c, c, rma::acc_type_of<T>(), ga_type_name<T>());
    // GA multiplies the leading parts: op(A) is m x k, op(B) k x n, C m x n.
    const bool ta_ = op_a != linalg::Op::none, tb_ = op_b != linalg::Op::none;
    const Coord ahi = ta_ ? Coord{k, m} : Coord{m, k};
    const Coord bhi = tb_ ? Coord{n, k} : Coord{k, n};
    linalg::detail::matmul_patch(op_a, op_b, alpha, a, {0, 0}, ahi, b, {0, 0}, bhi, beta, c, {0, 0}, {m, n});
  });
}

std::int64_t elements(const arrays::Patch& p) {
  std::int64_t n = 1;
  for (int d = 0; d < p.lo.size(); ++d) n *= p.hi[d] - p.lo[d];
  return n;
}

bool same_extents(const arrays::Patch& a, const arrays::Patch& b) {
  if (a.lo.size() != b.lo.size()) return false;
  for (int d = 0; d < a.lo.size(); ++d)
    if (a.hi[d] - a.lo[d] != b.hi[d] - b.lo[d]) return false;
  return true;
}

/// GA's copy without transpose between patches of different shapes (or ndim) that hold as many
/// elements (GA: "The patches of arrays may be of different shapes but must have the same number
/// of elements"): element k of b's patch, in the arrays' storage order (the last C index
/// fastest: Fortran's first), takes element k of a's. Each process gathers from a the elements
/// of the part of b's patch it owns and puts them there (collective, like the copy).
void copy_reshaped(int g_a, const arrays::Patch& pa, int g_b, Array& b, const arrays::Patch& pb) {
  const int na = pa.lo.size(), nb = pb.lo.size();
  int type = 0, ndim = 0;
  std::int64_t dims[GA_MAX_DIM];
  NGA_Inquire64(g_b, &type, &ndim, dims);
  // The array's own element size: MA's size of F_INT is the Fortran library's INTEGER (4 bytes in
  // the 4-byte build), while an F_INT array holds 8-byte elements.
  const std::size_t size = b.element_size();
  b.sync_group();
  std::int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM], ld[GA_MAX_DIM];
  NGA_Distribution64(g_b, GA_Pgroup_nodeid(GA_Get_pgroup(g_b)), lo, hi);
  std::int64_t count = 1;
  for (int d = 0; d < nb; ++d) {
    lo[d] = std::max<std::int64_t>(lo[d], pb.lo[d]);
    hi[d] = std::min<std::int64_t>(hi[d], pb.hi[d] - 1);
    count *= std::max<std::int64_t>(0, hi[d] - lo[d] + 1);
  }
  if (count > 0) {
    std::vector<std::int64_t> subs(static_cast<std::size_t>(count) * na);
    std::int64_t s[GA_MAX_DIM];
    for (int d = 0; d < nb; ++d) s[d] = lo[d];
    for (std::int64_t e = 0; e < count; ++e) {
      std::int64_t k = 0;  // the element's position in b's patch
      for (int d = 0; d < nb; ++d) k = k * (pb.hi[d] - pb.lo[d]) + (s[d] - pb.lo[d]);
      for (int d = na - 1; d >= 0; --d) {  // the same position in a's patch
        const std::int64_t extent = pa.hi[d] - pa.lo[d];
        subs[static_cast<std::size_t>(e) * na + d] = pa.lo[d] + k % extent;
        k /= extent;
      }
      for (int d = nb - 1; d >= 0; --d) {  // next element of my part, the last index fastest
        if (++s[d] <= hi[d]) break;
        s[d] = lo[d];
      }
    }
    std::vector<char> buf(static_cast<std::size_t>(count) * size);
    NGA_Gather_flat64(g_a, buf.data(), subs.data(), count);
    for (int d = 1; d < nb; ++d) ld[d - 1] = hi[d] - lo[d] + 1;
    NGA_Put64(g_b, lo, hi, buf.data(), ld);
  }
  b.sync_group();
}

/// A temporary array (x's type and group) with the extents of patch `like`, holding x's patch px
/// in storage order, as GA reshapes the operands of a patch operation that hold as many elements
/// as its output (pnga_add_patch copies them into temporaries the same way). Its whole patch in
/// *whole; GA_Destroy it after use.
int reshaped(int g_x, const arrays::Patch& px, const arrays::Patch& like, arrays::Patch* whole) {
  int type = 0, ndim = 0;
  std::int64_t dims[GA_MAX_DIM];
  NGA_Inquire64(g_x, &type, &ndim, dims);
  const int n = like.lo.size();
  std::int64_t ext[GA_MAX_DIM];
  for (int d = 0; d < n; ++d) ext[d] = like.hi[d] - like.lo[d];
  char name[] = "reshaped patch";
  const int g_t = NGA_Create_config64(type, n, ext, name, nullptr, GA_Get_pgroup(g_x));
  if (g_t == 0) throw rma::StateError("GA", "no memory for a reshaped copy of a patch (GA's memory limit)");
  *whole = arrays::Patch{Coord::filled(n, 0), like.hi};
  for (int d = 0; d < n; ++d) whole->hi[d] = ext[d];
  copy_reshaped(g_x, px, g_t, array("GA", g_t), *whole);
  return g_t;
}

template <class T, class I>
typename GaValue<T>::type dot_patch(const char* function, int g_a, char t_a, const I* alo, const I* ahi, int g_b, char t_b,
                  const I* blo, const I* bhi) {
  return guarded(function, [&] {
    const Array& a = array(function, g_a);
    const Array& b = array(function, g_b);
    require_type(function, "g_a", g_a, a, rma::acc_type_of<T>(), ga_type_name<T>());
    require_type(function, "g_b", g_b, b, rma::acc_type_of<T>(), ga_type_name<T>());
    const arrays::Patch pa = patch(function, a, alo, ahi, "alo", "ahi");
    const arrays::Patch pb = patch(function, b, blo, bhi, "blo", "bhi");
    const bool ta = transposed(function, "t_a", t_a), tb = transposed(function, "t_b", t_b);
    T result{};
    if (ta == tb && same_extents(pa, pb)) {  // (A')(i,j) B'(i,j) sums the same products as A(i,j) B(i,j)
      arrays::detail::dot_patch(a, pa.lo, pa.hi, b, pb.lo, pb.hi, &result);
      return GaValue<T>::from(result);
    }
    // GA multiplies op(A) by op(B) element by element in storage order: their shapes may differ if
    // they hold as many elements. The transposed operand (one only) goes to a transposed copy;
    // then B's operand, if its shape still differs from A's, to a copy with A's shape.
    // (Creating a temporary may move the arrays behind handles: fetch them again afterwards.)
    arrays::Patch epa = pa, epb = pb;
    int ha = g_a, hb = g_b, temps[2] = {0, 0};
    if (ta != tb) {
      const int hx = ta ? g_a : g_b;
      const arrays::Patch px = ta ? pa : pb;
      const int n = px.lo.size();
      std::int64_t ext[GA_MAX_DIM];
      for (int d = 0; d < n; ++d) ext[d] = px.hi[n - 1 - d] - px.lo[n - 1 - d];
      char name[] = "transposed patch";
      temps[0] = NGA_Create_config64(ga_type(function, hx), n, ext, name, nullptr, GA_Get_pgroup(hx));
      if (temps[0] == 0) throw rma::StateError(function, "no memory for a transposed copy of a patch (GA's memory limit)");
      arrays::Patch whole{Coord::filled(n, 0), Coord::filled(n, 0)};
      for (int d = 0; d < n; ++d) whole.hi[d] = ext[d];
      arrays::detail::copy_patch(array(function, hx), px.lo, px.hi, array(function, temps[0]), whole.lo, whole.hi, true);
      (ta ? ha : hb) = temps[0];
      (ta ? epa : epb) = whole;
    }
    if (!same_extents(epa, epb) && elements(epa) == elements(epb)) {
      arrays::Patch whole;
      temps[1] = reshaped(hb, epb, epa, &whole);
      hb = temps[1];
      epb = whole;
    }
    const Array* ea = &array(function, ha);
    const Array* eb = &array(function, hb);
    arrays::detail::dot_patch(*ea, epa.lo, epa.hi, *eb, epb.lo, epb.hi, &result);
    for (int t : temps)
      if (t) GA_Destroy(t);
    return GaValue<T>::from(result);
  });
}

template <class I>
void copy_patch(const char* function, char trans, int g_a, const I* alo, const I* ahi, int g_b, const I* blo,
                const I* bhi) {
  guarded(function, [&] {
    const Array& a = array(function, g_a);
    Array& b = array(function, g_b);
    const arrays::Patch pa = patch(function, a, alo, ahi, "alo", "ahi");
    const arrays::Patch pb = patch(function, b, blo, bhi, "blo", "bhi");
    const bool t = transposed(function, "trans", trans);
    if (!t && !same_extents(pa, pb) && elements(pa) == elements(pb) && a.type() == b.type())
      copy_reshaped(g_a, pa, g_b, b, pb);
    else
      arrays::detail::copy_patch(a, pa.lo, pa.hi, b, pb.lo, pb.hi, t);
  });
}

template <class I>
void add_patch(const char* function, const void* alpha, int g_a, const I* alo, const I* ahi, const void* beta,
               int g_b, const I* blo, const I* bhi, int g_c, const I* clo, const I* chi) {
  guarded(function, [&] {
    require_value(function, "alpha", alpha);
    require_value(function, "beta", beta);
    const Array& a = array(function, g_a);
    const Array& b = array(function, g_b);
    Array& c = array(function, g_c);
    const arrays::Patch pa = patch(function, a, alo, ahi, "alo", "ahi");
    const arrays::Patch pb = patch(function, b, blo, bhi, "blo", "bhi");
    const arrays::Patch pc = patch(function, c, clo, chi, "clo", "chi");
    // GA: the patches may differ in shape if they hold as many elements (in storage order).
    const bool ra = !same_extents(pa, pc) && elements(pa) == elements(pc) && a.type() == c.type();
    const bool rb = !same_extents(pb, pc) && elements(pb) == elements(pc) && b.type() == c.type();
    arrays::Patch wa = pa, wb = pb;
    const int g_ta = ra ? reshaped(g_a, pa, pc, &wa) : 0, g_tb = rb ? reshaped(g_b, pb, pc, &wb) : 0;
    // (Creating the temporaries may move the arrays behind handles: fetch them again.)
    arrays::detail::binary_patch(arrays::detail::BinaryOp::Add, alpha, array(function, ra ? g_ta : g_a), wa.lo, wa.hi,
                                 beta, array(function, rb ? g_tb : g_b), wb.lo, wb.hi, array(function, g_c), pc.lo,
                                 pc.hi);
    if (g_ta) GA_Destroy(g_ta);
    if (g_tb) GA_Destroy(g_tb);
  });
}

/// Every block this rank owns of the n-d `a` (n > 2; one, or a block-cyclic array's many)
/// averaged with its mirror, the patch whose first two bounds are swapped, fetched (dense)
/// before anybody writes.
template <class T>
void average_stack_with_mirror(Array& a) {
  const std::vector<arrays::LocalView<void>> views = a.access_blocks();
  const int n = a.ndim();
  std::vector<std::vector<T>> mirrors;
  for (const arrays::LocalView<void>& view : views) {
    arrays::Coord lo = view.lo, hi = view.hi;
    std::swap(lo[0], lo[1]);
    std::swap(hi[0], hi[1]);
    mirrors.emplace_back(static_cast<std::size_t>(view.size()));
    if (!view.empty()) a.get(lo, hi, mirrors.back().data());
  }
  a.sync();
  for (std::size_t v = 0; v < views.size(); ++v) {
    const arrays::LocalView<void>& view = views[v];
    if (view.empty()) continue;
    const Index rows = view.hi[0] - view.lo[0], cols = view.hi[1] - view.lo[1];
    const Index rest = view.size() / (rows * cols);
    T* base = static_cast<T*>(view.data);
    std::vector<Index> k(static_cast<std::size_t>(n), 0);  // the position in dimensions 2..n-1
    for (Index r = 0; r < rest; ++r) {
      Index offset = 0;
      for (int d = 2; d < n; ++d) offset += k[d] * view.stride[d];
      for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < cols; ++j) {
          T& x = base[i * view.stride[0] + j * view.stride[1] + offset];
          x = (x + mirrors[v][static_cast<std::size_t>((j * rows + i) * rest + r)]) * T(0.5);
        }
      for (int d = n - 1; d >= 2 && ++k[d] == view.hi[d] - view.lo[d]; --d) k[d] = 0;
    }
  }
  a.release_update();
}

/// GA_Symmetrize of an n-d array (n > 2), as GA extends its matrix calls: every matrix of the
/// Fortran view's last two dimensions, A(..., i, j) = (A(..., i, j) + A(..., j, i)) / 2 (NWChem
/// symmetrizes stacks of matrices this way). Those are the C view's first two dimensions.
void symmetrize_stack(const char* fn, int g_a, Array& a) {
  arrays::begin_collective(fn, arrays::collective_group(fn, a), [&] {
    if (a.dims()[0] != a.dims()[1])
      bad_argument(fn, "g_a", std::to_string(g_a),
                   "has dims " + a.dims().str() + ": an n-d array is a stack of matrices in its first two C " +
                       "dimensions (Fortran: its last two), which must be equal");
    with_element_type(a.type(), [&](auto zero) {
      if constexpr (std::is_integral_v<decltype(zero)>)
        bad_argument(fn, "g_a", std::to_string(g_a), "holds integers: " + std::string(fn) + " needs a floating-point type");
    });
  }, {arrays::same_shape("g_a", a)});
  with_element_type(a.type(), [&](auto zero) {
    if constexpr (!std::is_integral_v<decltype(zero)>) average_stack_with_mirror<decltype(zero)>(a);
  });
  a.sync();
}

}  // namespace

extern "C" {

void GA_Zero(int g_a) { unary("GA_Zero", arrays::detail::UnaryOp::Fill, g_a, std::array<std::byte, 16>{}.data(), false); }
void GA_Fill(int g_a, void* value) { unary("GA_Fill", arrays::detail::UnaryOp::Fill, g_a, value, true); }
void GA_Scale(int g_a, void* value) { unary("GA_Scale", arrays::detail::UnaryOp::Scale, g_a, value, true); }

// NGA_Zero_patch, NGA_Fill_patch and NGA_Scale_patch for index type I, each name ending in `s`
// (nothing for int, 64 for int64_t).
#define ARMADA_GA_UNARY_PATCH(I, s)                                                                       \
  void NGA_Zero_patch##s(int g_a, I lo[], I hi[]) {                                                       \
    const std::array<std::byte, 16> zero{};                                                               \
    unary_patch<I>("NGA_Zero_patch" #s, arrays::detail::UnaryOp::Fill, g_a, lo, hi, zero.data(), false);  \
  }                                                                                                       \
  void NGA_Fill_patch##s(int g_a, I lo[], I hi[], void* val) {                                            \
    unary_patch<I>("NGA_Fill_patch" #s, arrays::detail::UnaryOp::Fill, g_a, lo, hi, val, true);           \
  }                                                                                                       \
  void NGA_Scale_patch##s(int g_a, I lo[], I hi[], void* alpha) {                                         \
    unary_patch<I>("NGA_Scale_patch" #s, arrays::detail::UnaryOp::Scale, g_a, lo, hi, alpha, true);       \
  }
ARMADA_GA_UNARY_PATCH(int, )
ARMADA_GA_UNARY_PATCH(int64_t, 64)
#undef ARMADA_GA_UNARY_PATCH

void GA_Copy(int g_a, int g_b) {
  guarded("GA_Copy", [&] {
    const Array& a = array("GA_Copy", g_a);
    Array& b = array("GA_Copy", g_b);
    arrays::detail::copy_patch(a, arrays::full_lo(a), arrays::full_hi(a), b, arrays::full_lo(b), arrays::full_hi(b),
                               false);
  });
}
void NGA_Copy_patch(char trans, int g_a, int alo[], int ahi[], int g_b, int blo[], int bhi[]) {
  copy_patch<int>("NGA_Copy_patch", trans, g_a, alo, ahi, g_b, blo, bhi);
}
void NGA_Copy_patch64(char trans, int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[], int64_t bhi[]) {
  copy_patch<int64_t>("NGA_Copy_patch64", trans, g_a, alo, ahi, g_b, blo, bhi);
}

void GA_Add(void* alpha, int g_a, void* beta, int g_b, int g_c) {
  guarded("GA_Add", [&] {
    require_value("GA_Add", "alpha", alpha);
    require_value("GA_Add", "beta", beta);
    const Array& a = array("GA_Add", g_a);
    const Array& b = array("GA_Add", g_b);
    Array& c = array("GA_Add", g_c);
    arrays::detail::binary_patch(arrays::detail::BinaryOp::Add, alpha, a, arrays::full_lo(a), arrays::full_hi(a),
                                 beta, b, arrays::full_lo(b), arrays::full_hi(b), c, arrays::full_lo(c),
                                 arrays::full_hi(c));
  });
}
void NGA_Add_patch(void* alpha, int g_a, int alo[], int ahi[], void* beta, int g_b, int blo[], int bhi[], int g_c,
                   int clo[], int chi[]) {
  add_patch<int>("NGA_Add_patch", alpha, g_a, alo, ahi, beta, g_b, blo, bhi, g_c, clo, chi);
}
void NGA_Add_patch64(void* alpha, int g_a, int64_t alo[], int64_t ahi[], void* beta, int g_b, int64_t blo[],
                     int64_t bhi[], int g_c, int64_t clo[], int64_t chi[]) {
  add_patch<int64_t>("NGA_Add_patch64", alpha, g_a, alo, ahi, beta, g_b, blo, bhi, g_c, clo, chi);
}

double GA_Ddot(int g_a, int g_b) { return dot<double>("GA_Ddot", g_a, g_b); }
int GA_Idot(int g_a, int g_b) { return dot<int>("GA_Idot", g_a, g_b); }
long GA_Ldot(int g_a, int g_b) { return dot<long>("GA_Ldot", g_a, g_b); }
long long GA_Lldot(int g_a, int g_b) { return dot<long>("GA_Lldot", g_a, g_b); }
float GA_Fdot(int g_a, int g_b) { return dot<float>("GA_Fdot", g_a, g_b); }
SingleComplex GA_Cdot(int g_a, int g_b) { return dot<std::complex<float>>("GA_Cdot", g_a, g_b); }
DoubleComplex GA_Zdot(int g_a, int g_b) { return dot<std::complex<double>>("GA_Zdot", g_a, g_b); }

// NGA_<x>dot_patch and NGA_<x>dot_patch64 for element type T, returning GA's type R.
#define ARMADA_GA_DOT_PATCH(x, T, R)                                                                          \
  R NGA_##x##dot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[], int bhi[]) {   \
    return dot_patch<T, int>("NGA_" #x "dot_patch", g_a, t_a, alo, ahi, g_b, t_b, blo, bhi);                  \
  }                                                                                                           \
  R NGA_##x##dot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b, int64_t blo[],   \
                         int64_t bhi[]) {                                                                     \
    return dot_patch<T, int64_t>("NGA_" #x "dot_patch64", g_a, t_a, alo, ahi, g_b, t_b, blo, bhi);            \
  }
ARMADA_GA_DOT_PATCH(D, double, double)
ARMADA_GA_DOT_PATCH(I, int, int)
ARMADA_GA_DOT_PATCH(L, long, long)
ARMADA_GA_DOT_PATCH(Ll, long, long long)
ARMADA_GA_DOT_PATCH(F, float, float)
ARMADA_GA_DOT_PATCH(C, std::complex<float>, SingleComplex)
ARMADA_GA_DOT_PATCH(Z, std::complex<double>, DoubleComplex)
#undef ARMADA_GA_DOT_PATCH

// GA_<x>gemm and GA_<x>gemm64 for element type T with GA's scalar type S.
#define ARMADA_GA_GEMM(x, T, S)                                                                                 \
  void GA_##x##gemm(char ta, char tb, int m, int n, int k, S alpha, int g_a, int g_b, S beta, int g_c) {       \
    gemm<T>("GA_" #x "gemm", ta, tb, m, n, k, &alpha, g_a, g_b, &beta, g_c);                                   \
  }                                                                                                             \
  void GA_##x##gemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, S alpha, int g_a, int g_b, S beta,    \
                      int g_c) {                                                                                \
    gemm<T>("GA_" #x "gemm64", ta, tb, m, n, k, &alpha, g_a, g_b, &beta, g_c);                                 \
  }
ARMADA_GA_GEMM(D, double, double)
ARMADA_GA_GEMM(S, float, float)
ARMADA_GA_GEMM(C, std::complex<float>, SingleComplex)
ARMADA_GA_GEMM(Z, std::complex<double>, DoubleComplex)
#undef ARMADA_GA_GEMM

void GA_Transpose(int g_a, int g_b) {
  guarded("GA_Transpose", [&] { linalg::detail::transpose(array("GA_Transpose", g_a), array("GA_Transpose", g_b)); });
}
void GA_Symmetrize(int g_a) {
  guarded("GA_Symmetrize", [&] {
    Array& a = array("GA_Symmetrize", g_a);
    if (a.ndim() > 2) return symmetrize_stack("GA_Symmetrize", g_a, a);
    linalg::detail::symmetrize(a);
  });
}

void GA_Print(int g_a) {
  guarded("GA_Print", [&] {
    std::ostringstream out;
    arrays::print(array("GA_Print", g_a), out);
    std::cout << out.str() << std::flush;
  });
}
void GA_Print_distribution(int g_a) {
  guarded("GA_Print_distribution", [&] {
    const Array& a = array("GA_Print_distribution", g_a);
    a.sync_group();
    if (a.group().rank() != 0) return;
    std::ostringstream out;
    out << "Array Handle=" << g_a << " Name:'" << a.name() << "' Data Type:" << rma::to_string(a.type()) << "\n";
    for (int p = 0; p < a.group().size(); ++p) {
      const arrays::Patch b = a.owned(a.group().world_rank(p));
      out << "  process " << p << " owns ";
      if (b.empty()) {
        out << "nothing\n";
        continue;
      }
      for (int d = 0; d < a.ndim(); ++d) out << (d ? " x " : "") << "[" << b.lo[d] << ":" << b.hi[d] - 1 << "]";
      out << "\n";
    }
    std::cout << out.str() << std::flush;
  });
}
void GA_Summarize(int) {
  guarded("GA_Summarize", [] {
    if (rma::rank() == 0) std::cout << arrays::summary() << std::flush;
  });
}

}  // extern "C"
