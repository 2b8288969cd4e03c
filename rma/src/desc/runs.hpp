// Walking the contiguous runs of one side of a transfer, a piece at a time, so that data can be
// packed into (or unpacked from) a stream of chunks whose boundaries fall anywhere in a run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "desc/strided.hpp"

namespace armada::rma::detail {

/// The runs of one side: a strided side (base, count[0..levels], strides) or a list of
/// (address, bytes) runs (vector operations).
class RunWalker {
 public:
  /// One side of a shape; `dst_side` picks which strides.
  RunWalker(std::byte* base, const Shape& shape, bool dst_side);
  /// Explicit runs (each of `bytes[i]` bytes at `addr[i]`); `deltas` (optional, one per run)
  /// are returned by run_delta() while that run is walked.
  explicit RunWalker(std::vector<std::pair<std::byte*, std::size_t>> runs,
                     std::vector<std::ptrdiff_t> deltas = {});

  /// Calls f(run_pointer, n) for the next pieces covering up to `n` bytes of the stream, in
  /// order; returns the number of bytes covered (less than n only at the end).
  template <class F>
  std::size_t walk(std::size_t n, F&& f) {
    std::size_t done = 0;
    while (done < n && !at_end_) {
      const std::size_t left = run_len_ - offset_;
      const std::size_t take = left < n - done ? left : n - done;
      f(run_ + offset_, take);
      done += take;
      offset_ += take;
      if (offset_ == run_len_) advance();
    }
    return done;
  }
  /// Packs the next `n` bytes of the runs into `out`; returns the bytes copied.
  std::size_t gather(std::byte* out, std::size_t n) {
    return walk(n, [&](std::byte* run, std::size_t k) {
      std::memcpy(out, run, k);
      out += k;
    });
  }
  /// Unpacks `n` bytes from `in` into the next bytes of the runs; returns the bytes copied.
  std::size_t scatter(const std::byte* in, std::size_t n) {
    return walk(n, [&](std::byte* run, std::size_t k) {
      std::memcpy(run, in, k);
      in += k;
    });
  }
  bool at_end() const noexcept { return at_end_; }
  /// The delta given for the run being walked (explicit runs with deltas only).
  std::ptrdiff_t run_delta() const noexcept { return deltas_.empty() ? 0 : deltas_[list_pos_]; }

 private:
  void advance();
  void load_run();
  // strided
  std::byte* base_ = nullptr;
  Shape shape_;
  bool dst_side_ = false;
  std::size_t index_[kMaxLevels + 1] = {};
  // explicit
  std::vector<std::pair<std::byte*, std::size_t>> list_;
  std::vector<std::ptrdiff_t> deltas_;
  std::size_t list_pos_ = 0;
  bool explicit_ = false;
  // current run
  std::byte* run_ = nullptr;
  std::size_t run_len_ = 0;
  std::size_t offset_ = 0;
  bool at_end_ = false;
};

}  // namespace armada::rma::detail
