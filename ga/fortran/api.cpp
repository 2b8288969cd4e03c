// GA's Fortran API (global.fh) on GA's C API (ga.h): gfortran's names (lower case, one trailing
// underscore), every argument by reference, one-based column-major index tuples converted by
// binding.cpp through the arrays C API's Fortran view. Compiled once per INTEGER width.
#include <climits>
#include <cstring>
#include <vector>

#include "binding.hpp"
#include "ga-mpi.h"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

enum class Op { Get, Put, Acc, NbGet };

/// One patch transfer, its arguments checked and in the C view.
void issue(const char* fn, Op op, int g, CPatch& c, std::int64_t* ld, void* buf, void* alpha, Int* nbhandle) {
  if (!buf) bad_argument(fn, "buf", "NULL", "a buffer for the patch is required");
  switch (op) {
    case Op::Get: NGA_Get64(g, c.lo, c.hi, buf, ld); break;
    case Op::Put: NGA_Put64(g, c.lo, c.hi, buf, ld); break;
    case Op::Acc: NGA_Acc64(g, c.lo, c.hi, buf, ld, alpha); break;
    case Op::NbGet: {
      ga_nbhdl_t h = 0;
      NGA_NbGet64(g, c.lo, c.hi, buf, ld, &h);
      *nbhandle = static_cast<Int>(h);
      break;
    }
  }
}

void move_nd(const char* fn, Op op, Int g_a, const Int* lo, const Int* hi, void* buf, const Int* ld, void* alpha,
             Int* nbhandle) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    CPatch c = patch(fn, g, lo, hi);
    std::int64_t cld[GA_MAX_DIM] = {};
    leading(fn, ld, lo, hi, c.ndim, cld);
    issue(fn, op, g, c, cld, buf, alpha, nbhandle);
  });
}

void move_2d(const char* fn, Op op, Int g_a, Int ilo, Int ihi, Int jlo, Int jhi, void* buf, Int ld, void* alpha,
             Int* nbhandle) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    CPatch c = patch2(fn, g, ilo, ihi, jlo, jhi);
    const Int lo[1] = {ilo}, hi[1] = {ihi}, l[1] = {ld};
    std::int64_t cld[GA_MAX_DIM] = {};
    leading(fn, l, lo, hi, 2, cld);
    issue(fn, op, g, c, cld, buf, alpha, nbhandle);
  });
}

void inquire(const char* fn, Int g_a, Int* type, Int* ndim, Int* dims) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    int n = 0;
    std::int64_t fdims[GA_MAX_DIM];
    fortran::dims(fn, g, &n, fdims);
    *type = fortran_type(ga_type(fn, g));
    *ndim = n;
    for (int d = 0; d < n; ++d) dims[d] = static_cast<Int>(fdims[d]);
  });
}

/// GA's transpose flags of a Fortran matrix product ('n', 't', 'c' in either case).
char trans_flag(const char* fn, const char* argument, const char* flag, Length length) {
  const std::string t = text(flag, length);
  if (t.size() == 1 && std::strchr("nNtTcC", t[0])) return t[0];
  bad_argument(fn, argument, "'" + t + "'", "must be 'N', 'T' or 'C'");
}

std::string op_text(const char* fn, const char* op, Length length) {
  const std::string t = text(op, length);
  if (t.empty()) bad_argument(fn, "op", "''", "an operator is required");
  return t;
}

/// nga_create and ga_create: dims and chunk (<= 0: no constraint) in Fortran order.
FortranLogical create(const char* fn, Int type, Int ndim, const Int* dims, std::string name, const Int* chunk, Int* g_a,
                      const Int* p_handle = nullptr, const Int* width = nullptr) {
  return call(fn, [&] {
    const int t = c_type(fn, type);
    if (ndim < 1 || ndim > GA_MAX_DIM) bad_argument(fn, "ndim", std::to_string(ndim), "must be 1 .. 7");
    const int n = static_cast<int>(ndim);
    std::int64_t fdims[GA_MAX_DIM], cdims[GA_MAX_DIM], fchunk[GA_MAX_DIM], cchunk[GA_MAX_DIM];
    std::int64_t fwidth[GA_MAX_DIM] = {}, cwidth[GA_MAX_DIM] = {};
    for (int d = 0; d < n; ++d) {
      if (dims[d] < 1) bad_argument(fn, "dims(" + std::to_string(d + 1) + ")", std::to_string(dims[d]), "must be >= 1");
      if (width && width[d] < 0)
        bad_argument(fn, "width(" + std::to_string(d + 1) + ")", std::to_string(width[d]), "must be >= 0");
      fdims[d] = dims[d];
      fchunk[d] = chunk ? chunk[d] : -1;
      fwidth[d] = width ? width[d] : 0;
    }
    armada_gaf_to_c_extents(n, fdims, cdims);
    armada_gaf_to_c_extents(n, fchunk, cchunk);
    armada_gaf_to_c_extents(n, fwidth, cwidth);
    if (width)
      *g_a = NGA_Create_ghosts64(t, n, cdims, cwidth, name.data(), cchunk);
    else
      *g_a = p_handle ? NGA_Create_config64(t, n, cdims, name.data(), cchunk, static_cast<int>(*p_handle))
                      : NGA_Create64(t, n, cdims, name.data(), cchunk);
    return *g_a != 0 ? kTrue : kFalse;  // 0: over GA's memory limit
  });
}

