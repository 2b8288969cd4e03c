// The segment registry: translates (rank, address in that rank's space) to the segment slice
// that holds it, and to this process's mapping of that slice when the rank is on this node.
//
// Readers (every put/get) never lock: they search an immutable table that the (collective,
// rare) allocate and free replace. A superseded table is freed as soon as no reader is still
// searching it: each reading thread names the table it searches in its own hazard slot, and a
// writer frees only retired tables that no slot names (hazard pointers). The slices themselves
// live apart from the tables, at stable addresses, until their segment is removed: a caller
// may use the slice find() returned for as long as the segment stays allocated.
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

/// A reading thread's hazard slot: the table it is searching, or null. Slots are process-wide,
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
    HazardSlot& slot = hazard_slot();
    const Table* table = current_.load(std::memory_order_acquire);
    for (;;) {  // publish the table, then check it is still current: a writer will see the slot
      slot.table.store(table, std::memory_order_seq_cst);
      const Table* again = current_.load(std::memory_order_seq_cst);
      if (again == table) break;
      table = again;
    }
    const std::vector<Entry>& entries = (*table)[static_cast<std::size_t>(rank)];
    const auto a = reinterpret_cast<std::uintptr_t>(addr);
    // Last entry whose base <= a.
    auto it = std::upper_bound(entries.begin(), entries.end(), a,
                               [](std::uintptr_t v, const Entry& e) { return v < e.base; });
    const Slice* found = nullptr;
    if (it != entries.begin() && std::prev(it)->slice->contains(a, extent)) found = std::prev(it)->slice;
    slot.table.store(nullptr, std::memory_order_release);
    return found;
  }

  void add(const std::vector<Slice>& slices);
  void remove(std::int64_t segment);

  /// Tables and removed slices not yet freed (the current table included): what a leak test
  /// watches.
  std::size_t live_tables() const;

 private:
  struct Entry {
    std::uintptr_t base;
    const Slice* slice;
  };
  using Table = std::vector<std::vector<Entry>>;  // per rank, sorted by base

  /// Publishes `next` and retires the table it replaces (under writer_).
  void publish(std::unique_ptr<const Table> next);
  /// Frees the retired tables no hazard slot names (under writer_).
  void reclaim();

  std::atomic<const Table*> current_;
  std::unique_ptr<const Table> owned_current_;
  std::vector<std::unique_ptr<const Table>> retired_;
  std::map<std::int64_t, std::vector<std::unique_ptr<const Slice>>> slices_;  // per segment
  std::vector<std::unique_ptr<const Slice>> doomed_slices_;  // removed; retired tables may point here
  mutable std::mutex writer_;
};

}  // namespace armada::rma::detail
