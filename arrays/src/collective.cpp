// Collective whole-array and patch operations. Each rank works on the part of the destination
// it owns: it fetches the matching parts of the source arrays with patch gets (one strided rma
// operation per owner), then updates its block in place. Calls start with a sync (sources are
// final) and end with one (results visible everywhere); operations that read arrays they also
// write barrier once more between fetching and writing, so that no rank overwrites what another
// is still reading.
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <complex>
#include <cstring>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <type_traits>

#include "armada/arrays/collective.hpp"
#include "armada/arrays/operations.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/sync.hpp"
#include "collective_internal.hpp"
#include "internal.hpp"

namespace armada::arrays::detail {

namespace {

template <class F>
void dispatch(ElemType t, F&& f) {
  switch (t) {
    case ElemType::Int: f(int{}); return;
    case ElemType::Long: f(long{}); return;
    case ElemType::Float: f(float{}); return;
    case ElemType::Double: f(double{}); return;
    case ElemType::ComplexFloat: f(std::complex<float>{}); return;
    case ElemType::ComplexDouble: f(std::complex<double>{}); return;
  }
}

const char* unary_name(UnaryOp op) {
  switch (op) {
    case UnaryOp::Fill: return "arrays::fill";
    case UnaryOp::Scale: return "arrays::scale";
    case UnaryOp::AddConstant: return "arrays::add_constant";
    case UnaryOp::Abs: return "arrays::abs";
    case UnaryOp::Reciprocal: return "arrays::reciprocal";
  }
  return "arrays::?";
}
const char* binary_name(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "arrays::add";
    case BinaryOp::Multiply: return "arrays::elem_multiply";
    case BinaryOp::Divide: return "arrays::elem_divide";
    case BinaryOp::Max: return "arrays::elem_max";
    case BinaryOp::Min: return "arrays::elem_min";
  }
  return "arrays::?";
}

// copy_patch with transpose: appends b's part `part` of patch [blo, ..) as read from a's patch
// at alo, b[blo + t] = a[alo + reverse(t)]: fetches the reversed box of a, then reads it reversed.
template <class T>
void append_transposed(const Array::Impl& a, const Coord& alo, const Patch& part, const Coord& blo, std::vector<T>& v) {
  const int n = part.lo.size();
  Patch src{Coord::filled(n, 0), Coord::filled(n, 0)};
  for (int d = 0; d < n; ++d) {
    src.lo[d] = part.lo[n - 1 - d] - blo[n - 1 - d];
    src.hi[d] = part.hi[n - 1 - d] - blo[n - 1 - d];
  }
  const std::vector<T> r = fetch<T>(a, src, Coord::filled(n, 0), alo);
  const Coord rs = dense_strides(src.extents());
  const std::size_t at = v.size();
  v.resize(at + r.size());
  Coord rev = Coord::filled(n, 0);
  for (int d = 0; d < n; ++d) rev[d] = rs[n - 1 - d];
  for_box(part.extents(), rev, [&](Index off, Index i) { v[at + static_cast<std::size_t>(i)] = r[static_cast<std::size_t>(off)]; });
}

}  // namespace

void unary_patch(UnaryOp op, Array& arr, const Coord& lo, const Coord& hi, const void* value) {
  const char* name = unary_name(op);
  const Array::Impl* ap = nullptr;
  begin_collective(name, collective_group(name, arr), [&] {
    ap = &patch_of(name, arr, lo, hi);
    if ((op == UnaryOp::Fill || op == UnaryOp::Scale || op == UnaryOp::AddConstant) && !value)
      fail(name, ap, "value", "null", "the operation needs a value");
  }, {same_shape("array", arr), same_patch("patch", lo, hi), same_value("value", arr, value)});
  const Array::Impl& a = *ap;
  const std::vector<LocalPart> parts = my_parts(a, lo, hi);
  dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    T v{};
    if (value) std::memcpy(&v, value, sizeof(T));
    if (op == UnaryOp::Reciprocal && std::is_integral_v<T>) {
      bool zero_found = false;
      for_parts<T>(parts, [&](T& x, Index) { zero_found |= x == T{}; });
      if (any(a, zero_found))
        fail(name, &a, "patch", lo.str() + " .. " + hi.str(), "holds a zero element of an integer array; nothing was changed");
    }
    for_parts<T>(parts, [&](T& x, Index) {
      switch (op) {
        case UnaryOp::Fill: x = v; break;
        case UnaryOp::Scale: x = static_cast<T>(x * v); break;
        case UnaryOp::AddConstant: x = static_cast<T>(x + v); break;
        case UnaryOp::Abs:
          if constexpr (is_complex_v<T>) x = smith_abs(x);
          else x = x < T{} ? static_cast<T>(-x) : x;
          break;
        case UnaryOp::Reciprocal:
          if constexpr (is_complex_v<T>) x = smith_divide(T(1), x);
          else x = static_cast<T>(T(1) / x);
          break;
      }
    });
  });
  group_sync(a);
}

