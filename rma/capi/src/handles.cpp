// Nonblocking requests behind armci_hdl_t: explicit handles, implicit (NULL) handles and
// aggregate handles; ARMCI_Wait / Test / WaitProc / WaitAll.
//
// armci_hdl_t is 8 bytes that programs copy by value (Global Arrays keeps them in its own
// tables), so it cannot own anything: its `target` holds the number of a request in a table
// here, and its `aggregate` a mark. A request holds the core's handles of the operations issued
// under that number and, for aggregate handles, one rma::Aggregate per target. Numbers are not
// reused before 2^31 further requests, so a stale copy of a waited handle finds nothing and
// waits for nothing. There is no limit on outstanding requests.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "internal.hpp"

namespace armada::armci {

namespace {

// Set by ARMCI_SET_AGGREGATE_HANDLE. Any other value (0 from ARMCI_INIT_HANDLE, or whatever an
// uninitialized handle holds) means a plain handle.
constexpr int kAggregateMark = 0x41524d41;  // "ARMA"

struct Request {
  std::vector<rma::Handle> operations;
  std::vector<std::unique_ptr<rma::Aggregate>> aggregates;  // one per target (not movable)

  rma::Aggregate& aggregate_for(int target) {
    for (auto& a : aggregates)
      if (a->target() == target) return *a;
    return *aggregates.emplace_back(std::make_unique<rma::Aggregate>(target));
  }
  /// Completes everything to `target` (or to anyone if target < 0); true if nothing is left.
  bool complete(int target) {
    bool all = true;
    for (auto& op : operations)
      if (target < 0 || op.target() == target) op.wait();
      else all = false;
    for (auto& a : aggregates)
      if (target < 0 || a->target() == target) a->wait();
      else all = all && a->pending() == 0;
    return all;
  }
  /// Polls: true if every operation has completed. Recorded aggregate operations are moved
  /// now (they only move at a wait), so a Test loop finishes.
  bool test() {
    for (auto& a : aggregates) a->wait();
    for (auto& op : operations)
      if (!op.test()) return false;
    return true;
  }
};

struct Table {
  std::mutex mutex;
  std::unordered_map<int, Request> requests;
  int next_id = 1;
  bool wrapped = false;  // numbering went past INT32_MAX once: every positive number was issued
  // Implicit-handle operations by target. Completed ones are dropped when the list has doubled
  // since the last sweep, so a program that never waits does not grow without bound.
  std::unordered_map<int, std::vector<rma::Handle>> implicit;
  std::size_t implicit_count = 0, sweep_at = 1024;
};
Table g_table;

/// The request of `hdl`, created (and numbered into hdl->target) if it has none. Lock held.
Request& request_of(armci_hdl_t* hdl) {
  if (auto it = g_table.requests.find(hdl->target); hdl->target > 0 && it != g_table.requests.end())
    return it->second;
  int id = g_table.next_id;
  while (g_table.requests.count(id)) id = id == INT32_MAX ? 1 : id + 1;
  g_table.next_id = id == INT32_MAX ? 1 : id + 1;
  g_table.wrapped = g_table.wrapped || id == INT32_MAX;
  hdl->target = id;
  return g_table.requests[id];
}

/// Rejects a handle that no ARMCI call produced: a fresh one (ARMCI_INIT_HANDLE: 0) and a
/// completed copy (a number issued before) are fine; a negative or never-issued number is
/// memory that was never a handle. Lock held.
void check_handle(const char* fn, const armci_hdl_t* hdl) {
  const int n = hdl->target;
  if (n < 0 || (n > 0 && !g_table.wrapped && n >= g_table.next_id))
    bad_argument(fn, "hdl", "{target " + std::to_string(n) + ", aggregate " + std::to_string(hdl->aggregate) + "}",
                 "not a handle: ARMCI_INIT_HANDLE or a nonblocking call sets it up, and request " +
                     std::to_string(n) + " was never issued");
}

void sweep_implicit() {
  std::size_t left = 0;
  for (auto& [target, ops] : g_table.implicit) {
    std::erase_if(ops, [](rma::Handle& op) { return op.test(); });
    left += ops.size();
  }
  g_table.implicit_count = left;
  g_table.sweep_at = std::max<std::size_t>(1024, 2 * left);
}

/// Completes the requests' operations to `target` (all if target < 0) and drops requests with
/// nothing left: a later ARMCI_Wait on their handles returns at once.
void complete(int target) {
  std::lock_guard lock(g_table.mutex);
  for (auto it = g_table.requests.begin(); it != g_table.requests.end();)
    it = it->second.complete(target) ? g_table.requests.erase(it) : std::next(it);
  for (auto& [t, ops] : g_table.implicit) {
    if (target >= 0 && t != target) continue;
    for (auto& op : ops) op.wait();
    g_table.implicit_count -= ops.size();
    ops.clear();
  }
}

}  // namespace

void track(armci_hdl_t* hdl, rma::Handle operation) {
  std::lock_guard lock(g_table.mutex);
  if (!hdl) {
    g_table.implicit[operation.target()].push_back(std::move(operation));
    if (++g_table.implicit_count >= g_table.sweep_at) sweep_implicit();
    return;
  }
  request_of(hdl).operations.push_back(std::move(operation));
}

bool is_aggregate(const armci_hdl_t* hdl) noexcept { return hdl && hdl->aggregate == kAggregateMark; }

void aggregate(const char* function, armci_hdl_t* hdl, bool is_put, const void* src, void* dst,
               std::size_t bytes, int proc) {
  check_proc(function, "proc", proc);
  std::lock_guard lock(g_table.mutex);
  Request& request = request_of(hdl);
  rma::Aggregate& agg = request.aggregate_for(proc);
  if (is_put)
    agg.put(src, dst, bytes);
  else
    agg.get(src, dst, bytes);
}

void complete_target(int proc) { complete(proc); }
void complete_all() { complete(-1); }

void requests_finalize() {
  complete_all();
  std::lock_guard lock(g_table.mutex);
  g_table.requests.clear();
  g_table.implicit.clear();
  g_table.implicit_count = 0;
}

}  // namespace armada::armci

