// The segment registry: translates (rank, address in that rank's space) to the segment slice
// that holds it, and to this process's mapping of that slice when the rank is on this node.
//
// Readers (every put/get) never lock: they search an immutable row (one per rank, its entries
// sorted by base) that the (collective, rare) allocate and free replace, only the rows of the
// segment's members (issue 53: replacing a whole table of every rank's entries made each call
// O(P x segments) in time and a transient copy). A lookup costs what it did: the load of one
// pointer (the rank's row instead of the table) and a binary search. A superseded row is freed
// as soon as no reader is still searching it: each reading thread names the row it searches in
// its own hazard slot, and a writer frees only retired rows that no slot names (hazard
// pointers). The slices themselves live apart from the rows, one array per segment at a stable
// address, until their segment is removed: a caller may use the slice find() returned for as
// long as the segment stays allocated.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "common/slice.hpp"

namespace armada::rma::detail {

/// A reading thread's hazard slot: the row it is searching, or null. Slots are process-wide,
/// one per thread that ever read, reused after the thread exits, never freed.
struct HazardSlot {
  std::atomic<const void*> table{nullptr};
  std::atomic<bool> taken{false};
  HazardSlot* next = nullptr;
};

/// This thread's slot (taken on first use, released when the thread exits).
HazardSlot& hazard_slot();
/// The head of the list of every slot (for writers' scans).
HazardSlot* hazard_slots();

class Registry {
 public:
  explicit Registry(int world_size);
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  /// The slice of `rank` that holds all of [addr, addr + extent), or null. Inline: every
  /// operation starts here.
  const Slice* find(int rank, const void* addr, std::size_t extent) const noexcept {
    const std::atomic<const Row*>& cell = rows_[static_cast<std::size_t>(rank)];
    const Row* row = cell.load(std::memory_order_acquire);
    if (!row) return nullptr;
    HazardSlot& slot = hazard_slot();
    for (;;) {  // publish the row, then check it is still current: a writer will see the slot
      slot.table.store(row, std::memory_order_seq_cst);
      const Row* again = cell.load(std::memory_order_seq_cst);
      if (again == row) break;
      row = again;
    }
    const Slice* found = nullptr;
    if (row) {
      const auto a = reinterpret_cast<std::uintptr_t>(addr);
      // Last entry whose base <= a.
      auto it = std::upper_bound(row->begin(), row->end(), a,
                                 [](std::uintptr_t v, const Entry& e) { return v < e.base; });
      if (it != row->begin() && std::prev(it)->slice->contains(a, extent)) found = std::prev(it)->slice;
    }
    slot.table.store(nullptr, std::memory_order_release);
    return found;
  }

  void add(const std::vector<Slice>& slices);
  void remove(std::int64_t segment);

  /// Retired rows and removed segments' slices not yet freed, plus one: what a leak test watches
  /// (1 when nothing superseded is kept).
  std::size_t live_tables() const;
  /// Index entries copied by add and remove so far (their cost; tests watch it).
  std::size_t entries_copied() const;

 private:
  struct Entry {
    std::uintptr_t base;
    const Slice* slice;
  };
  using Row = std::vector<Entry>;  // one rank's entries, sorted by base

  /// Replaces rank's row by `next` (null: empty) and retires the old one (under writer_).
  void publish(int rank, std::unique_ptr<const Row> next);
  /// Frees the retired rows no hazard slot names (under writer_).
  void reclaim();

  std::unique_ptr<std::atomic<const Row*>[]> rows_;  // per rank; null when it has no slice
  int world_size_ = 0;
  std::vector<std::unique_ptr<const Row>> retired_;
  std::map<std::int64_t, std::vector<Slice>> slices_;  // per segment, never resized: stable addresses
  std::vector<std::vector<Slice>> doomed_slices_;      // removed; retired rows may point here
  std::size_t copied_ = 0;
  mutable std::mutex writer_;
};

}  // namespace armada::rma::detail
