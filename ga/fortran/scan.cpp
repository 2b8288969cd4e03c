// GA's Fortran API, sparse-data operations on 1-d arrays (ga_patch_enum, ga_scan_copy,
// ga_scan_add, ga_pack, ga_unpack: lo, hi one-based and inclusive; ga_bin_index, ga_bin_sorter),
// and the TAO helpers (ga_median, ga_step_max, ga_step_bound_info and their _patch forms, n-d
// patches in Fortran's view) on the C API's 64-bit forms.
#include <algorithm>
#include <map>
#include <vector>

#include "binding.hpp"
#include "ga-mpi.h"
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

/// g (named `argument`) as a 1-d array of this build's INTEGER, as GA's binning calls need; its
/// length in *n.
int integer_vector(const char* fn, Int g, const char* argument, std::int64_t* n) {
  const int c = vector_handle(fn, g, argument, 0, 0, false);
  int type = 0, ndim = 0;
  std::int64_t len = 0;
  NGA_Inquire64(c, &type, &ndim, &len);
  if (fortran_type(type) != MT_F_INT)
    bad_argument(fn, argument, std::to_string(g), std::string("holds no INTEGERs; ") + fn + " needs MT_F_INT");
  *n = len;
  return c;
}

/// A bin's place in g_bin (zero-based first position, element count), checked to lie inside it.
std::int64_t bin_start(const char* fn, Int bin, Int offset, std::int64_t count, std::int64_t nbin_elements) {
  if (offset < 0 || offset + count > nbin_elements)
    bad_argument(fn, "g_off(" + std::to_string(bin) + ")", std::to_string(offset),
                 "bin " + std::to_string(bin) + "'s " + std::to_string(count) + " elements from there pass the " +
                     std::to_string(nbin_elements) + " elements of g_bin");
  return offset;
}

/// The whole of 1-d INTEGER array c (n elements) on this process.
std::vector<Int> whole(int c, std::int64_t n) {
  std::vector<Int> v(static_cast<std::size_t>(n));
  std::int64_t lo = 0, hi = n - 1, ld = 1;
  if (n > 0) NGA_Get64(c, &lo, &hi, v.data(), &ld);
  return v;
}

/// Sorts each bin's elements of g_bin in place: bin b (g_cnt(b) elements from g_off(b)) is
/// sorted by process b mod the group's size. Collective on g_bin's group.
void sort_bins(const char* fn, Int g_bin, Int g_cnt, Int g_off) {
  std::int64_t nelem = 0, nbins = 0, noff = 0;
  const int bin = integer_vector(fn, g_bin, "g_bin", &nelem);
  const int cnt = integer_vector(fn, g_cnt, "g_cnt", &nbins), off = integer_vector(fn, g_off, "g_off", &noff);
  if (noff != nbins)
    bad_argument(fn, "g_off", std::to_string(g_off), "has " + std::to_string(noff) + " elements; g_cnt has " +
                                                          std::to_string(nbins) + " (one per bin in both)");
  const int group = GA_Get_pgroup(bin);
  GA_Pgroup_sync(group);  // every process's puts into g_bin are complete
  const std::vector<Int> counts = whole(cnt, nbins), offsets = whole(off, nbins);
  const int me = GA_Pgroup_nodeid(group), nproc = GA_Pgroup_nnodes(group);
  std::vector<Int> segment;
  for (std::int64_t b = me; b < nbins; b += nproc) {
    if (counts[b] <= 0) continue;
    std::int64_t lo = bin_start(fn, b + 1, offsets[b], counts[b], nelem), hi = lo + counts[b] - 1, ld = 1;
    segment.resize(static_cast<std::size_t>(counts[b]));
    NGA_Get64(bin, &lo, &hi, segment.data(), &ld);
    std::sort(segment.begin(), segment.end());
    NGA_Put64(bin, &lo, &hi, segment.data(), &ld);
  }
  GA_Pgroup_sync(group);
}

/// GA's ga_bin_index: values(i) goes to bin subs(i) (1 .. the number of bins) of g_bin, whose
/// bin b starts at g_off(b) (zero-based); within a bin the processes' elements follow each other
/// in rank order, each process's in its own order; with sortit each bin is then sorted.
void bin_index(const char* fn, Int g_bin, Int g_cnt, Int g_off, const Int* values, const Int* subs, Int n,
               Int sortit) {
  std::int64_t nelem = 0, nbins = 0;
  const int bin = integer_vector(fn, g_bin, "g_bin", &nelem), off = integer_vector(fn, g_off, "g_off", &nbins);
  if (n < 0) bad_argument(fn, "n", std::to_string(n), "must be >= 0");
  std::map<std::int64_t, std::vector<Int>> mine;  // bin -> my values for it, in order
  for (Int i = 0; i < n; ++i) {
    if (subs[i] < 1 || subs[i] > nbins)
      bad_argument(fn, "subs(" + std::to_string(i + 1) + ")", std::to_string(subs[i]),
                   "must be a bin, 1 .. " + std::to_string(nbins) + " (g_off's elements)");
    mine[subs[i] - 1].push_back(values[i]);
  }
  std::vector<std::int64_t> count(static_cast<std::size_t>(nbins), 0), before(count.size(), 0);
  for (const auto& [b, v] : mine) count[b] = static_cast<std::int64_t>(v.size());
  MPI_Comm comm = GA_MPI_Comm_pgroup(GA_Get_pgroup(bin));
  MPI_Exscan(count.data(), before.data(), static_cast<int>(nbins), MPI_INT64_T, MPI_SUM, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) std::fill(before.begin(), before.end(), 0);  // MPI_Exscan leaves rank 0's undefined
  const std::vector<Int> offsets = whole(off, nbins);
  for (auto& [b, v] : mine) {
    std::int64_t lo = bin_start(fn, b + 1, offsets[b], before[b] + count[b], nelem) + before[b];
    std::int64_t hi = lo + count[b] - 1, ld = 1;
    NGA_Put64(bin, &lo, &hi, v.data(), &ld);
  }
  if (sortit != 0)
    sort_bins(fn, g_bin, g_cnt, g_off);
  else
    GA_Pgroup_sync(GA_Get_pgroup(bin));
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

void ga_bin_index_(const Int* g_bin, const Int* g_cnt, const Int* g_off, const Int* values, const Int* subs,
                   const Int* n, const Int* sortit) {
  const char* const fn = "ga_bin_index";
  call(fn, [&] { bin_index(fn, *g_bin, *g_cnt, *g_off, values, subs, *n, *sortit); });
}
void ga_bin_sorter_(const Int* g_bin, const Int* g_cnt, const Int* g_off) {
  const char* const fn = "ga_bin_sorter";
  call(fn, [&] { sort_bins(fn, *g_bin, *g_cnt, *g_off); });
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
void nga_bin_index_(const Int* g_bin, const Int* g_cnt, const Int* g_off, const Int* values, const Int* subs,
                    const Int* n, const Int* sortit) {
  ga_bin_index_(g_bin, g_cnt, g_off, values, subs, n, sortit);
}
void nga_bin_sorter_(const Int* g_bin, const Int* g_cnt, const Int* g_off) { ga_bin_sorter_(g_bin, g_cnt, g_off); }
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
