// The patch operations of scan.hpp: element-wise median of three patches and the line-search
// step bounds. Each member works on the part of the output (median) or of the first input (the
// step reductions) it owns, fetching the matching parts of the other patches; the step bounds are
// reduced over the group. Checks that depend on the data (a negative element, x outside its
// bounds) are agreed by the group, so they fail on every member.
#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

#include "armada/arrays/collective.hpp"
#include "armada/arrays/scan.hpp"
#include "collective_internal.hpp"
#include "internal.hpp"

namespace armada::arrays::detail {

namespace {

/// The median of x, y, z (complex: by modulus; ties go to the earlier argument).
template <class T>
T median3(const T& x, const T& y, const T& z) {
  if constexpr (!is_complex_v<T>) {
    if (x == y) return x;
    const T& lo = x < y ? x : y;
    const T& hi = x < y ? y : x;
    return z < lo ? lo : (hi < z ? hi : z);
  } else {
    const double kx = magnitude(x), ky = magnitude(y), kz = magnitude(z);
    if (kx == ky) return x;
    const bool xlow = kx < ky;
    const T& lo = xlow ? x : y;
    const T& hi = xlow ? y : x;
    const double klo = xlow ? kx : ky, khi = xlow ? ky : kx;
    return kz < klo ? lo : (khi < kz ? hi : z);
  }
}

void require_real(const char* op, const Array::Impl& a) {
  if (a.type == ElemType::ComplexFloat || a.type == ElemType::ComplexDouble)
    fail(op, &a, "type", to_string(a.type), "the step bounds are defined for int, long, float and double arrays only",
         rma::ErrorKind::type);
}

/// Throws on every member if `bad` holds on any, naming `argument` and `why`.
void agree_data(const char* op, const Array::Impl& a, bool bad, const char* argument, const Coord& lo,
                const Coord& hi, const std::string& why) {
  if (any(a, bad)) fail(op, &a, argument, lo.str() + " .. " + hi.str(), why + "; nothing was computed");
}

}  // namespace

void median_patch(const Array& aa, const Coord& alo, const Coord& ahi, const Array& ba, const Coord& blo,
                  const Coord& bhi, const Array& ca, const Coord& clo, const Coord& chi, Array& ma,
                  const Coord& mlo, const Coord& mhi) {
  constexpr const char* name = "arrays::median";
  const Array::Impl *ap = nullptr, *bp = nullptr, *cp = nullptr, *mp = nullptr;
  begin_collective(name, collective_group(name, ma), [&] {
    mp = &patch_of(name, ma, mlo, mhi);
    ap = &matching(name, aa, *mp, mlo, mhi, alo, ahi);
    bp = &matching(name, ba, *mp, mlo, mhi, blo, bhi);
    cp = &matching(name, ca, *mp, mlo, mhi, clo, chi);
  }, {same_shape("a", aa), same_patch("a patch", alo, ahi), same_shape("b", ba), same_patch("b patch", blo, bhi),
      same_shape("c", ca), same_patch("c patch", clo, chi), same_shape("m", ma), same_patch("m patch", mlo, mhi)});
  const Array::Impl& m = *mp;
  const std::vector<LocalPart> parts = my_parts(m, mlo, mhi);
  with_element_type(m.type, [&](auto zero) {
    using T = decltype(zero);
    const std::vector<T> va = fetch_parts<T>(*ap, parts, mlo, alo), vb = fetch_parts<T>(*bp, parts, mlo, blo),
                         vc = fetch_parts<T>(*cp, parts, mlo, clo);
    barrier_serving(m, name);  // everyone has read its inputs before anyone writes m
    for_parts<T>(parts, [&](T& x, Index i) {
      const auto k = static_cast<std::size_t>(i);
      x = median3(va[k], vb[k], vc[k]);
    });
  });
  group_sync(m);
}

void step_max(const Array& aa, const Coord& alo, const Coord& ahi, const Array& ba, const Coord& blo,
              const Coord& bhi, void* result) {
  constexpr const char* name = "arrays::step_max";
  const Array::Impl *ap = nullptr, *bp = nullptr;
  begin_collective(name, collective_group(name, aa), [&] {
    ap = &patch_of(name, aa, alo, ahi);
    require_real(name, *ap);
    bp = &matching(name, ba, *ap, alo, ahi, blo, bhi);
    if (!result) fail(name, ap, "result", "null", "needs room for one element");
  }, {same_shape("a", aa), same_patch("a patch", alo, ahi), same_shape("b", ba), same_patch("b patch", blo, bhi)});
  const Array::Impl& a = *ap;
  const std::vector<LocalPart> parts = my_parts(a, alo, ahi);
  with_element_type(a.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!is_complex_v<T>) {
      const std::vector<T> vb = fetch_parts<T>(*bp, parts, alo, blo);
      bool negative = false;
      T step = step_infinity<T>();
      for_parts<T>(parts, [&](const T& x, Index i) {
        const T d = vb[static_cast<std::size_t>(i)];
        negative |= x < T{};
        if (d < T{}) step = std::min(step, static_cast<T>(x / -d));
      });
      agree_data(name, a, negative, "a patch", alo, ahi, "holds a negative element (a must be >= 0)");
      rma::allreduce(std::span<T>(&step, 1), rma::ReduceOp::Min, a.group);
      std::memcpy(result, &step, sizeof(T));
    }
  });
  group_sync(a);
}