void binary_patch(BinaryOp op, const void* alpha, const Array& aa, const Coord& alo, const Coord& ahi,
                  const void* beta, const Array& ba, const Coord& blo, const Coord& bhi, Array& ca,
                  const Coord& clo, const Coord& chi) {
  const char* name = binary_name(op);
  const Array::Impl *ap = nullptr, *bp = nullptr, *cp = nullptr;
  begin_collective(name, collective_group(name, ca), [&] {
    ap = &patch_of(name, aa, alo, ahi);
    bp = &matching(name, ba, *ap, alo, ahi, blo, bhi);
    cp = &matching(name, ca, *ap, alo, ahi, clo, chi);
    if (op == BinaryOp::Add && (!alpha || !beta)) fail(name, cp, "alpha/beta", "null", "add needs both scale factors");
  }, {same_value("alpha", ca, alpha), same_shape("a", aa), same_patch("a patch", alo, ahi), same_value("beta", ca, beta),
      same_shape("b", ba), same_patch("b patch", blo, bhi), same_shape("c", ca), same_patch("c patch", clo, chi)});
  const Array::Impl &a = *ap, &b = *bp, &c = *cp;
  const std::vector<LocalPart> parts = my_parts(c, clo, chi);
  dispatch(c.type, [&](auto zero) {
    using T = decltype(zero);
    const std::vector<T> va = fetch_parts<T>(a, parts, clo, alo), vb = fetch_parts<T>(b, parts, clo, blo);
    if (op == BinaryOp::Divide && std::is_integral_v<T>) {
      bool zero_found = false;
      for (const T& x : vb) zero_found |= x == T{};
      if (any(c, zero_found))
        fail(name, &b, "patch", blo.str() + " .. " + bhi.str(), "holds a zero divisor of an integer array; nothing was changed");
    }
    barrier_serving(c, name);  // everyone has read its inputs before anyone writes c
    T al{}, be{};
    if (alpha) std::memcpy(&al, alpha, sizeof(T));
    if (beta) std::memcpy(&be, beta, sizeof(T));
    for_parts<T>(parts, [&](T& r, Index i) {
      const T x = va[static_cast<std::size_t>(i)], y = vb[static_cast<std::size_t>(i)];
      switch (op) {
        case BinaryOp::Add: r = static_cast<T>(al * x + be * y); break;
        case BinaryOp::Multiply: r = static_cast<T>(x * y); break;
        case BinaryOp::Divide:
          if constexpr (is_complex_v<T>) r = smith_divide(x, y);
          else r = static_cast<T>(x / y);
          break;
        case BinaryOp::Max: r = magnitude(x) >= magnitude(y) ? x : y; break;
        case BinaryOp::Min: r = magnitude(x) <= magnitude(y) ? x : y; break;
      }
      if constexpr (!is_complex_v<T>) {
        // Real types compare by value, not magnitude.
        if (op == BinaryOp::Max) r = x >= y ? x : y;
        if (op == BinaryOp::Min) r = x <= y ? x : y;
      }
    });
  });
  group_sync(c);
}

