// GA's Fortran API, sparse-data operations on 1-d arrays (ga_patch_enum, ga_scan_copy,
// ga_scan_add, ga_pack, ga_unpack: lo, hi one-based and inclusive) and the TAO helpers
// (ga_median, ga_step_max, ga_step_bound_info and their _patch forms, n-d patches in Fortran's
// view) on the C API's 64-bit forms.
#include "binding.hpp"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

/// The C handle of 1-d array g (named `argument`); with `range`, [lo, hi] checked inside it.
int vector_handle(const char* fn, Int g, const char* argument, Int lo, Int hi, bool range) {
  const int c = handle(fn, g, argument);
  int ndim = 0;
  std::int64_t d[GA_MAX_DIM] = {};
  dims(fn, c, &ndim, d);
  if (ndim != 1)
    bad_argument(fn, argument, std::to_string(g), "is " + std::to_string(ndim) + "-d; " + fn + " needs a 1-d array");
  if (range) (void)patch(fn, c, &lo, &hi);
  return c;
}

enum class Sparse { ScanCopy, ScanAdd, Pack, Unpack };

void sparse(const char* fn, Sparse op, Int g_src, Int g_dst, Int g_mask, Int lo, Int hi, Int excl, Int* icount) {
  call(fn, [&] {
    const bool walks_src = op != Sparse::Unpack, walks_dst = op != Sparse::Pack;
    const bool pack_names = op == Sparse::Pack || op == Sparse::Unpack;
    const int s = vector_handle(fn, g_src, pack_names ? "g_src" : "g_a", lo, hi, walks_src);
    const int d = vector_handle(fn, g_dst, pack_names ? "g_dest" : "g_b", lo, hi, walks_dst);
    const int m = vector_handle(fn, g_mask, pack_names ? "g_mask" : "g_sbit", lo, hi, true);
    const std::int64_t clo = std::int64_t{lo} - 1, chi = std::int64_t{hi} - 1;
    std::int64_t n = 0;
    switch (op) {
      case Sparse::ScanCopy: GA_Scan_copy64(s, d, m, clo, chi); break;
      case Sparse::ScanAdd:
        if (excl != 0 && excl != 1) bad_argument(fn, "excl", std::to_string(excl), "must be 0 or 1");
        GA_Scan_add64(s, d, m, clo, chi, static_cast<int>(excl));
        break;
      case Sparse::Pack: GA_Pack64(s, d, m, clo, chi, &n); break;
      case Sparse::Unpack: GA_Unpack64(s, d, m, clo, chi, &n); break;
    }
    if (icount) *icount = static_cast<Int>(n);
  });
}

/// An n-d patch of handle `g` (argument `argument`) in the C view.
CPatch nd(const char* fn, Int g, const char* argument, const Int* lo, const Int* hi, const char* lo_name,
          const char* hi_name, int* c) {
  *c = handle(fn, g, argument);
  return patch(fn, *c, lo, hi, PatchNames{lo_name, hi_name});
}

}  // namespace