namespace {

/// This member's steps of step_bound_info: {boundmin, wolfemin, boundmax} over its part, and
/// whether x left its bounds (below xl, above xu).
template <class T>
struct LocalBounds {
  T min_masked = step_infinity<T>(), min_all = step_infinity<T>(), max_masked = std::numeric_limits<T>::lowest();
  bool below = false, above = false;
  void add(T x, T v, T l, T u) {
    below |= x < l;
    above |= u < x;
    T t = step_infinity<T>();
    if (v > T{}) t = static_cast<T>((u - x) / v);
    if (v < T{}) t = static_cast<T>((x - l) / -v);
    min_all = std::min(min_all, t);
    if (v == T{} && (x == l || x == u)) t = T{};
    min_masked = std::min(min_masked, t);
    max_masked = std::max(max_masked, t);
  }
};

}  // namespace

void step_bound_info(const Array& xa, const Coord& xlo, const Coord& xhi, const Array& va, const Coord& vlo,
                     const Coord& vhi, const Array& la, const Coord& llo, const Coord& lhi, const Array& ua,
                     const Coord& ulo, const Coord& uhi, void* bounds[3]) {
  constexpr const char* name = "arrays::step_bound_info";
  const Array::Impl *xp = nullptr, *vp = nullptr, *lp = nullptr, *up = nullptr;
  begin_collective(name, collective_group(name, xa), [&] {
    xp = &patch_of(name, xa, xlo, xhi);
    require_real(name, *xp);
    if (Patch{xlo, xhi}.empty()) fail(name, xp, "xx patch", xlo.str() + " .. " + xhi.str(), "must not be empty");
    vp = &matching(name, va, *xp, xlo, xhi, vlo, vhi);
    lp = &matching(name, la, *xp, xlo, xhi, llo, lhi);
    up = &matching(name, ua, *xp, xlo, xhi, ulo, uhi);
    for (int k = 0; k < 3; ++k)
      if (!bounds || !bounds[k]) fail(name, xp, "bounds", "null", "needs room for boundmin, wolfemin and boundmax");
  }, {same_shape("xx", xa), same_patch("xx patch", xlo, xhi), same_shape("vv", va), same_patch("vv patch", vlo, vhi),
      same_shape("xxll", la), same_patch("xxll patch", llo, lhi), same_shape("xxuu", ua),
      same_patch("xxuu patch", ulo, uhi)});
  const Array::Impl& x = *xp;
  const std::vector<LocalPart> parts = my_parts(x, xlo, xhi);
  with_element_type(x.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!is_complex_v<T>) {
      const std::vector<T> v = fetch_parts<T>(*vp, parts, xlo, vlo), l = fetch_parts<T>(*lp, parts, xlo, llo),
                           u = fetch_parts<T>(*up, parts, xlo, ulo);
      LocalBounds<T> b;
      for_parts<T>(parts, [&](const T& e, Index i) {
        const auto k = static_cast<std::size_t>(i);
        b.add(e, v[k], l[k], u[k]);
      });
      agree_data(name, x, b.below, "xx patch", xlo, xhi, "has an element below its lower bound xxll");
      agree_data(name, x, b.above, "xx patch", xlo, xhi, "has an element above its upper bound xxuu");
      T mins[2] = {b.min_masked, b.min_all};
      rma::allreduce(std::span<T>(mins, 2), rma::ReduceOp::Min, x.group);
      rma::allreduce(std::span<T>(&b.max_masked, 1), rma::ReduceOp::Max, x.group);
      std::memcpy(bounds[0], &mins[0], sizeof(T));
      std::memcpy(bounds[1], &mins[1], sizeof(T));
      std::memcpy(bounds[2], &b.max_masked, sizeof(T));
    }
  });
  group_sync(x);
}

}  // namespace armada::arrays::detail