void copy_patch(const Array& aa, const Coord& alo, const Coord& ahi, Array& ba, const Coord& blo, const Coord& bhi,
                bool transpose) {
  const char* name = transpose ? "arrays::copy_patch(transpose)" : "arrays::copy_patch";
  const Array::Impl *ap = nullptr, *bp = nullptr;
  begin_collective(name, collective_group(name, ba), [&] {
    ap = &patch_of(name, aa, alo, ahi);
    bp = &matching(name, ba, *ap, alo, ahi, blo, bhi, transpose);
  }, {same_shape("a", aa), same_patch("a patch", alo, ahi), same_shape("b", ba), same_patch("b patch", blo, bhi)});
  const Array::Impl &a = *ap, &b = *bp;
  const std::vector<LocalPart> parts = my_parts(b, blo, bhi);
  dispatch(b.type, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> v;
    if (!transpose) v = fetch_parts<T>(a, parts, blo, alo);
    else
      for (const LocalPart& lp : parts) append_transposed(a, alo, lp.piece, blo, v);
    barrier_serving(b, name);  // everyone has read a before anyone writes b
    for_parts<T>(parts, [&](T& x, Index i) { x = v[static_cast<std::size_t>(i)]; });
  });
  group_sync(b);
}

void dot_patch(const Array& aa, const Coord& alo, const Coord& ahi, const Array& ba, const Coord& blo,
               const Coord& bhi, void* result) {
  constexpr const char* name = "arrays::dot";
  const Array::Impl *ap = nullptr, *bp = nullptr;
  begin_collective(name, collective_group(name, aa), [&] {
    ap = &patch_of(name, aa, alo, ahi);
    bp = &matching(name, ba, *ap, alo, ahi, blo, bhi);
    if (!result) fail(name, ap, "result", "null", "needs room for one element");
  }, {same_shape("a", aa), same_patch("a patch", alo, ahi), same_shape("b", ba), same_patch("b patch", blo, bhi)});
  const Array::Impl &a = *ap, &b = *bp;
  const std::vector<LocalPart> parts = my_parts(a, alo, ahi);
  dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    const std::vector<T> vb = fetch_parts<T>(b, parts, alo, blo);
    // Sums in long / double / complex<double>, reduced over the group.
    if constexpr (std::is_integral_v<T>) {
      long s = 0;
      for_parts<T>(parts, [&](const T& x, Index i) { s += static_cast<long>(x) * vb[static_cast<std::size_t>(i)]; });
      rma::allreduce(std::span<long>(&s, 1), rma::ReduceOp::Sum, a.group);
      const T r = static_cast<T>(s);
      std::memcpy(result, &r, sizeof(T));
    } else if constexpr (is_complex_v<T>) {
      double s[2] = {0, 0};
      for_parts<T>(parts, [&](const T& x, Index i) {
        const std::complex<double> p = std::complex<double>(x) * std::complex<double>(vb[static_cast<std::size_t>(i)]);
        s[0] += p.real();
        s[1] += p.imag();
      });
      rma::allreduce(std::span<double>(s, 2), rma::ReduceOp::Sum, a.group);
      const T r(static_cast<typename T::value_type>(s[0]), static_cast<typename T::value_type>(s[1]));
      std::memcpy(result, &r, sizeof(T));
    } else {
      double s = 0;
      for_parts<T>(parts, [&](const T& x, Index i) { s += static_cast<double>(x) * vb[static_cast<std::size_t>(i)]; });
      rma::allreduce(std::span<double>(&s, 1), rma::ReduceOp::Sum, a.group);
      const T r = static_cast<T>(s);
      std::memcpy(result, &r, sizeof(T));
    }
  });
  group_sync(a);
}

