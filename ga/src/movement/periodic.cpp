// GA's periodic patch operations (NGA_Periodic_get/put/acc): a patch whose indices may lie outside
// the array, wrapping around it in every dimension.
#include <cstdint>

#include "armada/arrays/arrays.hpp"
#include "base/call.hpp"
#include "base/index.hpp"
#include "create/handles.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

enum class Kind { Get, Put, Acc };

template <class I>
void periodic(const char* function, Kind kind, int g_a, const I* lo, const I* hi, void* buf, const I* ld,
              const void* alpha) {
  guarded(function, [&] {
    if (!lo || !hi) bad_argument(function, lo ? "hi" : "lo", "NULL", "an index tuple is required");
    if (!buf) bad_argument(function, "buf", "NULL", "a buffer for the patch is required");
    if (kind == Kind::Acc && !alpha) bad_argument(function, "alpha", "NULL", "a scale factor is required");
    Array& a = any_array(function, g_a);
    // lo may lie outside the array (it wraps); arrays checks the extents.
    const Coord l = coord(a.ndim(), lo), h = upper(a.ndim(), hi), b = leading(function, a, ld);
    switch (kind) {
      case Kind::Get: a.periodic_get(l, h, buf, b); break;
      case Kind::Put: a.periodic_put(l, h, buf, b); break;
      case Kind::Acc: a.periodic_acc(l, h, buf, alpha, b); break;
    }
  });
}

}  // namespace

extern "C" {

// NGA_Periodic_get, NGA_Periodic_put and NGA_Periodic_acc for index type I, each name ending in
// `s` (nothing for int, 64 for int64_t).
#define ARMADA_GA_PERIODIC(I, s)                                                       \
  void NGA_Periodic_get##s(int g_a, I lo[], I hi[], void* buf, I ld[]) {               \
    periodic("NGA_Periodic_get" #s, Kind::Get, g_a, lo, hi, buf, ld, nullptr);         \
  }                                                                                    \
  void NGA_Periodic_put##s(int g_a, I lo[], I hi[], void* buf, I ld[]) {               \
    periodic("NGA_Periodic_put" #s, Kind::Put, g_a, lo, hi, buf, ld, nullptr);         \
  }                                                                                    \
  void NGA_Periodic_acc##s(int g_a, I lo[], I hi[], void* buf, I ld[], void* alpha) {  \
    periodic("NGA_Periodic_acc" #s, Kind::Acc, g_a, lo, hi, buf, ld, alpha);           \
  }
ARMADA_GA_PERIODIC(int, )
ARMADA_GA_PERIODIC(int64_t, 64)
#undef ARMADA_GA_PERIODIC

}  // extern "C"
