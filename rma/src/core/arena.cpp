#include "core/arena.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <iterator>
#include <limits>

#include "core/state.hpp"

namespace armada::rma::detail {

namespace {

// Where the reservation is tried, in order: far above a position-independent program's heap
// and below the area where the kernel places mmap()s and libraries (0x7f..., randomised per
// process by up to 1 TiB, which is why rank 0's own mmap address would not do).
constexpr std::uintptr_t kCandidates[] = {0x200000000000, 0x400000000000, 0x100000000000};
constexpr std::size_t kAlign = 4096;

constexpr int kReserveFlags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;

// ", RLIMIT_AS (ulimit -v) is N GiB" where the process's address space is limited, else "".
std::string address_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return "";
  return ", RLIMIT_AS (ulimit -v) is " + std::to_string(limit.rlim_cur >> 30) + " GiB";
}

void* reserve_at(std::uintptr_t at, std::size_t bytes) {
  void* p = mmap(reinterpret_cast<void*>(at), bytes, PROT_NONE, kReserveFlags | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  if (p != reinterpret_cast<void*>(at)) {  // a kernel before 4.17 takes the flag as a hint
    munmap(p, bytes);
    return nullptr;
  }
  return p;
}

}  // namespace

SymmetricArena::SymmetricArena(const char* op, MPI_Comm world, std::size_t bytes) {
  bytes = bytes / kAlign * kAlign;
  if (bytes == 0) {
    reason_ = "off (ARMADA_SYMMETRIC_GIB=0)";
    return;
  }
#if defined(__SANITIZE_THREAD__)
  (void)op, (void)world;
  reason_ = "off (ThreadSanitizer's memory layout leaves no room for it)";
  return;
#else
  int error = 0;
  for (std::uintptr_t at : kCandidates) {
    void* p = reserve_at(at, bytes);
    if (!p) error = errno;
    int everyone = p != nullptr;
    allreduce_polling(op, &everyone, 1, MPI_INT, MPI_MIN, world);
    if (everyone) {
      base_ = static_cast<std::byte*>(p);
      size_ = bytes;
      free_.emplace(0, bytes);
      return;
    }
    if (p) munmap(p, bytes);
  }
  reason_ = "off (no address range of " + std::to_string(bytes >> 30) +
            " GiB was free at the same place on every rank; here: " + (error ? std::strerror(error) : "free") +
            address_limit() + "; ARMADA_SYMMETRIC_GIB sets the size)";
#endif
}

SymmetricArena::~SymmetricArena() {
  if (base_) munmap(base_, size_);
}

std::size_t SymmetricArena::lowest_fit(std::size_t from, std::size_t bytes) const {
  auto it = free_.upper_bound(from);
  if (it != free_.begin()) {
    auto before = std::prev(it);
    if (before->first + before->second > from && before->first + before->second - from >= bytes) return from;
  }
  for (; it != free_.end(); ++it)
    if (it->second >= bytes) return it->first;
  return std::numeric_limits<std::size_t>::max();
}

bool SymmetricArena::fits(std::size_t at, std::size_t bytes) const {
  return lowest_fit(at, bytes) == at;
}

void SymmetricArena::take_range(std::size_t at, std::size_t bytes) {
  auto it = std::prev(free_.upper_bound(at));  // the free range holding [at, at + bytes)
  const std::size_t start = it->first, length = it->second;
  free_.erase(it);
  if (at > start) free_.emplace(start, at - start);
  if (start + length > at + bytes) free_.emplace(at + bytes, start + length - at - bytes);
}

std::byte* SymmetricArena::take(const char* op, std::size_t bytes, MPI_Comm comm) {
  if (!base_ || bytes == 0) return nullptr;
  bytes = (bytes + kAlign - 1) / kAlign * kAlign;
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  static_assert(sizeof(std::size_t) == sizeof(std::uint64_t));
  std::size_t candidate = 0;
  for (;;) {
    // Each member proposes its lowest fit at or above the last candidate; the highest is the
    // next candidate (no member has a lower common one). Each takes it if it is free here, at
    // once (another thread's allocation on another group may be taking ranges meanwhile), and
    // gives it back unless every member could.
    {
      std::lock_guard lock(mutex_);
      candidate = lowest_fit(candidate, bytes);
    }
    allreduce_polling(op, &candidate, 1, MPI_UINT64_T, MPI_MAX, comm);
    if (candidate == kNone) return nullptr;
    int took = 0;
    {
      std::lock_guard lock(mutex_);
      if (fits(candidate, bytes)) {
        take_range(candidate, bytes);
        took = 1;
      }
    }
    int everyone = took;
    allreduce_polling(op, &everyone, 1, MPI_INT, MPI_MIN, comm);
    if (everyone) return base_ + candidate;
    if (took) give_back(base_ + candidate, bytes);
  }
}

void SymmetricArena::give_back(std::byte* at, std::size_t bytes, std::size_t unmapped) noexcept {
  bytes = (bytes + kAlign - 1) / kAlign * kAlign;
  unmapped = (unmapped + kAlign - 1) / kAlign * kAlign;
  if (unmapped > 0 && !reserve_at(reinterpret_cast<std::uintptr_t>(at), unmapped)) return;  // stays taken
  std::lock_guard lock(mutex_);
  std::size_t start = static_cast<std::size_t>(at - base_), length = bytes;
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + length) {  // merge with the range after
    length += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {  // and with the one before
    auto before = std::prev(next);
    if (before->first + before->second == start) {
      start = before->first;
      length += before->second;
      free_.erase(before);
    }
  }
  free_.emplace(start, length);
}

}  // namespace armada::rma::detail
