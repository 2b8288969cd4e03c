// The segment registry: translates (rank, address in that rank's space) to the segment slice
// that holds it, and to this process's mapping of that slice when the rank is on this node.
//
// Readers (every put/get) never lock: the table is an immutable snapshot replaced by the
// (collective, rare) allocate and free; old snapshots are kept until finalize because a
// concurrent reader may still hold one.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace armada::rma::detail {

struct Slice {
  std::uintptr_t base = 0;     // start in the owner's address space
  std::size_t size = 0;
  std::byte* local = nullptr;  // this process's mapping of the slice, or null (off node)
  std::int64_t segment = -1;   // segment id (same on every rank)
  int owner = -1;              // world rank
  // The owner node's shared object holding this slice, for a node server that is not a member
  // of the allocation's group (it maps the object through /proc/<pid>/fd/<fd>).
  int region_pid = -1;
  int region_fd = -1;
  std::uint64_t region_size = 0;
  std::uint64_t region_offset = 0;  // of this slice in the object
  // The segment's MPI window, the owner's rank in it and where `base` lies in the owner's
  // window memory (mpi-rma transport only; the offset is alignment padding of MPI-owned memory).
  MPI_Win window = MPI_WIN_NULL;
  int window_rank = -1;
  std::uint64_t window_offset = 0;

  bool contains(std::uintptr_t addr, std::size_t extent) const noexcept {
    return addr >= base && addr - base <= size && extent <= size - (addr - base);
  }
  /// This process's view of `remote` (valid only when local != null).
  std::byte* map(const void* remote) const noexcept {
    return local + (reinterpret_cast<std::uintptr_t>(remote) - base);
  }
};

class Registry {
 public:
  explicit Registry(int world_size);
  ~Registry();

  /// The slice of `rank` that holds all of [addr, addr + extent), or null. Inline: every
  /// operation starts here.
  const Slice* find(int rank, const void* addr, std::size_t extent) const noexcept {
    const Table& table = *current_.load(std::memory_order_acquire);
    const std::vector<Slice>& slices = table[static_cast<std::size_t>(rank)];
    const auto a = reinterpret_cast<std::uintptr_t>(addr);
    // Last slice whose base <= a.
    auto it = std::upper_bound(slices.begin(), slices.end(), a,
                               [](std::uintptr_t v, const Slice& s) { return v < s.base; });
    if (it == slices.begin()) return nullptr;
    --it;
    return it->contains(a, extent) ? &*it : nullptr;
  }

  void add(const std::vector<Slice>& slices);
  void remove(std::int64_t segment);

 private:
  using Table = std::vector<std::vector<Slice>>;  // per rank, sorted by base
  std::atomic<const Table*> current_;
  std::vector<std::unique_ptr<const Table>> snapshots_;  // every table ever published
  std::mutex writer_;
};

}  // namespace armada::rma::detail