void distribution(const char* fn, Int g_a, Int iproc, Int* lo, Int* hi) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    CPatch c;
    c.ndim = array(fn, g).ndim();
    NGA_Distribution64(g, static_cast<int>(iproc), c.lo, c.hi);
    to_fortran(c, lo, hi);  // owns nothing: C's 0 .. -1 becomes 1 .. 0
  });
}

void wait_request(const char* fn, Int nbhandle) {
  call(fn, [&] {
    ga_nbhdl_t h = nbhandle;
    NGA_NbWait(&h);
  });
}

/// The C view of n subscripts, checked: subs(ndim, n) one per column (nga_), or the lists i(n),
/// j(n) of a 2-d array (ga_).
std::vector<std::int64_t> subscripts(const char* fn, int g, Int n, const Int* subs, const Int* i = nullptr,
                                     const Int* j = nullptr) {
  if (n < 0) bad_argument(fn, "n", std::to_string(n), "must be >= 0");
  const int nd = subs ? array(fn, g).ndim() : 2;
  if (!subs && array(fn, g).ndim() != 2)
    bad_argument(fn, "g_a", std::to_string(g), std::string("is not 2-d; ") + fn + " takes 2-d arrays (nga_ for n-d)");
  std::vector<std::int64_t> c(static_cast<std::size_t>(n) * nd);
  for (Int k = 0; k < n; ++k) {
    const Int pair[2] = {i ? i[k] : 0, j ? j[k] : 0};
    const Int* s = subs ? subs + k * nd : pair;
    PatchNames names{"subs", "subs", subs ? PatchNames::Form::Column : PatchNames::Form::Pair, static_cast<long>(k + 1)};
    const CPatch p = patch(fn, g, s, s, names);
    std::memcpy(&c[static_cast<std::size_t>(k) * nd], p.lo, nd * sizeof(std::int64_t));
  }
  return c;
}

enum class ListOp { Scatter, ScatterAcc, Gather };

void elements(const char* fn, ListOp op, Int g_a, void* v, Int n, const Int* subs, const Int* i, const Int* j,
              void* alpha) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    std::vector<std::int64_t> c = subscripts(fn, g, n, subs, i, j);
    if (n > 0 && !v) bad_argument(fn, "v", "NULL", "the values are required");
    switch (op) {
      case ListOp::Scatter: NGA_Scatter_flat64(g, v, c.data(), n); break;
      case ListOp::ScatterAcc: NGA_Scatter_acc_flat64(g, v, c.data(), n, alpha); break;
      case ListOp::Gather: NGA_Gather_flat64(g, v, c.data(), n); break;
    }
  });
}

/// The C API returns eigenvectors as the columns of its view: a Fortran program wants them as
/// its own columns (the transpose).
void eigenvectors_as_columns(int v) {
  char label[] = "eigenvectors transposed";
  const int t = GA_Duplicate(v, label);
  GA_Transpose(v, t);
  GA_Copy(t, v);
  GA_Destroy(t);
}

/// ga_diag_std and ga_diag_std_seq.
void diag_std(const char* fn, const Int* g_a, const Int* g_v, double* evals) {
  call(fn, [&] {
    const int a = handle(fn, *g_a), v = handle(fn, *g_v, "g_v");
    if (!evals) bad_argument(fn, "evals", "NULL", "room for n eigenvalues is required");
    GA_Diag_std(a, v, evals);
    eigenvectors_as_columns(v);
  });
}

