// The C API's runtime: start and stop, ranks and nodes, synchronization, process groups and
// mutex sets (the last two named by handles of tables kept here).
#include <cstdio>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <utility>

#include <mpi.h>

#include "armada/rma/rma.hpp"
#include "capi_internal.hpp"

namespace arrays = armada::arrays;
namespace capi = armada::arrays::capi;
namespace rma = armada::rma;
using capi::need;

namespace armada::arrays::capi {
namespace {

// Handle tables. Handles count up from 1 and are never reused within a run.
template <class T>
struct Table {
  std::mutex mutex;
  std::map<int, T> items;
  int next = 1;
  int add(T item) {
    std::lock_guard lock(mutex);
    const int id = next++;
    items.emplace(id, std::move(item));
    return id;
  }
  T find(int handle, const char* fn, const char* what) {
    std::lock_guard lock(mutex);
    const auto it = items.find(handle);
    if (it == items.end())
      throw BadHandle(fn, what, std::to_string(handle), std::string("no live ") + what + " has this handle");
    return it->second;
  }
  void erase(int handle) {
    std::lock_guard lock(mutex);
    items.erase(handle);
  }
};
Table<rma::Group>& groups() {
  static Table<rma::Group> t;
  return t;
}
Table<rma::MutexSet>& mutex_sets() {
  static Table<rma::MutexSet> t;
  return t;
}

// Whether armada_ga_initialize started the runtime (then armada_ga_finalize stops it).
bool g_initialize_called = false;
bool g_started_runtime = false;

void require_runtime(const char* fn) {
  if (!rma::initialized())
    throw rma::StateError(fn, std::string(fn) + ": the runtime is not running (call armada_ga_initialize first)");
}

}  // namespace

rma::Group group_of(int handle, const char* fn) {
  require_runtime(fn);
  if (handle == ARMADA_GA_GROUP_WORLD) return rma::Group::world();
  return groups().find(handle, fn, "group");
}

std::optional<rma::Group> group_waiting_in(int group) {
  if (!rma::initialized()) return std::nullopt;  // nobody is in a collective: the call fails alone
  try {
    const rma::Group g = group_of(group, "armada_ga");
    if (!g.is_member()) return std::nullopt;
    return g;
  } catch (const rma::Error&) {
    return rma::Group::world();  // an unknown handle: the call's own check reports it
  }
}

int group_handle(const rma::Group& g) {
  if (g == rma::Group::world()) return ARMADA_GA_GROUP_WORLD;
  auto& t = groups();
  {
    std::lock_guard lock(t.mutex);
    for (const auto& [id, known] : t.items)
      if (known == g) return id;
  }
  return t.add(g);
}

void forget_groups() {
  std::lock_guard lock(groups().mutex);
  groups().items.clear();
}

void destroy_mutex_sets() {
  auto& t = mutex_sets();
  std::lock_guard lock(t.mutex);
  for (auto& [id, set] : t.items) set.destroy();  // map order: creation order, alike everywhere
  t.items.clear();
}

}  // namespace armada::arrays::capi

namespace {
using capi::group_of;
using capi::mutex_sets;

int node_checked(int node, const char* fn) {
  if (node < 0 || node >= rma::node_count())
    throw rma::InvalidArgument(fn, "node", std::to_string(node),
                               "is not a node index (0 to " + std::to_string(rma::node_count() - 1) + ")");
  return node;
}
}  // namespace

namespace {
// GA_Dgop's operation names for armada_ga_gop.
rma::ReduceOp reduce_op(const char* op, int type, const char* fn) {
  need(op, fn, "op");
  const std::string s(op);
  // GA's names ("+", "*", "max", "min", "absmax", "absmin") and ARMCI's ("sum", "prod").
  const std::pair<const char*, rma::ReduceOp> table[] = {
      {"+", rma::ReduceOp::Sum},        {"sum", rma::ReduceOp::Sum},       {"*", rma::ReduceOp::Prod},
      {"prod", rma::ReduceOp::Prod},    {"max", rma::ReduceOp::Max},       {"min", rma::ReduceOp::Min},
      {"absmax", rma::ReduceOp::AbsMax}, {"absmin", rma::ReduceOp::AbsMin}};
  for (const auto& [name, value] : table) {
    if (s != name) continue;
    const bool complex = type == ARMADA_GA_SCOMPLEX || type == ARMADA_GA_DCOMPLEX;
    if (complex && value != rma::ReduceOp::Sum)
      throw rma::InvalidArgument(fn, "op", '"' + s + '"', "complex elements take only \"+\" (a sum)");
    return value;
  }
  throw rma::InvalidArgument(fn, "op", '"' + s + '"', "is not one of \"+\", \"*\", \"max\", \"min\", \"absmax\", \"absmin\"");
}
template <class T>
void reduce(void* x, int64_t n, rma::ReduceOp op, const rma::Group& g) {
  rma::allreduce(std::span<T>(static_cast<T*>(x), static_cast<std::size_t>(n)), op, g);
}
}  // namespace

