// MA's memory: one mapping, reserved by MA_init, that holds the heap (from its low end, first
// fit) and the stack (from its high end, last in first out), as GA's MA keeps both in one
// segment whose size MA_init fixes.
//
// Why one mapping, and where: a Fortran program reaches an MA block as a one-based index into
// the common block of its type (dbl_mb(index)), and with 4-byte INTEGER that index must fit 32
// bits, i.e. lie within 2^31 elements of the common block. Blocks of their own malloc landed
// wherever glibc maps large requests (terabytes from a program's .bss), so 4-byte programs could
// not use a block of 128 KiB or more. The Fortran library names its common blocks (ma_anchor);
// the segment is then placed in the free address range nearest to them, below the program where
// that range is free (so the brk heap above the program keeps its room).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace armada::ga {

/// Where a block may start: aligned to `align` and a whole number of `size`-byte elements from
/// `base` (MA's index of the block is then exact).
struct MaPlacement {
  std::size_t size;
  std::size_t align;
  std::uintptr_t base;
  std::uintptr_t first_at_or_after(std::uintptr_t p) const;
  std::uintptr_t last_at_or_before(std::uintptr_t p) const;
};

class MaSegment {
 public:
  MaSegment() = default;
  ~MaSegment();
  MaSegment(const MaSegment&) = delete;
  MaSegment& operator=(const MaSegment&) = delete;

  /// Maps `bytes` near the common blocks ma_anchor named (anywhere without them), replacing
  /// the previous mapping (which must hold no block). False if the system refuses.
  bool reserve(std::size_t bytes);
  bool reserved() const { return begin_ != 0; }

  /// A block of `bytes` at an address `where` accepts; nullptr when it does not fit between the
  /// heap and the stack.
  char* push(std::size_t bytes, const MaPlacement& where);
  char* allocate(std::size_t bytes, const MaPlacement& where);
  /// Frees the stack's top block / the live heap block at `p`.
  void pop();
  void release(char* p);

  /// Bytes between the heap's highest block and the stack's lowest (MA_inquire_avail's answer).
  std::size_t available() const { return stack_low_ - heap_high(); }
  std::size_t size() const { return end_ - begin_; }
  bool empty() const { return heap_.empty() && stack_.empty(); }

 private:
  std::uintptr_t heap_high() const;

  std::uintptr_t begin_ = 0, end_ = 0;
  std::uintptr_t stack_low_ = 0;            // the stack's lowest byte in use (end_ when empty)
  std::vector<std::uintptr_t> stack_;       // per stack block, stack_low_ before it was pushed
  std::map<std::uintptr_t, std::uintptr_t> heap_;  // live heap blocks: start -> end
};

/// The address range of MA's Fortran common blocks (the Fortran library names it when loaded),
/// within which reach MA_init places its segment.
void ma_anchor(const void* lo, const void* hi);

}  // namespace armada::ga