/// ga_diag and ga_diag_seq (no `control`), ga_diag_reuse (control: 0 keep S's factor, > 0 reuse
/// it, < 0 free it only).
void diag(const char* fn, const Int* control, const Int* g_a, const Int* g_s, const Int* g_v, double* evals) {
  call(fn, [&] {
    const int a = handle(fn, *g_a), s = handle(fn, *g_s, "g_s"), v = handle(fn, *g_v, "g_v");
    const int c = !control ? 0 : *control < 0 ? -1 : *control > 0 ? 1 : 0;
    if (c >= 0 && !evals) bad_argument(fn, "evals", "NULL", "room for n eigenvalues is required");
    if (control) GA_Diag_reuse(c, a, s, v, evals);
    else GA_Diag(a, s, v, evals);
    if (c >= 0) eigenvectors_as_columns(v);
  });
}
/// ga_allocate (free: ga_deallocate) and the nga_ spellings: the C API's GA_Allocate and
/// GA_Deallocate, .true. when memory was allocated (freed).
FortranLogical allocate(const char* fn, Int g_a, bool free) {
  return call(fn, [&] {
    const int g = handle(fn, g_a);
    return (free ? GA_Deallocate(g) : GA_Allocate(g)) ? kTrue : kFalse;
  });
}

/// ga_compare_distr: .true. when the distributions are the same (GA's Fortran answer; the C
/// API's GA_Compare_distr returns 0 then).
FortranLogical compare_distr(const char* fn, Int g_a, Int g_b) {
  return call(fn, [&] { return GA_Compare_distr(handle(fn, g_a), handle(fn, g_b, "g_b")) == 0 ? kTrue : kFalse; });
}
}  // namespace

