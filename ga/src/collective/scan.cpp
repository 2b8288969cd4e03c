// GA's sparse-data operations (GA_Patch_enum, GA_Scan_copy, GA_Scan_add, GA_Pack, GA_Unpack) on
// 1-D arrays and the TAO helpers (GA_Median, GA_Step_max, GA_Step_bound_info and their patch
// forms) on arrays' scan.hpp. GA's inclusive [lo, hi] becomes arrays' [lo, hi + 1) here.
#include <climits>

#include "armada/arrays/arrays.hpp"
#include "base/call.hpp"
#include "base/index.hpp"
#include "create/handles.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

/// The 1-D array of handle g (named `argument`), with [lo, hi] inside it when `range`.
template <class I>
Array& vector_array(const char* function, const char* argument, int g, I lo, I hi, bool range) {
  Array& a = array(function, g);
  if (a.ndim() != 1)
    bad_argument(function, argument, std::to_string(g),
                 "must be a 1-D array (it has " + std::to_string(a.ndim()) + " dimensions)");
  if (range) (void)patch(function, a, &lo, &hi);
  return a;
}

template <class I>
void scan(const char* function, int g_src, int g_dst, int g_mask, I lo, I hi, int excl, bool add) {
  guarded(function, [&] {
    const Array& src = vector_array(function, "g_a", g_src, lo, hi, true);
    Array& dst = vector_array(function, "g_b", g_dst, lo, hi, true);
    const Array& mask = vector_array(function, "g_sbit", g_mask, lo, hi, true);
    if (add && excl != 0 && excl != 1) bad_argument(function, "excl", std::to_string(excl), "must be 0 or 1");
    if (!add) arrays::scan_copy(src, dst, mask, lo, static_cast<Index>(hi) + 1);
    else arrays::scan_add(src, dst, mask, lo, static_cast<Index>(hi) + 1, excl == 1);
  });
}

template <class I>
void pack(const char* function, int g_src, int g_dst, int g_mask, I lo, I hi, I* icount, bool unpack) {
  guarded(function, [&] {
    // pack reads src over [lo, hi], unpack writes dst there; the other may be any length.
    const Array& src = vector_array(function, "g_src", g_src, lo, hi, !unpack);
    Array& dst = vector_array(function, "g_dest", g_dst, lo, hi, unpack);
    const Array& mask = vector_array(function, "g_mask", g_mask, lo, hi, true);
    if (!icount) bad_argument(function, "icount", "NULL", "room for the count is required");
    const Index n = unpack ? arrays::unpack(src, dst, mask, lo, static_cast<Index>(hi) + 1)
                           : arrays::pack(src, dst, mask, lo, static_cast<Index>(hi) + 1);
    *icount = static_cast<I>(n);
  });
}

template <class I>
void patch_enum(const char* function, int g_a, I lo, I hi, const void* start, const void* inc) {
  guarded(function, [&] {
    Array& a = vector_array(function, "g_a", g_a, lo, hi, true);
    if (!start || !inc) bad_argument(function, start ? "inc" : "start", "NULL", "a value of the array's type is required");
    arrays::detail::patch_enum(a, lo, static_cast<Index>(hi) + 1, start, inc);
  });
}

/// A patch argument, or the whole array when the call has none.
template <class I>
arrays::Patch patch_or_whole(const char* function, const Array& a, const I* lo, const I* hi, const char* lo_name,
                             const char* hi_name, bool whole) {
  if (whole) return arrays::Patch{arrays::full_lo(a), arrays::full_hi(a)};
  return patch(function, a, lo, hi, lo_name, hi_name);
}

