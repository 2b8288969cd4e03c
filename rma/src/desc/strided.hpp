// Strided descriptors: checking, normalization and iteration over contiguous runs.
//
// A shape is ARMCI's: count[0] contiguous bytes, repeated count[1..levels] times at the strides
// of each level, with separate source and destination strides.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace armada::rma::detail {

inline constexpr int kMaxLevels = 8;

struct Shape {
  int levels = 0;
  std::size_t count[kMaxLevels + 1] = {};
  std::size_t src_stride[kMaxLevels] = {};
  std::size_t dst_stride[kMaxLevels] = {};

  /// The shape of one contiguous run of `bytes` bytes (no levels).
  static Shape single_run(std::size_t bytes) noexcept {
    Shape s;
    s.count[0] = bytes;
    return s;
  }
  /// Number of bytes moved.
  std::size_t bytes() const noexcept;
  /// Number of contiguous runs.
  std::size_t runs() const noexcept;
};

/// Bytes from the first to one past the last byte the shape touches on one side.
std::size_t extent(const Shape& s, bool dst_side) noexcept;

/// Checks a strided descriptor of the public API and returns it as a normalized Shape.
/// Throws InvalidArgument (naming `op`) for: more than 8 levels, stride arrays of the wrong
/// length, a zero count, a stride smaller than the level below it spans (which would make runs
/// of one side overlap or interleave), or a size that overflows.
Shape make_shape(const char* op, std::span<const std::size_t> src_stride,
                 std::span<const std::size_t> dst_stride, std::span<const std::size_t> count);

/// Drops levels of count 1 and merges levels that are contiguous on both sides, so that a
/// strided operation describing contiguous memory becomes one run.
void normalize(Shape& s) noexcept;

/// Calls f(src, dst, count[0]) for every contiguous run, in memory order of the levels.
template <class F>
inline void for_each_run(const Shape& s, const std::byte* src, std::byte* dst, F&& f) {
  const std::size_t n0 = s.count[0];
  if (s.levels == 0) {
    f(src, dst, n0);
    return;
  }
  const std::size_t n1 = s.count[1];
  const std::size_t ss = s.src_stride[0], ds = s.dst_stride[0];
  std::size_t index[kMaxLevels] = {};
  for (;;) {
    const std::byte* sp = src;
    std::byte* dp = dst;
    for (std::size_t i = 0; i < n1; ++i, sp += ss, dp += ds) f(sp, dp, n0);
    int l = 1;
    for (; l < s.levels; ++l) {
      if (++index[l] < s.count[l + 1]) {
        src += s.src_stride[l];
        dst += s.dst_stride[l];
        break;
      }
      src -= s.src_stride[l] * (s.count[l + 1] - 1);
      dst -= s.dst_stride[l] * (s.count[l + 1] - 1);
      index[l] = 0;
    }
    if (l == s.levels) return;
  }
}

/// Copies a shape. Runs of 4 to 64 bytes get fixed-size copies the compiler inlines; the call
/// overhead of memcpy would otherwise dominate small-segment transfers.
void copy_strided(const Shape& s, const std::byte* src, std::byte* dst) noexcept;

}  // namespace armada::rma::detail
