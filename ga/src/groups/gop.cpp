// The collectives of GA's C API on plain buffers: GA's gops (GA_Dgop .. GA_Gop, their process
// group forms) and broadcasts, on rma's reductions over the group.
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "armada/rma/collectives.hpp"
#include "base/call.hpp"
#include "groups/groups.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

/// GA's gop operators: ARMCI's names (GA reduces with armci_msg_*gop), rma::reduce_op_named.
rma::ReduceOp reduce_op(const char* function, const char* op, bool integer) {
  if (!op) bad_argument(function, "op", "NULL", "an operator is required");
  const rma::ReduceOp* r = rma::reduce_op_named(op);
  if (!r) bad_argument(function, "op", "\"" + std::string(op) + "\"", std::string("not one of ") + rma::kReduceOpNames);
  if (rma::integer_only(*r) && !integer)
    bad_argument(function, "op", "\"" + std::string(op) + "\"", "bitwise and logical reductions need an integer type");
  return *r;
}

/// Reduces n elements of x over the group; a complex element is `parts` = 2 values of T, each
/// reduced on its own (as GA's gop of C_SCPL and C_DCPL).
template <class T>
void gop(const char* function, int pgroup, T* x, int n, const char* op, int parts = 1) {
  guarded(function, [&] {
    require_initialized(function);
    const rma::ReduceOp r = reduce_op(function, op, std::is_integral_v<T>);
    if (n < 0) bad_argument(function, "n", std::to_string(n), "must be >= 0");
    if (n > 0 && !x) bad_argument(function, "x", "NULL", "a buffer of n elements is required");
    rma::allreduce(std::span<T>(x, static_cast<std::size_t>(n) * static_cast<std::size_t>(parts)), r,
                   group(function, pgroup));
  });
}

/// GA_Gop: the gop of GA's C type `type`.
void typed_gop(const char* function, int pgroup, int type, void* x, int n, const char* op) {
  switch (type) {
    case C_INT: return gop(function, pgroup, static_cast<int*>(x), n, op);
    case C_LONG: return gop(function, pgroup, static_cast<long*>(x), n, op);
    case C_LONGLONG: return gop(function, pgroup, static_cast<long long*>(x), n, op);
    case C_FLOAT: return gop(function, pgroup, static_cast<float*>(x), n, op);
    case C_DBL: return gop(function, pgroup, static_cast<double*>(x), n, op);
    case C_SCPL: return gop(function, pgroup, static_cast<float*>(x), n, op, 2);
    case C_DCPL: return gop(function, pgroup, static_cast<double*>(x), n, op, 2);
  }
  guarded(function, [&] {
    bad_argument(function, "type", std::to_string(type),
                 "not a C type GA_Gop reduces (C_INT, C_LONG, C_LONGLONG, C_FLOAT, C_DBL, C_SCPL, C_DCPL)");
  });
}

void brdcst(const char* function, int pgroup, void* buf, int lenbuf, int root) {
  guarded(function, [&] {
    require_initialized(function);
    const rma::Group g = group(function, pgroup);
    if (lenbuf < 0) bad_argument(function, "lenbuf", std::to_string(lenbuf), "must be >= 0");
    if (lenbuf > 0 && !buf) bad_argument(function, "buf", "NULL", "a buffer of lenbuf bytes is required");
    if (root < 0 || root >= g.size())
      bad_argument(function, "root", std::to_string(root),
                   "not a process of the group (size " + std::to_string(g.size()) + ")");
    rma::broadcast(buf, static_cast<std::size_t>(lenbuf), root, g);
  });
}

}  // namespace

extern "C" {

void GA_Pgroup_dgop(int grp, double x[], int n, char* op) { gop("GA_Pgroup_dgop", grp, x, n, op); }
void GA_Pgroup_fgop(int grp, float x[], int n, char* op) { gop("GA_Pgroup_fgop", grp, x, n, op); }
void GA_Pgroup_igop(int grp, int x[], int n, char* op) { gop("GA_Pgroup_igop", grp, x, n, op); }
void GA_Pgroup_lgop(int grp, long x[], int n, char* op) { gop("GA_Pgroup_lgop", grp, x, n, op); }
void GA_Pgroup_brdcst(int grp, void* buf, int lenbuf, int root) {
  brdcst("GA_Pgroup_brdcst", grp, buf, lenbuf, root);
}

void GA_Pgroup_llgop(int grp, long long x[], int n, char* op) { gop("GA_Pgroup_llgop", grp, x, n, op); }
void GA_Pgroup_cgop(int grp, SingleComplex x[], int n, char* op) {
  gop("GA_Pgroup_cgop", grp, reinterpret_cast<float*>(x), n, op, 2);
}
void GA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char* op) {
  gop("GA_Pgroup_zgop", grp, reinterpret_cast<double*>(x), n, op, 2);
}
void NGA_Pgroup_llgop(int grp, long long x[], int n, char* op) { gop("NGA_Pgroup_llgop", grp, x, n, op); }
void NGA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char* op) {
  gop("NGA_Pgroup_zgop", grp, reinterpret_cast<double*>(x), n, op, 2);
}
void GA_Llgop(long long x[], int n, char* op) { gop("GA_Llgop", default_pgroup(), x, n, op); }
void GA_Cgop(SingleComplex x[], int n, char* op) {
  gop("GA_Cgop", default_pgroup(), reinterpret_cast<float*>(x), n, op, 2);
}
void GA_Zgop(DoubleComplex x[], int n, char* op) {
  gop("GA_Zgop", default_pgroup(), reinterpret_cast<double*>(x), n, op, 2);
}
void GA_Gop(int type, void* x, int n, char* op) { typed_gop("GA_Gop", default_pgroup(), type, x, n, op); }

void GA_Dgop(double x[], int n, char* op) { gop("GA_Dgop", default_pgroup(), x, n, op); }
void GA_Fgop(float x[], int n, char* op) { gop("GA_Fgop", default_pgroup(), x, n, op); }
void GA_Igop(int x[], int n, char* op) { gop("GA_Igop", default_pgroup(), x, n, op); }
void GA_Lgop(long x[], int n, char* op) { gop("GA_Lgop", default_pgroup(), x, n, op); }
void GA_Brdcst(void* buf, int lenbuf, int root) { brdcst("GA_Brdcst", default_pgroup(), buf, lenbuf, root); }

void NGA_Pgroup_dgop(int grp, double x[], int n, char* op) { gop("NGA_Pgroup_dgop", grp, x, n, op); }
void NGA_Pgroup_fgop(int grp, float x[], int n, char* op) { gop("NGA_Pgroup_fgop", grp, x, n, op); }
void NGA_Pgroup_igop(int grp, int x[], int n, char* op) { gop("NGA_Pgroup_igop", grp, x, n, op); }
void NGA_Pgroup_lgop(int grp, long x[], int n, char* op) { gop("NGA_Pgroup_lgop", grp, x, n, op); }
}  // extern "C"
