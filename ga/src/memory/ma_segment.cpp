#include "memory/ma_segment.hpp"

#include "armada/rma/assert.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
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

MaPlacement MaPlacement::of(std::size_t size, std::size_t align, std::uintptr_t base) {
  // The index must be exact: p = base (mod size). A larger alignment is kept when the base is a
  // whole number of elements from it (always, but for an alignment the base itself lacks).
  ARMADA_ASSERT(size > 0 && (size & (size - 1)) == 0 && (align & (align - 1)) == 0);  // MA's types: 2^k
  if (align >= size && base % size == 0) return {align, 0};
  return {size, base % size};
}

MaSegment::~MaSegment() {
  if (begin_) munmap(reinterpret_cast<void*>(begin_), mapped_);
}

bool MaSegment::reserve(std::size_t bytes, std::size_t heap_bytes) {
  if (begin_) munmap(reinterpret_cast<void*>(begin_), mapped_);
  begin_ = end_ = stack_low_ = partition_ = 0;
  stack_.clear();
  heap_.clear();
  const std::size_t asked = bytes;
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
  // MA_init's sizes are the room: the page rounding's bytes stay unused.
  end_ = stack_low_ = begin_ + asked;
  partition_ = begin_ + std::min(heap_bytes, asked);
  mapped_ = bytes;
  return true;
}

namespace {

void set_guards(char* p, std::size_t bytes) {
  std::memcpy(p - kMaGuardBytes, &kMaLeftGuard, kMaGuardBytes);
  std::memcpy(p + bytes, &kMaRightGuard, kMaGuardBytes);  // unaligned when bytes is odd: memcpy
}

}  // namespace

std::size_t MaSegment::fit_from_low(std::uintptr_t lo, std::uintptr_t hi, std::size_t size, const MaPlacement& where) {
  const std::uintptr_t p = where.first_at_or_after(lo + kMaGuardBytes);
  if (hi < lo || p + kMaGuardBytes > hi) return 0;
  return (hi - kMaGuardBytes - p) / size;
}

std::size_t MaSegment::fit_from_high(std::uintptr_t lo, std::uintptr_t hi, std::size_t size, const MaPlacement& where) {
  if (hi < lo || hi - lo < 2 * kMaGuardBytes) return 0;
  // The placement moves a block down by less than a modulus: try the few counts below the bound.
  for (std::size_t n = (hi - lo - 2 * kMaGuardBytes) / size;; --n) {
    const std::uintptr_t p = where.last_at_or_before(hi - kMaGuardBytes - n * size);
    if (p >= lo + kMaGuardBytes) return n;
    if (n == 0) return 0;
  }
}

char* MaSegment::push(std::size_t bytes, const MaPlacement& where) {
  const std::uintptr_t low = heap_high();
  if (stack_low_ - low < bytes + 2 * kMaGuardBytes) return nullptr;
  const std::uintptr_t p = where.last_at_or_before(stack_low_ - kMaGuardBytes - bytes);
  if (p < low + kMaGuardBytes) return nullptr;
  stack_.push_back(stack_low_);
  stack_low_ = p - kMaGuardBytes;
  set_guards(reinterpret_cast<char*>(p), bytes);
  return reinterpret_cast<char*>(p);
}

char* MaSegment::allocate(std::size_t bytes, const MaPlacement& where) {
  std::uintptr_t gap = begin_;  // first fit over the gaps between live heap blocks, then the top
  for (auto it = heap_.begin();; ++it) {
    const std::uintptr_t gap_end = it == heap_.end() ? stack_low_ : it->first;
    const std::uintptr_t p = where.first_at_or_after(gap + kMaGuardBytes);
    if (p + kMaGuardBytes <= gap_end && gap_end - p - kMaGuardBytes >= bytes) {
      heap_.emplace(p - kMaGuardBytes, p + bytes + kMaGuardBytes);
      set_guards(reinterpret_cast<char*>(p), bytes);
      return reinterpret_cast<char*>(p);
    }
    if (it == heap_.end()) return nullptr;
    gap = it->second;
  }
}

void MaSegment::pop() {
  stack_low_ = stack_.back();
  stack_.pop_back();
}

void MaSegment::release(char* p) { heap_.erase(reinterpret_cast<std::uintptr_t>(p) - kMaGuardBytes); }

void MaSegment::shrink(char* p, std::size_t bytes) {
  heap_[reinterpret_cast<std::uintptr_t>(p) - kMaGuardBytes] = reinterpret_cast<std::uintptr_t>(p) + bytes + kMaGuardBytes;
  set_guards(p, bytes);
}

std::vector<std::pair<std::uintptr_t, std::uintptr_t>> MaSegment::heap_holes() const {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> out;
  std::uintptr_t from = begin_;
  for (const auto& [start, end] : heap_) {
    if (start > from) out.emplace_back(from, start);
    from = end;
  }
  return out;
}

bool MaSegment::consistent() const {
  std::uintptr_t from = begin_;
  for (const auto& [start, end] : heap_) {
    if (start < from || end <= start) return false;
    from = end;
  }
  if (from > stack_low_ || stack_low_ > end_) return false;
  std::uintptr_t above = stack_low_;
  for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
    if (*it < above || *it > end_) return false;
    above = *it;
  }
  return true;
}

}  // namespace armada::ga