extern "C" {

void ga_patch_enum_(const Int* g_a, const Int* lo, const Int* hi, void* istart, void* istride) {
  const char* const fn = "ga_patch_enum";
  call(fn, [&] {
    const int g = vector_handle(fn, *g_a, "g_a", *lo, *hi, true);
    GA_Patch_enum64(g, std::int64_t{*lo} - 1, std::int64_t{*hi} - 1, istart, istride);
  });
}
void ga_scan_copy_(const Int* g_src, const Int* g_dest, const Int* g_mask, const Int* lo, const Int* hi) {
  sparse("ga_scan_copy", Sparse::ScanCopy, *g_src, *g_dest, *g_mask, *lo, *hi, 0, nullptr);
}
void ga_scan_add_(const Int* g_src, const Int* g_dest, const Int* g_mask, const Int* lo, const Int* hi,
                  const Int* excl) {
  sparse("ga_scan_add", Sparse::ScanAdd, *g_src, *g_dest, *g_mask, *lo, *hi, *excl, nullptr);
}
void ga_pack_(const Int* g_src, const Int* g_dest, const Int* g_mask, const Int* lo, const Int* hi, Int* icount) {
  sparse("ga_pack", Sparse::Pack, *g_src, *g_dest, *g_mask, *lo, *hi, 0, icount);
}
void ga_unpack_(const Int* g_src, const Int* g_dest, const Int* g_mask, const Int* lo, const Int* hi, Int* icount) {
  sparse("ga_unpack", Sparse::Unpack, *g_src, *g_dest, *g_mask, *lo, *hi, 0, icount);
}

void ga_median_(const Int* g_a, const Int* g_b, const Int* g_c, const Int* g_m) {
  const char* const fn = "ga_median";
  call(fn, [&] { GA_Median(handle(fn, *g_a), handle(fn, *g_b, "g_b"), handle(fn, *g_c, "g_c"), handle(fn, *g_m, "g_m")); });
}
void ga_median_patch_(const Int* g_a, const Int* alo, const Int* ahi, const Int* g_b, const Int* blo, const Int* bhi,
                      const Int* g_c, const Int* clo, const Int* chi, const Int* g_m, const Int* mlo, const Int* mhi) {
  const char* const fn = "ga_median_patch";
  call(fn, [&] {
    int a = 0, b = 0, c = 0, m = 0;
    CPatch pa = nd(fn, *g_a, "g_a", alo, ahi, "alo", "ahi", &a), pb = nd(fn, *g_b, "g_b", blo, bhi, "blo", "bhi", &b);
    CPatch pc = nd(fn, *g_c, "g_c", clo, chi, "clo", "chi", &c), pm = nd(fn, *g_m, "g_m", mlo, mhi, "mlo", "mhi", &m);
    GA_Median_patch64(a, pa.lo, pa.hi, b, pb.lo, pb.hi, c, pc.lo, pc.hi, m, pm.lo, pm.hi);
  });
}

void ga_step_max_(const Int* g_a, const Int* g_b, void* step) {
  const char* const fn = "ga_step_max";
  call(fn, [&] { GA_Step_max(handle(fn, *g_a), handle(fn, *g_b, "g_b"), step); });
}
void ga_step_max_patch_(const Int* g_a, const Int* alo, const Int* ahi, const Int* g_b, const Int* blo, const Int* bhi,
                        void* step) {
  const char* const fn = "ga_step_max_patch";
  call(fn, [&] {
    int a = 0, b = 0;
    CPatch pa = nd(fn, *g_a, "g_a", alo, ahi, "alo", "ahi", &a), pb = nd(fn, *g_b, "g_b", blo, bhi, "blo", "bhi", &b);
    GA_Step_max_patch64(a, pa.lo, pa.hi, b, pb.lo, pb.hi, step);
  });
}
void ga_step_bound_info_(const Int* g_xx, const Int* g_vv, const Int* g_xxll, const Int* g_xxuu, void* boundmin,
                         void* wolfemin, void* boundmax) {
  const char* const fn = "ga_step_bound_info";
  call(fn, [&] {
    GA_Step_bound_info(handle(fn, *g_xx, "g_xx"), handle(fn, *g_vv, "g_vv"), handle(fn, *g_xxll, "g_xxll"),
                       handle(fn, *g_xxuu, "g_xxuu"), boundmin, wolfemin, boundmax);
  });
}
void ga_step_bound_info_patch_(const Int* g_xx, const Int* xxlo, const Int* xxhi, const Int* g_vv, const Int* vvlo,
                               const Int* vvhi, const Int* g_xxll, const Int* xxlllo, const Int* xxllhi,
                               const Int* g_xxuu, const Int* xxuulo, const Int* xxuuhi, void* boundmin, void* wolfemin,
                               void* boundmax) {
  const char* const fn = "ga_step_bound_info_patch";
  call(fn, [&] {
    int x = 0, v = 0, l = 0, u = 0;
    CPatch px = nd(fn, *g_xx, "g_xx", xxlo, xxhi, "xxlo", "xxhi", &x);
    CPatch pv = nd(fn, *g_vv, "g_vv", vvlo, vvhi, "vvlo", "vvhi", &v);
    CPatch pl = nd(fn, *g_xxll, "g_xxll", xxlllo, xxllhi, "xxlllo", "xxllhi", &l);
    CPatch pu = nd(fn, *g_xxuu, "g_xxuu", xxuulo, xxuuhi, "xxuulo", "xxuuhi", &u);
    GA_Step_bound_info_patch64(x, px.lo, px.hi, v, pv.lo, pv.hi, l, pl.lo, pl.hi, u, pu.lo, pu.hi, boundmin, wolfemin,
                               boundmax);
  });
}

// ---- the nga_ spellings GA's Fortran API has of the calls above ---------------------------------
void nga_patch_enum_(const Int* g_a, const Int* lo, const Int* hi, void* istart, void* istride) {
  ga_patch_enum_(g_a, lo, hi, istart, istride);
}
void nga_scan_copy_(const Int* g_src, const Int* g_dest, const Int* g_mask, const Int* lo, const Int* hi) {
  ga_scan_copy_(g_src, g_dest, g_mask, lo, hi);
}
void nga_scan_add_(const Int* g_src, const Int* g_dest, const Int* g_mask, const Int* lo, const Int* hi,
                   const Int* excl) {
  ga_scan_add_(g_src, g_dest, g_mask, lo, hi, excl);
}
void nga_pack_(const Int* g_src, const Int* g_dest, const Int* g_mask, const Int* lo, const Int* hi, Int* icount) {
  ga_pack_(g_src, g_dest, g_mask, lo, hi, icount);
}
void nga_unpack_(const Int* g_src, const Int* g_dest, const Int* g_mask, const Int* lo, const Int* hi, Int* icount) {
  ga_unpack_(g_src, g_dest, g_mask, lo, hi, icount);
}
void nga_median_(const Int* g_a, const Int* g_b, const Int* g_c, const Int* g_m) { ga_median_(g_a, g_b, g_c, g_m); }
void nga_median_patch_(const Int* g_a, const Int* alo, const Int* ahi, const Int* g_b, const Int* blo, const Int* bhi,
                       const Int* g_c, const Int* clo, const Int* chi, const Int* g_m, const Int* mlo, const Int* mhi) {
  ga_median_patch_(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi, g_m, mlo, mhi);
}
void nga_step_max_(const Int* g_a, const Int* g_b, void* step) { ga_step_max_(g_a, g_b, step); }
void nga_step_max_patch_(const Int* g_a, const Int* alo, const Int* ahi, const Int* g_b, const Int* blo, const Int* bhi,
                         void* step) {
  ga_step_max_patch_(g_a, alo, ahi, g_b, blo, bhi, step);
}
void nga_step_bound_info_(const Int* g_xx, const Int* g_vv, const Int* g_xxll, const Int* g_xxuu, void* boundmin,
                          void* wolfemin, void* boundmax) {
  ga_step_bound_info_(g_xx, g_vv, g_xxll, g_xxuu, boundmin, wolfemin, boundmax);
}
void nga_step_bound_info_patch_(const Int* g_xx, const Int* xxlo, const Int* xxhi, const Int* g_vv, const Int* vvlo,
                                const Int* vvhi, const Int* g_xxll, const Int* xxlllo, const Int* xxllhi,
                                const Int* g_xxuu, const Int* xxuulo, const Int* xxuuhi, void* boundmin,
                                void* wolfemin, void* boundmax) {
  ga_step_bound_info_patch_(g_xx, xxlo, xxhi, g_vv, vvlo, vvhi, g_xxll, xxlllo, xxllhi, g_xxuu, xxuulo, xxuuhi,
                            boundmin, wolfemin, boundmax);
}

}  // extern "C"
