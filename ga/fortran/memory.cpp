// MA's Fortran face (mafdecls.fh) and GA's local access from Fortran: the common blocks byte_mb,
// int_mb, log_mb, real_mb, dbl_mb, scpl_mb, dcpl_mb are defined here, and an MA block or a local
// patch of a global array is handed to the program as MA does, as a one-based index into the
// common block of its type (dbl_mb(index) is its first element). Every MA routine is the C API's
// (macdecls.h), told of the common blocks as the bases of the MT_F_* types: one table of blocks,
// and a block of MT_F_DBL that C pushed has, from ma_get_index, the index dbl_mb reaches it by.
#include <algorithm>
#include <complex>
#include <iterator>
#include <limits>

#include "armada/rma/assert.hpp"
#include "binding.hpp"
#include "ga.h"
#include "memory/ma_segment.hpp"
#include "macdecls.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

// The common blocks (gfortran: the block name with one trailing underscore). Each is aligned to
// its element's size, as the C API's base arrays are, so an offset between them is a whole
// number of elements.
extern "C" {
char armada_mb_byte_[2];
alignas(sizeof(Int)) Int armada_mb_int_[2];
alignas(sizeof(Int)) FortranLogical armada_mb_log_[2];
alignas(4) float armada_mb_real_[2];
alignas(8) double armada_mb_dbl_[2];
alignas(8) std::complex<float> armada_mb_scpl_[2];
alignas(16) std::complex<double> armada_mb_dcpl_[2];
}

