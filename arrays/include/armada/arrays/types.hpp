// Element types, index values and index tuples of armada::arrays.
//
// Index ranges are zero-based and half-open [lo, hi); arrays are row-major (C order). Indices
// and extents are std::int64_t.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "armada/rma/types.hpp"

namespace armada::arrays {

using Index = std::int64_t;

/// Largest number of dimensions of an array.
inline constexpr int max_ndim = 7;

/// Element type of an array: the accumulate types of rma (int, long, float, double,
/// complex<float>, complex<double>).
using ElemType = rma::AccType;

/// The element types an array may hold.
template <class T>
concept Element = std::is_same_v<T, int> || std::is_same_v<T, long> || std::is_same_v<T, float> ||
                  std::is_same_v<T, double> || std::is_same_v<T, std::complex<float>> ||
                  std::is_same_v<T, std::complex<double>>;

template <Element T>
constexpr ElemType type_of() { return rma::acc_type_of<T>(); }

/// The way back from a runtime type: calls f(T{}) with T the element type `type` names, for the
/// layers whose callers pass the type as a value (the C, GA and Python faces).
template <class F>
decltype(auto) with_element_type(ElemType type, F&& f) {
  switch (type) {
    case ElemType::Int: return f(int{});
    case ElemType::Long: return f(long{});
    case ElemType::Float: return f(float{});
    case ElemType::Double: return f(double{});
    case ElemType::ComplexFloat: return f(std::complex<float>{});
    case ElemType::ComplexDouble: break;
  }
  return f(std::complex<double>{});
}

/// Size in bytes of one element of `type`, and its name ("double", "complex<float>", ...).
using rma::size_of;
using rma::to_string;

/// An index tuple (a position, a patch corner, dimensions, ...) of up to max_ndim entries, held
/// by value. Built from a braced list, a span or a vector: `A.get({0, 2}, {4, 6}, buf)`.
/// A tuple given more than max_ndim entries remembers its true length (size()) so that checks
/// can reject it; only the first max_ndim are stored.
class Coord {
 public:
  Coord() = default;
  Coord(std::initializer_list<Index> values) { assign(values.begin(), values.size()); }
  Coord(std::span<const Index> values) { assign(values.data(), values.size()); }
  Coord(const std::vector<Index>& values) { assign(values.data(), values.size()); }
  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, Index>)
  Coord(const std::vector<I>& values) {
    n_ = static_cast<int>(values.size());
    for (std::size_t i = 0; i < std::min<std::size_t>(values.size(), max_ndim); ++i) v_[i] = static_cast<Index>(values[i]);
  }
  /// `n` copies of `value`.
  static Coord filled(int n, Index value) {
    Coord c;
    c.n_ = n;
    for (int i = 0; i < std::min(n, max_ndim); ++i) c.v_[static_cast<std::size_t>(i)] = value;
    return c;
  }

  int size() const noexcept { return n_; }
  bool empty() const noexcept { return n_ == 0; }
  Index operator[](int i) const noexcept { return v_[static_cast<std::size_t>(i)]; }
  Index& operator[](int i) noexcept { return v_[static_cast<std::size_t>(i)]; }
  const Index* data() const noexcept { return v_.data(); }
  Index* data() noexcept { return v_.data(); }
  const Index* begin() const noexcept { return v_.data(); }
  const Index* end() const noexcept { return v_.data() + std::min(n_, max_ndim); }
  std::vector<Index> to_vector() const { return {begin(), end()}; }
  /// Product of the entries (1 for an empty tuple).
  Index product() const noexcept {
    Index p = 1;
    for (Index x : *this) p *= x;
    return p;
  }
  bool operator==(const Coord& o) const noexcept {
    return n_ == o.n_ && std::equal(begin(), end(), o.begin());
  }
  /// "[1, 2, 3]"
  std::string str() const;

 private:
  void assign(const Index* p, std::size_t n) {
    n_ = static_cast<int>(n);
    for (std::size_t i = 0; i < std::min<std::size_t>(n, max_ndim); ++i) v_[i] = p[i];
  }
  std::array<Index, max_ndim> v_{};
  int n_ = 0;
};

/// A patch: the half-open box [lo, hi). Empty when any hi[d] <= lo[d].
struct Patch {
  Coord lo, hi;
  bool empty() const noexcept {
    for (int d = 0; d < lo.size(); ++d)
      if (hi[d] <= lo[d]) return true;
    return false;
  }
  Index elements() const noexcept {
    if (empty()) return 0;
    Index n = 1;
    for (int d = 0; d < lo.size(); ++d) n *= hi[d] - lo[d];
    return n;
  }
  Coord extents() const {
    Coord e = lo;
    for (int d = 0; d < lo.size(); ++d) e[d] = std::max<Index>(0, hi[d] - lo[d]);
    return e;
  }
  bool operator==(const Patch&) const = default;
};

}  // namespace armada::arrays
