// What the files of GA's Fortran API share: Fortran's INTEGER (a compile-time choice, the library
// is built once per width), gfortran's calling convention (trailing underscore, every argument by
// reference, a hidden length per CHARACTER argument), and the conversion of Fortran-view index
// tuples to the C API's, which goes through the arrays C API's Fortran view (armada_gaf_*) and
// nowhere else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "armada/arrays/c_api.h"
#include "fortran_abi.hpp"
#include "ga.h"
#include "base/call.hpp"
#include "base/index.hpp"
#include "base/types.hpp"
#include "create/handles.hpp"
#include "groups/groups.hpp"

namespace armada::ga::fortran {

using fortran_abi::Int;
using fortran_abi::kFalse;
using fortran_abi::kTrue;
using fortran_abi::Length;
using fortran_abi::text;
using FortranLogical = fortran_abi::Logical;

/// Runs one Fortran entry point: an error it finds, or one the C API finds under it, ends the
/// job GA_Error's way with a message naming `function`.
template <class F>
auto call(const char* function, F&& body) noexcept -> decltype(body()) {
  return guarded(function, [&] {
    FortranCaller in(function);
    return body();
  });
}

/// Throws StateError when the program was compiled for the other default INTEGER width than this
/// library's (the size of global.fh's common block /armada_ga_integer/ in the program).
void check_integer_width(const char* function);
/// A handle argument as the C API's int.
int handle(const char* function, Int g_a, const char* argument = "g_a");
/// A count or number the C API takes as an int, checked: with 8-byte INTEGER a larger value would
/// be cut to its low 32 bits (ga_dgop of 2^32 + 1 elements reduced 1).
int c_int(const char* function, const char* argument, Int value);
/// An MT_F_ type of the Fortran API as the C API's type (MT_F_INT: this build's INTEGER).
int c_type(const char* function, Int type);
/// The C API's type of a Fortran program's array as the MT_F_ type it was created with.
Int fortran_type(int ga_type);

/// A patch in GA's C view (zero-based, inclusive, dimensions reversed) and a buffer's ld.
struct CPatch {
  int ndim = 0;
  std::int64_t lo[GA_MAX_DIM] = {};
  std::int64_t hi[GA_MAX_DIM] = {};
};
/// Names of the Fortran arguments of a patch, for messages: a tuple ("lo" -> lo(2)), GA's 2-d
/// bounds (ilo/ihi, jlo/jhi), a column of a subscript array (subs(2, 5)) or a pair of subscript
/// lists (i(5), j(5)).
struct PatchNames {
  enum class Form { Tuple, TwoD, Column, Pair };
  const char* lo = "lo";
  const char* hi = "hi";
  Form form = Form::Tuple;
  long column = 0;  // Column and Pair: the one-based position in the list
  std::string of(bool upper, int d) const;
};
inline constexpr PatchNames nd_names{};
inline constexpr PatchNames two_d_names{"lo", "hi", PatchNames::Form::TwoD};

/// What a local access returns to Fortran (memory.cpp): the MA index of `p` (GA's AccessIndex, 8
/// bytes) and the ld `cld` (C view, ndim-1 entries) in Fortran's order.
void access_result(const char* fn, int g, int ndim, const void* p, const std::int64_t* cld, std::int64_t* index,
                   Int* ld);
/// The Fortran dims of g_a (its ndim in *ndim).
void dims(const char* function, int g_a, int* ndim, std::int64_t out[GA_MAX_DIM]);
/// Checks the Fortran patch [lo, hi] of g_a (1 <= lo <= hi <= dims, named as the program named
/// them) and gives its C view.
CPatch patch(const char* function, int g_a, const Int* lo, const Int* hi, const PatchNames& names = nd_names,
             const char* which = "");
/// The C view of Fortran patch [lo, hi] (n entries each), unchecked.
CPatch to_c(int n, const std::int64_t* lo, const std::int64_t* hi);
/// A patch of g_a for GA's periodic operations: any indices (they wrap around the array), hi >= lo.
CPatch periodic_patch(const char* function, int g_a, const Int* lo, const Int* hi);
/// The 2-d patch (ilo:ihi, jlo:jhi) of a 2-d array g_a, or (ilo:ihi, 1:1) of a 1-d one (GA's
/// 2-d calls take a vector as its one column).
CPatch patch2(const char* function, int g_a, Int ilo, Int ihi, Int jlo, Int jhi, const char* which = "");
/// Checks a buffer's ld (ndim-1 entries, each >= the patch's extent where GA reads it: ld(d) only
/// where a later dimension of [lo, hi] is wider than one) and gives the C view's.
void leading(const char* function, const Int* ld, const Int* lo, const Int* hi, int ndim, std::int64_t out[]);
/// GA's Fortran irregular distribution (map: the first index, one-based, of each block of
/// dimension 1, then of dimension 2, ...; nblock(d) blocks in dimension d of the n Fortran dims
/// fdims), checked, as the C API's map (dimensions reversed, zero-based); its nblock in cblock.
std::vector<std::int64_t> irregular_map(const char* function, int n, const std::int64_t* fdims, const Int* map,
                                        const Int* nblock, std::int64_t cblock[]);
/// The Fortran patch of a C-view patch (inclusive) in `lo`, `hi` (ndim entries).
void to_fortran(const CPatch& c, Int* lo, Int* hi);

/// A new matrix on g's group holding the transpose of g's C view: the Fortran matrix g as a C
/// view (what the C API's solvers must see to work on the Fortran program's matrix). `argument`
/// names g in errors.
int transposed_copy(const char* function, int g, const char* argument = "g_a");
/// Eigenvectors the C API gave as the columns of its view, made the Fortran program's columns.
void eigenvectors_as_columns(const char* function, int v);

/// A C API complex result as the Fortran function's: gfortran returns COMPLEX as C's _Complex.
using Scpl = __complex__ float;
using Dcpl = __complex__ double;
inline Scpl as_fortran(SingleComplex z) {
  Scpl r;
  __real__ r = z.real;
  __imag__ r = z.imag;
  return r;
}
inline Dcpl as_fortran(DoubleComplex z) {
  Dcpl r;
  __real__ r = z.real;
  __imag__ r = z.imag;
  return r;
}

}  // namespace armada::ga::fortran