extern "C" {

// ---- start, stop, processes -------------------------------------------------------------------
void ga_initialize_() { call("ga_initialize", [] { GA_Initialize(); }); }
void ga_initialize_ltd_(const Int* limit) {
  call("ga_initialize_ltd", [&] { GA_Initialize_ltd(static_cast<size_t>(*limit)); });  // negative: no limit
}
void ga_terminate_() { call("ga_terminate", [] { GA_Terminate(); }); }
Int ga_nodeid_() { return call("ga_nodeid", [] { return Int{GA_Nodeid()}; }); }
Int ga_nnodes_() { return call("ga_nnodes", [] { return Int{GA_Nnodes()}; }); }
void ga_sync_() { call("ga_sync", [] { GA_Sync(); }); }
Int ga_mpi_comm_() { return call("ga_mpi_comm", [] { return Int{MPI_Comm_c2f(GA_MPI_Comm())}; }); }
Int ga_mpi_comm_pgroup_default_() {
  return call("ga_mpi_comm_pgroup_default", [] { return Int{MPI_Comm_c2f(GA_MPI_Comm_pgroup_default())}; });
}

void ga_error_(const char* message, const Int* code, Length length) {
  std::string m = text(message, length);
  GA_Error(m.data(), static_cast<int>(*code));
}

// ---- process groups (GA_Pgroup_create's rule: every process of the default group calls) --------
Int ga_pgroup_create_(const Int* list, const Int* count) {
  const char* const fn = "ga_pgroup_create";
  return call(fn, [&] {
    if (*count < 1) bad_argument(fn, "count", std::to_string(*count), "must be >= 1");
    std::vector<int> ranks(list, list + *count);
    return Int{GA_Pgroup_create(ranks.data(), static_cast<int>(*count))};
  });
}
FortranLogical ga_pgroup_destroy_(const Int* p_handle) {
  return call("ga_pgroup_destroy", [&] { return GA_Pgroup_destroy(static_cast<int>(*p_handle)) ? kTrue : kFalse; });
}
Int ga_pgroup_nodeid_(const Int* p_handle) {
  return call("ga_pgroup_nodeid", [&] { return Int{GA_Pgroup_nodeid(static_cast<int>(*p_handle))}; });
}
Int ga_pgroup_nnodes_(const Int* p_handle) {
  return call("ga_pgroup_nnodes", [&] { return Int{GA_Pgroup_nnodes(static_cast<int>(*p_handle))}; });
}
void ga_pgroup_sync_(const Int* p_handle) {
  call("ga_pgroup_sync", [&] { GA_Pgroup_sync(static_cast<int>(*p_handle)); });
}
Int ga_pgroup_get_world_() { return call("ga_pgroup_get_world", [] { return Int{GA_Pgroup_get_world()}; }); }
Int ga_pgroup_get_default_() { return call("ga_pgroup_get_default", [] { return Int{GA_Pgroup_get_default()}; }); }
void ga_pgroup_set_default_(const Int* p_handle) {
  call("ga_pgroup_set_default", [&] { GA_Pgroup_set_default(static_cast<int>(*p_handle)); });
}
FortranLogical ga_valid_handle_(const Int* g_a) {
  return call("ga_valid_handle", [&] {
    return *g_a >= INT_MIN && *g_a <= INT_MAX && GA_Valid_handle(static_cast<int>(*g_a)) ? kTrue : kFalse;
  });
}

// ---- GA's memory limit, handles, debugging (C API: ga.h, "Memory") ------------------------------
void ga_set_memory_limit_(const Int* limit) { GA_Set_memory_limit(static_cast<size_t>(*limit)); }
Int ga_memory_avail_() { return static_cast<Int>(GA_Memory_avail()); }  // -1 without a limit
FortranLogical ga_memory_limited_() { return GA_Memory_limited() ? kTrue : kFalse; }
FortranLogical ga_uses_ma_() { return GA_Uses_ma() ? kTrue : kFalse; }
Int ga_inquire_memory_() { return static_cast<Int>(GA_Inquire_memory()); }
FortranLogical ga_verify_handle_(const Int* g_a) { return ga_valid_handle_(g_a); }
void ga_check_handle_(const Int* g_a, const char* string, Length string_length) {
  const char* const fn = "ga_check_handle";
  call(fn, [&] {
    std::string where = text(string, string_length);
    GA_Check_handle(handle(fn, *g_a), where.data());
  });
}
void ga_set_debug_(const FortranLogical* flag) { GA_Set_debug(*flag != kFalse ? 1 : 0); }
FortranLogical ga_get_debug_() { return GA_Get_debug() ? kTrue : kFalse; }
void ga_mask_sync_(const Int* first, const Int* last) {
  GA_Mask_sync(static_cast<int>(*first), static_cast<int>(*last));
}
void ga_print_stats_() { call("ga_print_stats", [] { GA_Print_stats(); }); }
// The nga_ spellings GA's Fortran API has of the same.
void nga_set_memory_limit_(const Int* limit) { ga_set_memory_limit_(limit); }
Int nga_memory_avail_() { return ga_memory_avail_(); }
FortranLogical nga_memory_limited_() { return ga_memory_limited_(); }
FortranLogical nga_uses_ma_() { return ga_uses_ma_(); }
Int nga_inquire_memory_() { return ga_inquire_memory_(); }
FortranLogical nga_verify_handle_(const Int* g_a) { return ga_valid_handle_(g_a); }
void nga_set_debug_(const FortranLogical* flag) { ga_set_debug_(flag); }
FortranLogical nga_get_debug_() { return ga_get_debug_(); }
void nga_mask_sync_(const Int* first, const Int* last) { ga_mask_sync_(first, last); }

// ---- creation and inquiry ---------------------------------------------------------------------
FortranLogical nga_create_(const Int* type, const Int* ndim, const Int* dims, const char* name, const Int* chunk, Int* g_a,
                    Length name_length) {
  return create("nga_create", *type, *ndim, dims, text(name, name_length), chunk, g_a);
}

FortranLogical nga_create_config_(const Int* type, const Int* ndim, const Int* dims, const char* name, const Int* chunk,
                                  const Int* p_handle, Int* g_a, Length name_length) {
  return create("nga_create_config", *type, *ndim, dims, text(name, name_length), chunk, g_a, p_handle);
}

FortranLogical nga_create_ghosts_(const Int* type, const Int* ndim, const Int* dims, const Int* width, const char* name,
                                  const Int* chunk, Int* g_a, Length name_length) {
  return create("nga_create_ghosts", *type, *ndim, dims, text(name, name_length), chunk, g_a, nullptr, width);
}

FortranLogical ga_create_(const Int* type, const Int* dim1, const Int* dim2, const char* name, const Int* chunk1,
                   const Int* chunk2, Int* g_a, Length name_length) {
  const Int dims[2] = {*dim1, *dim2}, chunk[2] = {*chunk1, *chunk2};
  return create("ga_create", *type, 2, dims, text(name, name_length), chunk, g_a);
}

FortranLogical ga_duplicate_(const Int* g_a, Int* g_b, const char* name, Length name_length) {
  const char* const fn = "ga_duplicate";
  return call(fn, [&] {
    std::string label = text(name, name_length);
    *g_b = GA_Duplicate(handle(fn, *g_a), label.data());
    return *g_b != 0 ? kTrue : kFalse;  // 0: over GA's memory limit
  });
}

FortranLogical ga_destroy_(const Int* g_a) {
  const char* const fn = "ga_destroy";
  return call(fn, [&] {
    GA_Destroy(handle(fn, *g_a));
    return kTrue;
  });
}

FortranLogical ga_allocate_(const Int* g_a) { return allocate("ga_allocate", *g_a, false); }
FortranLogical nga_allocate_(const Int* g_a) { return allocate("nga_allocate", *g_a, false); }
FortranLogical ga_deallocate_(const Int* g_a) { return allocate("ga_deallocate", *g_a, true); }
FortranLogical nga_deallocate_(const Int* g_a) { return allocate("nga_deallocate", *g_a, true); }
void ga_set_irreg_flag_(const Int* g_a, const FortranLogical* flag) {
  call("ga_set_irreg_flag", [&] { GA_Set_irreg_flag(handle("ga_set_irreg_flag", *g_a), *flag != kFalse ? 1 : 0); });
}
void nga_set_irreg_flag_(const Int* g_a, const FortranLogical* flag) {
  call("nga_set_irreg_flag", [&] { NGA_Set_irreg_flag(handle("nga_set_irreg_flag", *g_a), *flag != kFalse ? 1 : 0); });
}
FortranLogical ga_compare_distr_(const Int* g_a, const Int* g_b) { return compare_distr("ga_compare_distr", *g_a, *g_b); }
FortranLogical nga_compare_distr_(const Int* g_a, const Int* g_b) {
  return compare_distr("nga_compare_distr", *g_a, *g_b);
}
// INTEGER, as GA's global.fh declares it: 0 (Armada creates no mirrored arrays).
Int ga_is_mirrored_(const Int* g_a) {
  return call("ga_is_mirrored", [&] { return Int{GA_Is_mirrored(handle("ga_is_mirrored", *g_a))}; });
}
Int nga_is_mirrored_(const Int* g_a) {
  return call("nga_is_mirrored", [&] { return Int{NGA_Is_mirrored(handle("nga_is_mirrored", *g_a))}; });
}

void nga_inquire_(const Int* g_a, Int* type, Int* ndim, Int* dims) { inquire("nga_inquire", *g_a, type, ndim, dims); }

void ga_inquire_(const Int* g_a, Int* type, Int* dim1, Int* dim2) {
  Int ndim = 0, dims[GA_MAX_DIM];
  inquire("ga_inquire", *g_a, type, &ndim, dims);
  *dim1 = dims[0];
  *dim2 = ndim > 1 ? dims[1] : 1;
}

void nga_distribution_(const Int* g_a, const Int* iproc, Int* lo, Int* hi) {
  distribution("nga_distribution", *g_a, *iproc, lo, hi);
}

void ga_distribution_(const Int* g_a, const Int* iproc, Int* ilo, Int* ihi, Int* jlo, Int* jhi) {
  Int lo[GA_MAX_DIM], hi[GA_MAX_DIM];
  distribution("ga_distribution", *g_a, *iproc, lo, hi);
  *ilo = lo[0];
  *ihi = hi[0];
  *jlo = lo[1];
  *jhi = hi[1];
}

// ---- patches ----------------------------------------------------------------------------------
void nga_get_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld) {
  move_nd("nga_get", Op::Get, *g_a, lo, hi, buf, ld, nullptr, nullptr);
}
void nga_put_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld) {
  move_nd("nga_put", Op::Put, *g_a, lo, hi, buf, ld, nullptr, nullptr);
}
void nga_acc_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld, void* alpha) {
  move_nd("nga_acc", Op::Acc, *g_a, lo, hi, buf, ld, alpha, nullptr);
}
void nga_nbget_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld, Int* nbhandle) {
  move_nd("nga_nbget", Op::NbGet, *g_a, lo, hi, buf, ld, nullptr, nbhandle);
}
void ga_get_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld) {
  move_2d("ga_get", Op::Get, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, nullptr, nullptr);
}
void ga_put_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld) {
  move_2d("ga_put", Op::Put, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, nullptr, nullptr);
}
void ga_acc_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld,
             void* alpha) {
  move_2d("ga_acc", Op::Acc, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, alpha, nullptr);
}
void ga_nbget_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld,
               Int* nbhandle) {
  move_2d("ga_nbget", Op::NbGet, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, nullptr, nbhandle);
}

