// GA's Fortran API (global.fh): inquiries about an array and the run (ga_ndim, ga_has_ghosts,
// ga_inquire_name, ga_initialized, ga_wtime, ga_locate_nnodes), reports (ga_print_distribution,
// ga_summarize), properties, gather/scatter buffers, nga_select_elem, ga_randomize and
// ga_zero_patch, with GA's nga_ spellings. Each over the C API (ga.h); indices one-based and in
// Fortran's order, converted by binding.cpp.
#include <algorithm>
#include <cstring>
#include <string>

#include "binding.hpp"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

Int ndim(const char* fn, Int g_a) {
  return call(fn, [&] { return Int{GA_Ndim(handle(fn, g_a))}; });
}

FortranLogical has_ghosts(const char* fn, Int g_a) {
  return call(fn, [&] { return GA_Has_ghosts(handle(fn, g_a)) ? kTrue : kFalse; });
}

/// The array's name in a Fortran CHARACTER: blank-padded, cut at its length.
void inquire_name(const char* fn, Int g_a, char* name, Length length) {
  call(fn, [&] {
    const char* label = GA_Inquire_name(handle(fn, g_a));
    const std::size_t n = std::min<std::size_t>(std::strlen(label), length);
    std::memcpy(name, label, n);
    std::memset(name + n, ' ', length - n);
  });
}

/// The number of processes owning part of the Fortran patch [lo, hi] in *np; .true. (a patch
/// outside the array is an error, not .false.).
FortranLogical locate_nnodes(const char* fn, Int g_a, CPatch c, Int* np) {
  *np = NGA_Locate_nnodes64(handle(fn, g_a), c.lo, c.hi);
  return kTrue;
}

void print_distribution(const char* fn, Int g_a) {
  call(fn, [&] { GA_Print_distribution(handle(fn, g_a)); });
}

void set_property(const char* fn, Int g_a, const char* property, Length length) {
  call(fn, [&] {
    std::string p = text(property, length);
    GA_Set_property(handle(fn, g_a), p.data());
  });
}

void unset_property(const char* fn, Int g_a) {
  call(fn, [&] { GA_Unset_property(handle(fn, g_a)); });
}

void randomize(const char* fn, Int g_a, void* value) {
  call(fn, [&] {
    if (!value) bad_argument(fn, "val", "NULL", "a value of the array's type is required");
    GA_Randomize(handle(fn, g_a), value);
  });
}

}  // namespace

extern "C" {

Int ga_ndim_(const Int* g_a) { return ndim("ga_ndim", *g_a); }
Int nga_ndim_(const Int* g_a) { return ndim("nga_ndim", *g_a); }
Int ga_get_dimension_(const Int* g_a) { return ndim("ga_get_dimension", *g_a); }
Int nga_get_dimension_(const Int* g_a) { return ndim("nga_get_dimension", *g_a); }
FortranLogical ga_has_ghosts_(const Int* g_a) { return has_ghosts("ga_has_ghosts", *g_a); }
FortranLogical nga_has_ghosts_(const Int* g_a) { return has_ghosts("nga_has_ghosts", *g_a); }
void ga_inquire_name_(const Int* g_a, char* name, Length length) { inquire_name("ga_inquire_name", *g_a, name, length); }
void nga_inquire_name_(const Int* g_a, char* name, Length length) {
  inquire_name("nga_inquire_name", *g_a, name, length);
}
FortranLogical ga_initialized_() { return GA_Initialized() ? kTrue : kFalse; }
FortranLogical nga_initialized_() { return ga_initialized_(); }
// Seconds since an arbitrary moment (MPI_Wtime, as GA's).
double ga_wtime_() { return GA_Wtime(); }
double nga_wtime_() { return GA_Wtime(); }

FortranLogical ga_locate_nnodes_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, Int* np) {
  const char* const fn = "ga_locate_nnodes";
  return call(fn, [&] { return locate_nnodes(fn, *g_a, patch2(fn, handle(fn, *g_a), *ilo, *ihi, *jlo, *jhi), np); });
}
FortranLogical nga_locate_nnodes_(const Int* g_a, const Int* lo, const Int* hi, Int* np) {
  const char* const fn = "nga_locate_nnodes";
  return call(fn, [&] { return locate_nnodes(fn, *g_a, patch(fn, handle(fn, *g_a), lo, hi), np); });
}

void ga_print_distribution_(const Int* g_a) { print_distribution("ga_print_distribution", *g_a); }
void nga_print_distribution_(const Int* g_a) { print_distribution("nga_print_distribution", *g_a); }
void ga_summarize_(const Int* verbose) { call("ga_summarize", [&] { GA_Summarize(static_cast<int>(*verbose)); }); }
void nga_summarize_(const Int* verbose) { ga_summarize_(verbose); }

void ga_set_property_(const Int* g_a, const char* property, Length length) {
  set_property("ga_set_property", *g_a, property, length);
}
void nga_set_property_(const Int* g_a, const char* property, Length length) {
  set_property("nga_set_property", *g_a, property, length);
}
void ga_unset_property_(const Int* g_a) { unset_property("ga_unset_property", *g_a); }
void nga_unset_property_(const Int* g_a) { unset_property("nga_unset_property", *g_a); }

// Checked and kept for GA programs: gather and scatter need no buffer set aside (docs/ga.md).
void nga_alloc_gatscat_buf_(const Int* nelems) {
  const char* const fn = "nga_alloc_gatscat_buf";
  call(fn, [&] {
    if (*nelems < 0) bad_argument(fn, "nelems", std::to_string(*nelems), "must be >= 0");
    NGA_Alloc_gatscat_buf(c_int(fn, "nelems", *nelems));
  });
}
void nga_free_gatscat_buf_() { call("nga_free_gatscat_buf", [] { NGA_Free_gatscat_buf(); }); }

// The largest ("max") or smallest ("min") element in val, its Fortran subscript in subscript.
void nga_select_elem_(const Int* g_a, const char* op, void* val, Int* subscript, Length op_length) {
  const char* const fn = "nga_select_elem";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    std::string o = text(op, op_length);
    if (!val) bad_argument(fn, "val", "NULL", "room for one element is required");
    if (!subscript) bad_argument(fn, "subscript", "NULL", "room for ndim indices is required");
    CPatch c;
    c.ndim = GA_Ndim(g);
    NGA_Select_elem64(g, o.data(), val, c.lo);
    std::copy(c.lo, c.lo + c.ndim, c.hi);
    Int hi[GA_MAX_DIM];
    to_fortran(c, subscript, hi);
  });
}

void ga_randomize_(const Int* g_a, void* value) { randomize("ga_randomize", *g_a, value); }
void nga_randomize_(const Int* g_a, void* value) { randomize("nga_randomize", *g_a, value); }

// The 2-d form of nga_zero_patch.
void ga_zero_patch_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi) {
  const char* const fn = "ga_zero_patch";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch2(fn, g, *ilo, *ihi, *jlo, *jhi);
    NGA_Zero_patch64(g, c.lo, c.hi);
  });
}

}  // extern "C"
