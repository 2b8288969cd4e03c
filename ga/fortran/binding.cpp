// The shared pieces of GA's Fortran API: argument checks in the program's own terms (one-based,
// Fortran order, the argument names of GA's Fortran interface) and the conversion, through the
// arrays C API's Fortran view, to GA's C view.
#include "binding.hpp"

#include <dlfcn.h>
#include <link.h>

#include <climits>


namespace armada::ga::fortran {

namespace {

/// A failure of the arrays C API's conversion: the arguments were checked before, so a bug.
void converted(int code) {
  if (code != ARMADA_GA_OK) throw rma::Error("GA Fortran index conversion", armada_ga_error_message());
}

std::string tuple_text(int n, const std::int64_t* v) {
  std::string s = "(";
  for (int d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
  return s + ")";
}

}  // namespace

}  // namespace armada::ga::fortran

// global.fh's common block /armada_ga_integer/ (gfortran: one trailing underscore): the program
// defines it, of one default INTEGER, and the dynamic linker exports it for this library. Weak:
// a program none of whose units includes global.fh leaves it null.
extern "C" __attribute__((weak)) char armada_ga_integer_;

namespace armada::ga::fortran {

void check_integer_width(const char* function) {
  if (!&armada_ga_integer_) return;
  Dl_info info{};
  void* entry = nullptr;
  // Its size is in the program's dynamic symbol table only; a program linked with the static
  // library has none to read, and is not checked.
  if (!dladdr1(&armada_ga_integer_, &info, &entry, RTLD_DL_SYMENT) || !entry || info.dli_saddr != &armada_ga_integer_)
    return;
  const auto* symbol = static_cast<const ElfW(Sym)*>(entry);
  const std::size_t program = symbol->st_size;
  if (program == sizeof(Int) || (program != 4 && program != 8)) return;
  const std::string library = sizeof(Int) == 8 ? "libarmada_ga_fortran_i8" : "libarmada_ga_fortran";
  const std::string fix = program == 8 ? "link libarmada_ga_fortran_i8 (armada-ga-config --i8 --flibs, CMake armada::ga_fortran_i8)"
                                       : "link libarmada_ga_fortran (armada-ga-config --flibs, CMake armada::ga_fortran), or compile with -fdefault-integer-8";
  throw rma::StateError(function, rma::error_message(function, "compiled for " + std::to_string(program) +
                                                                   "-byte INTEGER, linked with the " + std::to_string(sizeof(Int)) +
                                                                   "-byte library (" + library + "): " + fix));
}

int handle(const char* function, Int g_a, const char* argument) {
  if (g_a < INT_MIN || g_a > INT_MAX)
    bad_argument(function, argument, std::to_string(g_a), "not a live global array handle");
  return static_cast<int>(g_a);
}

int c_int(const char* function, const char* argument, Int value) {
  if (value < INT_MIN || value > INT_MAX)
    bad_argument(function, argument, std::to_string(value),
                 "does not fit the C API's int (" + std::to_string(INT_MIN) + " .. " + std::to_string(INT_MAX) + ")");
  return static_cast<int>(value);
}

int c_type(const char* function, Int type) {
  switch (type) {
    case MT_F_INT: return ARMADA_FORTRAN_INTEGER_BYTES == 8 ? F_INT : C_INT;
    case MT_F_REAL: return F_REAL;
    case MT_F_DBL: return F_DBL;
    case MT_F_SCPL: return F_SCPL;
    case MT_F_DCPL: return F_DCPL;
  }
  bad_argument(function, "type", std::to_string(type),
               "not a Fortran array type (MT_F_INT, MT_F_REAL, MT_F_DBL, MT_F_SCPL, MT_F_DCPL of mafdecls.fh)");
}

Int fortran_type(int ga_type) {
  switch (ga_type) {
    case C_INT: return ARMADA_FORTRAN_INTEGER_BYTES == 4 ? MT_F_INT : C_INT;
    case C_LONG: case C_LONGLONG: case F_INT: return ARMADA_FORTRAN_INTEGER_BYTES == 8 ? MT_F_INT : ga_type;
    case C_FLOAT: case F_REAL: return MT_F_REAL;
    case C_DBL: case F_DBL: return MT_F_DBL;
    case C_SCPL: case F_SCPL: return MT_F_SCPL;
    case C_DCPL: case F_DCPL: return MT_F_DCPL;
  }
  return ga_type;
}

std::string PatchNames::of(bool upper, int d) const {
  const std::string k = std::to_string(column);
  switch (form) {
    case Form::TwoD: return std::string(d == 0 ? "i" : "j") + (upper ? "hi" : "lo");
    case Form::Column: return std::string(lo) + "(" + std::to_string(d + 1) + ", " + k + ")";
    case Form::Pair: return std::string(d == 0 ? "i" : "j") + "(" + k + ")";
    case Form::Tuple: break;
  }
  return std::string(upper ? hi : lo) + "(" + std::to_string(d + 1) + ")";
}

void dims(const char* function, int g_a, int* ndim, std::int64_t out[GA_MAX_DIM]) {
  const Coord& shape = array_dims(function, g_a);  // names the Fortran function for a bad handle
  *ndim = shape.size();
  std::int64_t cdims[GA_MAX_DIM];
  for (int d = 0; d < shape.size(); ++d) cdims[d] = shape[d];
  converted(armada_gaf_from_c_extents(shape.size(), cdims, out));
}

CPatch patch(const char* function, int g_a, const Int* lo, const Int* hi, const PatchNames& names,
             const char* which) {
  int n = 0;
  std::int64_t extent[GA_MAX_DIM];
  dims(function, g_a, &n, extent);
  // which: "a", "b", "c", the array of a two- or three-array call ("" for one); a std::string of
  // it only on the error paths (this runs on every Fortran get, put and accumulate).
  const auto prefix = [which] { return std::string(which); };
  if (!lo) bad_argument(function, prefix() + names.lo, "NULL", "an index tuple is required");
  if (!hi) bad_argument(function, prefix() + names.hi, "NULL", "an index tuple is required");
  std::int64_t flo[GA_MAX_DIM], fhi[GA_MAX_DIM];
  for (int d = 0; d < n; ++d) {
    // The names are built only for a message (this loop runs for every element of a scatter).
    if (lo[d] < 1 || lo[d] > extent[d])
      bad_argument(function, prefix() + names.of(false, d), std::to_string(lo[d]),
                   "outside the array (dims " + tuple_text(n, extent) + ", Fortran indices from 1)");
    if (hi[d] < lo[d] || hi[d] > extent[d])
      bad_argument(function, prefix() + names.of(true, d), std::to_string(hi[d]),
                   "must be in " + prefix() + names.of(false, d) + " .. " + std::to_string(extent[d]) + " = " +
                       std::to_string(lo[d]) + " .. " + std::to_string(extent[d]) + " (GA's patches are inclusive)");
    flo[d] = lo[d];
    fhi[d] = hi[d];
  }
  return to_c(n, flo, fhi);
}

CPatch periodic_patch(const char* function, int g_a, const Int* lo, const Int* hi) {
  int n = 0;
  std::int64_t extent[GA_MAX_DIM];
  dims(function, g_a, &n, extent);
  if (!lo) bad_argument(function, "lo", "NULL", "an index tuple is required");
  if (!hi) bad_argument(function, "hi", "NULL", "an index tuple is required");
  std::int64_t flo[GA_MAX_DIM], fhi[GA_MAX_DIM];
  for (int d = 0; d < n; ++d) {
    if (hi[d] < lo[d])
      bad_argument(function, nd_names.of(true, d), std::to_string(hi[d]),
                   "must be >= lo(" + std::to_string(d + 1) + ") = " + std::to_string(lo[d]) +
                       " (GA's patches are inclusive; periodic indices may lie outside the array)");
    flo[d] = lo[d];
    fhi[d] = hi[d];
  }
  return to_c(n, flo, fhi);
}

CPatch to_c(int n, const std::int64_t* lo, const std::int64_t* hi) {
  CPatch c;
  c.ndim = n;
  converted(armada_gaf_to_c_patch(n, lo, hi, c.lo, c.hi));
  for (int d = 0; d < n; ++d) c.hi[d] -= 1;  // the arrays C view's upper bound is exclusive, GA's C inclusive
  return c;
}

CPatch patch2(const char* function, int g_a, Int ilo, Int ihi, Int jlo, Int jhi, const char* which) {
  const int n = array_dims(function, g_a).size();
  const Int lo[2] = {ilo, jlo}, hi[2] = {ihi, jhi};
  // GA's 2-d calls also take a 1-d array, as its one column (NWChem's ga_fill_patch of vectors).
  if (n == 1) {
    if (jlo != 1) bad_argument(function, std::string(which) + "jlo", std::to_string(jlo), "must be 1: a 1-d array has one column");
    if (jhi != 1) bad_argument(function, std::string(which) + "jhi", std::to_string(jhi), "must be 1: a 1-d array has one column");
    return patch(function, g_a, lo, hi, two_d_names, which);
  }
  if (n != 2)
    bad_argument(function, *which ? std::string("g_") + which : std::string("g_a"), std::to_string(g_a),
                 "has " + std::to_string(n) + " dimensions; " + function + " takes 1-d and 2-d arrays (nga_ for n-d)");
  return patch(function, g_a, lo, hi, two_d_names, which);
}

void leading(const char* function, const Int* ld, const Int* lo, const Int* hi, int ndim, std::int64_t out[]) {
  if (ndim < 2) return;
  if (!ld) bad_argument(function, "ld", "NULL", "the buffer's leading dimensions are required");
  std::int64_t fld[GA_MAX_DIM];
  for (int d = 0; d + 1 < ndim; ++d) {
    const std::int64_t extent = std::int64_t{hi[d]} - lo[d] + 1;
    // ld(d) strides dimension d+1 and beyond: where they are all one element wide, GA never reads
    // it (NWChem passes ld = 1 for a one-column ga_get), and the buffer is dense there.
    bool strided = false;
    for (int e = d + 1; e < ndim; ++e) strided = strided || hi[e] > lo[e];
    if (!strided) {
      fld[d] = extent;
      continue;
    }
    if (ld[d] < extent)
      bad_argument(function, ndim == 2 ? std::string("ld") : "ld(" + std::to_string(d + 1) + ")",
                   std::to_string(ld[d]),
                   "smaller than the patch's extent " + std::to_string(extent) + " in dimension " + std::to_string(d + 1));
    fld[d] = ld[d];
  }
  converted(armada_gaf_to_c_extents(ndim - 1, fld, out));
}

std::vector<std::int64_t> irregular_map(const char* function, int n, const std::int64_t* fdims, const Int* map,
                                        const Int* nblock, std::int64_t cblock[]) {
  if (!map) bad_argument(function, "map", "NULL", "the first index of every block is required");
  if (!nblock) bad_argument(function, "nblock", "NULL", "the number of blocks per dimension is required");
  std::int64_t first[GA_MAX_DIM];
  std::int64_t total = 0;
  for (int d = 0; d < n; ++d) {
    if (nblock[d] < 1 || nblock[d] > fdims[d])
      bad_argument(function, "nblock(" + std::to_string(d + 1) + ")", std::to_string(nblock[d]),
                   "must be in 1 .. dims(" + std::to_string(d + 1) + ") = " + std::to_string(fdims[d]));
    first[d] = total;
    total += nblock[d];
  }
  std::vector<std::int64_t> cmap;
  cmap.reserve(total);
  for (int cd = 0; cd < n; ++cd) {
    const int d = n - 1 - cd;  // the C view's dimension cd is Fortran's dimension d
    cblock[cd] = nblock[d];
    for (Int k = 0; k < nblock[d]; ++k) {
      const Int start = map[first[d] + k];
      if (start < 1 || start > fdims[d])
        bad_argument(function, "map(" + std::to_string(first[d] + k + 1) + ")", std::to_string(start),
                     "must be in 1 .. dims(" + std::to_string(d + 1) + ") = " + std::to_string(fdims[d]) +
                         " (the first index of a block of dimension " + std::to_string(d + 1) + ")");
      cmap.push_back(start - 1);
    }
  }
  return cmap;
}

void to_fortran(const CPatch& c, Int* lo, Int* hi) {
  std::int64_t upper[GA_MAX_DIM], flo[GA_MAX_DIM], fhi[GA_MAX_DIM];
  for (int d = 0; d < c.ndim; ++d) upper[d] = c.hi[d] + 1;
  converted(armada_gaf_from_c_patch(c.ndim, c.lo, upper, flo, fhi));
  for (int d = 0; d < c.ndim; ++d) {
    lo[d] = static_cast<Int>(flo[d]);
    hi[d] = static_cast<Int>(fhi[d]);
  }
}

int transposed_copy(const char* function, int g, const char* argument) {
  int n = 0;
  std::int64_t fdims[GA_MAX_DIM];
  dims(function, g, &n, fdims);  // the C view's dims reversed: the transpose's dims
  if (n != 2)
    bad_argument(function, argument, std::to_string(g), "is " + std::to_string(n) + "-d; " + function + " needs matrices");
  char label[] = "transposed copy";
  const int t = NGA_Create_config64(ga_type(function, g), 2, fdims, label, nullptr, GA_Get_pgroup(g));
  if (t == 0) bad_argument(function, argument, std::to_string(g), "has no room for a transposed copy under GA's memory limit");
  GA_Transpose(g, t);
  return t;
}

void eigenvectors_as_columns(const char* function, int v) {
  const int t = transposed_copy(function, v, "g_v");
  GA_Copy(t, v);
  GA_Destroy(t);
}

}  // namespace armada::ga::fortran