void nga_nbwait_(Int* nbhandle) { wait_request("nga_nbwait", *nbhandle); }
void ga_nbwait_(Int* nbhandle) { wait_request("ga_nbwait", *nbhandle); }

Int nga_read_inc_(const Int* g_a, const Int* subscript, const Int* inc) {
  const char* const fn = "nga_read_inc";
  return call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch(fn, g, subscript, subscript, PatchNames{"subscript", "subscript"});
    return static_cast<Int>(NGA_Read_inc64(g, c.lo, static_cast<long>(*inc)));
  });
}

void nga_scatter_(const Int* g_a, void* v, const Int* subs, const Int* n) {
  elements("nga_scatter", ListOp::Scatter, *g_a, v, *n, subs, nullptr, nullptr, nullptr);
}
void nga_scatter_acc_(const Int* g_a, void* v, const Int* subs, const Int* n, void* alpha) {
  elements("nga_scatter_acc", ListOp::ScatterAcc, *g_a, v, *n, subs, nullptr, nullptr, alpha);
}
void nga_gather_(const Int* g_a, void* v, const Int* subs, const Int* n) {
  elements("nga_gather", ListOp::Gather, *g_a, v, *n, subs, nullptr, nullptr, nullptr);
}
void ga_scatter_(const Int* g_a, void* v, const Int* i, const Int* j, const Int* n) {
  elements("ga_scatter", ListOp::Scatter, *g_a, v, *n, nullptr, i, j, nullptr);
}
void ga_scatter_acc_(const Int* g_a, void* v, const Int* i, const Int* j, const Int* n, void* alpha) {
  elements("ga_scatter_acc", ListOp::ScatterAcc, *g_a, v, *n, nullptr, i, j, alpha);
}
void ga_gather_(const Int* g_a, void* v, const Int* i, const Int* j, const Int* n) {
  elements("ga_gather", ListOp::Gather, *g_a, v, *n, nullptr, i, j, nullptr);
}

