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

void NGA_Periodic_get(int g_a, int lo[], int hi[], void* buf, int ld[]) {
  periodic("NGA_Periodic_get", Kind::Get, g_a, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_put(int g_a, int lo[], int hi[], void* buf, int ld[]) {
  periodic("NGA_Periodic_put", Kind::Put, g_a, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_acc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha) {
  periodic("NGA_Periodic_acc", Kind::Acc, g_a, lo, hi, buf, ld, alpha);
}
void NGA_Periodic_get64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]) {
  periodic("NGA_Periodic_get64", Kind::Get, g_a, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_put64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]) {
  periodic("NGA_Periodic_put64", Kind::Put, g_a, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_acc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha) {
  periodic("NGA_Periodic_acc64", Kind::Acc, g_a, lo, hi, buf, ld, alpha);
}

}  // extern "C"