using namespace armada::armci;

void ARMCI_INIT_HANDLE(armci_hdl_t* hdl) {
  guard_void("ARMCI_INIT_HANDLE", [&] { *not_null("ARMCI_INIT_HANDLE", "hdl", hdl) = armci_hdl_t{0, 0}; });
}

void ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t* handle) {
  guard_void("ARMCI_SET_AGGREGATE_HANDLE",
             [&] { not_null("ARMCI_SET_AGGREGATE_HANDLE", "handle", handle)->aggregate = kAggregateMark; });
}

// Operations recorded so far stay in the handle's request and move at its ARMCI_Wait.
void ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t* handle) {
  guard_void("ARMCI_UNSET_AGGREGATE_HANDLE",
             [&] { not_null("ARMCI_UNSET_AGGREGATE_HANDLE", "handle", handle)->aggregate = 0; });
}

// Completes the operations of this handle only. The request leaves the table before the wait,
// so other threads keep issuing meanwhile.
ARMCI_TWIN(int, ARMCI_Wait, (armci_hdl_t * hdl)) {
  constexpr const char* fn = "ARMCI_Wait";
  return guard(fn, [&] {
    require_init(fn);
    not_null(fn, "hdl", hdl);
    Request request;
    {
      std::lock_guard lock(g_table.mutex);
      check_handle(fn, hdl);
      auto it = g_table.requests.find(hdl->target);
      if (hdl->target <= 0 || it == g_table.requests.end()) return;  // nothing outstanding
      request = std::move(it->second);
      g_table.requests.erase(it);
    }
    hdl->target = 0;
    request.complete(-1);
  });
}

// 0 if the handle's operations have completed (the handle is then free), 1 if not yet.
ARMCI_TWIN(int, ARMCI_Test, (armci_hdl_t * hdl)) {
  constexpr const char* fn = "ARMCI_Test";
  return guard_value(fn, 0, [&] {
    require_init(fn);
    not_null(fn, "hdl", hdl);
    std::lock_guard lock(g_table.mutex);
    check_handle(fn, hdl);
    auto it = g_table.requests.find(hdl->target);
    if (hdl->target <= 0 || it == g_table.requests.end()) return 0;
    if (!it->second.test()) return 1;
    g_table.requests.erase(it);
    hdl->target = 0;
    return 0;
  });
}

// Both complete explicit-handle operations too (waiting for them early is harmless).
ARMCI_TWIN(int, ARMCI_WaitProc, (int proc)) {
  return guard("ARMCI_WaitProc", [&] {
    check_proc("ARMCI_WaitProc", "proc", proc);
    complete_target(proc);
  });
}

ARMCI_TWIN(int, ARMCI_WaitAll, (void)) {
  return guard("ARMCI_WaitAll", [] {
    require_init("ARMCI_WaitAll");
    complete_all();
  });
}