// ---- whole arrays and patches -----------------------------------------------------------------
void ga_zero_(const Int* g_a) { call("ga_zero", [&] { GA_Zero(handle("ga_zero", *g_a)); }); }
void ga_fill_(const Int* g_a, void* value) { call("ga_fill", [&] { GA_Fill(handle("ga_fill", *g_a), value); }); }
void ga_scale_(const Int* g_a, void* value) { call("ga_scale", [&] { GA_Scale(handle("ga_scale", *g_a), value); }); }
void ga_dscal_(const Int* g_a, double* value) {
  const char* const fn = "ga_dscal";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    if (fortran_type(ga_type(fn, g)) != MT_F_DBL)
      bad_argument(fn, "g_a", std::to_string(g), "holds " + type_name(ga_type(fn, g)) + "; ga_dscal needs MT_F_DBL");
    GA_Scale(g, value);
  });
}
void ga_copy_(const Int* g_a, const Int* g_b) {
  call("ga_copy", [&] { GA_Copy(handle("ga_copy", *g_a), handle("ga_copy", *g_b, "g_b")); });
}
void ga_add_(void* alpha, const Int* g_a, void* beta, const Int* g_b, const Int* g_c) {
  const char* const fn = "ga_add";
  call(fn, [&] { GA_Add(alpha, handle(fn, *g_a), beta, handle(fn, *g_b, "g_b"), handle(fn, *g_c, "g_c")); });
}
double ga_ddot_(const Int* g_a, const Int* g_b) {
  const char* const fn = "ga_ddot";
  return call(fn, [&] { return GA_Ddot(handle(fn, *g_a), handle(fn, *g_b, "g_b")); });
}
void ga_symmetrize_(const Int* g_a) { call("ga_symmetrize", [&] { GA_Symmetrize(handle("ga_symmetrize", *g_a)); }); }
void ga_transpose_(const Int* g_a, const Int* g_b) {
  const char* const fn = "ga_transpose";
  call(fn, [&] { GA_Transpose(handle(fn, *g_a), handle(fn, *g_b, "g_b")); });
}
void ga_print_(const Int* g_a) { call("ga_print", [&] { GA_Print(handle("ga_print", *g_a)); }); }

void nga_copy_patch_(const char* trans, const Int* g_a, const Int* alo, const Int* ahi, const Int* g_b, const Int* blo,
                     const Int* bhi, Length trans_length) {
  const char* const fn = "nga_copy_patch";
  call(fn, [&] {
    const char t = text(trans, trans_length).empty() ? 'n' : text(trans, trans_length)[0];
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");
    CPatch ca = patch(fn, a, alo, ahi, PatchNames{"alo", "ahi"});
    CPatch cb = patch(fn, b, blo, bhi, PatchNames{"blo", "bhi"});
    NGA_Copy_patch64(t, a, ca.lo, ca.hi, b, cb.lo, cb.hi);
  });
}

