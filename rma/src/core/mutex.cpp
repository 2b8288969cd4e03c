// Mutex sets: each rank's mutexes are TicketMutex words in a segment allocated on the group,
// so every transport reaches them through the same registry as data.
#include "armada/rma/mutex.hpp"

#include <atomic>
#include <memory>
#include <string>

#include "armada/rma/memory.hpp"
#include "core/agree.hpp"
#include "common/check.hpp"
#include "core/state.hpp"
#include "transport/base/locks.hpp"

namespace armada::rma {

struct MutexSet::Word : detail::TicketMutex {};

// One word per mutex of the set (group rank g's mutex m at first[g] + m): which thread of this
// process holds it (this_thread()), null when none does; set by lock, cleared by unlock. A
// relaxed store each: the lock itself orders what matters.
struct MutexSet::Held {
  std::vector<std::size_t> first;
  std::unique_ptr<std::atomic<const void*>[]> holder;
};

namespace {
/// A token of the calling thread (the address of a thread-local object).
const void* this_thread() {
  thread_local const char token = 0;
  return &token;
}
}  // namespace

std::atomic<const void*>& MutexSet::holder(int mutex, int rank) const {
  const std::size_t g = static_cast<std::size_t>(group_.group_rank(rank));
  return held_->holder[held_->first[g] + static_cast<std::size_t>(mutex)];
}

void MutexSet::mark(int mutex, int rank, bool held) const {
  holder(mutex, rank).store(held ? this_thread() : nullptr, std::memory_order_relaxed);
}

bool MutexSet::held_by_this_thread(int mutex, int rank) const {
  word("rma::MutexSet::held_by_this_thread", mutex, rank);  // checks the set, the mutex and the rank
  return holder(mutex, rank).load(std::memory_order_relaxed) == this_thread();
}

MutexSet MutexSet::create(int count, const Group& group) {
  constexpr const char* op = "rma::MutexSet::create";
  detail::state(op);
  if (!group.impl() || !group.is_member())
    detail::throw_invalid(op, "group", "a group of " + std::to_string(group.size()) + " ranks",
                          "this rank is not a member; only members take part");
  agree(op, [&] {
    if (count < 0) detail::throw_invalid(op, "count", std::to_string(count), "must not be negative");
  }, group);
  MutexSet set;
  set.group_ = group;
  set.bases_ = detail::allocate_segment(op, static_cast<std::size_t>(count) * sizeof(detail::TicketMutex), group, true);
  set.counts_.resize(static_cast<std::size_t>(group.size()));
  detail::allgather_polling(op, &count, 1, MPI_INT, set.counts_.data(), group.comm());
  set.held_ = std::make_shared<Held>();
  std::size_t total = 0;
  for (int c : set.counts_) {
    set.held_->first.push_back(total);
    total += static_cast<std::size_t>(c);
  }
  set.held_->holder = std::make_unique<std::atomic<const void*>[]>(total);  // value-initialized: null
  return set;
}

void MutexSet::destroy() {
  constexpr const char* op = "rma::MutexSet::destroy";
  const detail::State& s = detail::state(op);
  if (!group_.impl()) detail::throw_invalid(op, "this", "an empty MutexSet", "was never created or is destroyed already");
  // A member that still holds a mutex of the set fails every member: the holder would unlock
  // freed memory, a waiter would wait for ever.
  agree(op, [&] {
    for (int g = 0; g < group_.size(); ++g)
      for (int m = 0; m < counts_[static_cast<std::size_t>(g)]; ++m)
        if (holder(m, group_.world_rank(g)).load(std::memory_order_relaxed))
          detail::throw_state(op, "mutex " + std::to_string(m) + " of rank " + std::to_string(group_.world_rank(g)) +
                                      " is held by rank " + std::to_string(s.rank) +
                                      "; unlock every mutex of the set before destroying it");
  }, group_);
  free(bases_[static_cast<std::size_t>(group_.rank())], group_);
  bases_.clear();
  counts_.clear();
  held_.reset();
  group_ = Group(nullptr);
}

int MutexSet::count(int rank) const {
  constexpr const char* op = "rma::MutexSet::count";
  if (!group_.impl()) detail::throw_invalid(op, "this", "an empty MutexSet", "was never created or is destroyed already");
  const int g = group_.group_rank(rank);
  if (g < 0) detail::throw_invalid(op, "rank", std::to_string(rank), "not a member of the set's group");
  return counts_[static_cast<std::size_t>(g)];
}

MutexSet::Word* MutexSet::word(const char* op, int mutex, int rank) const {
  detail::State& s = detail::state(op);
  if (!group_.impl()) detail::throw_invalid(op, "this", "an empty MutexSet", "was never created or is destroyed already");
  detail::check_rank(op, "rank", s, rank);
  const int g = group_.group_rank(rank);
  if (g < 0)
    detail::throw_invalid(op, "rank", std::to_string(rank), "not a member of the group the mutexes were created on");
  const int n = counts_[static_cast<std::size_t>(g)];
  if (mutex < 0 || mutex >= n)
    detail::throw_invalid(op, "mutex", std::to_string(mutex),
                          "rank " + std::to_string(rank) + " has " + std::to_string(n) + " mutexes in this set");
  return static_cast<Word*>(bases_[static_cast<std::size_t>(g)]) + mutex;
}

namespace {
struct Target {
  detail::Transport& transport;
  const detail::Slice& slice;
};
Target reach(const char* op, void* word, int rank) {
  detail::State& s = *detail::g_state;
  const detail::Slice* slice = s.registry->find(rank, word, sizeof(detail::TicketMutex));
  if (!slice) detail::throw_state(op, "the mutex set's memory is no longer allocated");
  return {detail::route(op, s, rank), *slice};
}
}  // namespace

void MutexSet::lock(int mutex, int rank) {
  constexpr const char* op = "rma::MutexSet::lock";
  Word* w = word(op, mutex, rank);
  // The ticket would wait for this thread's own unlock.
  if (holder(mutex, rank).load(std::memory_order_relaxed) == this_thread())
    detail::throw_state(op, "mutex " + std::to_string(mutex) + " of rank " + std::to_string(rank) +
                                " is held by this thread already (lock without unlock); a second lock would wait for ever");
  auto t = reach(op, w, rank);
  t.transport.mutex_lock(w, t.slice, rank);
  mark(mutex, rank, true);
}

bool MutexSet::try_lock(int mutex, int rank) {
  constexpr const char* op = "rma::MutexSet::try_lock";
  Word* w = word(op, mutex, rank);
  auto t = reach(op, w, rank);
  const bool acquired = t.transport.mutex_try_lock(w, t.slice, rank);
  if (acquired) mark(mutex, rank, true);
  return acquired;
}

void MutexSet::unlock(int mutex, int rank) {
  constexpr const char* op = "rma::MutexSet::unlock";
  Word* w = word(op, mutex, rank);
  auto t = reach(op, w, rank);
  t.transport.mutex_unlock(w, t.slice, rank);
  mark(mutex, rank, false);
}

}  // namespace armada::rma
