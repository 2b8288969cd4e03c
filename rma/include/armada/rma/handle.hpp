// Handles of nonblocking operations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "armada/rma/types.hpp"

namespace armada::rma {

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
/// target, recorded as they are issued (and checked then) and moved at wait() as one put vector
/// operation and one get vector operation. Like any nonblocking operation, the buffers must not
/// be touched until wait(). The destructor waits.
class Aggregate {
 public:
  explicit Aggregate(int target);
  Aggregate(const Aggregate&) = delete;
  Aggregate& operator=(const Aggregate&) = delete;
  ~Aggregate();

  void put(const void* src, void* dst, std::size_t bytes);
  void get(const void* src, void* dst, std::size_t bytes);
  /// Moves everything recorded since the last wait.
  void wait();
  int target() const noexcept { return target_; }
  std::size_t pending() const noexcept { return puts_.size() + gets_.size(); }

 private:
  struct Op { void* src; void* dst; std::size_t bytes; };
  static void flush(std::vector<Op>& ops, bool is_put, int target);
  int target_;
  std::vector<Op> puts_;
  std::vector<Op> gets_;
};

}  // namespace armada::rma