void ga_copy_patch_(const char* trans, const Int* g_a, const Int* ailo, const Int* aihi, const Int* ajlo,
                    const Int* ajhi, const Int* g_b, const Int* bilo, const Int* bihi, const Int* bjlo, const Int* bjhi,
                    Length trans_length) {
  const char* const fn = "ga_copy_patch";
  call(fn, [&] {
    const char t = text(trans, trans_length).empty() ? 'n' : text(trans, trans_length)[0];
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");
    CPatch ca = patch2(fn, a, *ailo, *aihi, *ajlo, *ajhi, "a");
    CPatch cb = patch2(fn, b, *bilo, *bihi, *bjlo, *bjhi, "b");
    NGA_Copy_patch64(t, a, ca.lo, ca.hi, b, cb.lo, cb.hi);
  });
}

void nga_add_patch_(void* alpha, const Int* g_a, const Int* alo, const Int* ahi, void* beta, const Int* g_b,
                    const Int* blo, const Int* bhi, const Int* g_c, const Int* clo, const Int* chi) {
  const char* const fn = "nga_add_patch";
  call(fn, [&] {
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b"), c = handle(fn, *g_c, "g_c");
    CPatch ca = patch(fn, a, alo, ahi, PatchNames{"alo", "ahi"});
    CPatch cb = patch(fn, b, blo, bhi, PatchNames{"blo", "bhi"});
    CPatch cc = patch(fn, c, clo, chi, PatchNames{"clo", "chi"});
    NGA_Add_patch64(alpha, a, ca.lo, ca.hi, beta, b, cb.lo, cb.hi, c, cc.lo, cc.hi);
  });
}

void ga_add_patch_(void* alpha, const Int* g_a, const Int* ailo, const Int* aihi, const Int* ajlo, const Int* ajhi,
                   void* beta, const Int* g_b, const Int* bilo, const Int* bihi, const Int* bjlo, const Int* bjhi,
                   const Int* g_c, const Int* cilo, const Int* cihi, const Int* cjlo, const Int* cjhi) {
  const char* const fn = "ga_add_patch";
  call(fn, [&] {
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b"), c = handle(fn, *g_c, "g_c");
    CPatch ca = patch2(fn, a, *ailo, *aihi, *ajlo, *ajhi, "a");
    CPatch cb = patch2(fn, b, *bilo, *bihi, *bjlo, *bjhi, "b");
    CPatch cc = patch2(fn, c, *cilo, *cihi, *cjlo, *cjhi, "c");
    NGA_Add_patch64(alpha, a, ca.lo, ca.hi, beta, b, cb.lo, cb.hi, c, cc.lo, cc.hi);
  });
}

// ---- matrix products --------------------------------------------------------------------------
// A Fortran matrix X is the C view's X^T, so C = op(A) op(B) is, in the C view, C^T = op(B^T) op(A^T):
// the operands and their flags change places, m and n too.
void ga_dgemm_(const char* ta, const char* tb, const Int* m, const Int* n, const Int* k, const double* alpha,
               const Int* g_a, const Int* g_b, const double* beta, const Int* g_c, Length ta_length, Length tb_length) {
  const char* const fn = "ga_dgemm";
  call(fn, [&] {
    const char a_flag = trans_flag(fn, "transa", ta, ta_length), b_flag = trans_flag(fn, "transb", tb, tb_length);
    for (const auto& [name, v] : {std::pair{"m", *m}, std::pair{"n", *n}, std::pair{"k", *k}})
      if (v < 1) bad_argument(fn, name, std::to_string(v), "must be >= 1");
    GA_Dgemm64(b_flag, a_flag, *n, *m, *k, *alpha, handle(fn, *g_b, "g_b"), handle(fn, *g_a), *beta,
               handle(fn, *g_c, "g_c"));
  });
}