namespace {

// MA_init places its segment within reach of the common blocks (ga/src/memory/ma_segment.hpp): where
// the program defines them (every unit that includes mafdecls.fh does), in its own .bss. The C
// MA also takes them as the bases of the Fortran types, as GA's MA is told by its ma_set_sizes.
const bool g_anchored = [] {
  const char* blocks[] = {armada_mb_byte_, reinterpret_cast<const char*>(armada_mb_int_),
                          reinterpret_cast<const char*>(armada_mb_log_), reinterpret_cast<const char*>(armada_mb_real_),
                          reinterpret_cast<const char*>(armada_mb_dbl_), reinterpret_cast<const char*>(armada_mb_scpl_),
                          reinterpret_cast<const char*>(armada_mb_dcpl_)};
  const auto [lo, hi] = std::minmax_element(std::begin(blocks), std::end(blocks));
  ma_anchor(*lo, *hi + 2 * sizeof(std::complex<double>));
  ma_inform_base(MT_F_BYTE, &armada_mb_byte_[0], &armada_mb_byte_[1]);
  ma_inform_base(MT_F_INT, &armada_mb_int_[0], &armada_mb_int_[1]);
  ma_inform_base(MT_F_LOG, &armada_mb_log_[0], &armada_mb_log_[1]);
  ma_inform_base(MT_F_REAL, &armada_mb_real_[0], &armada_mb_real_[1]);
  ma_inform_base(MT_F_DBL, &armada_mb_dbl_[0], &armada_mb_dbl_[1]);
  ma_inform_base(MT_F_SCPL, &armada_mb_scpl_[0], &armada_mb_scpl_[1]);
  ma_inform_base(MT_F_DCPL, &armada_mb_dcpl_[0], &armada_mb_dcpl_[1]);
  return true;
}();

/// One Fortran MA type and its common block (a local access's index is into it).
struct FortranType {
  Int type;
  std::size_t size;
  const char* base;
};

const FortranType kTypes[] = {
    {MT_F_BYTE, 1, armada_mb_byte_},
    {MT_F_INT, sizeof(Int), reinterpret_cast<const char*>(armada_mb_int_)},
    {MT_F_LOG, sizeof(Int), reinterpret_cast<const char*>(armada_mb_log_)},
    {MT_F_REAL, sizeof(float), reinterpret_cast<const char*>(armada_mb_real_)},
    {MT_F_DBL, sizeof(double), reinterpret_cast<const char*>(armada_mb_dbl_)},
    {MT_F_SCPL, 2 * sizeof(float), reinterpret_cast<const char*>(armada_mb_scpl_)},
    {MT_F_DCPL, 2 * sizeof(double), reinterpret_cast<const char*>(armada_mb_dcpl_)},
};

const FortranType& ma_type(const char* fn, Int type, const char* argument = "datatype") {
  for (const FortranType& t : kTypes)
    if (t.type == type) return t;
  bad_argument(fn, argument, std::to_string(type),
               "not a Fortran MA type (MT_BYTE, MT_INT, MT_LOG, MT_REAL, MT_DBL, MT_SCPL, MT_DCPL of mafdecls.fh)");
}

/// GA's index of a local access (ga_access, nga_access_ghosts, ...): 8 bytes whatever the
/// program's INTEGER (GA's AccessIndex, global.fh's GA_ACCESS_INDEX_TYPE integer*8).
using AccessIndex = std::int64_t;

/// The one-based index of `p` in the common block of `t`.
AccessIndex block_index(const FortranType& t, const void* p) {
  const std::ptrdiff_t bytes = static_cast<const char*>(p) - t.base;
  ARMADA_ASSERT(bytes % static_cast<std::ptrdiff_t>(t.size) == 0);  // MA aligns every block to its element
  return bytes / static_cast<std::ptrdiff_t>(t.size) + 1;
}

/// MA's Fortran index of a block (the C index + 1, as GA's f2c wrappers add), a default
/// INTEGER: with 4 bytes it must fit, which MA's segment, placed next to the common blocks,
/// allows for its first 2^31 elements of a type (8 GiB of INTEGERs, 16 GiB of doubles, 2 GiB of
/// bytes).
Int fortran_index(const char* fn, MA_AccessIndex c_index) {
  const std::int64_t index = static_cast<std::int64_t>(c_index) + 1;
  if (index < std::numeric_limits<Int>::min() || index > std::numeric_limits<Int>::max())
    bad_argument(fn, "index", std::to_string(index),
                 "does not fit a 4-byte INTEGER (the block lies more than 2^31 elements from the MA common "
                 "blocks: MA_init's segment is larger than that); use a smaller ma_init, or compile with "
                 "-fdefault-integer-8 and link libarmada_ga_fortran_i8 (armada-ga-config --i8)");
  return static_cast<Int>(index);
}

/// An MA count of the C API as a default INTEGER: MA_inquire_*'s answers, at most the largest
/// INTEGER (4-byte: the room beyond 2^31 - 1 elements is not counted).
Int fortran_count(Integer n) { return static_cast<Int>(std::min<Integer>(n, std::numeric_limits<Int>::max())); }

FortranLogical ma_logical(Boolean b) { return b ? kTrue : kFalse; }

/// ma_push_get, ma_alloc_get, ma_push_stack, ma_allocate_heap (index null).
FortranLogical get(const char* fn, Int datatype, Int nelem, const char* name, Length length, Int* memhandle, Int* index,
            bool stack) {
  return call(fn, [&] {
    const std::string label = text(name, length);
    Integer h = 0;
    MA_AccessIndex c_index = 0;
    const char* l = label.c_str();
    const Boolean ok = index ? (stack ? MA_push_get(datatype, nelem, l, &h, &c_index)
                                      : MA_alloc_get(datatype, nelem, l, &h, &c_index))
                             : (stack ? MA_push_stack(datatype, nelem, l, &h) : MA_allocate_heap(datatype, nelem, l, &h));
    if (!ok) return kFalse;  // MA said why (no room, not initialized)
    if (index) *index = fortran_index(fn, c_index);
    *memhandle = static_cast<Int>(h);
    return kTrue;
  });
}

/// The element type's common block of a global array's element type.
const FortranType& block_of(const char* fn, int g) { return ma_type(fn, fortran_type(ga_type(fn, g)), "g_a"); }

/// What a local access returns to Fortran: the MA index of `p` and the block's ld (C view
/// `cld`, ndim-1 entries) in Fortran's order.
}  // namespace

