#include "desc/iov.hpp"

#include <algorithm>
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

bool find_destination_overlap(std::span<const IoSet> sets, std::uintptr_t& first,
                              std::uintptr_t& second) {
  // Fast path: all destinations ascending and disjoint, checked in one pass.
  std::uintptr_t end = 0, last = 0;
  bool ascending = true;
  for (const IoSet& set : sets) {
    for (void* d : set.dst) {
      const auto a = reinterpret_cast<std::uintptr_t>(d);
      if (a < end) {
        ascending = false;
        break;
      }
      last = a;
      end = a + set.bytes;
    }
    if (!ascending) break;
  }
  (void)last;
  if (ascending) return false;

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

}  // namespace armada::rma::detail
