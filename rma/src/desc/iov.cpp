#include "desc/iov.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "core/check.hpp"

namespace armada::rma::detail {

std::size_t check_iov(const char* op, std::span<const IoSet> sets) {
  std::size_t total = 0;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const IoSet& set = sets[k];
    const std::string where = "sets[" + std::to_string(k) + "]";
    if (set.src.size() != set.dst.size())
      throw_invalid(op, (where + ".dst").c_str(), std::to_string(set.dst.size()) + " pointers",
                    "must list as many pointers as src (" + std::to_string(set.src.size()) + ")");
    if (set.src.empty()) continue;
    if (set.bytes == 0)
      throw_invalid(op, (where + ".bytes").c_str(), "0", "a set with segments needs a segment size of at least 1 byte");
    for (std::size_t i = 0; i < set.src.size(); ++i) {
      if (set.src[i] == nullptr)
        throw_invalid(op, (where + ".src[" + std::to_string(i) + "]").c_str(), "null", "segment address is null");
      if (set.dst[i] == nullptr)
        throw_invalid(op, (where + ".dst[" + std::to_string(i) + "]").c_str(), "null", "segment address is null");
    }
    total += set.src.size();
  }
  return total;
}

namespace {

// Exact answer by sorting: O(n log n). Used to confirm (and name) an overlap the cheaper passes
// suspect, and when the destinations span too much memory for a bitmap.
bool overlap_by_sorting(std::span<const IoSet> sets, std::uintptr_t& first, std::uintptr_t& second) {
  struct Range { std::uintptr_t begin, end; };
  thread_local std::vector<Range> ranges;
  ranges.clear();
  for (const IoSet& set : sets)
    for (void* d : set.dst) {
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

bool find_destination_overlap(std::span<const IoSet> sets, std::uintptr_t& first,
                              std::uintptr_t& second) {
  // Pass 1, O(n): ascending and disjoint is the common case (scatter to increasing indices);
  // also find the span of all destinations and the smallest segment.
  std::uintptr_t end = 0, lo = UINTPTR_MAX, hi = 0;
  std::size_t smallest = SIZE_MAX, segments = 0, total = 0;
  bool ascending = true;
  for (const IoSet& set : sets) {
    if (set.dst.empty()) continue;
    smallest = std::min(smallest, set.bytes);
    segments += set.dst.size();
    total += set.dst.size() * set.bytes;
    for (void* d : set.dst) {
      const auto a = reinterpret_cast<std::uintptr_t>(d);
      ascending &= a >= end;
      end = a + set.bytes;
      lo = std::min(lo, a);
      hi = std::max(hi, end);
    }
  }
  if (ascending) return false;

  // Pass 2, O(n + span / cell): mark cells of 2^k <= smallest bytes in a bitmap. Segments that
  // share no cell cannot overlap. A cell marked twice is only a suspicion (two segments may
  // share a partly covered cell without overlapping): sorting decides, and names the pair.
  // Skipped when the bitmap or the marking would cost more than sorting.
  const unsigned shift = static_cast<unsigned>(std::bit_width(smallest) - 1);
  const std::size_t cells = ((hi - lo) >> shift) + 1;
  if (cells <= (std::size_t{1} << 24) && (total >> shift) <= 16 * segments) {
    thread_local std::vector<std::uint64_t> bits;
    bits.assign((cells + 63) / 64, 0);
    bool suspect = false;
    for (const IoSet& set : sets)
      for (void* d : set.dst) {
        const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(d) - lo;
        for (std::uintptr_t c = off >> shift, last = (off + set.bytes - 1) >> shift; c <= last; ++c) {
          std::uint64_t& word = bits[c >> 6];
          const std::uint64_t bit = std::uint64_t{1} << (c & 63);
          suspect |= (word & bit) != 0;
          word |= bit;
        }
      }
    if (!suspect) return false;
  }
  return overlap_by_sorting(sets, first, second);
}

}  // namespace armada::rma::detail
