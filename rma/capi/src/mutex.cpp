// Mutexes: ARMCI's one set on the world (ARMCI_Create_mutexes ... ARMCI_Unlock) and ARMCI-MPI's
// handle-based batches on groups (ARMCIX_*_hdl), both on rma::MutexSet: FIFO-fair ticket locks
// whose waiters sleep, reachable from any process over any transport.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>

#include "internal.hpp"

namespace armada::armci {

namespace {

/// A batch of mutexes. The public struct comes first so that programs see ARMCI-MPI's fields.
struct Batch : armcix_mutex_hdl_s {
  // rma::MutexSet cannot be created with 0 mutexes on every member (nothing to free later), so
  // such a batch holds none and every lock on it is refused as an unknown mutex.
  std::optional<rma::MutexSet> set;
};

struct Registry {
  std::mutex mutex;
  std::unordered_set<Batch*> live;  // every batch not yet destroyed
  Batch* world = nullptr;           // ARMCI_Create_mutexes' batch
};
Registry g_mutexes;

/// Collective over the group: a batch of `count` mutexes on every member.
Batch* create(const char* fn, int count, const ARMCI_Group* group) {
  const GroupInfo info = group ? group_of(fn, "pgroup", group) : world_group(fn);
  if (count < 0) bad_argument(fn, "count", std::to_string(count), "must not be negative");
  int most = count;
  MPI_Request request;  // the call's first collective: it waits serving this rank's node
  check_mpi(fn, "MPI_Iallreduce", MPI_Iallreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, info.comm, &request));
  rma::wait_serving(request, fn);
  auto batch = std::make_unique<Batch>();
  batch->my_count = count;
  batch->max_count = most;
  batch->grp = group ? *group : world_group_value();
  batch->windows = nullptr;
  batch->bases = nullptr;
  if (most > 0) batch->set = rma::MutexSet::create(count, info.group);
  std::lock_guard lock(g_mutexes.mutex);
  return *g_mutexes.live.insert(batch.release()).first;
}

/// Collective over the batch's group.
void destroy(Batch* batch) {
  {
    std::lock_guard lock(g_mutexes.mutex);
    g_mutexes.live.erase(batch);
  }
  std::unique_ptr<Batch> doomed(batch);
  if (doomed->set) doomed->set->destroy();
}

Batch* checked(const char* fn, armcix_mutex_hdl_t hdl) {
  std::lock_guard lock(g_mutexes.mutex);
  auto* batch = static_cast<Batch*>(hdl);
  if (!g_mutexes.live.count(batch))
    bad_argument(fn, "hdl", hdl ? "a handle not from ARMCIX_Create_mutexes_hdl" : "NULL",
                 "not a live mutex handle (destroyed already, or never created)");
  return batch;
}

Batch* world_batch(const char* fn) {
  require_init(fn);
  std::lock_guard lock(g_mutexes.mutex);
  if (!g_mutexes.world) bad_state(fn, "no mutexes exist (call ARMCI_Create_mutexes first)");
  return g_mutexes.world;
}

rma::MutexSet& set_of(const char* fn, Batch* batch, int mutex) {
  if (!batch->set)
    bad_argument(fn, "mutex", std::to_string(mutex), "the mutex set holds no mutexes (created with count 0 everywhere)");
  return *batch->set;
}

enum class LockOp { Lock, Unlock, TryLock };

/// Returns true if the mutex was taken (Lock always; TryLock if it was free).
bool apply(const char* fn, Batch* batch, LockOp op, int mutex, int proc) {
  check_proc(fn, "proc", proc);
  rma::MutexSet& set = set_of(fn, batch, mutex);
  switch (op) {
    case LockOp::Lock: set.lock(mutex, proc); return true;
    case LockOp::Unlock:
      // Release semantics: what the holder wrote under the mutex is complete everywhere before
      // the next holder can take it (ARMCI-MPI gets this from remote completion of every put;
      // Armada's puts complete locally, so fence them here).
      complete_all();
      rma::fence_all();
      set.unlock(mutex, proc);
      return false;
    case LockOp::TryLock: return set.try_lock(mutex, proc);
  }
  return false;
}

}  // namespace

