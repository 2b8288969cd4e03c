// GA's C interface's index tuples (zero-based, inclusive hi, ld of ndim-1 entries) as arrays'
// patches ([lo, hi)), checked.
#pragma once

#include <string>

#include "base/call.hpp"

namespace armada::ga {

/// A tuple of `n` GA indices as a Coord (n checked by the caller).
template <class I>
Coord coord(int n, const I* v) {
  Coord c = Coord::filled(n, 0);
  for (int d = 0; d < n; ++d) c[d] = static_cast<Index>(v[d]);
  return c;
}
/// GA's inclusive upper corner as an exclusive one.
template <class I>
Coord upper(int n, const I* hi) {
  Coord c = coord(n, hi);
  for (int d = 0; d < n; ++d) c[d] += 1;
  return c;
}
/// Checks that lo/hi (and ld when `buf_ld`) are given and that [lo, hi] lies in `a`, naming
/// GA's values; returns the arrays patch.
template <class I>
arrays::Patch patch(const char* function, const Array& a, const I* lo, const I* hi, const char* lo_name = "lo",
                    const char* hi_name = "hi");
/// The same for an array of dims `dims`.
template <class I>
arrays::Patch patch_of(const char* function, const Coord& dims, const I* lo, const I* hi, const char* lo_name = "lo",
                       const char* hi_name = "hi");
/// GA's ld (ndim-1 buffer extents, may be NULL for 1-D) as arrays' ld.
template <class I>
Coord leading(const char* function, const Array& a, const I* ld);

std::string tuple_text(int n, const Index* v);

/// GA's ld argument (ndim-1 entries, or NULL) as a tuple (empty: dense).
template <class I>
Coord ga_ld(int ndim, const I* ld) {
  return (ld && ndim > 1) ? coord(ndim - 1, ld) : Coord{};
}

}  // namespace armada::ga
