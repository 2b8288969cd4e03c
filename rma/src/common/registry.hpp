// The segment registry: translates (rank, address in that rank's space) to the segment slice
// that holds it, and to this process's mapping of that slice when the rank is on this node.
//
// Readers (every put/get) never lock: they search an immutable row (one per rank, its entries
// sorted by base) that the (collective, rare) allocate and free replace, only the rows of the
// segment's members (issue 53: replacing a whole table of every rank's entries made each call
// O(P x segments) in time and a transient copy). A lookup costs what it did: the load of one
// pointer (the rank's row) and a binary search. A superseded row is freed as soon as no reader
// is still searching it: each reading thread names the row it searches in its own hazard slot,
// and a writer frees only retired rows that no slot names (hazard pointers).
//
// Slices are made for the ranks this process looks up, not for every member of every segment
// (issue 53: a 64-byte slice and a 16-byte row entry per member per segment were most of what an
// array cost per rank of the job). A segment keeps its members compactly: a base each, none where
// the symmetric arena placed them (one origin); sizes only where they differ; a transport's handle
// once where every member's is the same, else only where one is set; owners only where they are
// not ranks 0..m-1; the node's mappings only for the members this node maps. A
// rank's row is built at its first lookup (under the writers' lock, then published like any
// row), and from then on allocate makes that rank's slices at once. A slice lives at a stable
// address until its segment is removed: a caller may use what find() returned for as long as
// the segment stays allocated.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "armada/rma/symmetric_layout.hpp"
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

/// A segment whose members' bases follow from one origin (core/arena.hpp: every node's object
/// at one address): member i's base is origin + place[i] * slot. `place` is the group's, shared
/// by all its segments, so the segment keeps no base per member.
using SymmetricBases = SymmetricLayout;

class Registry {
 public:
  explicit Registry(int world_size);
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  /// The slice of `rank` that holds all of [addr, addr + extent), or null. Inline: every
  /// operation starts here. A rank's first lookup builds its row (find_first).
  const Slice* find(int rank, const void* addr, std::size_t extent) const noexcept {
    const std::atomic<const Row*>& cell = rows_[static_cast<std::size_t>(rank)];
    const Row* row = cell.load(std::memory_order_acquire);
    if (!row) return find_first(rank, addr, extent);  // null: not built yet (built rows never are)
    HazardSlot& slot = hazard_slot();
    for (;;) {  // publish the row, then check it is still current: a writer will see the slot
      slot.table.store(row, std::memory_order_seq_cst);
      const Row* again = cell.load(std::memory_order_seq_cst);
      if (again == row) break;
      row = again;  // a built row is replaced by a built row, never by null
    }
    const Slice* found = nullptr;
    const auto a = reinterpret_cast<std::uintptr_t>(addr);
    // Last entry whose base <= a.
    auto it = std::upper_bound(row->begin(), row->end(), a, [](std::uintptr_t v, const Entry& e) { return v < e.base; });
    if (it != row->begin() && std::prev(it)->slice->contains(a, extent)) found = std::prev(it)->slice;
    slot.table.store(nullptr, std::memory_order_release);
    return found;
  }

  /// A segment's non-empty slices, all of one segment, with their handles and this node's
  /// mappings written (segment_created): kept compactly, made into slices per rank looked up.
  /// `symmetric`: how the slices' bases follow from one origin, if they do (checked here: a
  /// slice it does not describe keeps the segment's bases per member). Returns whether the
  /// segment keeps `symmetric` instead of its bases.
  bool add(const std::vector<Slice>& slices, const std::optional<SymmetricBases>& symmetric = std::nullopt);
  void remove(std::int64_t segment);

  /// Retired rows and removed segments not yet freed, plus one: what a leak test watches (1 when
  /// nothing superseded is kept).
  std::size_t live_tables() const;
  /// Index entries copied by add, remove and row builds so far (their cost; tests watch it).
  std::size_t entries_copied() const;
  /// Slices made so far (at ranks' first lookups and for ranks already looked up; tests).
  std::size_t slices_made() const;
  /// Bytes the segments keep for their members, made slices excluded (tests).
  std::size_t member_bytes() const;

 private:
  struct Entry {
    std::uintptr_t base;
    const Slice* slice;
  };
  using Row = std::vector<Entry>;  // one rank's entries, sorted by base

  /// A segment's members, compact; slices made from them live in `made` (stable addresses).
  struct Segment {
    std::int64_t id = -1;
    std::size_t count = 0;                  // members (non-empty slices)
    std::vector<int> owners;                // world rank per member; empty: member i is rank i
    std::vector<std::uint32_t> by_owner;    // member indices sorted by owner; empty: owners ascend
    std::vector<std::uintptr_t> bases;      // empty: every member's is symmetric's
    SymmetricBases symmetric;
    std::vector<std::uint64_t> sizes;       // empty: every member's is `size`
    std::uint64_t size = 0;
    bool internal = false;                  // Slice::internal of every member
    std::array<std::byte, kSliceHandleBytes> handle{};  // every member's, unless listed in `handles`
    std::vector<std::pair<std::uint32_t, std::array<std::byte, kSliceHandleBytes>>> handles;  // (member, its own)
    std::vector<std::pair<std::uint32_t, std::byte*>> locals;       // (member, this node's mapping)
    std::deque<Slice> made;

    Segment(const std::vector<Slice>& slices, const std::optional<SymmetricBases>& symmetric);
    std::uintptr_t base(std::size_t member) const noexcept {
      return bases.empty() ? reinterpret_cast<std::uintptr_t>(symmetric.base(static_cast<int>(member))) : bases[member];
    }
    /// The member index of world rank `rank`, or -1.
    long member_of(int rank) const noexcept;
    int owner(std::size_t member) const noexcept { return owners.empty() ? static_cast<int>(member) : owners[member]; }
    /// A slice of member `member`, made now (kept in `made`).
    const Slice* make(std::size_t member);
    std::size_t bytes() const noexcept;
  };

  /// find() of a rank whose row is not built: builds it from every segment, then finds.
  const Slice* find_first(int rank, const void* addr, std::size_t extent) const noexcept;
  /// Replaces rank's row by `next` and retires the old one (under writer_).
  void publish(int rank, std::unique_ptr<const Row> next) const;
  /// Frees the retired rows no hazard slot names (under writer_).
  void reclaim() const;

  std::unique_ptr<std::atomic<const Row*>[]> rows_;  // per rank; null until its first lookup, then never
  int world_size_ = 0;
  mutable std::vector<std::unique_ptr<const Row>> retired_;
  std::map<std::int64_t, std::unique_ptr<Segment>> segments_;
  mutable std::vector<std::unique_ptr<Segment>> doomed_;  // removed; retired rows may point here
  mutable std::size_t copied_ = 0, made_ = 0;
  mutable std::mutex writer_;
};

}  // namespace armada::rma::detail