// The core releases every mutex set at rma::finalize; forget ours without a collective.
void mutexes_finalize() {
  std::lock_guard lock(g_mutexes.mutex);
  for (Batch* batch : g_mutexes.live) {
    if (batch->set) batch->set.reset();
    delete batch;
  }
  g_mutexes.live.clear();
  g_mutexes.world = nullptr;
}

}  // namespace armada::armci

using namespace armada::armci;

// ---- ARMCI: one set on the world -------------------------------------------------------------
ARMCI_TWIN(int, ARMCI_Create_mutexes, (int count)) {
  constexpr const char* fn = "ARMCI_Create_mutexes";
  return guard(fn, [&] {
    require_init(fn);
    {
      std::lock_guard lock(g_mutexes.mutex);
      if (g_mutexes.world) bad_state(fn, "mutexes exist already (ARMCI_Destroy_mutexes them first)");
    }
    Batch* batch = create(fn, count, nullptr);
    std::lock_guard lock(g_mutexes.mutex);
    g_mutexes.world = batch;
  });
}

ARMCI_TWIN(int, ARMCI_Destroy_mutexes, (void)) {
  constexpr const char* fn = "ARMCI_Destroy_mutexes";
  return guard(fn, [&] {
    Batch* batch = world_batch(fn);
    {
      std::lock_guard lock(g_mutexes.mutex);
      g_mutexes.world = nullptr;
    }
    destroy(batch);
  });
}

ARMCI_TWIN(void, ARMCI_Lock, (int mutex, int proc)) {
  constexpr const char* fn = "ARMCI_Lock";
  guard_void(fn, [&] { apply(fn, world_batch(fn), LockOp::Lock, mutex, proc); });
}

ARMCI_TWIN(void, ARMCI_Unlock, (int mutex, int proc)) {
  constexpr const char* fn = "ARMCI_Unlock";
  guard_void(fn, [&] { apply(fn, world_batch(fn), LockOp::Unlock, mutex, proc); });
}

// ---- ARMCIX: batches on groups ---------------------------------------------------------------
armcix_mutex_hdl_t ARMCIX_Create_mutexes_hdl(int count, ARMCI_Group* pgroup) {
  constexpr const char* fn = "ARMCIX_Create_mutexes_hdl";
  return guard_value(fn, static_cast<armcix_mutex_hdl_t>(nullptr), [&]() -> armcix_mutex_hdl_t {
    require_init(fn);
    return create(fn, count, not_null(fn, "pgroup", pgroup));
  });
}

int ARMCIX_Destroy_mutexes_hdl(armcix_mutex_hdl_t hdl) {
  constexpr const char* fn = "ARMCIX_Destroy_mutexes_hdl";
  return guard(fn, [&] {
    require_init(fn);
    Batch* batch = checked(fn, hdl);
    {
      std::lock_guard lock(g_mutexes.mutex);
      if (batch == g_mutexes.world) bad_argument(fn, "hdl", "ARMCI's own mutexes", "use ARMCI_Destroy_mutexes");
    }
    destroy(batch);
  });
}

void ARMCIX_Lock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc) {
  constexpr const char* fn = "ARMCIX_Lock_hdl";
  guard_void(fn, [&] { apply(fn, checked(fn, hdl), LockOp::Lock, mutex, proc); });
}

int ARMCIX_Trylock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc) {
  constexpr const char* fn = "ARMCIX_Trylock_hdl";
  // 0 if taken; 1 if held by someone else (or on error, with a hook installed).
  return guard_value(fn, 1, [&] { return apply(fn, checked(fn, hdl), LockOp::TryLock, mutex, proc) ? 0 : 1; });
}

void ARMCIX_Unlock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc) {
  constexpr const char* fn = "ARMCIX_Unlock_hdl";
  guard_void(fn, [&] { apply(fn, checked(fn, hdl), LockOp::Unlock, mutex, proc); });
}