void ga_matmul_patch_(const char* transa, const char* transb, void* alpha, void* beta, const Int* g_a, const Int* ailo,
                      const Int* aihi, const Int* ajlo, const Int* ajhi, const Int* g_b, const Int* bilo,
                      const Int* bihi, const Int* bjlo, const Int* bjhi, const Int* g_c, const Int* cilo,
                      const Int* cihi, const Int* cjlo, const Int* cjhi, Length ta_length, Length tb_length) {
  const char* const fn = "ga_matmul_patch";
  call(fn, [&] {
    const char a_flag = trans_flag(fn, "transa", transa, ta_length);
    const char b_flag = trans_flag(fn, "transb", transb, tb_length);
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b"), c = handle(fn, *g_c, "g_c");
    // GA's patch indices are those of op(A) and op(B) (GA's matmul.c: m = aihi - ailo + 1,
    // k = ajhi - ajlo + 1 whatever transa): a transposed operand's data is the patch with its
    // two ranges exchanged. The C API takes the patches before op.
    const bool at = a_flag != 'n' && a_flag != 'N', bt = b_flag != 'n' && b_flag != 'N';
    CPatch ca = at ? patch2(fn, a, *ajlo, *ajhi, *ailo, *aihi, "a") : patch2(fn, a, *ailo, *aihi, *ajlo, *ajhi, "a");
    CPatch cb = bt ? patch2(fn, b, *bjlo, *bjhi, *bilo, *bihi, "b") : patch2(fn, b, *bilo, *bihi, *bjlo, *bjhi, "b");
    CPatch cc = patch2(fn, c, *cilo, *cihi, *cjlo, *cjhi, "c");
    NGA_Matmul_patch64(b_flag, a_flag, alpha, beta, b, cb.lo, cb.hi, a, ca.lo, ca.hi, c, cc.lo, cc.hi);
  });
}

// Eigenvalues (ascending) and eigenvectors of the symmetric A: the C API gives the eigenvectors as
// the columns of V's C view, which are the rows of the Fortran matrix; GA's Fortran API gives
// columns, so V is transposed through a temporary copy.
void ga_diag_std_(const Int* g_a, const Int* g_v, double* evals) { diag_std("ga_diag_std", g_a, g_v, evals); }
void ga_diag_std_seq_(const Int* g_a, const Int* g_v, double* evals) {
  diag_std("ga_diag_std_seq", g_a, g_v, evals);
}
void ga_diag_(const Int* g_a, const Int* g_s, const Int* g_v, double* evals) {
  diag("ga_diag", nullptr, g_a, g_s, g_v, evals);
}
void ga_diag_seq_(const Int* g_a, const Int* g_s, const Int* g_v, double* evals) {
  diag("ga_diag_seq", nullptr, g_a, g_s, g_v, evals);
}
void ga_diag_reuse_(const Int* control, const Int* g_a, const Int* g_s, const Int* g_v, double* evals) {
  diag("ga_diag_reuse", control, g_a, g_s, g_v, evals);
}
// The C view of a Fortran matrix is its transpose: the inverse of a symmetric matrix is the same
// in both (the C API reads its lower triangle, Fortran's upper one: docs/ga.md).
Int ga_spd_invert_(const Int* g_a) {
  const char* const fn = "ga_spd_invert";
  return call(fn, [&] { return static_cast<Int>(GA_Spd_invert(handle(fn, *g_a))); });
}

// ---- collectives on Fortran arrays (the default group) ----------------------------------------
void ga_dgop_(const Int*, double* x, const Int* n, const char* op, Length op_length) {
  const char* const fn = "ga_dgop";
  call(fn, [&] {
    if (*n < 0) bad_argument(fn, "n", std::to_string(*n), "must be >= 0");
    std::string o = op_text(fn, op, op_length);
    GA_Dgop(x, static_cast<int>(*n), o.data());
  });
}

void ga_igop_(const Int*, Int* x, const Int* n, const char* op, Length op_length) {
  const char* const fn = "ga_igop";
  call(fn, [&] {
    if (*n < 0) bad_argument(fn, "n", std::to_string(*n), "must be >= 0");
    std::string o = op_text(fn, op, op_length);
    if constexpr (sizeof(Int) == sizeof(long))
      GA_Lgop(reinterpret_cast<long*>(x), static_cast<int>(*n), o.data());
    else
      GA_Igop(reinterpret_cast<int*>(x), static_cast<int>(*n), o.data());
  });
}

void ga_brdcst_(const Int*, void* buf, const Int* lenbuf, const Int* root) {
  const char* const fn = "ga_brdcst";
  call(fn, [&] {
    if (*lenbuf < 0) bad_argument(fn, "lenbuf", std::to_string(*lenbuf), "must be >= 0 (bytes)");
    GA_Brdcst(buf, static_cast<int>(*lenbuf), static_cast<int>(*root));
  });
}

}  // extern "C"
