#include "memory/ma_segment.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace armada::ga {

namespace {

constexpr std::uintptr_t kHuge = 2u << 20;  // segments start on a 2 MiB boundary (huge pages)
// Left free above the program for its brk heap when the segment must go above it.
constexpr std::uintptr_t kBrkRoom = std::uintptr_t{256} << 20;

std::uintptr_t round_down(std::uintptr_t p, std::uintptr_t to) { return p / to * to; }
std::uintptr_t round_up(std::uintptr_t p, std::uintptr_t to) { return (p + to - 1) / to * to; }

struct Range {
  std::uintptr_t begin, end;
};

// The mappings of this process, in address order (/proc/self/maps lists them so).
std::vector<Range> mappings() {
  std::vector<Range> out;
  if (std::FILE* f = std::fopen("/proc/self/maps", "r")) {
    unsigned long b = 0, e = 0;
    char line[512];
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "%lx-%lx", &b, &e) == 2) out.push_back({b, e});
    std::fclose(f);
  }
  return out;
}

// The start of the free range of `bytes` closest to [lo, hi): below it, or above it past
// kBrkRoom, whichever ends nearer; 0 if none.
std::uintptr_t nearest_free(std::size_t bytes, std::uintptr_t lo, std::uintptr_t hi) {
  const std::vector<Range> used = mappings();
  std::uintptr_t best = 0, best_distance = std::numeric_limits<std::uintptr_t>::max();
  std::uintptr_t gap_begin = std::uintptr_t{1} << 16;  // below: vm.mmap_min_addr
  for (std::size_t i = 0; i <= used.size(); ++i) {
    const std::uintptr_t gap_end = i < used.size() ? used[i].begin : std::uintptr_t{0x7ff000000000};
    if (gap_end <= lo && gap_end > gap_begin + bytes) {  // below the anchor: its highest part
      const std::uintptr_t at = round_down(gap_end - bytes - kHuge, kHuge);
      if (at >= gap_begin && hi - at < best_distance) best = at, best_distance = hi - at;
    } else if (gap_begin >= hi) {  // above it: past the brk heap's room
      const std::uintptr_t at = round_up(gap_begin + kBrkRoom, kHuge);
      if (at + bytes <= gap_end && at + bytes - lo < best_distance) best = at, best_distance = at + bytes - lo;
    }
    if (i < used.size()) gap_begin = std::max(gap_begin, used[i].end);
  }
  return best;
}

std::uintptr_t g_anchor_lo = 0, g_anchor_hi = 0;

}  // namespace

void ma_anchor(const void* lo, const void* hi) {
  g_anchor_lo = reinterpret_cast<std::uintptr_t>(lo);
  g_anchor_hi = reinterpret_cast<std::uintptr_t>(hi);
}

std::uintptr_t MaPlacement::first_at_or_after(std::uintptr_t p) const {
  while (p % align != 0 || (p - base) % size != 0) ++p;  // at most lcm(align, size) steps
  return p;
}
std::uintptr_t MaPlacement::last_at_or_before(std::uintptr_t p) const {
  while (p % align != 0 || (p - base) % size != 0) --p;
  return p;
}

MaSegment::~MaSegment() {
  if (begin_) munmap(reinterpret_cast<void*>(begin_), end_ - begin_);
}

bool MaSegment::reserve(std::size_t bytes) {
  if (begin_) munmap(reinterpret_cast<void*>(begin_), end_ - begin_);
  begin_ = end_ = stack_low_ = 0;
  stack_.clear();
  heap_.clear();
  bytes = std::max<std::size_t>(round_up(bytes, 4096), 4096);
  void* p = MAP_FAILED;
  if (g_anchor_lo) {
    // Another thread may map the range between the look and the call: then anywhere.
    if (const std::uintptr_t at = nearest_free(bytes, g_anchor_lo, g_anchor_hi))
      p = mmap(reinterpret_cast<void*>(at), bytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  }
  if (p == MAP_FAILED) p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  begin_ = reinterpret_cast<std::uintptr_t>(p);
  end_ = stack_low_ = begin_ + bytes;
  return true;
}

std::uintptr_t MaSegment::heap_high() const { return heap_.empty() ? begin_ : heap_.rbegin()->second; }

char* MaSegment::push(std::size_t bytes, const MaPlacement& where) {
  if (bytes > stack_low_ - heap_high()) return nullptr;
  const std::uintptr_t at = where.last_at_or_before(stack_low_ - bytes);
  if (at < heap_high()) return nullptr;
  stack_.push_back(stack_low_);
  stack_low_ = at;
  return reinterpret_cast<char*>(at);
}

char* MaSegment::allocate(std::size_t bytes, const MaPlacement& where) {
  bytes = std::max<std::size_t>(bytes, 1);  // every live block its own start (the map's key)
  std::uintptr_t gap = begin_;  // first fit over the gaps between live heap blocks, then the top
  for (auto it = heap_.begin();; ++it) {
    const std::uintptr_t gap_end = it == heap_.end() ? stack_low_ : it->first;
    const std::uintptr_t at = where.first_at_or_after(gap);
    if (at <= gap_end && gap_end - at >= bytes) {
      heap_.emplace(at, at + bytes);
      return reinterpret_cast<char*>(at);
    }
    if (it == heap_.end()) return nullptr;
    gap = it->second;
  }
}

void MaSegment::pop() {
  stack_low_ = stack_.back();
  stack_.pop_back();
}

void MaSegment::release(char* p) { heap_.erase(reinterpret_cast<std::uintptr_t>(p)); }

}  // namespace armada::ga