void armada::ga::fortran::access_result(const char* fn, int g, int ndim, const void* p, const std::int64_t* cld,
                                        std::int64_t* index, Int* ld) {
  *index = block_index(block_of(fn, g), p);
  std::int64_t fld[GA_MAX_DIM] = {};
  armada_gaf_from_c_extents(ndim - 1, cld, fld);
  for (int d = 0; d + 1 < ndim; ++d) ld[d] = static_cast<Int>(fld[d]);
}

namespace {

void access(const char* fn, int g, CPatch c, AccessIndex* index, Int* ld) {
  void* p = nullptr;
  std::int64_t cld[GA_MAX_DIM] = {};
  NGA_Access64(g, c.lo, c.hi, &p, cld);
  access_result(fn, g, c.ndim, p, cld, index, ld);
}

/// GA's Fortran ghost-element subscript (one-based, Fortran order, counted from the block's
/// first ghost cell) in the C view.
int ghost_subscript(const char* fn, int g, const Int* subscript, std::int64_t out[GA_MAX_DIM]) {
  if (!subscript) bad_argument(fn, "subscript", "NULL", "one index per dimension is required");
  const int n = array(fn, g).ndim();
  std::int64_t f[GA_MAX_DIM], unused[GA_MAX_DIM];
  for (int d = 0; d < n; ++d) f[d] = subscript[d];
  armada_gaf_to_c_patch(n, f, f, out, unused);
  return n;
}

void release_ghost_element(const char* fn, Int g_a, const Int* subscript, bool update) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    std::int64_t c[GA_MAX_DIM];
    ghost_subscript(fn, g, subscript, c);
    update ? NGA_Release_update_ghost_element64(g, c) : NGA_Release_ghost_element64(g, c);
  });
}

/// nga_release(_update) and the 2-d forms (lo = (ilo, jlo), hi = (ihi, jhi)).
void release_nd(const char* fn, Int g_a, const Int* lo, const Int* hi, bool update, bool two_d = false) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    CPatch c = two_d ? patch2(fn, g, lo[0], hi[0], lo[1], hi[1]) : patch(fn, g, lo, hi);
    if (update)
      NGA_Release_update64(g, c.lo, c.hi);
    else
      NGA_Release64(g, c.lo, c.hi);
  });
}

}  // namespace

