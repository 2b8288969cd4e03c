// Put with notification (classic ARMCI's armci_notify / armci_notify_wait). Every rank owns one
// int slot per origin in a segment allocated at ARMCI_Init. armci_notify(proc) completes the
// caller's earlier operations to proc (a fence), then writes the running count of its
// notifications to proc into proc's slot for the caller: whoever sees the count also sees the
// data put before it. armci_notify_wait(proc) counts its waits on proc and returns once proc's
// slot has reached that count. Counts only grow, so a slot that skips values (two notifications
// arriving before one wait) satisfies every wait up to its value.
#include <time.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "internal.hpp"

namespace armada::armci {

namespace {

struct Notifications {
  std::vector<void*> slots;              // per rank: its slots, one int per origin
  std::vector<std::atomic<int>> sent;    // per target: this process's notifications to it
  std::vector<std::atomic<int>> waited;  // per origin: this process's waits on it
};
Notifications g_notify;

int* slot(int owner, int origin) { return static_cast<int*>(g_notify.slots[static_cast<std::size_t>(owner)]) + origin; }

// Waits for *p >= want without burning a core: spins briefly, then sleeps with growing naps.
int wait_for(const int* p, int want) {
  std::atomic_ref<const int> value(*p);
  long nap_ns = 1000;
  for (int round = 0;; ++round) {
    const int v = value.load(std::memory_order_acquire);
    if (v >= want) return v;
    if (round < 1000) continue;
    const timespec ts{0, nap_ns};
    nanosleep(&ts, nullptr);
    nap_ns = std::min(nap_ns * 2, 200000L);
  }
}

}  // namespace

void notify_init() {
  const int n = rma::size();
  g_notify.slots = rma::allocate(static_cast<std::size_t>(n) * sizeof(int));
  std::memset(g_notify.slots[static_cast<std::size_t>(rma::rank())], 0, static_cast<std::size_t>(n) * sizeof(int));
  g_notify.sent = std::vector<std::atomic<int>>(static_cast<std::size_t>(n));
  g_notify.waited = std::vector<std::atomic<int>>(static_cast<std::size_t>(n));
  rma::barrier();  // every slot is zero before anyone notifies
}

void notify_finalize() {
  if (g_notify.slots.empty()) return;
  rma::free(g_notify.slots[static_cast<std::size_t>(rma::rank())]);
  g_notify.slots.clear();
}

}  // namespace armada::armci

using namespace armada::armci;

int armci_notify(int proc) {
  constexpr const char* fn = "armci_notify";
  return guard_value(fn, -1, [&] {
    require_init(fn);
    check_proc(fn, "proc", proc);
    const int count = ++g_notify.sent[static_cast<std::size_t>(proc)];
    set_flag(slot(proc, armada::rma::rank()), count, proc);  // fences first: the data is in place
    return count;
  });
}

int armci_notify_wait(int proc, int* pval) {
  constexpr const char* fn = "armci_notify_wait";
  return guard_value(fn, -1, [&] {
    require_init(fn);
    check_proc(fn, "proc", proc);
    not_null(fn, "pval", pval);
    const int want = ++g_notify.waited[static_cast<std::size_t>(proc)];
    const int received = wait_for(slot(armada::rma::rank(), proc), want);
    *pval = want;
    return received;
  });
}
