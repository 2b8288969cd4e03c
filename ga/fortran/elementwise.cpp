// GA's Fortran API (global.fh), element-wise operations on whole arrays and on patches:
// ga_abs_value, ga_add_constant, ga_recip, ga_elem_multiply/divide/maximum/minimum and their
// _patch forms (n-d patches lo(ndim), hi(ndim), one-based), with GA's nga_ spellings. Each over
// the C API (ga/src/collective/elementwise.cpp); element by element, so the Fortran view's reversed
// dimensions change nothing but the patch indices, which binding.cpp converts.
#include "binding.hpp"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

enum class Unary { Abs, Recip, AddConstant };

/// ga_abs_value, ga_recip, ga_add_constant (alpha) on the whole array or, with lo and hi, a patch.
void unary(const char* fn, Unary op, Int g_a, const Int* lo, const Int* hi, void* alpha) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    if (op == Unary::AddConstant && !alpha) bad_argument(fn, "alpha", "NULL", "a value of the array's type is required");
    if (!lo) {
      op == Unary::Abs ? GA_Abs_value(g) : op == Unary::Recip ? GA_Recip(g) : GA_Add_constant(g, alpha);
      return;
    }
    CPatch c = patch(fn, g, lo, hi);
    op == Unary::Abs     ? GA_Abs_value_patch64(g, c.lo, c.hi)
    : op == Unary::Recip ? GA_Recip_patch64(g, c.lo, c.hi)
                         : GA_Add_constant_patch64(g, c.lo, c.hi, alpha);
  });
}

using WholeOp = void (*)(int, int, int);
using PatchOp = void (*)(int, std::int64_t*, std::int64_t*, int, std::int64_t*, std::int64_t*, int, std::int64_t*,
                         std::int64_t*);

/// c = a op b element by element (whole arrays), or on patches of the three.
void binary(const char* fn, WholeOp whole, PatchOp on_patches, Int g_a, const Int* alo, const Int* ahi, Int g_b,
            const Int* blo, const Int* bhi, Int g_c, const Int* clo, const Int* chi) {
  call(fn, [&] {
    const int a = handle(fn, g_a), b = handle(fn, g_b, "g_b"), c = handle(fn, g_c, "g_c");
    if (!alo) {
      whole(a, b, c);
      return;
    }
    CPatch pa = patch(fn, a, alo, ahi, PatchNames{"alo", "ahi"});
    CPatch pb = patch(fn, b, blo, bhi, PatchNames{"blo", "bhi"});
    CPatch pc = patch(fn, c, clo, chi, PatchNames{"clo", "chi"});
    on_patches(a, pa.lo, pa.hi, b, pb.lo, pb.hi, c, pc.lo, pc.hi);
  });
}

}  // namespace

extern "C" {

void ga_abs_value_(const Int* g_a) { unary("ga_abs_value", Unary::Abs, *g_a, nullptr, nullptr, nullptr); }
void nga_abs_value_(const Int* g_a) { unary("nga_abs_value", Unary::Abs, *g_a, nullptr, nullptr, nullptr); }
void ga_recip_(const Int* g_a) { unary("ga_recip", Unary::Recip, *g_a, nullptr, nullptr, nullptr); }
void ga_add_constant_(const Int* g_a, void* alpha) {
  unary("ga_add_constant", Unary::AddConstant, *g_a, nullptr, nullptr, alpha);
}
void nga_add_constant_(const Int* g_a, void* alpha) {
  unary("nga_add_constant", Unary::AddConstant, *g_a, nullptr, nullptr, alpha);
}
void ga_abs_value_patch_(const Int* g_a, const Int* lo, const Int* hi) {
  unary("ga_abs_value_patch", Unary::Abs, *g_a, lo, hi, nullptr);
}
void nga_abs_value_patch_(const Int* g_a, const Int* lo, const Int* hi) {
  unary("nga_abs_value_patch", Unary::Abs, *g_a, lo, hi, nullptr);
}
void ga_recip_patch_(const Int* g_a, const Int* lo, const Int* hi) {
  unary("ga_recip_patch", Unary::Recip, *g_a, lo, hi, nullptr);
}
void nga_recip_patch_(const Int* g_a, const Int* lo, const Int* hi) {
  unary("nga_recip_patch", Unary::Recip, *g_a, lo, hi, nullptr);
}
void ga_add_constant_patch_(const Int* g_a, const Int* lo, const Int* hi, void* alpha) {
  unary("ga_add_constant_patch", Unary::AddConstant, *g_a, lo, hi, alpha);
}
void nga_add_constant_patch_(const Int* g_a, const Int* lo, const Int* hi, void* alpha) {
  unary("nga_add_constant_patch", Unary::AddConstant, *g_a, lo, hi, alpha);
}

// ga_elem_<op>(g_a, g_b, g_c), ga_elem_<op>_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi)
// and the nga_ spellings of both.
#define ARMADA_GAF_ELEM(name, C)                                                                           \
  void ga_elem_##name##_(const Int* g_a, const Int* g_b, const Int* g_c) {                                 \
    binary("ga_elem_" #name, GA_Elem_##C, GA_Elem_##C##_patch64, *g_a, nullptr, nullptr, *g_b, nullptr, nullptr, \
           *g_c, nullptr, nullptr);                                                                        \
  }                                                                                                        \
  void nga_elem_##name##_(const Int* g_a, const Int* g_b, const Int* g_c) {                                \
    binary("nga_elem_" #name, GA_Elem_##C, GA_Elem_##C##_patch64, *g_a, nullptr, nullptr, *g_b, nullptr,   \
           nullptr, *g_c, nullptr, nullptr);                                                               \
  }                                                                                                        \
  void ga_elem_##name##_patch_(const Int* g_a, const Int* alo, const Int* ahi, const Int* g_b, const Int* blo, \
                               const Int* bhi, const Int* g_c, const Int* clo, const Int* chi) {           \
    binary("ga_elem_" #name "_patch", GA_Elem_##C, GA_Elem_##C##_patch64, *g_a, alo, ahi, *g_b, blo, bhi, *g_c, \
           clo, chi);                                                                                      \
  }                                                                                                        \
  void nga_elem_##name##_patch_(const Int* g_a, const Int* alo, const Int* ahi, const Int* g_b, const Int* blo, \
                                const Int* bhi, const Int* g_c, const Int* clo, const Int* chi) {          \
    binary("nga_elem_" #name "_patch", GA_Elem_##C, GA_Elem_##C##_patch64, *g_a, alo, ahi, *g_b, blo, bhi, \
           *g_c, clo, chi);                                                                                \
  }
ARMADA_GAF_ELEM(multiply, multiply)
ARMADA_GAF_ELEM(divide, divide)
ARMADA_GAF_ELEM(maximum, maximum)
ARMADA_GAF_ELEM(minimum, minimum)
#undef ARMADA_GAF_ELEM

}  // extern "C"
