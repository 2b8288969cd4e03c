// GA_Initialize .. GA_Terminate, processes and nodes, process groups, and the collectives on
// plain buffers (gop, broadcast).
#include <cstring>
#include <span>
#include <string_view>

#include <mpi.h>

#include "armada/rma/collectives.hpp"
#include "armada/rma/runtime.hpp"
#include "armada/rma/sync.hpp"
#include "ga-mpi.h"
#include "internal.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

bool g_started_runtime = false;  // GA_Initialize started rma (and finalizes it at GA_Terminate)
bool g_initialized = false;
int g_self_pgroup = world_pgroup;  // GA_Pgroup_self's group, made by GA_Initialize

void require_init(const char* function) {
  if (!g_initialized) throw rma::StateError(function, rma::error_message(function, "GA_Initialize has not been called"));
}

void initialize(const char* function, int* argc, char*** argv) {
  if (g_initialized) throw rma::StateError(function, rma::error_message(function, "GA is initialized already"));
  if (!rma::initialized()) {
    rma::init(argc, argv);
    g_started_runtime = true;
  }
  // Every process's group of itself alone, made together (GA_Pgroup_self is called alone).
  const int me = rma::Group::world().rank();
  g_self_pgroup = add_group(rma::Group::create(rma::Group::world(), std::span<const int>(&me, 1)));
  g_initialized = true;
}

/// GA's gop operators (GA accepts "+", "*", "max", "min", "absmax", "absmin").
rma::ReduceOp reduce_op(const char* function, const char* op) {
  if (!op) bad_argument(function, "op", "NULL", "an operator is required");
  const std::string_view o(op);
  if (o == "+" || o == "sum") return rma::ReduceOp::Sum;
  if (o == "*" || o == "prod" || o == "mult") return rma::ReduceOp::Prod;
  if (o == "max") return rma::ReduceOp::Max;
  if (o == "min") return rma::ReduceOp::Min;
  if (o == "absmax") return rma::ReduceOp::AbsMax;
  if (o == "absmin") return rma::ReduceOp::AbsMin;
  bad_argument(function, "op", "\"" + std::string(o) + "\"", "not one of +, *, max, min, absmax, absmin");
}

/// Reduces n elements of x over the group; a complex element is `parts` = 2 values of T, each
/// reduced on its own (as GA's gop of C_SCPL and C_DCPL).
template <class T>
void gop(const char* function, int pgroup, T* x, int n, const char* op, int parts = 1) {
  guarded(function, [&] {
    require_init(function);
    const rma::ReduceOp r = reduce_op(function, op);
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
    require_init(function);
    const rma::Group g = group(function, pgroup);
    if (lenbuf < 0) bad_argument(function, "lenbuf", std::to_string(lenbuf), "must be >= 0");
    if (lenbuf > 0 && !buf) bad_argument(function, "buf", "NULL", "a buffer of lenbuf bytes is required");
    if (root < 0 || root >= g.size())
      bad_argument(function, "root", std::to_string(root),
                   "not a process of the group (size " + std::to_string(g.size()) + ")");
    rma::broadcast(buf, static_cast<std::size_t>(lenbuf), root, g);
  });
}

void group_sync(const rma::Group& g) {
  rma::fence_all();
  if (g == rma::Group::world()) {
    arrays::sync();
    return;
  }
  if (g.is_member()) rma::agree_on("rma::barrier", nullptr, g);  // tells a member in another call
}

}  // namespace

namespace armada::ga {
void require_initialized(const char* function) { require_init(function); }
}  // namespace armada::ga