template <class I>
void median(const char* function, int g_a, const I* alo, const I* ahi, int g_b, const I* blo, const I* bhi, int g_c,
            const I* clo, const I* chi, int g_m, const I* mlo, const I* mhi, bool whole) {
  guarded(function, [&] {
    const Array &a = array(function, g_a), &b = array(function, g_b), &c = array(function, g_c);
    Array& m = array(function, g_m);
    const arrays::Patch pa = patch_or_whole(function, a, alo, ahi, "alo", "ahi", whole);
    const arrays::Patch pb = patch_or_whole(function, b, blo, bhi, "blo", "bhi", whole);
    const arrays::Patch pc = patch_or_whole(function, c, clo, chi, "clo", "chi", whole);
    const arrays::Patch pm = patch_or_whole(function, m, mlo, mhi, "mlo", "mhi", whole);
    arrays::detail::median_patch(a, pa.lo, pa.hi, b, pb.lo, pb.hi, c, pc.lo, pc.hi, m, pm.lo, pm.hi);
  });
}

template <class I>
void step_max(const char* function, int g_a, const I* alo, const I* ahi, int g_b, const I* blo, const I* bhi,
              void* step, bool whole) {
  guarded(function, [&] {
    const Array &a = array(function, g_a), &b = array(function, g_b);
    if (!step) bad_argument(function, "step", "NULL", "room for one element of the arrays' type is required");
    const arrays::Patch pa = patch_or_whole(function, a, alo, ahi, "alo", "ahi", whole);
    const arrays::Patch pb = patch_or_whole(function, b, blo, bhi, "blo", "bhi", whole);
    arrays::detail::step_max(a, pa.lo, pa.hi, b, pb.lo, pb.hi, step);
  });
}

template <class I, class H>
void step_bound_info(const char* function, int g_xx, const I* xlo, const I* xhi, int g_vv, const I* vlo,
                     const I* vhi, int g_xl, const I* llo, const I* lhi, H g_xu, const I* ulo, const I* uhi,
                     void* boundmin, void* wolfemin, void* boundmax, bool whole) {
  guarded(function, [&] {
    if constexpr (sizeof(H) > sizeof(int))  // GA 5.8's 64-bit form takes this handle as int64_t
      if (g_xu < INT_MIN || g_xu > INT_MAX) bad_argument(function, "g_xxuu", std::to_string(g_xu), "not an array handle");
    const Array &x = array(function, g_xx), &v = array(function, g_vv), &l = array(function, g_xl);
    const Array& u = array(function, static_cast<int>(g_xu));
    void* out[3] = {boundmin, wolfemin, boundmax};
    const char* names[3] = {"boundmin", "wolfemin", "boundmax"};
    for (int k = 0; k < 3; ++k)
      if (!out[k]) bad_argument(function, names[k], "NULL", "room for one element of the arrays' type is required");
    const arrays::Patch px = patch_or_whole(function, x, xlo, xhi, "xxlo", "xxhi", whole);
    const arrays::Patch pv = patch_or_whole(function, v, vlo, vhi, "vvlo", "vvhi", whole);
    const arrays::Patch pl = patch_or_whole(function, l, llo, lhi, "xxlllo", "xxllhi", whole);
    const arrays::Patch pu = patch_or_whole(function, u, ulo, uhi, "xxuulo", "xxuuhi", whole);
    arrays::detail::step_bound_info(x, px.lo, px.hi, v, pv.lo, pv.hi, l, pl.lo, pl.hi, u, pu.lo, pu.hi, out);
  });
}

}  // namespace

