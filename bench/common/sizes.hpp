// Message sizes of the benchmarks' sweeps: parsing "8", "4K", "1MiB" and "8:1M" (a range of
// powers of two), and generating the sizes of a range.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace armada::bench {

/// Parses a byte count: a decimal number with an optional binary suffix K, M or G (also KiB,
/// MiB, GiB, k, m, g; "B" alone allowed): "8", "4K", "64KiB", "1M". Throws std::invalid_argument
/// naming `option` and the text for anything else (empty, negative, junk, overflow, zero).
std::size_t parse_size(const std::string& option, const std::string& text);

/// The powers of two from `lo` to `hi`, both included when they are powers of two: lo is
/// rounded up and hi down to a power of two. Throws std::invalid_argument if lo > hi or lo == 0.
std::vector<std::size_t> pow2_range(std::size_t lo, std::size_t hi);

/// Parses a size list: "LO:HI" (pow2_range), a single size, or sizes separated by commas
/// ("8,4K,1M", kept in the order given). Throws std::invalid_argument naming `option`.
std::vector<std::size_t> parse_sizes(const std::string& option, const std::string& text);


/// Buffer rotation (the papers' way of keeping caches from serving every iteration): operation i
/// of `bytes` uses the buffer at offset(i) = (i mod count) × step of a region. Small buffers are
/// 256 B apart (no two share a cache line, and they do not all map to one cache set as 4 KiB
/// apart would), buffers of 4 KiB and more start on page boundaries; count is what fits in
/// `region`, at most `max_count`, at least 1; without rotation count is 1 (one buffer, hot).
struct Rotation {
  std::size_t step = 0, count = 1;
  Rotation(std::size_t bytes, std::size_t region, bool enabled, std::size_t max_count = 4096);
  std::size_t offset(std::size_t i) const noexcept { return (i % count) * step; }
  /// Bytes the buffers span (count × step).
  std::size_t extent() const noexcept { return count * step; }
};

}  // namespace armada::bench
