// The message layer (armci_msg_*): two-sided messages, barriers, broadcasts, reductions (gop),
// selections (sel) and address exchange over ARMCI's group communicators; reductions use the
// core's allreduce. Scopes follow the one-process SMP domains of topology.cpp: SCOPE_NODE is the
// caller alone, SCOPE_ALL and SCOPE_MASTERS are every process of the group.
#include <cstddef>
#include <cstring>
#include <list>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "internal.hpp"

namespace armada::armci {

namespace {

/// Whether a scope involves other processes (SCOPE_NODE does not).
bool spans_group(const char* fn, int scope) {
  switch (scope) {
    case SCOPE_ALL:
    case SCOPE_MASTERS: return true;
    case SCOPE_NODE: return false;
  }
  bad_argument(fn, "scope", std::to_string(scope), "not an armci_scope_e (SCOPE_ALL, SCOPE_NODE, SCOPE_MASTERS)");
}

GroupInfo group_or_world(const char* fn, const ARMCI_Group* group) {
  return group ? group_of(fn, "group", group) : world_group(fn);
}

/// Opens a collective of the message layer: this member's `checks` run inside an agreement of
/// the group that also carries the call (`fn`) and the arguments every member must pass alike
/// (`same`). A bad argument on one member, members in different calls, or another root or count
/// then fail every member by name before the MPI collective, instead of leaving the others in it
/// (or in MPI_ERR_TRUNCATE). Returns the group for the MPI call.
template <class F>
GroupInfo open_collective(const char* fn, const ARMCI_Group* group, F&& checks, const rma::MustMatch& same = {}) {
  const GroupInfo info = group_or_world(fn, group);
  rma::agree(fn, std::forward<F>(checks), info.group, same);
  return info;
}

/// The operator's leading characters for a message: at most 16, up to a NUL. A Fortran
/// caller's string has no NUL and other literals follow it, so this may show some of them.
std::string op_text(const char* op) {
  std::string text;
  for (int i = 0; i < 16 && op[i] != '\0'; ++i) text += op[i];
  return "\"" + text + "\"";
}

/// Whether `op` starts with `name`, reading no character after the first mismatch.
bool starts_with(const char* op, std::string_view name) {
  for (std::size_t i = 0; i < name.size(); ++i)
    if (op[i] != name[i]) return false;
  return true;
}

/// The reduction `op` names (rma::reduce_op_named: ARMCI's names, matched by prefix).
rma::ReduceOp reduce_op(const char* fn, const char* op) {
  not_null(fn, "op", op);
  if (const rma::ReduceOp* r = rma::reduce_op_named(op)) return *r;
  bad_argument(fn, "op", op_text(op), std::string("not a reduction (") + rma::kReduceOpNames + ")");
}

/// |x| without overflow for the most negative integer (it stays as it is, like two's complement).
template <class T>
T magnitude(T x) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return x < 0 ? static_cast<T>(U(0) - static_cast<U>(x)) : x;
  } else {
    return x < 0 ? -x : x;
  }
}

/// Logical reductions give 0 or 1 whatever the inputs and the number of processes (MPI leaves
/// a single process's value as it is).
template <class T>
void normalize_logical(std::span<T> data, rma::ReduceOp op) {
  if constexpr (std::is_integral_v<T>) {
    if (op == rma::ReduceOp::LogicalOr || op == rma::ReduceOp::LogicalAnd)
      for (T& x : data) x = x != 0;
  }
}

/// A reduction of one process: absmax/absmin take |x|, logical ops give 0 or 1.
template <class T>
void reduce_alone(std::span<T> data, rma::ReduceOp op) {
  if (op == rma::ReduceOp::AbsMax || op == rma::ReduceOp::AbsMin)
    for (T& x : data) x = magnitude(x);
  normalize_logical(data, op);
}

template <class T>
void gop(const char* fn, int scope, T* x, int n, const char* op, const ARMCI_Group* group) {
  rma::ReduceOp rop{};
  const auto checks = [&] {
    rop = reduce_op(fn, op);
    if (std::is_floating_point_v<T> && rma::integer_only(rop))
      bad_argument(fn, "op", op_text(op), "bitwise and logical reductions need an integer type");
    if (to_size(fn, "n", n)) not_null(fn, "x", x);
    spans_group(fn, scope);
  };
  if (scope == SCOPE_NODE) {  // this process alone: nobody waits for it
    checks();
    require_init(fn);
    return reduce_alone(std::span<T>(x, static_cast<std::size_t>(n)), rop);
  }
  const GroupInfo info = open_collective(fn, group, checks, {{"n", std::to_string(n)}, {"scope", std::to_string(scope)}});
  rma::allreduce(std::span<T>(x, static_cast<std::size_t>(n)), rop, info.group);
}

