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
#include <cstring>
#include <map>
#include <utility>
#include <vector>

namespace armada::ga {

/// Where a block's elements may start: p = residue (mod modulus), a power of two. That keeps
/// the block a whole number of `size`-byte elements from its type's base (MA's index is exact)
/// and, where the base allows it, aligned as asked (MA_set_numalign).
struct MaPlacement {
  std::uintptr_t modulus;
  std::uintptr_t residue;
  /// For elements of `size` bytes aligned to `align` (powers of two) from `base`.
  static MaPlacement of(std::size_t size, std::size_t align, std::uintptr_t base);
  std::uintptr_t first_at_or_after(std::uintptr_t p) const { return p + ((residue - p) & (modulus - 1)); }
  std::uintptr_t last_at_or_before(std::uintptr_t p) const { return p - ((p - residue) & (modulus - 1)); }
};

/// Every block has a guard word on each side of its elements (MA_verify_allocator_stuff checks
/// them): an overrun or underrun of a few bytes is caught.
constexpr std::size_t kMaGuardBytes = 8;
constexpr std::uint64_t kMaLeftGuard = 0xaaaaaaaaaaaaaaaaull, kMaRightGuard = 0x5555555555555555ull;

class MaSegment {
 public:
  MaSegment() = default;
  ~MaSegment();
  MaSegment(const MaSegment&) = delete;
  MaSegment& operator=(const MaSegment&) = delete;

  /// Maps `bytes` near the common blocks ma_anchor named (anywhere without them), replacing
  /// the previous mapping (which must hold no block); the heap's nominal part is its first
  /// `heap_bytes` (MA's unenforced partition). False if the system refuses.
  bool reserve(std::size_t bytes, std::size_t heap_bytes);
  bool reserved() const { return begin_ != 0; }

  /// A block of `bytes` (its elements; the guards are added) at an address `where` accepts,
  /// its guards set; nullptr when it does not fit between the heap and the stack.
  char* push(std::size_t bytes, const MaPlacement& where);
  char* allocate(std::size_t bytes, const MaPlacement& where);
  /// Frees the stack's top block / the live heap block whose elements start at `p`.
  void pop();
  void release(char* p);
  /// Keeps the first `bytes` of the heap block at `p` (MA_free_heap_piece), freeing the rest.
  void shrink(char* p, std::size_t bytes);

  /// The most elements a block may hold in [lo, hi): placed from lo (heap) or from hi (stack).
  static std::size_t fit_from_low(std::uintptr_t lo, std::uintptr_t hi, std::size_t size, const MaPlacement& where);
  static std::size_t fit_from_high(std::uintptr_t lo, std::uintptr_t hi, std::size_t size, const MaPlacement& where);
  /// Whether the guards of the block of `bytes` at `p` are intact (inline: with NWChem's
  /// MA_set_auto_verify every MA call checks every live block's two guards).
  static bool left_guard_ok(const char* p) { return guard_is(p - kMaGuardBytes, kMaLeftGuard); }
  static bool right_guard_ok(const char* p, std::size_t bytes) { return guard_is(p + bytes, kMaRightGuard); }

  std::uintptr_t begin() const { return begin_; }
  std::uintptr_t end() const { return end_; }
  std::uintptr_t partition() const { return partition_; }
  std::uintptr_t heap_high() const { return heap_.empty() ? begin_ : heap_.rbegin()->second; }
  std::uintptr_t stack_low() const { return stack_low_; }
  /// The free ranges between live heap blocks, below heap_high().
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> heap_holes() const;
  /// Bytes between the heap's highest block and the stack's lowest.
  std::size_t available() const { return stack_low_ - heap_high(); }
  std::size_t size() const { return end_ - begin_; }
  bool empty() const { return heap_.empty() && stack_.empty(); }
  /// The segment's own bookkeeping agrees with itself (heap blocks ordered, apart and below the
  /// stack; the stack's blocks within the segment, each below the one before).
  bool consistent() const;

 private:
  static bool guard_is(const char* at, std::uint64_t value) {
    std::uint64_t g = 0;
    std::memcpy(&g, at, kMaGuardBytes);  // unaligned when a block's bytes are odd
    return g == value;
  }
  std::uintptr_t begin_ = 0, end_ = 0, partition_ = 0;
  std::size_t mapped_ = 0;                  // bytes mapped (MA_init's, rounded to pages)
  std::uintptr_t stack_low_ = 0;            // the stack's lowest byte in use (end_ when empty)
  std::vector<std::uintptr_t> stack_;       // per stack block, stack_low_ before it was pushed
  std::map<std::uintptr_t, std::uintptr_t> heap_;  // live heap blocks: start -> end (guards included)
};

/// The address range of MA's Fortran common blocks (the Fortran library names it when loaded),
/// within which reach MA_init places its segment.
void ma_anchor(const void* lo, const void* hi);

/// MA's base of Fortran type `datatype` (MT_F_BYTE ..): the Fortran library's common block, whose
/// first two elements are at `first` and `second` (their distance is the element's size), as
/// GA's MA is told by its Fortran side. Blocks of that type, from C or Fortran, are then placed
/// and indexed against it.
void ma_inform_base(long datatype, const void* first, const void* second);

/// MA_summarize_allocated_blocks with indices from `index_base`: 0 (C's) or 1 (Fortran's).
void ma_summarize_allocated_blocks(int index_base);

}  // namespace armada::ga
