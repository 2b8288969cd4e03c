// What the collective operations of arrays share (collective.cpp, scan/): the checked array
// behind an Array, this member's part of a patch, fetching the matching part of another array,
// walking a strided box, and the group-wide error flag.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <type_traits>
#include <vector>

#include "armada/rma/collectives.hpp"
#include "armada/rma/sync.hpp"
#include "internal.hpp"

namespace armada::arrays::detail {

template <class T>
inline constexpr bool is_complex_v = std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

inline const Array::Impl& impl_of(const Array& a, const char* op) {
  if (!a.impl()) throw rma::InvalidArgument(op, "array", "null", "the array was never created", rma::ErrorKind::handle);
  if (a.impl()->destroyed)
    throw rma::StateError(op, rma::error_message(op, "array '" + a.impl()->name + "' was destroyed"));
  return *a.impl();
}

/// The live array behind `arr`, with patch `lo .. hi` inside it.
inline const Array::Impl& patch_of(const char* op, const Array& arr, const Coord& lo, const Coord& hi) {
  const Array::Impl& a = impl_of(arr, op);
  check_patch(op, a, lo, hi);
  return a;
}

/// Checks patch `lo .. hi` of `arr` against `a`'s patch `alo .. ahi`: a live array on a's group,
/// of a's type, the patch inside it with a's extents (reversed: `transpose`).
inline const Array::Impl& matching(const char* op, const Array& arr, const Array::Impl& a, const Coord& alo,
                                   const Coord& ahi, const Coord& lo, const Coord& hi, bool transpose = false) {
  const Array::Impl& b = patch_of(op, arr, lo, hi);
  check_compatible(op, a, b);
  check_same_extents(op, a, alo, ahi, b, lo, hi, transpose);
  return b;
}

/// The barrier inside a collective (`op` names it in an MPI error). It waits serving this rank's
/// node (rma::collective_serving), as every wait inside a collective must: a member may still need
/// this node's server, whose thread may get no core, before it reaches the barrier.
inline void barrier_serving(const Array::Impl& a, const char* op) {
  rma::collective_serving(op, [&](MPI_Request* r) { return MPI_Ibarrier(a.group.comm(), r); });
}

inline void group_sync(const Array::Impl& a) {
  rma::fence_all();
  barrier_serving(a, "arrays: the closing sync of a collective");
}

// A patch as an argument every member must pass alike.
inline rma::MustMatch::value_type same_patch(const char* argument, const Coord& lo, const Coord& hi) {
  return {argument, lo.str() + " .. " + hi.str()};
}

/// Calls f(element offset in the strided layout, dense row-major position) for every element of
/// a box with `ext` elements per dimension laid out with `stride`.
template <class F>
void for_box(const Coord& ext, const Coord& stride, F&& f) {
  const int n = ext.size();
  for (int d = 0; d < n; ++d)
    if (ext[d] <= 0) return;
  Coord k = Coord::filled(n, 0);
  Index dense = 0;
  for (;;) {
    Index off = 0;
    for (int d = 0; d < n - 1; ++d) off += k[d] * stride[d];
    for (Index i = 0; i < ext[n - 1]; ++i) f(off + i * stride[n - 1], dense++);
    int d = n - 2;
    for (; d >= 0; --d) {
      if (++k[d] < ext[d]) break;
      k[d] = 0;
    }
    if (d < 0) return;
  }
}

/// Patch get of the part of `a` matching `part` of another patch: `part` shifted from
/// origin `from` to origin `to`.
template <class T>
std::vector<T> fetch(const Array::Impl& a, const Patch& part, const Coord& from, const Coord& to) {
  Coord lo = part.lo, hi = part.hi;
  for (int d = 0; d < lo.size(); ++d) {
    lo[d] = to[d] + (part.lo[d] - from[d]);
    hi[d] = to[d] + (part.hi[d] - from[d]);
  }
  std::vector<T> v(static_cast<std::size_t>(part.elements()));
  std::vector<rma::Handle> hs;
  issue_patch(Kind::Get, a, lo, hi, nullptr, reinterpret_cast<std::byte*>(v.data()), dense_strides(part.extents()), nullptr, hs);
  for (auto& h : hs) h.wait();
  return v;
}

/// Calls f(element, dense position) for every element of this rank's parts, part after part:
/// the positions run on over the parts, in the order fetch_parts lays out its values.
template <class T, class F>
void for_parts(const std::vector<LocalPart>& parts, F&& f) {
  Index at = 0;
  for (const LocalPart& p : parts) {
    T* base = reinterpret_cast<T*>(p.first);
    for_box(p.piece.extents(), p.stride, [&](Index off, Index i) { f(base[off], at + i); });
    at += p.piece.elements();
  }
}

/// fetch() of every part into one vector, one after another (as for_parts numbers them), every
/// get in flight before the first wait.
template <class T>
std::vector<T> fetch_parts(const Array::Impl& a, const std::vector<LocalPart>& parts, const Coord& from, const Coord& to) {
  Index total = 0;
  for (const LocalPart& p : parts) total += p.piece.elements();
  std::vector<T> v(static_cast<std::size_t>(total));
  std::vector<rma::Handle> hs;
  Index at = 0;
  for (const LocalPart& p : parts) {
    Coord lo = p.piece.lo, hi = p.piece.hi;
    for (int d = 0; d < lo.size(); ++d) {
      lo[d] = to[d] + (p.piece.lo[d] - from[d]);
      hi[d] = to[d] + (p.piece.hi[d] - from[d]);
    }
    issue_patch(Kind::Get, a, lo, hi, nullptr, reinterpret_cast<std::byte*>(v.data() + at),
                dense_strides(p.piece.extents()), nullptr, hs);
    at += p.piece.elements();
  }
  for (auto& h : hs) h.wait();
  return v;
}

// Complex abs, reciprocal and division by Smith's scaling (divide by the larger of a divisor's
// parts first): they never overflow where the result fits, and they are the formulas Global
// Arrays computes with, so GA programs that compare element-wise results exactly get GA's bits.
template <class C>
C smith_abs(C z) {
  using R = typename C::value_type;
  const R re = std::abs(z.real()), im = std::abs(z.imag());
  if (re >= im) {
    if (re == R(0)) return C(0, 0);
    const R t = z.imag() / z.real();
    return C(re * std::sqrt(R(1) + t * t), 0);
  }
  const R t = z.real() / z.imag();
  return C(im * std::sqrt(R(1) + t * t), 0);
}

template <class C>
C smith_divide(C x, C y) {
  using R = typename C::value_type;
  if (std::abs(y.real()) >= std::abs(y.imag())) {
    const R t = y.imag() / y.real(), s = R(1) / (y.real() * (R(1) + t * t));
    return C((x.real() + x.imag() * t) * s, (x.imag() - x.real() * t) * s);
  }
  const R t = y.real() / y.imag(), s = R(1) / (y.imag() * (R(1) + t * t));
  return C((x.real() * t + x.imag()) * s, (x.imag() * t - x.real()) * s);
}

template <class T>
double magnitude(T x) {
  if constexpr (is_complex_v<T>) return std::abs(std::complex<double>(x));
  else return std::abs(static_cast<double>(x));
}

/// True on every rank if `local` is true on any (a collective error check).
inline bool any(const Array::Impl& a, bool local) {
  int l = local ? 1 : 0, g = 0;
  rma::collective_serving("arrays: a collective's error check", [&](MPI_Request* r) {
    return MPI_Iallreduce(&l, &g, 1, MPI_INT, MPI_MAX, a.group.comm(), r);
  });
  return g != 0;
}

}  // namespace armada::arrays::detail
