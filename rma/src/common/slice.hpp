// A slice: one rank's part of a collectively allocated segment, as the segment registry
// (common/registry.hpp) finds it and every transport receives it with an operation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace armada::rma::detail {

/// Bytes of per-slice data an inter-node transport keeps in each Slice (Slice::handle): the
/// largest handle is 24 (an MPI window, its group and an offset), and 24 makes a Slice one
/// 64-byte cache line. Slices are made only for the ranks a process looks up; the registry keeps
/// a segment's handles once where every member's is the same (common/registry.hpp).
inline constexpr std::size_t kSliceHandleBytes = 24;

struct Slice {
  std::uintptr_t base = 0;     // start in the owner's address space
  std::size_t size = 0;
  std::byte* local = nullptr;  // this process's mapping of the slice, or null (off node)
  std::int64_t segment = -1;   // segment id (same on every rank)
  int owner = -1;              // world rank
  // Armada's own memory (mutex words, collective-arrival slots): no put, get, accumulate or
  // atomic of a user may address it, so that an off-by-one past a user's segment that lands
  // here (segments can abut) is an error, not a corrupted lock. In the padding after owner.
  bool internal = false;
  // The inter-node transport's per-slice data (an MPI window and its group, a remote key...),
  // written by its segment_created hook and opaque to the core: inline, so an operation reads
  // it without another pointer chase. One transport uses it (only one inter-node transport
  // runs; shm needs none).
  alignas(8) std::byte handle_bytes[kSliceHandleBytes] = {};

  bool contains(std::uintptr_t addr, std::size_t extent) const noexcept {
    return addr >= base && addr - base <= size && extent <= size - (addr - base);
  }
  /// This process's view of `remote` (valid only when local != null).
  std::byte* map(const void* remote) const noexcept {
    return local + (reinterpret_cast<std::uintptr_t>(remote) - base);
  }
  /// The transport's per-slice data (T: trivially copyable, at most kSliceHandleBytes).
  template <class T>
  const T& handle() const noexcept {
    check_handle_type<T>();
    return *std::launder(reinterpret_cast<const T*>(handle_bytes));
  }
  template <class T>
  void set_handle(const T& value) noexcept {
    check_handle_type<T>();
    new (handle_bytes) T(value);
  }

 private:
  template <class T>
  static constexpr void check_handle_type() noexcept {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                  "a slice handle is copied and dropped with its slice");
    static_assert(sizeof(T) <= kSliceHandleBytes && alignof(T) <= 8, "a slice handle fits kSliceHandleBytes");
  }
};
static_assert(sizeof(Slice) == 64, "a slice is one cache line (kSliceHandleBytes)");

}  // namespace armada::rma::detail