/// The typed gop of an armci_type_e.
void gop_typed(const char* fn, int scope, void* x, int n, const char* op, int type, const ARMCI_Group* group) {
  switch (type) {
    case ARMCI_INT: return gop(fn, scope, static_cast<int*>(x), n, op, group);
    case ARMCI_LONG: return gop(fn, scope, static_cast<long*>(x), n, op, group);
    case ARMCI_LONG_LONG: return gop(fn, scope, static_cast<long long*>(x), n, op, group);
    case ARMCI_FLOAT: return gop(fn, scope, static_cast<float*>(x), n, op, group);
    case ARMCI_DOUBLE: return gop(fn, scope, static_cast<double*>(x), n, op, group);
  }
  // Not a type: every member of the call fails with this member's error.
  const auto bad_type = [&] {
    bad_argument(fn, "type", std::to_string(type),
                 "not an armci_type_e (ARMCI_INT, ARMCI_LONG, ARMCI_LONG_LONG, ARMCI_FLOAT, ARMCI_DOUBLE)");
  };
  if (scope == SCOPE_NODE) bad_type();
  open_collective(fn, group, bad_type);
}

/// The size of an element of armci_type_e `type`, 0 if it is none.
std::size_t known_type_size(int type) {
  switch (type) {
    case ARMCI_INT: return sizeof(int);
    case ARMCI_LONG: return sizeof(long);
    case ARMCI_LONG_LONG: return sizeof(long long);
    case ARMCI_FLOAT: return sizeof(float);
    case ARMCI_DOUBLE: return sizeof(double);
  }
  return 0;
}

std::size_t type_size(const char* fn, int type) {
  if (const std::size_t size = known_type_size(type)) return size;
  bad_argument(fn, "type", std::to_string(type),
               "not an armci_type_e (ARMCI_INT, ARMCI_LONG, ARMCI_LONG_LONG, ARMCI_FLOAT, ARMCI_DOUBLE)");
}

/// a < b for values of armci_type_e `type` stored at the start of two records.
bool less(int type, const unsigned char* a, const unsigned char* b) {
  auto cmp = [&]<class T>(T) {
    T x, y;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&y, b, sizeof y);
    return x < y;
  };
  switch (type) {
    case ARMCI_INT: return cmp(int{});
    case ARMCI_LONG: return cmp(long{});
    case ARMCI_LONG_LONG: return cmp(0LL);
    case ARMCI_FLOAT: return cmp(0.0f);
    default: return cmp(0.0);
  }
}

/// armci_msg_sel: x holds n bytes whose first element (of `type`) is compared; every process
/// gets the whole record of the contributing process with the least ("min") or greatest ("max")
/// value, the lowest rank on ties. Records are gathered and chosen identically everywhere.
void select(const char* fn, int scope, void* x, int n, const char* op, int type, int contribute) {
  bool want_min = false;
  const auto checks = [&] {
    not_null(fn, "op", op);
    want_min = starts_with(op, "min");  // by prefix, as reduce_op (Fortran strings)
    if (!want_min && !starts_with(op, "max")) bad_argument(fn, "op", op_text(op), "not \"min\" or \"max\"");
    if (to_size(fn, "n", n) < type_size(fn, type))
      bad_argument(fn, "n", std::to_string(n), "shorter than one element of the type (" + std::to_string(type_size(fn, type)) + " bytes)");
    not_null(fn, "x", x);
    spans_group(fn, scope);
  };
  if (scope == SCOPE_NODE) {  // this process alone: its record is the answer
    checks();
    return require_init(fn);
  }
  const std::size_t bytes = static_cast<std::size_t>(n);
  const GroupInfo world = open_collective(fn, nullptr, checks,
                                          {{"n", std::to_string(n)}, {"type", std::to_string(type)}, {"scope", std::to_string(scope)}});
  const std::size_t record = bytes + 1;  // contribute flag, then the caller's bytes
  std::vector<unsigned char> mine(record), all(record * static_cast<std::size_t>(world.group.size()));
  mine[0] = contribute ? 1 : 0;
  std::memcpy(mine.data() + 1, x, bytes);
  rma::allgather_serving(mine.data(), record, all.data(), world.group, fn);
  const unsigned char* best = nullptr;
  for (std::size_t r = 0; r < static_cast<std::size_t>(world.group.size()); ++r) {
    const unsigned char* rec = all.data() + r * record;
    if (!rec[0]) continue;
    if (!best || (want_min ? less(type, rec + 1, best + 1) : less(type, best + 1, rec + 1))) best = rec;
  }
  if (best) std::memcpy(x, best + 1, bytes);
}