extern "C" {

// ---- runtime -------------------------------------------------------------------------------------
int armada_ga_initialize(int* argc, char*** argv) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    if (capi::g_initialize_called)
      throw rma::StateError(fn, std::string(fn) + ": called twice (call armada_ga_finalize first)");
    if (!rma::initialized()) {
      rma::init(argc, argv);  // starts MPI unless the program did
      capi::g_started_runtime = true;
    }
    capi::g_initialize_called = true;
  });
}

int armada_ga_initialize_fcomm(int fortran_comm) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    if (capi::g_initialize_called)
      throw rma::StateError(fn, std::string(fn) + ": called twice (call armada_ga_finalize first)");
    int mpi_started = 0;
    MPI_Initialized(&mpi_started);
    if (!mpi_started)
      throw rma::StateError(fn, std::string(fn) + ": MPI is not initialized (call MPI_Init before passing a communicator)");
    const MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(fortran_comm));
    if (comm == MPI_COMM_NULL)
      throw rma::InvalidArgument(fn, "fortran_comm", std::to_string(fortran_comm), "is MPI_COMM_NULL or not a communicator");
    if (rma::initialized())
      throw rma::StateError(fn, std::string(fn) + ": the runtime is already running (on another communicator?)");
    rma::init(comm);
    capi::g_started_runtime = true;
    capi::g_initialize_called = true;
  });
}

void armada_ga_message_prefix(char* out, size_t size) {
  if (!out || size == 0) return;
  try {
    const std::string prefix = rma::message_prefix();
    std::snprintf(out, size, "%s", prefix.c_str());
  } catch (...) {  // no memory for the prefix: none
    out[0] = '\0';
  }
}

int armada_ga_initialized(int* flag) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(flag, fn, "flag");
    *flag = rma::initialized() ? 1 : 0;
  });
}

int armada_ga_finalize(void) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    capi::require_runtime(fn);
    capi::forget_requests();
    // Creation order is the same on every member of a group, so destroying in that order keeps
    // the collective destroys matched.
    for (arrays::Array& a : arrays::live_arrays()) a.destroy();
    capi::destroy_mutex_sets();
    capi::forget_groups();
    if (capi::g_started_runtime) rma::finalize();
    capi::g_started_runtime = false;
    capi::g_initialize_called = false;
  });
}

int armada_ga_rank(int* rank) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(rank, fn, "rank");
    capi::require_runtime(fn);
    *rank = rma::rank();
  });
}
int armada_ga_size(int* size) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(size, fn, "size");
    capi::require_runtime(fn);
    *size = rma::size();
  });
}
int armada_ga_node_count(int* count) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(count, fn, "count");
    capi::require_runtime(fn);
    *count = rma::node_count();
  });
}
int armada_ga_node_of(int rank, int* node) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(node, fn, "node");
    capi::require_runtime(fn);
    if (rank < 0 || rank >= rma::size())
      throw rma::InvalidArgument(fn, "rank", std::to_string(rank),
                                 "is not a rank of the world (size " + std::to_string(rma::size()) + ")");
    *node = rma::node_of(rank);
  });
}
int armada_ga_node_size(int node, int* size) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(size, fn, "size");
    capi::require_runtime(fn);
    *size = static_cast<int>(rma::node_ranks(node_checked(node, fn)).size());
  });
}
int armada_ga_node_rank(int node, int i, int* rank) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(rank, fn, "rank");
    capi::require_runtime(fn);
    const auto ranks = rma::node_ranks(node_checked(node, fn));
    if (i < 0 || i >= static_cast<int>(ranks.size()))
      throw rma::InvalidArgument(fn, "i", std::to_string(i),
                                 "node " + std::to_string(node) + " has " + std::to_string(ranks.size()) + " ranks");
    *rank = ranks[static_cast<std::size_t>(i)];
  });
}

// ---- synchronization -----------------------------------------------------------------------------
int armada_ga_sync(void) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] { arrays::sync(); });
}
int armada_ga_sync_group(int handle) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::collective_guard(fn, handle, [&] { capi::arr(handle, fn).sync_group(); });
}

int armada_ga_fence(int rank) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    capi::require_runtime(fn);
    if (rank < 0 || rank >= rma::size())
      throw rma::InvalidArgument(fn, "rank", std::to_string(rank),
                                 "is not a rank of the world (size " + std::to_string(rma::size()) + ")");
    rma::fence(rank);
  });
}
int armada_ga_fence_all(void) {
  const char* const fn = __func__;
  return capi::guard(fn, [&] {
    capi::require_runtime(fn);
    rma::fence_all();
  });
}