double norm(const Array& arr, bool infinity) {
  const char* name = infinity ? "arrays::norm_infinity" : "arrays::norm1";
  const Array::Impl* ap = nullptr;
  begin_collective(name, collective_group(name, arr), [&] {
    ap = &impl_of(arr, name);
    if (ap->ndim() > 2)
      fail(name, ap, "array", std::to_string(ap->ndim()) + "-D", "norms are defined for vectors and matrices (1-D and 2-D)");
  }, {same_shape("array", arr)});
  const Array::Impl& a = *ap;
  const std::vector<LocalPart> parts = my_parts(a, Coord::filled(a.ndim(), 0), a.dist.dims());
  double result = 0;
  dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    if (a.ndim() == 1) {
      double s = 0;
      for_parts<T>(parts, [&](const T& x, Index) { s = infinity ? std::max(s, magnitude(x)) : s + magnitude(x); });
      rma::allreduce(std::span<double>(&s, 1), infinity ? rma::ReduceOp::Max : rma::ReduceOp::Sum, a.group);
      result = s;
    } else {
      // 1-norm: largest column sum; infinity norm: largest row sum. Partial sums of the rows
      // or columns this rank holds, summed over the group.
      const int along = infinity ? 0 : 1;
      std::vector<double> sums(static_cast<std::size_t>(a.dist.dims()[along]), 0.0);
      for (const LocalPart& part : parts) {
        const Coord ext = part.piece.extents();
        const T* base = reinterpret_cast<const T*>(part.first);
        for_box(ext, part.stride, [&](Index off, Index i) {
          const Index pos = along == 0 ? part.piece.lo[0] + i / ext[1] : part.piece.lo[1] + i % ext[1];
          sums[static_cast<std::size_t>(pos)] += magnitude(base[off]);
        });
      }
      rma::allreduce(std::span<double>(sums), rma::ReduceOp::Sum, a.group);
      for (double x : sums) result = std::max(result, x);
    }
  });
  group_sync(a);
  return result;
}

namespace {

// Whether element x (row-major index lx) beats y (ly) for select_max (max) or select_min: the
// larger or smaller value (complex: by magnitude), ties to the lower index. A strict total
// order on elements without NaN, so the reduction below finds the same element in any order.
template <class T>
bool beats(const T& x, std::int64_t lx, const T& y, std::int64_t ly, bool max) {
  double kx = 0, ky = 0;
  if constexpr (is_complex_v<T>) {
    kx = std::norm(std::complex<double>(x));
    ky = std::norm(std::complex<double>(y));
  } else if (x != y) {
    return max ? x > y : x < y;
  }
  if (kx != ky) return max ? kx > ky : kx < ky;
  return lx < ly;
}

// A rank's candidate for select: whether it has one, its row-major linear index, its value
// bytes, and what decides between two (the element type, max or min), so that one MPI reduction
// operation serves every type. (It was an allgather of every rank's candidate: a message to and
// from every member per call, O(P) for a world array; a reduction is O(log P).)
struct Candidate {
  std::int64_t has = 0;
  std::int64_t linear = 0;
  std::int32_t type = 0;
  std::int32_t max = 0;
  unsigned char value[16] = {};
};

void keep_better(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const Candidate*>(in);
  auto* b = static_cast<Candidate*>(inout);
  for (int i = 0; i < *len; ++i) {
    if (!a[i].has) continue;
    bool wins = !b[i].has;
    if (!wins)
      dispatch(static_cast<ElemType>(a[i].type), [&](auto zero) {
        using T = decltype(zero);
        T x, y;
        std::memcpy(&x, a[i].value, sizeof(T));
        std::memcpy(&y, b[i].value, sizeof(T));
        wins = beats(x, a[i].linear, y, b[i].linear, a[i].max != 0);
      });
    if (wins) b[i] = a[i];
  }
}

// The reduction's datatype and operation, made once (MPI frees them at MPI_Finalize).
struct CandidateReduction {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  CandidateReduction() {
    MPI_Type_contiguous(static_cast<int>(sizeof(Candidate)), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(keep_better, /*commute=*/1, &op);
  }
};

}  // namespace

Coord select(const Array& arr, const Coord& lo, const Coord& hi, bool max, void* value) {
  const char* name = max ? "arrays::select_max" : "arrays::select_min";
  const Array::Impl* ap = nullptr;
  begin_collective(name, collective_group(name, arr), [&] {
    ap = &patch_of(name, arr, lo, hi);
    if (Patch{lo, hi}.empty()) fail(name, ap, "hi", hi.str(), "the patch is empty (lo = " + lo.str() + ")");
    if (!value) fail(name, ap, "value", "null", "needs room for one element");
  }, {same_shape("array", arr), same_patch("patch", lo, hi)});
  const Array::Impl& a = *ap;
  const std::vector<LocalPart> parts = my_parts(a, lo, hi);
  const int n = a.ndim();
  Coord index = Coord::filled(n, 0);
  dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    static_assert(sizeof(T) <= sizeof(Candidate::value));
    auto linear_of = [&](const Coord& g) {
      std::int64_t l = 0;
      for (int d = 0; d < n; ++d) l = l * a.dist.dims()[d] + g[d];
      return l;
    };
    Candidate mine;
    mine.type = static_cast<std::int32_t>(a.type);
    mine.max = max ? 1 : 0;
    T best{};
    for (const LocalPart& part : parts) {
      const T* base = reinterpret_cast<const T*>(part.first);
      const Coord ext = part.piece.extents();
      const Coord dense = dense_strides(ext);
      for_box(ext, part.stride, [&](Index off, Index i) {
        Coord g = part.piece.lo;
        Index rem = i;
        for (int d = 0; d < n; ++d) { g[d] += rem / dense[d]; rem %= dense[d]; }
        const std::int64_t l = linear_of(g);
        if (!mine.has || beats(base[off], l, best, mine.linear, max)) {
          best = base[off];
          mine.has = 1;
          mine.linear = l;
        }
      });
    }
    if (mine.has) std::memcpy(mine.value, &best, sizeof(T));
    static const CandidateReduction reduction;
    Candidate winner;
    rma::collective_serving(name, [&](MPI_Request* r) {
      return MPI_Iallreduce(&mine, &winner, 1, reduction.type, reduction.op, a.group.comm(), r);
    });
    std::memcpy(value, winner.value, sizeof(T));
    std::int64_t bl = winner.linear;
    for (int d = n - 1; d >= 0; --d) { index[d] = bl % a.dist.dims()[d]; bl /= a.dist.dims()[d]; }
  });
  group_sync(a);
  return index;
}

}  // namespace armada::arrays::detail

