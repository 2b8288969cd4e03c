#include "desc/iov.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "common/check.hpp"

namespace armada::rma::detail {

namespace {
[[noreturn]] void bad_pointer(const char* op, std::size_t k, const char* side, std::size_t i) {
  throw_invalid(op, ("sets[" + std::to_string(k) + "]." + side + "[" + std::to_string(i) + "]").c_str(), "null",
                "segment address is null");
}
}  // namespace

IovScan scan_iov(const char* op, std::span<const IoSet> sets, bool remote_is_dst) {
  IovScan scan;
  std::uintptr_t end = 0;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const IoSet& set = sets[k];
    if (set.src.size() != set.dst.size())
      throw_invalid(op, ("sets[" + std::to_string(k) + "].dst").c_str(), std::to_string(set.dst.size()) + " pointers",
                    "must list as many pointers as src (" + std::to_string(set.src.size()) + ")");
    if (set.src.empty()) continue;
    if (set.bytes == 0)
      throw_invalid(op, ("sets[" + std::to_string(k) + "].bytes").c_str(), "0",
                    "a set with segments needs a segment size of at least 1 byte");
    scan.segments += set.src.size();
    scan.total_bytes += set.src.size() * set.bytes;
    scan.smallest = std::min(scan.smallest, set.bytes);
    for (std::size_t i = 0; i < set.src.size(); ++i) {
      const auto s = reinterpret_cast<std::uintptr_t>(set.src[i]);
      const auto d = reinterpret_cast<std::uintptr_t>(set.dst[i]);
      if (s == 0) bad_pointer(op, k, "src", i);
      if (d == 0) bad_pointer(op, k, "dst", i);
      const std::uintptr_t r = remote_is_dst ? d : s;
      scan.remote_lo = std::min(scan.remote_lo, r);
      scan.remote_hi = std::max(scan.remote_hi, r + set.bytes);
      scan.dst_ascending &= d >= end;
      end = d + set.bytes;
      scan.dst_lo = std::min(scan.dst_lo, d);
      scan.dst_hi = std::max(scan.dst_hi, end);
    }
  }
  return scan;
}

namespace {

// Exact answer by sorting: O(n log n). Used to confirm (and name) an overlap the cheaper passes
// suspect, and when the destinations span too much memory for a bitmap.
bool overlap_by_sorting(std::span<const IoSet> sets, bool dst_side, std::uintptr_t& first,
                        std::uintptr_t& second) {
  struct Range { std::uintptr_t begin, end; };
  thread_local std::vector<Range> tls_ranges;
  std::vector<Range>& ranges = tls_ranges;
  ranges.clear();
  for (const IoSet& set : sets)
    for (void* d : dst_side ? set.dst : set.src) {
      const auto a = reinterpret_cast<std::uintptr_t>(d);
      ranges.push_back({a, a + set.bytes});
    }
  std::sort(ranges.begin(), ranges.end(), [](const Range& x, const Range& y) { return x.begin < y.begin; });
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].begin < ranges[i - 1].end) {
      first = ranges[i - 1].begin;
      second = ranges[i].begin;
      return true;
    }
  return false;
}

}  // namespace

bool find_destination_overlap(std::span<const IoSet> sets, const IovScan& scan,
                              std::uintptr_t& first, std::uintptr_t& second) {
  // Ascending and disjoint is the common case (scatter to increasing indices).
  if (scan.dst_ascending) return false;

  // Mark cells of 2^k <= smallest bytes in a bitmap. Segments that share no cell cannot
  // overlap. A cell marked twice is only a suspicion (two segments may share a partly covered
  // cell without overlapping): sorting decides, and names the pair. Skipped when the bitmap or
  // the marking would cost more than sorting.
  const unsigned shift = static_cast<unsigned>(std::bit_width(scan.smallest) - 1);
  const std::size_t cells = ((scan.dst_hi - scan.dst_lo) >> shift) + 1;
  if (cells <= (std::size_t{1} << 24) && (scan.total_bytes >> shift) <= 16 * scan.segments) {
    thread_local std::vector<std::uint64_t> tls_bits;
    std::vector<std::uint64_t>& bits = tls_bits;  // one TLS lookup, not one per cell
    bits.assign((cells + 63) / 64, 0);
    bool suspect = false;
    for (const IoSet& set : sets)
      for (void* d : set.dst) {
        const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(d) - scan.dst_lo;
        for (std::uintptr_t c = off >> shift, last = (off + set.bytes - 1) >> shift; c <= last; ++c) {
          std::uint64_t& word = bits[c >> 6];
          const std::uint64_t bit = std::uint64_t{1} << (c & 63);
          suspect |= (word & bit) != 0;
          word |= bit;
        }
      }
    if (!suspect) return false;
  }
  return overlap_by_sorting(sets, true, first, second);
}

bool side_overlaps(std::span<const IoSet> sets, bool dst_side) {
  // Ascending and disjoint in order is the common case: one pass, no sorting.
  std::uintptr_t end = 0;
  bool ascending = true;
  for (const IoSet& set : sets) {
    for (void* p : dst_side ? set.dst : set.src) {
      const auto a = reinterpret_cast<std::uintptr_t>(p);
      if (a < end) {
        ascending = false;
        break;
      }
      end = a + set.bytes;
    }
    if (!ascending) break;
  }
  if (ascending) return false;
  std::uintptr_t first = 0, second = 0;
  return overlap_by_sorting(sets, dst_side, first, second);
}

}  // namespace armada::rma::detail