extern "C" {

void GA_Patch_enum(int g_a, int lo, int hi, void* start, void* inc) { patch_enum("GA_Patch_enum", g_a, lo, hi, start, inc); }
void GA_Patch_enum64(int g_a, int64_t lo, int64_t hi, void* start, void* inc) {
  patch_enum("GA_Patch_enum64", g_a, lo, hi, start, inc);
}
void GA_Scan_copy(int g_a, int g_b, int g_sbit, int lo, int hi) { scan("GA_Scan_copy", g_a, g_b, g_sbit, lo, hi, 0, false); }
void GA_Scan_copy64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi) {
  scan("GA_Scan_copy64", g_a, g_b, g_sbit, lo, hi, 0, false);
}
void GA_Scan_add(int g_a, int g_b, int g_sbit, int lo, int hi, int excl) {
  scan("GA_Scan_add", g_a, g_b, g_sbit, lo, hi, excl, true);
}
void GA_Scan_add64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi, int excl) {
  scan("GA_Scan_add64", g_a, g_b, g_sbit, lo, hi, excl, true);
}
void GA_Pack(int g_src, int g_dest, int g_mask, int lo, int hi, int* icount) {
  pack("GA_Pack", g_src, g_dest, g_mask, lo, hi, icount, false);
}
void GA_Pack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t* icount) {
  pack("GA_Pack64", g_src, g_dest, g_mask, lo, hi, icount, false);
}
void GA_Unpack(int g_src, int g_dest, int g_mask, int lo, int hi, int* icount) {
  pack("GA_Unpack", g_src, g_dest, g_mask, lo, hi, icount, true);
}
void GA_Unpack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t* icount) {
  pack("GA_Unpack64", g_src, g_dest, g_mask, lo, hi, icount, true);
}

void GA_Median(int g_a, int g_b, int g_c, int g_m) {
  const int* none = nullptr;
  median("GA_Median", g_a, none, none, g_b, none, none, g_c, none, none, g_m, none, none, true);
}
void GA_Median_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c, int* clo, int* chi, int g_m,
                     int* mlo, int* mhi) {
  median("GA_Median_patch", g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi, g_m, mlo, mhi, false);
}
void GA_Median_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo, int64_t* bhi, int g_c,
                       int64_t* clo, int64_t* chi, int g_m, int64_t* mlo, int64_t* mhi) {
  median("GA_Median_patch64", g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi, g_m, mlo, mhi, false);
}

void GA_Step_max(int g_a, int g_b, void* step) {
  const int* none = nullptr;
  step_max("GA_Step_max", g_a, none, none, g_b, none, none, step, true);
}
void GA_Step_max_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, void* step) {
  step_max("GA_Step_max_patch", g_a, alo, ahi, g_b, blo, bhi, step, false);
}
void GA_Step_max_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[], int64_t bhi[], void* step) {
  step_max("GA_Step_max_patch64", g_a, alo, ahi, g_b, blo, bhi, step, false);
}
void GA_Step_bound_info(int g_xx, int g_vv, int g_xxll, int g_xxuu, void* boundmin, void* wolfemin, void* boundmax) {
  const int* none = nullptr;
  step_bound_info("GA_Step_bound_info", g_xx, none, none, g_vv, none, none, g_xxll, none, none, g_xxuu, none, none,
                  boundmin, wolfemin, boundmax, true);
}
void GA_Step_bound_info_patch(int g_xx, int* xxlo, int* xxhi, int g_vv, int* vvlo, int* vvhi, int g_xxll, int* xxlllo,
                              int* xxllhi, int g_xxuu, int* xxuulo, int* xxuuhi, void* boundmin, void* wolfemin,
                              void* boundmax) {
  step_bound_info("GA_Step_bound_info_patch", g_xx, xxlo, xxhi, g_vv, vvlo, vvhi, g_xxll, xxlllo, xxllhi, g_xxuu,
                  xxuulo, xxuuhi, boundmin, wolfemin, boundmax, false);
}
void GA_Step_bound_info_patch64(int g_xx, int64_t xxlo[], int64_t xxhi[], int g_vv, int64_t vvlo[], int64_t vvhi[],
                                int g_xxll, int64_t xxlllo[], int64_t xxllhi[], int64_t g_xxuu, int64_t xxuulo[],
                                int64_t xxuuhi[], void* boundmin, void* wolfemin, void* boundmax) {
  step_bound_info("GA_Step_bound_info_patch64", g_xx, xxlo, xxhi, g_vv, vvlo, vvhi, g_xxll, xxlllo, xxllhi, g_xxuu,
                  xxuulo, xxuuhi, boundmin, wolfemin, boundmax, false);
}

}  // extern "C"
