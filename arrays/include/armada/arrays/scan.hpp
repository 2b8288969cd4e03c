// Scans, pack/unpack and enumeration of vectors; element-wise median and the line-search step
// bounds of patches (Global Arrays' sparse-data and TAO helpers, docs/arrays.md).
//
// Every function here is collective over the arrays' group (all arrays of one call on the same
// group). Each member works on the part of the written (or, for pack and the reductions, the
// read) array that it owns, fetches the matching parts of the other arrays one-sidedly, and the
// vector operations combine the members' parts with one exclusive prefix over the group (one
// gather of a small summary per member): nothing is funnelled through one rank. Calls start with
// the collective argument check (begin_collective: a bad or differing argument fails on every
// member, naming the operation, the argument and its value, before anything moves) and end with
// a sync of the group, so their effects are visible to every member on return.
//
// Vector ranges are [lo, hi) of 1-D arrays. A mask is a 1-D array of any element type, as GA's;
// a nonzero element starts a segment (scans) or selects an element (pack, unpack).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <limits>
#include <type_traits>

#include "armada/arrays/global_array.hpp"
#include "armada/arrays/operations.hpp"

namespace armada::arrays {

// ---- type-erased core (values point to one element of the array's type) -----------------------
namespace detail {
enum class ScanOp { Copy, Add, AddExclusive };
void patch_enum(Array& a, Index lo, Index hi, const void* start, const void* step);
void scan(ScanOp op, const Array& src, Array& dst, const Array& mask, Index lo, Index hi);
Index pack(const Array& src, Array& dst, const Array& mask, Index lo, Index hi);
Index unpack(const Array& src, Array& dst, const Array& mask, Index lo, Index hi);
void median_patch(const Array& a, const Coord& alo, const Coord& ahi, const Array& b, const Coord& blo,
                  const Coord& bhi, const Array& c, const Coord& clo, const Coord& chi, Array& m,
                  const Coord& mlo, const Coord& mhi);
/// The step into `result` (one element of the arrays' type).
void step_max(const Array& a, const Coord& alo, const Coord& ahi, const Array& b, const Coord& blo,
              const Coord& bhi, void* result);
/// The three bounds into `bounds[0..2]` (boundmin, wolfemin, boundmax), each one element of the
/// arrays' type.
void step_bound_info(const Array& xx, const Coord& xlo, const Coord& xhi, const Array& vv, const Coord& vlo,
                     const Coord& vhi, const Array& xl, const Coord& llo, const Coord& lhi, const Array& xu,
                     const Coord& ulo, const Coord& uhi, void* bounds[3]);
}  // namespace detail

// ---- vectors ---------------------------------------------------------------------------------
/// a[i] = start + (i - lo) * step for i in [lo, hi) of the 1-D array a; the rest is unchanged.
template <Element T>
void patch_enum(GlobalArray<T>& a, Index lo, Index hi, T start, T step) {
  detail::patch_enum(a, lo, hi, &start, &step);
}

/// Segmented copy: dst[i] = src[s] for i in [lo, hi), s the start of i's segment: the last
/// j <= i in [lo, hi) whose mask[j] is nonzero; the elements before the first such j belong to
/// no segment and are left unchanged (as GA's: a GA program sets mask[lo]). src and
/// dst: 1-D arrays of one element type; mask: a 1-D array of any type; each holds [lo, hi).
inline void scan_copy(const Array& src, Array& dst, const Array& mask, Index lo, Index hi) {
  detail::scan(detail::ScanOp::Copy, src, dst, mask, lo, hi);
}
/// Segmented sum over the same segments: dst[i] = src[s] + ... + src[i] (exclusive: + src[i-1],
/// 0 at the start of a segment).
inline void scan_add(const Array& src, Array& dst, const Array& mask, Index lo, Index hi, bool exclusive = false) {
  detail::scan(exclusive ? detail::ScanOp::AddExclusive : detail::ScanOp::Add, src, dst, mask, lo, hi);
}
/// Compresses: the selected elements src[i], i in [lo, hi) with mask[i] nonzero, in order into
/// dst[0], dst[1], ...; returns their number. dst needs at least that many elements (otherwise
/// every member fails and nothing is written); its other elements are unchanged.
inline Index pack(const Array& src, Array& dst, const Array& mask, Index lo, Index hi) {
  return detail::pack(src, dst, mask, lo, hi);
}
/// Expands: src[0], src[1], ... in order into dst[i] for the i in [lo, hi) with mask[i]
/// nonzero; returns their number. src needs at least that many elements; the unselected
/// elements of dst are unchanged.
inline Index unpack(const Array& src, Array& dst, const Array& mask, Index lo, Index hi) {
  return detail::unpack(src, dst, mask, lo, hi);
}

// ---- median and step bounds of patches (any rank; patches of one call have equal extents) -------
/// m = the element-wise median of a, b and c (complex elements: the one of middle modulus; of
/// two with equal moduli, the one from the earlier array). m may be one of the inputs.
template <Element T>
void median_patch(const GlobalArray<T>& a, const Coord& alo, const Coord& ahi, const GlobalArray<T>& b,
                  const Coord& blo, const Coord& bhi, const GlobalArray<T>& c, const Coord& clo, const Coord& chi,
                  GlobalArray<T>& m, const Coord& mlo, const Coord& mhi) {
  detail::median_patch(a, alo, ahi, b, blo, bhi, c, clo, chi, m, mlo, mhi);
}
template <Element T>
void median(const GlobalArray<T>& a, const GlobalArray<T>& b, const GlobalArray<T>& c, GlobalArray<T>& m) {
  median_patch(a, full_lo(a), full_hi(a), b, full_lo(b), full_hi(b), c, full_lo(c), full_hi(c), m, full_lo(m), full_hi(m));
}

/// What the step functions return for an unbounded step: Global Arrays' "infinity" of the type
/// (1e307 for double, 1e37 for float, the largest int or long).
template <class T>
constexpr T step_infinity() {
  if constexpr (std::is_same_v<T, double>) return 1.0e307;
  else if constexpr (std::is_same_v<T, float>) return 1.0e37f;
  else return std::numeric_limits<T>::max();
}
template <class T>
concept RealElement = std::is_same_v<T, int> || std::is_same_v<T, long> || std::is_same_v<T, float> ||
                      std::is_same_v<T, double>;

/// The largest s >= 0 with a + s b >= 0 element-wise: the smallest a[i] / -b[i] over the b[i] < 0
/// (integer types: divided as integers), step_infinity() when no b[i] is negative. Every element
/// of the a patch must be >= 0 (otherwise every member fails). Real types only.
template <RealElement T>
T step_max_patch(const GlobalArray<T>& a, const Coord& alo, const Coord& ahi, const GlobalArray<T>& b,
                 const Coord& blo, const Coord& bhi) {
  T r{};
  detail::step_max(a, alo, ahi, b, blo, bhi, &r);
  return r;
}
template <RealElement T>
T step_max(const GlobalArray<T>& a, const GlobalArray<T>& b) {
  return step_max_patch(a, full_lo(a), full_hi(a), b, full_lo(b), full_hi(b));
}

/// The steps from x along v to the box [xl, xu] (TAO's bound information for a line search).
template <class T>
struct StepBounds {
  T boundmin;  ///< the smallest step t[i]
  T wolfemin;  ///< the smallest step before the zero steps of boundmin's rule: the first bound met
  T boundmax;  ///< the largest step t[i]
};
/// Per element the step to the bound v[i] points at: t[i] = (xu[i] - x[i]) / v[i] for v[i] > 0,
/// (x[i] - xl[i]) / -v[i] for v[i] < 0, step_infinity() for v[i] = 0. wolfemin = min t;
/// boundmin and boundmax are the minimum and maximum of t after setting t[i] = 0 where v[i] = 0
/// and x[i] lies on a bound. xl <= x <= xu must hold element-wise (otherwise every member
/// fails). Real types only; the patches must not be empty.
template <RealElement T>
StepBounds<T> step_bound_info_patch(const GlobalArray<T>& x, const Coord& xlo, const Coord& xhi,
                                    const GlobalArray<T>& v, const Coord& vlo, const Coord& vhi,
                                    const GlobalArray<T>& xl, const Coord& llo, const Coord& lhi,
                                    const GlobalArray<T>& xu, const Coord& ulo, const Coord& uhi) {
  StepBounds<T> s{};
  void* out[3] = {&s.boundmin, &s.wolfemin, &s.boundmax};
  detail::step_bound_info(x, xlo, xhi, v, vlo, vhi, xl, llo, lhi, xu, ulo, uhi, out);
  return s;
}
template <RealElement T>
StepBounds<T> step_bound_info(const GlobalArray<T>& x, const GlobalArray<T>& v, const GlobalArray<T>& xl,
                              const GlobalArray<T>& xu) {
  return step_bound_info_patch(x, full_lo(x), full_hi(x), v, full_lo(v), full_hi(v), xl, full_lo(xl), full_hi(xl),
                               xu, full_lo(xu), full_hi(xu));
}

}  // namespace armada::arrays