/// Broadcast of `len` bytes from world rank `root` over the group (SCOPE_NODE: nothing to do).
void bcast(const char* fn, int scope, void* buffer, int len, int root, const ARMCI_Group* group) {
  const auto checks = [&] {
    if (to_size(fn, "len", len)) not_null(fn, "buffer", buffer);
    check_proc(fn, "root", root);
    spans_group(fn, scope);
  };
  if (scope == SCOPE_NODE) return checks();
  int group_root = -1;
  const GroupInfo info = open_collective(fn, group, [&] {
    checks();
    group_root = group_or_world(fn, group).group.group_rank(root);
    if (group_root < 0) bad_argument(fn, "root", std::to_string(root), "not a member of the group");
  }, {{"len", std::to_string(len)}, {"root", std::to_string(root)}, {"scope", std::to_string(scope)}});
  MPI_Request request;
  check_mpi(fn, "MPI_Ibcast", MPI_Ibcast(buffer, len, MPI_BYTE, group_root, info.comm, &request));
  rma::wait_serving(request, fn);
}

/// Every member sets ptrs[its group rank]; afterwards every entry is filled.
void exchange(const char* fn, void** ptrs, int n, const ARMCI_Group* group) {
  const GroupInfo info = open_collective(fn, group, [&] {
    const int size = group_or_world(fn, group).group.size();
    if (n != size) bad_argument(fn, "n", std::to_string(n), "must be the number of processes (" + std::to_string(size) + ")");
    not_null(fn, "ptr_ar", ptrs);
  });
  void* mine = ptrs[info.group.rank()];
  rma::allgather_serving(&mine, sizeof mine, ptrs, info.group, fn);
}

void barrier(const char* fn, const ARMCI_Group* group) {
  open_collective(fn, group, [] {});  // the agreement is the barrier, and it names the call
}

/// armci_msg_reduce: the reduction lands on world rank 0 only (as in the original ARMCI).
void reduce_to_root(const char* fn, int scope, void* x, int n, const char* op, int type) {
  require_init(fn);
  // Reduced in a copy; a bad n, x or type is found by gop_typed, in the agreement.
  const std::size_t bytes = n > 0 && x ? static_cast<std::size_t>(n) * known_type_size(type) : 0;
  const auto* begin = static_cast<const unsigned char*>(x);
  std::vector<unsigned char> result(begin, begin + bytes);
  gop_typed(fn, scope, bytes ? result.data() : x, n, op, type, nullptr);
  if (bytes && (scope == SCOPE_NODE || rma::rank() == 0)) std::memcpy(x, result.data(), bytes);
}

}  // namespace
}  // namespace armada::armci

using namespace armada::armci;

// ---- utilities -------------------------------------------------------------------------------
int armci_msg_me(void) {
  return guard_value("armci_msg_me", -1, [] {
    require_init("armci_msg_me");
    return rma::rank();
  });
}

int armci_msg_nproc(void) {
  return guard_value("armci_msg_nproc", -1, [] {
    require_init("armci_msg_nproc");
    return rma::size();
  });
}

double armci_timer(void) { return MPI_Wtime(); }

// ---- two-sided -------------------------------------------------------------------------------
namespace {

// A blocking send to oneself returns before the matching receive only if MPI buffers it, which
// MPI need not do (MPICH does not; the send then waits for ever). So a send to self copies the
// message and sends the copy without blocking; completed copies are reclaimed by later calls.
struct SelfSend {
  std::vector<std::byte> copy;
  MPI_Request request = MPI_REQUEST_NULL;
};
std::mutex g_self_mutex;
std::list<SelfSend> g_self_sends;

void reclaim_self_sends() {  // g_self_mutex held
  std::erase_if(g_self_sends, [](SelfSend& s) {
    int done = 0;
    MPI_Test(&s.request, &done, MPI_STATUS_IGNORE);
    return done != 0;
  });
}

void send_to_self(const char* fn, int tag, const void* buffer, int len, MPI_Comm comm, int me) {
  std::lock_guard lock(g_self_mutex);
  reclaim_self_sends();
  SelfSend& s = g_self_sends.emplace_back();
  s.copy.assign(static_cast<const std::byte*>(buffer), static_cast<const std::byte*>(buffer) + len);
  check_mpi(fn, "MPI_Isend", MPI_Isend(s.copy.data(), len, MPI_BYTE, me, tag, comm, &s.request));
}

}  // namespace