// ---- collectives on plain buffers ----------------------------------------------------------------
int armada_ga_gop(int group, int type, void* x, int64_t n, const char* op) {
  const char* const fn = __func__;
  // A bad op on one member fails the call on every member in one agreement (run_as_collective).
  return capi::collective_guard_group(fn, capi::group_waiting_in(group), [&] {
    const rma::Group g = group_of(group, fn);
    if (!g.is_member())
      throw rma::InvalidArgument(fn, "group", std::to_string(group), "this rank is not a member of the group");
    capi::elem_type(type, fn);
    if (n < 0) throw rma::InvalidArgument(fn, "n", std::to_string(n), "must not be negative");
    const rma::ReduceOp o = reduce_op(op, type, fn);
    if (n > 0) need(x, fn, "x");
    switch (type) {  // complex: the real and imaginary parts are summed as two reals each
      case ARMADA_GA_INT: return reduce<int>(x, n, o, g);
      case ARMADA_GA_LONG: return reduce<long>(x, n, o, g);
      case ARMADA_GA_FLOAT: return reduce<float>(x, n, o, g);
      case ARMADA_GA_DOUBLE: return reduce<double>(x, n, o, g);
      case ARMADA_GA_SCOMPLEX: return reduce<float>(x, 2 * n, o, g);
      default: return reduce<double>(x, 2 * n, o, g);
    }
  });
}
int armada_ga_brdcst(int group, void* buf, int64_t bytes, int root) {
  const char* const fn = __func__;
  return capi::collective_guard_group(fn, capi::group_waiting_in(group), [&] {
    const rma::Group g = group_of(group, fn);
    if (!g.is_member())
      throw rma::InvalidArgument(fn, "group", std::to_string(group), "this rank is not a member of the group");
    if (bytes < 0) throw rma::InvalidArgument(fn, "bytes", std::to_string(bytes), "must not be negative");
    if (root < 0 || root >= g.size())
      throw rma::InvalidArgument(fn, "root", std::to_string(root),
                                 "is not a rank of the group (size " + std::to_string(g.size()) + ")");
    if (bytes > 0) need(buf, fn, "buf");
    rma::broadcast(buf, static_cast<std::size_t>(bytes), root, g);
  });
}

// ---- process groups ------------------------------------------------------------------------------
int armada_ga_group_create(int parent, int n, const int ranks[], int* group) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(group, fn, "group");
    if (n < 1) throw rma::InvalidArgument(fn, "n", std::to_string(n), "a group has at least one rank");
    need(ranks, fn, "ranks");
    const rma::Group g = rma::Group::create(group_of(parent, fn), std::span<const int>(ranks, static_cast<std::size_t>(n)));
    *group = capi::groups().add(g);
  });
}
int armada_ga_group_destroy(int group) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    if (group == ARMADA_GA_GROUP_WORLD)
      throw rma::InvalidArgument(fn, "group", "ARMADA_GA_GROUP_WORLD", "the world group cannot be destroyed");
    group_of(group, fn);  // known?
    capi::groups().erase(group);
  });
}
int armada_ga_group_size(int group, int* size) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(size, fn, "size");
    *size = group_of(group, fn).size();
  });
}
int armada_ga_group_rank(int group, int* rank) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(rank, fn, "rank");
    *rank = group_of(group, fn).rank();
  });
}
int armada_ga_group_world_rank(int group, int group_rank, int* world_rank) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(world_rank, fn, "world_rank");
    *world_rank = group_of(group, fn).world_rank(group_rank);
  });
}
int armada_ga_group_sync(int group) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    const rma::Group g = group_of(group, fn);
    if (!g.is_member())
      throw rma::InvalidArgument(fn, "group", std::to_string(group), "this rank is not a member of the group");
    rma::fence_all();
    rma::agree_on("rma::barrier", nullptr, g);  // a barrier that tells a member in another call
  });
}

// ---- mutexes -------------------------------------------------------------------------------------
int armada_ga_mutexes_create(int count, int group, int* set) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(set, fn, "set");
    *set = mutex_sets().add(rma::MutexSet::create(count, group_of(group, fn)));
  });
}
int armada_ga_mutexes_destroy(int set) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    rma::MutexSet s = mutex_sets().find(set, fn, "mutex set");
    s.destroy();
    mutex_sets().erase(set);
  });
}
int armada_ga_mutex_count(int set, int rank, int* count) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(count, fn, "count");
    *count = mutex_sets().find(set, fn, "mutex set").count(rank);
  });
}
int armada_ga_mutex_lock(int set, int mutex, int rank) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] { mutex_sets().find(set, fn, "mutex set").lock(mutex, rank); });
}
int armada_ga_mutex_unlock(int set, int mutex, int rank) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    rma::MutexSet s = mutex_sets().find(set, fn, "mutex set");
    rma::fence_all();  // what was written under the lock is in place before the next holder reads
    s.unlock(mutex, rank);
  });
}
int armada_ga_mutex_trylock(int set, int mutex, int rank, int* acquired) {
  const char* const fn = __func__;  // in the lambdas below __func__ would be "operator()"
  return capi::guard(fn, [&] {
    need(acquired, fn, "acquired");
    *acquired = mutex_sets().find(set, fn, "mutex set").try_lock(mutex, rank) ? 1 : 0;
  });
}

}  // extern "C"
