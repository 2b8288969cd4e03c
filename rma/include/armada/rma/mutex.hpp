// Mutexes: a set of mutexes on every rank, locked and unlocked from any rank (ARMCI mutexes).
//
// Locking is FIFO-fair (tickets), and a waiter spins only briefly (ARMADA_SPIN_LIMIT) before it
// sleeps in the kernel until its turn, so waiting never burns a core.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <atomic>
#include <memory>
#include <vector>

#include "armada/rma/group.hpp"

namespace armada::rma {

class MutexSet {
 public:
  /// Creates `count` mutexes on every member of `group` (count may differ per rank, may be 0).
  /// Collective over `group`.
  static MutexSet create(int count, const Group& group = Group::world());

  MutexSet() = default;
  /// Frees the mutexes. Collective over the group; no mutex may be held: if a member holds one,
  /// every member throws StateError naming it, and the set stays usable.
  void destroy();

  /// Number of mutexes world rank `rank` holds in this set.
  int count(int rank) const;

  /// Waits for the mutex and takes it. A thread that holds it already gets a StateError (it
  /// would wait for itself); another thread of the same process waits, as any other process.
  void lock(int mutex, int rank);
  void unlock(int mutex, int rank);
  /// Takes the mutex only if it is free right now.
  bool try_lock(int mutex, int rank);
  /// Whether the calling thread holds the mutex.
  bool held_by_this_thread(int mutex, int rank) const;

 private:
  struct Word;
  struct Held;  // which thread of this process holds each mutex (shared by copies of the set)
  Word* word(const char* op, int mutex, int rank) const;
  std::atomic<const void*>& holder(int mutex, int rank) const;
  void mark(int mutex, int rank, bool held) const;
  std::shared_ptr<Held> held_;
  std::vector<void*> bases_;   // per group rank, in the owner's address space
  std::vector<int> counts_;    // per group rank
  Group group_{nullptr};
};

}  // namespace armada::rma
