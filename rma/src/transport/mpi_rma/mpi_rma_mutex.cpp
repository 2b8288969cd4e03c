// Mutexes over MPI-3 one-sided operations: an MCS queue lock (Mellor-Crummey and Scott).
//
// The mutex word in its segment holds the queue's tail: 0 when free, else the queue node of
// the last process in line. A queue node lives in this process's queue window: {next, locked}.
//   lock:    node = {0, 1}; pred = swap(tail, node); if pred: pred.next = node, wait !locked
//   unlock:  if !next and compare_and_swap(tail, node -> 0) succeeds: done;
//            else wait for next, then next.locked = 0
// A waiter reads only its own queue node (an MPI atomic on its own window: no traffic on the
// network) and sleeps between reads; the releaser wakes exactly its successor. FIFO.
// Every access to a queue node is an MPI atomic, so remote writes and local polls of the same
// word are well defined under MPI's rules.
#include <time.h>

#include <string>

#include "common/check.hpp"
#include "transport/mpi_rma/mpi_rma_transport.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma::detail {

namespace {
constexpr int kNext = 0;
constexpr int kLocked = 1;
}  // namespace

std::int64_t MpiRmaTransport::my_node_value(int slot) const noexcept {
  return static_cast<std::int64_t>(rank_) * settings_.mutex_waiters + slot + 1;
}

int MpiRmaTransport::take_slot() {
  for (long sleep_ns = 1000;; sleep_ns = std::min(sleep_ns * 2, 1000000L)) {
    {
      std::lock_guard lock(slots_mutex_);
      if (!free_slots_.empty()) {
        const int slot = free_slots_.back();
        free_slots_.pop_back();
        return slot;
      }
    }
    // Every queue node is in use by this process's other threads: wait for one.
    const timespec ts{0, sleep_ns};
    nanosleep(&ts, nullptr);
  }
}

void MpiRmaTransport::release_slot(int slot) {
  std::lock_guard lock(slots_mutex_);
  free_slots_.push_back(slot);
}

std::int64_t MpiRmaTransport::read_own(int slot, int field) {
  std::int64_t value = 0;
  MPI_Fetch_and_op(nullptr, &value, MPI_INT64_T, rank_, slot * 2 + field, MPI_NO_OP, queue_win_);
  MPI_Win_flush(rank_, queue_win_);
  return value;
}

void MpiRmaTransport::write_remote(std::int64_t node, int field, std::int64_t value) {
  const int owner = static_cast<int>((node - 1) / settings_.mutex_waiters);
  const int slot = static_cast<int>((node - 1) % settings_.mutex_waiters);
  MPI_Accumulate(&value, 1, MPI_INT64_T, owner, slot * 2 + field, 1, MPI_INT64_T, MPI_REPLACE, queue_win_);
  MPI_Win_flush(owner, queue_win_);
}

template <class Pred>
void MpiRmaTransport::wait_own(int slot, int field, Pred&& done) {
  // Polls this process's own queue node: brief spinning, then sleeps growing to 500 µs.
  long sleep_ns = 1000;
  for (int round = 0;; ++round) {
    if (done(read_own(slot, field))) return;
    if (round < settings_.spin_limit / 20) {
      cpu_relax();
    } else {
      const timespec ts{0, sleep_ns};
      nanosleep(&ts, nullptr);
      sleep_ns = std::min(sleep_ns * 2, 500000L);
    }
  }
}

int MpiRmaTransport::fresh_node(const char* op, const Slice& slice) {
  if (window_of(slice) == MPI_WIN_NULL) throw_state(op, "the mutex set's segment has no MPI window");
  const int slot = take_slot();
  write_remote(my_node_value(slot), kNext, 0);
  return slot;
}

void MpiRmaTransport::hold(int target, void* word, int slot) {
  std::lock_guard lock(slots_mutex_);
  held_[{target, reinterpret_cast<std::uintptr_t>(word)}] = slot;
}

void MpiRmaTransport::mutex_lock(void* word, const Slice& slice, int target) {
  const int slot = fresh_node("rma::MutexSet::lock (mpi-rma)", slice);
  const std::int64_t me = my_node_value(slot);
  write_remote(me, kLocked, 1);
  std::int64_t pred = 0;
  MPI_Fetch_and_op(&me, &pred, MPI_INT64_T, window_rank_of(slice), window_displacement(slice, word), MPI_REPLACE,
                   window_of(slice));
  MPI_Win_flush(window_rank_of(slice), window_of(slice));
  if (pred != 0) {
    write_remote(pred, kNext, me);
    wait_own(slot, kLocked, [](std::int64_t locked) { return locked == 0; });
  }
  hold(target, word, slot);
}

bool MpiRmaTransport::mutex_try_lock(void* word, const Slice& slice, int target) {
  const int slot = fresh_node("rma::MutexSet::try_lock (mpi-rma)", slice);
  const std::int64_t me = my_node_value(slot);
  const std::int64_t free_value = 0;
  std::int64_t old = -1;
  MPI_Compare_and_swap(&me, &free_value, &old, MPI_INT64_T, window_rank_of(slice), window_displacement(slice, word),
                       window_of(slice));
  MPI_Win_flush(window_rank_of(slice), window_of(slice));
  if (old != 0) {
    release_slot(slot);
    return false;
  }
  hold(target, word, slot);
  return true;
}

void MpiRmaTransport::mutex_unlock(void* word, const Slice& slice, int target) {
  const char* op = "rma::MutexSet::unlock";
  int slot;
  {
    std::lock_guard lock(slots_mutex_);
    auto it = held_.find({target, reinterpret_cast<std::uintptr_t>(word)});
    if (it == held_.end())
      throw_invalid(op, "mutex", to_hex(word) + " on rank " + std::to_string(target), "this rank does not hold the mutex");
    slot = it->second;
    held_.erase(it);  // before the hand-off: the successor may be another thread of ours
  }
  const std::int64_t me = my_node_value(slot);
  std::int64_t next = read_own(slot, kNext);
  if (next == 0) {
    const std::int64_t free_value = 0;
    std::int64_t old = 0;
    MPI_Compare_and_swap(&free_value, &me, &old, MPI_INT64_T, window_rank_of(slice), window_displacement(slice, word),
                         window_of(slice));
    MPI_Win_flush(window_rank_of(slice), window_of(slice));
    if (old == me) {
      release_slot(slot);
      return;
    }
    // A successor swapped itself in and is about to link itself behind us.
    wait_own(slot, kNext, [&](std::int64_t v) { next = v; return v != 0; });
  }
  write_remote(next, kLocked, 0);
  release_slot(slot);
}

}  // namespace armada::rma::detail