void armci_msg_snd(int tag, void* buffer, int len, int to) {
  constexpr const char* fn = "armci_msg_snd";
  guard_void(fn, [&] {
    check_proc(fn, "to", to);
    if (to_size(fn, "len", len)) not_null(fn, "buffer", buffer);
    const GroupInfo world = world_group(fn);
    int me = 0;
    MPI_Comm_rank(world.comm, &me);
    if (to == me)
      send_to_self(fn, tag, buffer, len, world.comm, me);
    else
      check_mpi(fn, "MPI_Send", MPI_Send(buffer, len, MPI_BYTE, to, tag, world.comm));
  });
}

namespace {
int receive(const char* fn, int tag, void* buffer, int buflen, int* msglen, int from) {
  if (to_size(fn, "buflen", buflen)) not_null(fn, "buffer", buffer);
  MPI_Status status;
  check_mpi(fn, "MPI_Recv", MPI_Recv(buffer, buflen, MPI_BYTE, from, tag, world_group(fn).comm, &status));
  if (msglen) MPI_Get_count(&status, MPI_BYTE, msglen);
  return status.MPI_SOURCE;
}
}  // namespace

void armci_msg_rcv(int tag, void* buffer, int buflen, int* msglen, int from) {
  constexpr const char* fn = "armci_msg_rcv";
  guard_void(fn, [&] {
    check_proc(fn, "from", from);
    receive(fn, tag, buffer, buflen, msglen, from);
  });
}

// Returns the sender's rank.
int armci_msg_rcvany(int tag, void* buffer, int buflen, int* msglen) {
  constexpr const char* fn = "armci_msg_rcvany";
  return guard_value(fn, -1, [&] {
    require_init(fn);
    return receive(fn, tag, buffer, buflen, msglen, MPI_ANY_SOURCE);
  });
}

// ---- barriers and trees ----------------------------------------------------------------------
// A message barrier only: no fence (ARMCI_Barrier fences).
void parmci_msg_barrier(void) { guard_void("armci_msg_barrier", [] { barrier("armci_msg_barrier", nullptr); }); }
ARMADA_WEAK_ALIAS(armci_msg_barrier, parmci_msg_barrier)

void parmci_msg_group_barrier(ARMCI_Group* group) {
  constexpr const char* fn = "armci_msg_group_barrier";
  guard_void(fn, [&] { barrier(fn, not_null(fn, "group", group)); });
}
ARMADA_WEAK_ALIAS(armci_msg_group_barrier, parmci_msg_group_barrier)

// A binary tree over the scope's processes rooted at 0 (-1: no such neighbour).
void armci_msg_bintree(int scope, int* root, int* up, int* left, int* right) {
  constexpr const char* fn = "armci_msg_bintree";
  guard_void(fn, [&] {
    require_init(fn);
    not_null(fn, "Root", root);
    not_null(fn, "Up", up);
    not_null(fn, "Left", left);
    not_null(fn, "Right", right);
    const int me = rma::rank();
    const int n = spans_group(fn, scope) ? rma::size() : 1;
    const int pos = spans_group(fn, scope) ? me : 0;
    *root = spans_group(fn, scope) ? 0 : me;
    *up = pos == 0 ? -1 : (pos - 1) / 2;
    *left = 2 * pos + 1 < n ? 2 * pos + 1 : -1;
    *right = 2 * pos + 2 < n ? 2 * pos + 2 : -1;
  });
}

