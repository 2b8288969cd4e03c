// Argument checks: every one runs before any data moves, and names the operation, the array,
// the argument and its value.
#include <string>

#include "armada/rma/runtime.hpp"
#include "internal.hpp"

namespace armada::arrays {

std::string Coord::str() const {
  std::string s = "[";
  for (int i = 0; i < std::min(n_, max_ndim); ++i) s += (i ? ", " : "") + std::to_string(v_[static_cast<std::size_t>(i)]);
  if (n_ > max_ndim) s += ", ... (" + std::to_string(n_) + " entries)";
  return s + "]";
}

namespace detail {

std::string describe(const Array::Impl& a) {
  return "array '" + a.name + "' (" + to_string(a.type) + ", dims " + a.dist.dims().str() + ")";
}

void fail(const char* op, const Array::Impl* a, const std::string& argument, const std::string& value,
          const std::string& reason, rma::ErrorKind kind) {
  throw rma::InvalidArgument(op, argument, value, a ? describe(*a) + ": " + reason : reason, kind);
}

Index checked_elements(const char* op, const char* argument, const Coord& extents) {
  Index n = 1;
  for (int d = 0; d < extents.size(); ++d)
    if (__builtin_mul_overflow(n, extents[d], &n))
      fail(op, nullptr, argument, extents.str(),
           "the element count overflows a 64-bit integer at dimension " + std::to_string(d));
  return n;
}

std::size_t checked_array_bytes(const char* op, const Coord& dims, const Coord& ghosts, std::size_t esize) {
  const auto too_big = [&](const std::string& why) {
    fail(op, nullptr, "dims", dims.str(), "with ghosts " + ghosts.str() + " and " + std::to_string(esize) +
                                              "-byte elements " + why);
  };
  Coord padded = dims;
  for (int d = 0; d < dims.size(); ++d)
    if (__builtin_add_overflow(dims[d], ghosts[d], &padded[d]) || __builtin_add_overflow(padded[d], ghosts[d], &padded[d]))
      too_big("dimension " + std::to_string(d) + " plus its ghosts overflows");
  Index elements = 1;
  Index bytes = 0;
  for (int d = 0; d < padded.size(); ++d)
    if (__builtin_mul_overflow(elements, padded[d], &elements)) too_big("the element count overflows");
  if (__builtin_mul_overflow(elements, static_cast<Index>(esize), &bytes))
    too_big("the size in bytes (" + std::to_string(elements) + " elements) overflows a 64-bit byte offset");
  return static_cast<std::size_t>(bytes);
}

void check_patch(const char* op, const Array::Impl& a, const Coord& lo, const Coord& hi) {
  const int n = a.ndim();
  if (lo.size() != n) fail(op, &a, "lo", lo.str(), "needs " + std::to_string(n) + " entries");
  if (hi.size() != n) fail(op, &a, "hi", hi.str(), "needs " + std::to_string(n) + " entries");
  for (int d = 0; d < n; ++d) {
    const std::string dd = "[" + std::to_string(d) + "]";
    if (lo[d] < 0) fail(op, &a, "lo", lo.str(), "lo" + dd + " is negative (patch [lo, hi) = " + lo.str() + ", " + hi.str() + ")");
    if (lo[d] > hi[d])
      fail(op, &a, "hi", hi.str(), "lo" + dd + " = " + std::to_string(lo[d]) + " > hi" + dd + " = " + std::to_string(hi[d]) +
           " (patch lo = " + lo.str() + ")");
    if (hi[d] > a.dist.dims()[d])
      fail(op, &a, "hi", hi.str(), "hi" + dd + " = " + std::to_string(hi[d]) + " is past dims" + dd + " = " +
           std::to_string(a.dist.dims()[d]) + " (patch lo = " + lo.str() + ")");
  }
}

Coord dense_strides(const Coord& extents) {
  Coord s = Coord::filled(extents.size(), 1);
  for (int d = extents.size() - 2; d >= 0; --d) s[d] = s[d + 1] * extents[d + 1];
  return s;
}

Coord buffer_strides(const char* op, const Array::Impl& a, const Coord& extents, const Coord& ld) {
  const int n = extents.size();
  if (ld.empty()) return dense_strides(extents);
  if (ld.size() != n - 1)
    fail(op, &a, "ld", ld.str(), "needs ndim - 1 = " + std::to_string(n - 1) + " entries");
  // ld[d] enters the strides of dimensions 0 .. d only. When the patch has extent 1 in all of
  // them, no index there is ever multiplied by it, so any ld[d] >= 1 will do (GA's own programs
  // pass ld {1} for a single row; GA never checks ld at all).
  Coord s = Coord::filled(n, 1);
  bool used = false;  // some dimension 0 .. d has extent > 1
  for (int d = 0; d <= n - 2; ++d) {
    used = used || extents[d] > 1;
    if (ld[d] >= extents[d + 1] || (!used && ld[d] >= 1)) [[likely]] continue;
    const std::string which = "ld[" + std::to_string(d) + "] = " + std::to_string(ld[d]);
    if (!used) fail(op, &a, "ld", ld.str(), which + " must be >= 1");
    fail(op, &a, "ld", ld.str(), which + " is less than the patch extent " + std::to_string(extents[d + 1]) +
         " of dimension " + std::to_string(d + 1));
  }
  for (int d = n - 2; d >= 0; --d) s[d] = s[d + 1] * ld[d];
  return s;
}

void check_compatible(const char* op, const Array::Impl& a, const Array::Impl& b) {
  if (a.type != b.type)
    fail(op, &b, "type", to_string(b.type), std::string("differs from ") + describe(a), rma::ErrorKind::type);
  if (!(a.group == b.group))
    fail(op, &b, "group", "size " + std::to_string(b.group.size()), "is not the group of " + describe(a));
}

void check_same_extents(const char* op, const Array::Impl& a, const Coord& alo, const Coord& ahi,
                        const Array::Impl& b, const Coord& blo, const Coord& bhi, bool transpose) {
  const Coord ea = Patch{alo, ahi}.extents(), eb = Patch{blo, bhi}.extents();
  bool same = ea.size() == eb.size();
  for (int d = 0; same && d < ea.size(); ++d) same = ea[d] == eb[transpose ? ea.size() - 1 - d : d];
  if (!same)
    fail(op, &b, "patch", blo.str() + " .. " + bhi.str(),
         std::string("its extents ") + eb.str() + (transpose ? " are not the reverse of " : " differ from ") +
             "the extents " + ea.str() + " of patch " + alo.str() + " .. " + ahi.str() + " of " + describe(a));
}

}  // namespace detail
}  // namespace armada::arrays

namespace armada::arrays::detail {
std::size_t member_state_bytes(const Array& a) { return a.impl()->bases.capacity() * sizeof(std::byte*); }
}  // namespace armada::arrays::detail
