// Handles of nonblocking operations.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "armada/rma/types.hpp"

namespace armada::rma {

namespace detail {
struct Slice;  // a resolved remote segment slice (rma/src/core/registry.hpp)
}

/// An explicit handle of one nonblocking operation. Waiting completes that operation only
/// (a put's or accumulate's source may then be reused; a get's data is in place). A handle that
/// is destroyed while pending waits first, so no operation outlives its buffers unnoticed.
/// Handles are movable, not copyable; there is no limit on how many are outstanding.
class Handle {
 public:
  Handle() = default;
  Handle(Handle&& other) noexcept : target_(other.target_), token_(other.token_) { other.token_ = 0; }
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();

  /// Blocks until the operation has completed locally.
  void wait();
  /// True if the operation has completed (then wait() returns at once).
  bool test();
  /// Target rank of the operation (-1 for an empty handle).
  int target() const noexcept { return target_; }

  /// Transport-internal: a handle of an operation to `target` that its transport tracks under
  /// `token` (0 = already complete).
  Handle(int target, std::uint64_t token) noexcept : target_(target), token_(token) {}

 private:
  int target_ = -1;
  std::uint64_t token_ = 0;
};

/// An aggregate handle (ARMCI_SET_AGGREGATE_HANDLE): many small contiguous puts and gets to one
/// target, checked and resolved as they are recorded, and moved at wait() as one put vector
/// operation and one get vector operation (one set per distinct size). Like any nonblocking
/// operation, the buffers must not be touched until wait(). The destructor waits.
class Aggregate {
 public:
  explicit Aggregate(int target);
  Aggregate(const Aggregate&) = delete;
  Aggregate& operator=(const Aggregate&) = delete;
  ~Aggregate();

  /// Records a put (checked now, moved at wait()).
  void put(const void* src, void* dst, std::size_t bytes) {
    // Inline fast path for the usual stream of equal-sized operations into one slice: the
    // checks record() made for the previous operation cover this one too.
    const auto a = reinterpret_cast<std::uintptr_t>(dst);
    if (last_put_ && last_put_->bytes == bytes && src && a >= fast_lo_ && a < fast_hi_ && bytes <= fast_hi_ - a) {
      last_put_->src.push_back(const_cast<void*>(src));
      last_put_->dst.push_back(dst);
      ++pending_;
      return;
    }
    record(true, src, dst, bytes);
  }
  /// Records a get (checked now, moved at wait()).
  void get(const void* src, void* dst, std::size_t bytes) { record(false, src, dst, bytes); }
  /// Moves everything recorded since the last wait.
  void wait();
  int target() const noexcept { return target_; }
  std::size_t pending() const noexcept { return pending_; }

 private:
  // Operations of one direction and one size, kept in the layout of an IoSet, with the
  // resolved remote slice of each once they stop all being in first_slice_.
  struct Batch {
    std::size_t bytes;
    std::vector<void*> src, dst;
    std::vector<const detail::Slice*> slices;
  };
  void record(bool is_put, const void* src, void* dst, std::size_t bytes);
  void flush(std::deque<Batch>& batches, bool is_put);
  int target_;
  std::size_t pending_ = 0;
  const detail::Slice* last_slice_ = nullptr;
  const detail::Slice* first_slice_ = nullptr;  // the slice of every operation so far, unless
  bool mixed_slices_ = false;                   // ... they span several slices
  Batch* last_put_ = nullptr;                   // fast path: batch of the last put, while all
  std::uintptr_t fast_lo_ = 0, fast_hi_ = 0;    // ... puts are in first_slice_ = [lo, hi)
  std::deque<Batch> puts_, gets_;  // deque: last_put_ stays valid as batches are added
};

}  // namespace armada::rma