extern "C" {

void GA_Initialize(void) {
  guarded("GA_Initialize", [] { initialize("GA_Initialize", nullptr, nullptr); });
}
void GA_Initialize_args(int* argc, char*** argv) {
  guarded("GA_Initialize_args", [&] { initialize("GA_Initialize_args", argc, argv); });
}
int GA_Initialized(void) { return g_initialized ? 1 : 0; }
void GA_Terminate(void) {
  guarded("GA_Terminate", [] {
    require_init("GA_Terminate");
    rma::fence_all();
    arrays::sync();
    destroy_all();
    g_initialized = false;
    if (g_started_runtime) rma::finalize();
    g_started_runtime = false;
  });
}

int GA_Nodeid(void) {
  return guarded("GA_Nodeid", [] {
    require_init("GA_Nodeid");
    return default_group().rank();
  });
}
int GA_Nnodes(void) {
  return guarded("GA_Nnodes", [] {
    require_init("GA_Nnodes");
    return default_group().size();
  });
}

void GA_Error(char* str, int code) {
  std::string message = rma::message_prefix() + "GA_Error called by the program: " + std::string(str ? str : "(null)") + " (code " +
             std::to_string(code) + ")";
  abort_job(message, code);
}

void GA_Sync(void) {
  guarded("GA_Sync", [] {
    require_init("GA_Sync");
    group_sync(default_group());
  });
}
void GA_Fence(void) {
  guarded("GA_Fence", [] { rma::fence_all(); });
}
void GA_Init_fence(void) {}  // every GA_Fence completes all of this rank's operations

int GA_Uses_ma(void) { return 0; }
int GA_Cluster_nnodes(void) {
  return guarded("GA_Cluster_nnodes", [] { return rma::node_count(); });
}
int GA_Cluster_nodeid(void) {
  return guarded("GA_Cluster_nodeid", [] { return rma::node_of(rma::rank()); });
}
// A negative node is the caller's own, as GA's armci_domain_nprocs (ARMCI: "value < 0 means my
// node") takes it; GA's test.F asks ga_cluster_nprocs(-1).
int GA_Cluster_nprocs(int node) {
  return guarded("GA_Cluster_nprocs", [&] {
    if (node < 0) node = rma::node_of(rma::rank());
    if (node >= rma::node_count())
      bad_argument("GA_Cluster_nprocs", "node", std::to_string(node),
                   "not a node (0 .. " + std::to_string(rma::node_count() - 1) + ")");
    return static_cast<int>(rma::node_ranks(node).size());
  });
}
int GA_Cluster_procid(int node, int loc_proc) {
  return guarded("GA_Cluster_procid", [&] {
    const int n = GA_Cluster_nprocs(node);
    if (loc_proc < 0 || loc_proc >= n)
      bad_argument("GA_Cluster_procid", "loc_proc", std::to_string(loc_proc),
                   "not a process of node " + std::to_string(node) + " (it has " + std::to_string(n) + ")");
    return rma::node_ranks(node)[static_cast<std::size_t>(loc_proc)];
  });
}

int GA_Cluster_proc_nodeid(int proc) {
  return guarded("GA_Cluster_proc_nodeid", [&] {
    if (proc < 0 || proc >= rma::size())
      bad_argument("GA_Cluster_proc_nodeid", "proc", std::to_string(proc),
                   "not a process (0 .. " + std::to_string(rma::size() - 1) + ")");
    return rma::node_of(proc);
  });
}
// GA's list of process ids (GA_Set_proclist's permutation, which Armada does not have: list[i] = i).
void GA_List_nodeid(int* list, int nprocs) {
  guarded("GA_List_nodeid", [&] {
    if (nprocs < 0 || nprocs > rma::size())
      bad_argument("GA_List_nodeid", "nprocs", std::to_string(nprocs),
                   "must be in 0 .. the number of processes (" + std::to_string(rma::size()) + ")");
    if (nprocs > 0 && !list) bad_argument("GA_List_nodeid", "list", "NULL", "room for nprocs ids is required");
    for (int i = 0; i < nprocs; ++i) list[i] = i;
  });
}
void NGA_List_nodeid(int* list, int nprocs) { GA_List_nodeid(list, nprocs); }

// ---- process groups ---------------------------------------------------------------------------

int GA_Pgroup_create(int* list, int count) {
  return guarded("GA_Pgroup_create", [&] {
    require_init("GA_Pgroup_create");
    if (count < 0) bad_argument("GA_Pgroup_create", "count", std::to_string(count), "must be >= 0");
    if (count > 0 && !list) bad_argument("GA_Pgroup_create", "list", "NULL", "count process ids are required");
    std::vector<int> ranks(list, list + count);
    return add_group(rma::Group::create(default_group(), ranks));
  });
}
int GA_Pgroup_destroy(int grp) {
  return guarded("GA_Pgroup_destroy", [&] {
    forget_group("GA_Pgroup_destroy", grp);
    return 1;
  });
}
int GA_Pgroup_get_default(void) { return default_pgroup(); }
void GA_Pgroup_set_default(int grp) {
  guarded("GA_Pgroup_set_default", [&] {
    const rma::Group g = group("GA_Pgroup_set_default", grp);
    if (!g.is_member())
      bad_argument("GA_Pgroup_set_default", "p_handle", std::to_string(grp), "this process is not a member");
    set_default_pgroup(grp);
  });
}
int GA_Pgroup_get_world(void) { return world_pgroup; }
int GA_Pgroup_self(void) {
  return guarded("GA_Pgroup_self", [] {
    require_init("GA_Pgroup_self");
    return g_self_pgroup;
  });
}
int NGA_Pgroup_self(void) { return GA_Pgroup_self(); }
// GA's GA_Uses_fapi says whether the C API was built for Fortran array ordering (GA's USE_FAPI
// compile flag: C calls taking one-based, column-major indices), not whether the Fortran API
// exists; GA builds without it and returns 0, and GA's C test programs stop when it is 1.
// Armada's C API is always the C (zero-based, row-major) view.
int GA_Uses_fapi(void) { return 0; }
int GA_Pgroup_nodeid(int grp) {
  return guarded("GA_Pgroup_nodeid", [&] { return group("GA_Pgroup_nodeid", grp).rank(); });
}
int GA_Pgroup_nnodes(int grp) {
  return guarded("GA_Pgroup_nnodes", [&] { return group("GA_Pgroup_nnodes", grp).size(); });
}
void GA_Pgroup_sync(int grp) {
  guarded("GA_Pgroup_sync", [&] { group_sync(group("GA_Pgroup_sync", grp)); });
}
int GA_Pgroup_split(int grp, int num_group) {
  return guarded("GA_Pgroup_split", [&] {
    const rma::Group parent = group("GA_Pgroup_split", grp);
    const int n = parent.size();
    if (num_group < 1 || num_group > n)
      bad_argument("GA_Pgroup_split", "num_group", std::to_string(num_group),
                   "must be 1 .. the group's size (" + std::to_string(n) + ")");
    // GA's split: num_group groups of consecutive ranks, the first n % num_group one larger.
    const int me = parent.rank(), base = n / num_group, extra = n % num_group;
    std::vector<int> mine;
    for (int g = 0, first = 0; g < num_group; ++g) {
      const int size = base + (g < extra ? 1 : 0);
      if (me >= first && me < first + size)
        for (int r = first; r < first + size; ++r) mine.push_back(r);
      first += size;
    }
    return add_group(rma::Group::create(parent, mine));
  });
}
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

// The world rank of process `pid` of group `grp`.
int GA_Pgroup_absolute_id(int grp, int pid) {
  return guarded("GA_Pgroup_absolute_id", [&] {
    const rma::Group g = group("GA_Pgroup_absolute_id", grp);
    if (pid < 0 || pid >= g.size())
      bad_argument("GA_Pgroup_absolute_id", "pid", std::to_string(pid),
                   "not a process of the group (size " + std::to_string(g.size()) + ")");
    return g.world_rank(pid);
  });
}
// A new group of the same processes, in the same order. Collective over grp.
int GA_Pgroup_duplicate(int grp) {
  return guarded("GA_Pgroup_duplicate", [&] {
    const rma::Group parent = group("GA_Pgroup_duplicate", grp);
    if (!parent.is_member())
      bad_argument("GA_Pgroup_duplicate", "p_handle", std::to_string(grp), "this process is not a member");
    std::vector<int> all(static_cast<std::size_t>(parent.size()));
    for (int r = 0; r < parent.size(); ++r) all[static_cast<std::size_t>(r)] = r;
    return add_group(rma::Group::create(parent, all));
  });
}
// The processes of grp that pass the same color form a group, in their order in grp (as
// MPI_Comm_split with key 0); each process gets its own group's handle. Collective over grp.
int GA_Pgroup_split_irreg(int grp, int color) {
  return guarded("GA_Pgroup_split_irreg", [&] {
    const rma::Group parent = group("GA_Pgroup_split_irreg", grp);
    if (!parent.is_member())
      bad_argument("GA_Pgroup_split_irreg", "grp_id", std::to_string(grp), "this process is not a member");
    if (color < 0) bad_argument("GA_Pgroup_split_irreg", "color", std::to_string(color), "must be >= 0");
    std::vector<int> colors(static_cast<std::size_t>(parent.size()));
    MPI_Allgather(&color, 1, MPI_INT, colors.data(), 1, MPI_INT, parent.comm());
    std::vector<int> mine;
    for (int r = 0; r < parent.size(); ++r)
      if (colors[static_cast<std::size_t>(r)] == color) mine.push_back(r);
    return add_group(rma::Group::create(parent, mine));
  });
}
int NGA_Pgroup_absolute_id(int grp, int pid) { return GA_Pgroup_absolute_id(grp, pid); }
int NGA_Pgroup_duplicate(int grp) { return GA_Pgroup_duplicate(grp); }
int NGA_Pgroup_split_irreg(int grp, int color) { return GA_Pgroup_split_irreg(grp, color); }

void GA_Dgop(double x[], int n, char* op) { gop("GA_Dgop", default_pgroup(), x, n, op); }
void GA_Fgop(float x[], int n, char* op) { gop("GA_Fgop", default_pgroup(), x, n, op); }
void GA_Igop(int x[], int n, char* op) { gop("GA_Igop", default_pgroup(), x, n, op); }
void GA_Lgop(long x[], int n, char* op) { gop("GA_Lgop", default_pgroup(), x, n, op); }
void GA_Brdcst(void* buf, int lenbuf, int root) { brdcst("GA_Brdcst", default_pgroup(), buf, lenbuf, root); }

MPI_Comm GA_MPI_Comm(void) {
  return guarded("GA_MPI_Comm", [] { return rma::world_comm(); });
}
MPI_Comm GA_MPI_Comm_pgroup(int pgroup) {
  return guarded("GA_MPI_Comm_pgroup", [&] {
    const rma::Group g = group("GA_MPI_Comm_pgroup", pgroup);
    return pgroup == world_pgroup ? rma::world_comm() : g.comm();
  });
}
MPI_Comm GA_MPI_Comm_pgroup_default(void) { return GA_MPI_Comm_pgroup(default_pgroup()); }

// NGA_ spellings.
void NGA_Initialize(void) { GA_Initialize(); }
void NGA_Terminate(void) { GA_Terminate(); }
int NGA_Nodeid(void) { return GA_Nodeid(); }
int NGA_Nnodes(void) { return GA_Nnodes(); }
void NGA_Sync(void) { GA_Sync(); }
void NGA_Dgop(double x[], int n, char* op) { GA_Dgop(x, n, op); }
void NGA_Igop(int x[], int n, char* op) { GA_Igop(x, n, op); }
void NGA_Error(char* str, int code) { GA_Error(str, code); }
int NGA_Pgroup_create(int* list, int count) { return GA_Pgroup_create(list, count); }
int NGA_Pgroup_get_default(void) { return GA_Pgroup_get_default(); }
void NGA_Pgroup_set_default(int p_handle) { GA_Pgroup_set_default(p_handle); }
int NGA_Pgroup_destroy(int grp) { return GA_Pgroup_destroy(grp); }
int NGA_Pgroup_get_world(void) { return GA_Pgroup_get_world(); }
int NGA_Pgroup_nodeid(int grp) { return GA_Pgroup_nodeid(grp); }
int NGA_Pgroup_nnodes(int grp) { return GA_Pgroup_nnodes(grp); }
void NGA_Pgroup_sync(int grp) { GA_Pgroup_sync(grp); }
int NGA_Pgroup_split(int grp, int num_group) { return GA_Pgroup_split(grp, num_group); }
void NGA_Pgroup_dgop(int grp, double x[], int n, char* op) { gop("NGA_Pgroup_dgop", grp, x, n, op); }
void NGA_Pgroup_fgop(int grp, float x[], int n, char* op) { gop("NGA_Pgroup_fgop", grp, x, n, op); }
void NGA_Pgroup_igop(int grp, int x[], int n, char* op) { gop("NGA_Pgroup_igop", grp, x, n, op); }
void NGA_Pgroup_lgop(int grp, long x[], int n, char* op) { gop("NGA_Pgroup_lgop", grp, x, n, op); }
int NGA_Initialized(void) { return GA_Initialized(); }
void NGA_Fence(void) { GA_Fence(); }
void NGA_Init_fence(void) { GA_Init_fence(); }
int NGA_Uses_ma(void) { return GA_Uses_ma(); }

}  // extern "C"