namespace armada::arrays {

void print_patch(const Array& arr, const Coord& lo, const Coord& hi, std::ostream& out, int root) {
  constexpr const char* name = "arrays::print_patch";
  const Array::Impl* ap = nullptr;
  begin_collective(name, collective_group(name, arr), [&] {
    ap = &detail::patch_of(name, arr, lo, hi);
    if (root < 0 || root >= ap->group.size())
      detail::fail(name, ap, "root", std::to_string(root), "is not a rank of the array's group (size " + std::to_string(ap->group.size()) + ")");
  }, {same_shape("array", arr), detail::same_patch("patch", lo, hi), {"root", std::to_string(root)}});
  const Array::Impl& a = *ap;
  if (a.group.rank() == root) {
    std::ostringstream s;
    s << detail::describe(a) << ", patch " << lo.str() << " .. " << hi.str() << ":\n";
    const Patch p{lo, hi};
    const int n = a.ndim();
    detail::dispatch(a.type, [&](auto zero) {
      using T = decltype(zero);
      std::vector<T> v(static_cast<std::size_t>(p.elements()));
      arr.get(lo, hi, v.data());
      const Coord ext = p.extents();
      const Index row = ext[n - 1];
      for (Index i = 0; i < static_cast<Index>(v.size()); ++i) {
        if (i % row == 0) {
          // Row prefix: the leading indices of this row.
          Coord g = lo;
          Index rem = i / row;
          for (int d = n - 2; d >= 0; --d) { g[d] += rem % ext[d]; rem /= ext[d]; }
          s << "  (";
          for (int d = 0; d < n - 1; ++d) s << g[d] << ", ";
          s << lo[n - 1] << ":" << hi[n - 1] << ")";
        }
        const T& x = v[static_cast<std::size_t>(i)];
        if constexpr (std::is_integral_v<T>) s << ' ' << std::setw(8) << x;
        else if constexpr (detail::is_complex_v<T>) s << " (" << std::setprecision(6) << x.real() << "," << x.imag() << ")";
        else s << ' ' << std::setw(12) << std::setprecision(6) << x;
        if ((i + 1) % row == 0) s << '\n';
      }
    });
    out << s.str();
    out.flush();
  }
  detail::group_sync(a);
}

}  // namespace armada::arrays