extern "C" {

// ---- MA ---------------------------------------------------------------------------------------
// Each is the C API's routine of the same name: MT_F_* types as they are (their bases are the
// common blocks), indices + 1, LOGICALs and INTEGERs of the library's width.
FortranLogical ma_init_(const Int* datatype, const Int* nominal_stack, const Int* nominal_heap) {
  return call("ma_init", [&] { return ma_logical(MA_init(*datatype, *nominal_stack, *nominal_heap)); });
}
FortranLogical ma_initialized_() { return ma_logical(MA_initialized()); }
FortranLogical ma_push_get_(const Int* datatype, const Int* nelem, const char* name, Int* memhandle, Int* index, Length length) {
  return get("ma_push_get", *datatype, *nelem, name, length, memhandle, index, true);
}
FortranLogical ma_push_stack_(const Int* datatype, const Int* nelem, const char* name, Int* memhandle, Length length) {
  return get("ma_push_stack", *datatype, *nelem, name, length, memhandle, nullptr, true);
}
FortranLogical ma_alloc_get_(const Int* datatype, const Int* nelem, const char* name, Int* memhandle, Int* index,
                      Length length) {
  return get("ma_alloc_get", *datatype, *nelem, name, length, memhandle, index, false);
}
FortranLogical ma_allocate_heap_(const Int* datatype, const Int* nelem, const char* name, Int* memhandle, Length length) {
  return get("ma_allocate_heap", *datatype, *nelem, name, length, memhandle, nullptr, false);
}
FortranLogical ma_pop_stack_(const Int* memhandle) {
  return call("ma_pop_stack", [&] { return ma_logical(MA_pop_stack(*memhandle)); });
}
FortranLogical ma_chop_stack_(const Int* memhandle) {
  return call("ma_chop_stack", [&] { return ma_logical(MA_chop_stack(*memhandle)); });
}
FortranLogical ma_free_heap_(const Int* memhandle) {
  return call("ma_free_heap", [&] { return ma_logical(MA_free_heap(*memhandle)); });
}
FortranLogical ma_free_heap_piece_(const Int* memhandle, const Int* nelem) {
  return call("ma_free_heap_piece", [&] { return ma_logical(MA_free_heap_piece(*memhandle, *nelem)); });
}
FortranLogical ma_get_index_(const Int* memhandle, Int* index) {
  const char* const fn = "ma_get_index";
  return call(fn, [&] {
    MA_AccessIndex c_index = 0;
    if (!MA_get_index(*memhandle, &c_index)) return kFalse;
    *index = fortran_index(fn, c_index);
    return kTrue;
  });
}
FortranLogical ma_init_memhandle_iterator_(Int* ithandle) {
  return call("ma_init_memhandle_iterator", [&] {
    Integer it = 0;
    if (!MA_init_memhandle_iterator(&it)) return kFalse;
    *ithandle = static_cast<Int>(it);
    return kTrue;
  });
}
FortranLogical ma_get_next_memhandle_(Int* ithandle, Int* memhandle) {
  return call("ma_get_next_memhandle", [&] {
    Integer it = *ithandle, h = 0;
    if (!MA_get_next_memhandle(&it, &h)) return kFalse;
    *memhandle = static_cast<Int>(h);
    return kTrue;
  });
}
FortranLogical ma_set_numalign_(const Int* value) {
  return call("ma_set_numalign", [&] { return ma_logical(MA_set_numalign(*value)); });
}
FortranLogical ma_get_numalign_(Int* value) {
  return call("ma_get_numalign", [&] {
    Integer v = 0;
    MA_get_numalign(&v);
    *value = static_cast<Int>(v);
    return kTrue;
  });
}
// MA's inquiries of one data type (ma_inquire_avail, ma_inquire_heap, ...): the C function's count.
#define ARMADA_MA_INQUIRY(what)                                                     \
  Int ma_##what##_(const Int* datatype) {                                           \
    return call("ma_" #what, [&] { return fortran_count(MA_##what(*datatype)); });  \
  }
ARMADA_MA_INQUIRY(inquire_avail)
ARMADA_MA_INQUIRY(inquire_heap)
ARMADA_MA_INQUIRY(inquire_heap_check_stack)
ARMADA_MA_INQUIRY(inquire_heap_no_partition)
ARMADA_MA_INQUIRY(inquire_stack)
ARMADA_MA_INQUIRY(inquire_stack_check_heap)
ARMADA_MA_INQUIRY(inquire_stack_no_partition)
#undef ARMADA_MA_INQUIRY
Int ma_sizeof_(const Int* datatype1, const Int* nelem1, const Int* datatype2) {
  const char* const fn = "ma_sizeof";
  return call(fn, [&] {
    const Integer size = MA_sizeof(*datatype1, *nelem1, *datatype2);
    if (size > std::numeric_limits<Int>::max())  // 4-byte INTEGER: it would wrap
      bad_argument(fn, "nelem1", std::to_string(*nelem1),
                   "the size, " + std::to_string(size) + ", does not fit a 4-byte INTEGER");
    return static_cast<Int>(size);
  });
}
Int ma_sizeof_overhead_(const Int* datatype) {
  return call("ma_sizeof_overhead", [&] { return fortran_count(MA_sizeof_overhead(*datatype)); });
}

// MA's debugging switches and diagnostics (each switch returns the previous value).
FortranLogical ma_set_auto_verify_(const FortranLogical* value) { return ma_logical(MA_set_auto_verify(*value != kFalse)); }
FortranLogical ma_set_hard_fail_(const FortranLogical* value) { return ma_logical(MA_set_hard_fail(*value != kFalse)); }
FortranLogical ma_set_error_print_(const FortranLogical* value) { return ma_logical(MA_set_error_print(*value != kFalse)); }
FortranLogical ma_verify_allocator_stuff_() { return ma_logical(MA_verify_allocator_stuff()); }
void ma_trace_(const FortranLogical* value) { MA_trace(*value != kFalse); }
void ma_print_stats_(const FortranLogical* printroutines) { MA_print_stats(*printroutines != kFalse); }
// Fortran's indices, 1-based, in the listing.
void ma_summarize_allocated_blocks_() { ma_summarize_allocated_blocks(1); }

// ---- local access -----------------------------------------------------------------------------
// The patch must be this process's own (the C API checks); index (GA_ACCESS_INDEX_TYPE: 8 bytes)
// is into the common block of the array's type (dbl_mb for MT_F_DBL, int_mb for MT_F_INT, ...),
// ld the block's leading dimensions.
void nga_access_(const Int* g_a, const Int* lo, const Int* hi, AccessIndex* index, Int* ld) {
  const char* const fn = "nga_access";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    access(fn, g, patch(fn, g, lo, hi), index, ld);
  });
}
void ga_access_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, AccessIndex* index,
                Int* ld) {
  const char* const fn = "ga_access";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    access(fn, g, patch2(fn, g, *ilo, *ihi, *jlo, *jhi), index, ld);
  });
}
// The block with its ghost cells, and one element of it (GA's Fortran forms).
void nga_access_ghosts_(const Int* g_a, Int* dims, AccessIndex* index, Int* ld) {
  const char* const fn = "nga_access_ghosts";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    const int n = array(fn, g).ndim();
    void* p = nullptr;
    std::int64_t cdims[GA_MAX_DIM] = {}, fdims[GA_MAX_DIM] = {}, cld[GA_MAX_DIM] = {};
    NGA_Access_ghosts64(g, cdims, &p, cld);
    armada_gaf_from_c_extents(n, cdims, fdims);
    for (int d = 0; d < n; ++d) dims[d] = static_cast<Int>(fdims[d]);
    access_result(fn, g, n, p, cld, index, ld);
  });
}
void nga_release_ghosts_(const Int* g_a) {
  call("nga_release_ghosts", [&] { NGA_Release_ghosts(handle("nga_release_ghosts", *g_a)); });
}
void nga_release_update_ghosts_(const Int* g_a) {
  call("nga_release_update_ghosts", [&] { NGA_Release_update_ghosts(handle("nga_release_update_ghosts", *g_a)); });
}
void nga_access_ghost_element_(const Int* g_a, AccessIndex* index, const Int* subscript, Int* ld) {
  const char* const fn = "nga_access_ghost_element";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    std::int64_t c[GA_MAX_DIM], cld[GA_MAX_DIM] = {};
    const int n = ghost_subscript(fn, g, subscript, c);
    void* p = nullptr;
    NGA_Access_ghost_element64(g, &p, c, cld);
    access_result(fn, g, n, p, cld, index, ld);
  });
}
void nga_release_ghost_element_(const Int* g_a, const Int* subscript) {
  release_ghost_element("nga_release_ghost_element", *g_a, subscript, false);
}
void nga_release_update_ghost_element_(const Int* g_a, const Int* subscript) {
  release_ghost_element("nga_release_update_ghost_element", *g_a, subscript, true);
}

void nga_release_(const Int* g_a, const Int* lo, const Int* hi) { release_nd("nga_release", *g_a, lo, hi, false); }
void nga_release_update_(const Int* g_a, const Int* lo, const Int* hi) {
  release_nd("nga_release_update", *g_a, lo, hi, true);
}
void ga_release_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi) {
  const Int lo[2] = {*ilo, *jlo}, hi[2] = {*ihi, *jhi};
  release_nd("ga_release", *g_a, lo, hi, false, true);
}
void ga_release_update_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi) {
  const Int lo[2] = {*ilo, *jlo}, hi[2] = {*ihi, *jhi};
  release_nd("ga_release_update", *g_a, lo, hi, true, true);
}

}  // extern "C"