// ---- broadcasts ------------------------------------------------------------------------------
void armci_msg_bcast(void* buffer, int len, int root) {
  guard_void("armci_msg_bcast", [&] { bcast("armci_msg_bcast", SCOPE_ALL, buffer, len, root, nullptr); });
}
void armci_msg_brdcst(void* buffer, int len, int root) {
  guard_void("armci_msg_brdcst", [&] { bcast("armci_msg_brdcst", SCOPE_ALL, buffer, len, root, nullptr); });
}
void armci_msg_bcast_scope(int scope, void* buffer, int len, int root) {
  guard_void("armci_msg_bcast_scope", [&] { bcast("armci_msg_bcast_scope", scope, buffer, len, root, nullptr); });
}
// `root` is a world rank (Global Arrays passes ARMCI_Absolute_id of its group root).
void armci_msg_group_bcast_scope(int scope, void* buf, int len, int root, ARMCI_Group* group) {
  constexpr const char* fn = "armci_msg_group_bcast_scope";
  guard_void(fn, [&] { bcast(fn, scope, buf, len, root, not_null(fn, "group", group)); });
}
// Within the caller's SMP domain (itself): nothing moves.
void armci_msg_clus_brdcst(void* buf, int len) {
  constexpr const char* fn = "armci_msg_clus_brdcst";
  guard_void(fn, [&] {
    require_init(fn);
    bcast(fn, SCOPE_NODE, buf, len, rma::rank(), nullptr);
  });
}
void armci_grp_clus_brdcst(void* buf, int len, int grp_master, int grp_clus_nproc, ARMCI_Group* mastergroup) {
  constexpr const char* fn = "armci_grp_clus_brdcst";
  guard_void(fn, [&] {
    group_of(fn, "mastergroup", mastergroup);
    if (grp_clus_nproc != 1)
      bad_argument(fn, "grp_clus_nproc", std::to_string(grp_clus_nproc), "an SMP domain has 1 process");
    bcast(fn, SCOPE_NODE, buf, len, grp_master, nullptr);
  });
}

// ---- reductions ------------------------------------------------------------------------------
void armci_msg_gop_scope(int scope, void* x, int n, char* op, int type) {
  constexpr const char* fn = "armci_msg_gop_scope";
  guard_void(fn, [&] { gop_typed(fn, scope, x, n, op, type, nullptr); });
}
void armci_msg_group_gop_scope(int scope, void* x, int n, char* op, int type, ARMCI_Group* group) {
  constexpr const char* fn = "armci_msg_group_gop_scope";
  guard_void(fn, [&] { gop_typed(fn, scope, x, n, op, type, not_null(fn, "group", group)); });
}

// The typed shorthands: world, group and SMP-domain ("clus") forms.
#define ARMADA_ARMCI_GOPS(letter, T)                                                              \
  void armci_msg_##letter##gop(T* x, int n, char* op) {                                          \
    guard_void("armci_msg_" #letter "gop", [&] { gop("armci_msg_" #letter "gop", SCOPE_ALL, x, n, op, nullptr); }); \
  }                                                                                               \
  void armci_msg_group_##letter##gop(T* x, int n, char* op, ARMCI_Group* group) {                 \
    constexpr const char* fn = "armci_msg_group_" #letter "gop";                                  \
    guard_void(fn, [&] { gop(fn, SCOPE_ALL, x, n, op, not_null(fn, "group", group)); });           \
  }                                                                                               \
  void armci_msg_clus_##letter##gop(T* x, int n, char* op) {                                     \
    guard_void("armci_msg_clus_" #letter "gop",                                                   \
               [&] { gop("armci_msg_clus_" #letter "gop", SCOPE_NODE, x, n, op, nullptr); });      \
  }
ARMADA_ARMCI_GOPS(i, int)
ARMADA_ARMCI_GOPS(l, long)
ARMADA_ARMCI_GOPS(ll, long long)
ARMADA_ARMCI_GOPS(f, float)
ARMADA_ARMCI_GOPS(d, double)
#undef ARMADA_ARMCI_GOPS

void armci_msg_reduce(void* x, int n, char* op, int type) {
  guard_void("armci_msg_reduce", [&] { reduce_to_root("armci_msg_reduce", SCOPE_ALL, x, n, op, type); });
}
void armci_msg_reduce_scope(int scope, void* x, int n, char* op, int type) {
  guard_void("armci_msg_reduce_scope", [&] { reduce_to_root("armci_msg_reduce_scope", scope, x, n, op, type); });
}

// ---- selection and address exchange ----------------------------------------------------------
void armci_msg_sel(void* x, int n, char* op, int type, int contribute) {
  guard_void("armci_msg_sel", [&] { select("armci_msg_sel", SCOPE_ALL, x, n, op, type, contribute); });
}
void armci_msg_sel_scope(int scope, void* x, int n, char* op, int type, int contribute) {
  guard_void("armci_msg_sel_scope", [&] { select("armci_msg_sel_scope", scope, x, n, op, type, contribute); });
}

void armci_exchange_address(void* ptr_ar[], int n) {
  guard_void("armci_exchange_address", [&] { exchange("armci_exchange_address", ptr_ar, n, nullptr); });
}
void armci_exchange_address_grp(void* ptr_arr[], int n, ARMCI_Group* group) {
  constexpr const char* fn = "armci_exchange_address_grp";
  guard_void(fn, [&] { exchange(fn, ptr_arr, n, not_null(fn, "group", group)); });
}
