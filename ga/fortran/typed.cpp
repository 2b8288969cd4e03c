// GA's typed Fortran spellings of whole-array and patch arithmetic (global.fh): ga_dadd,
// ga_zadd_patch, ga_sscal, ga_iscale_patch, ga_cfill_patch, ... with the prefix of the element
// type (s REAL, d DOUBLE PRECISION, i INTEGER, c COMPLEX, z DOUBLE COMPLEX) and their nga_
// spellings: the generic call after a check that every array holds that type (GA ends the job
// with " wrong type(s) " otherwise; here the message names the array and both types).
#include <string>

#include "binding.hpp"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

extern "C" {
void ga_add_(void* alpha, const Int* g_a, void* beta, const Int* g_b, const Int* g_c);
void ga_scale_(const Int* g_a, void* value);
void ga_scale_patch_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* s);
void nga_scale_patch_(const Int* g_a, const Int* lo, const Int* hi, void* s);
void ga_fill_patch_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* value);
void nga_fill_patch_(const Int* g_a, const Int* lo, const Int* hi, void* value);
void ga_add_patch_(void* alpha, const Int* g_a, const Int* ailo, const Int* aihi, const Int* ajlo, const Int* ajhi,
                   void* beta, const Int* g_b, const Int* bilo, const Int* bihi, const Int* bjlo, const Int* bjhi,
                   const Int* g_c, const Int* cilo, const Int* cihi, const Int* cjlo, const Int* cjhi);
void nga_add_patch_(void* alpha, const Int* g_a, const Int* alo, const Int* ahi, void* beta, const Int* g_b,
                    const Int* blo, const Int* bhi, const Int* g_c, const Int* clo, const Int* chi);
}

namespace {

const char* mt_name(Int mt) {
  switch (mt) {
    case MT_F_INT: return "MT_F_INT";
    case MT_F_REAL: return "MT_F_REAL";
    case MT_F_DBL: return "MT_F_DBL";
    case MT_F_SCPL: return "MT_F_SCPL";
  }
  return "MT_F_DCPL";
}

/// Ends the job unless each of the arrays (g_a, then g_b, g_c where given) holds type mt.
void expect(const char* fn, Int mt, Int g_a, const Int* g_b = nullptr, const Int* g_c = nullptr) {
  call(fn, [&] {
    const std::pair<const char*, const Int*> arrays[] = {{"g_a", &g_a}, {"g_b", g_b}, {"g_c", g_c}};
    for (const auto& [name, h] : arrays) {
      if (!h) continue;
      const int g = handle(fn, *h, name);
      if (fortran_type(ga_type(fn, g)) != mt)
        bad_argument(fn, name, std::to_string(*h),
                     "holds " + type_name(ga_type(fn, g)) + "; " + fn + " needs " + mt_name(mt));
    }
  });
}

}  // namespace

// The whole family for one type prefix x and its MT_F_ type (T: the Fortran scalar's C type).
#define ARMADA_GAF_TYPED(x, T, MT)                                                                                   \
  void ga_##x##add_(T* alpha, const Int* g_a, T* beta, const Int* g_b, const Int* g_c) {                            \
    expect("ga_" #x "add", MT, *g_a, g_b, g_c);                                                                     \
    ga_add_(alpha, g_a, beta, g_b, g_c);                                                                            \
  }                                                                                                                 \
  void nga_##x##add_(T* alpha, const Int* g_a, T* beta, const Int* g_b, const Int* g_c) {                           \
    expect("nga_" #x "add", MT, *g_a, g_b, g_c);                                                                    \
    ga_add_(alpha, g_a, beta, g_b, g_c);                                                                            \
  }                                                                                                                 \
  void ga_##x##add_patch_(T* alpha, const Int* g_a, const Int* ailo, const Int* aihi, const Int* ajlo,             \
                          const Int* ajhi, T* beta, const Int* g_b, const Int* bilo, const Int* bihi, const Int* bjlo, \
                          const Int* bjhi, const Int* g_c, const Int* cilo, const Int* cihi, const Int* cjlo,       \
                          const Int* cjhi) {                                                                        \
    expect("ga_" #x "add_patch", MT, *g_a, g_b, g_c);                                                               \
    ga_add_patch_(alpha, g_a, ailo, aihi, ajlo, ajhi, beta, g_b, bilo, bihi, bjlo, bjhi, g_c, cilo, cihi, cjlo, cjhi); \
  }                                                                                                                 \
  void nga_##x##add_patch_(T* alpha, const Int* g_a, const Int* alo, const Int* ahi, T* beta, const Int* g_b,      \
                           const Int* blo, const Int* bhi, const Int* g_c, const Int* clo, const Int* chi) {        \
    expect("nga_" #x "add_patch", MT, *g_a, g_b, g_c);                                                              \
    nga_add_patch_(alpha, g_a, alo, ahi, beta, g_b, blo, bhi, g_c, clo, chi);                                       \
  }                                                                                                                 \
  void ga_##x##scal_(const Int* g_a, T* s) {                                                                        \
    expect("ga_" #x "scal", MT, *g_a);                                                                              \
    ga_scale_(g_a, s);                                                                                              \
  }                                                                                                                 \
  void ga_##x##scale_(const Int* g_a, T* s) {                                                                       \
    expect("ga_" #x "scale", MT, *g_a);                                                                             \
    ga_scale_(g_a, s);                                                                                              \
  }                                                                                                                 \
  void nga_##x##scale_(const Int* g_a, T* s) {                                                                      \
    expect("nga_" #x "scale", MT, *g_a);                                                                            \
    ga_scale_(g_a, s);                                                                                              \
  }                                                                                                                 \
  void ga_##x##scal_patch_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, T* s) {  \
    expect("ga_" #x "scal_patch", MT, *g_a);                                                                        \
    ga_scale_patch_(g_a, ilo, ihi, jlo, jhi, s);                                                                    \
  }                                                                                                                 \
  void nga_##x##scale_patch_(const Int* g_a, const Int* lo, const Int* hi, T* s) {                                  \
    expect("nga_" #x "scale_patch", MT, *g_a);                                                                      \
    nga_scale_patch_(g_a, lo, hi, s);                                                                               \
  }                                                                                                                 \
  void ga_##x##fill_patch_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, T* v) {  \
    expect("ga_" #x "fill_patch", MT, *g_a);                                                                        \
    ga_fill_patch_(g_a, ilo, ihi, jlo, jhi, v);                                                                     \
  }                                                                                                                 \
  void nga_##x##fill_patch_(const Int* g_a, const Int* lo, const Int* hi, T* v) {                                   \
    expect("nga_" #x "fill_patch", MT, *g_a);                                                                       \
    nga_fill_patch_(g_a, lo, hi, v);                                                                                \
  }

extern "C" {
ARMADA_GAF_TYPED(s, float, MT_F_REAL)
ARMADA_GAF_TYPED(d, double, MT_F_DBL)
ARMADA_GAF_TYPED(i, Int, MT_F_INT)
ARMADA_GAF_TYPED(c, SingleComplex, MT_F_SCPL)
ARMADA_GAF_TYPED(z, DoubleComplex, MT_F_DCPL)
}  // extern "C"
#undef ARMADA_GAF_TYPED
