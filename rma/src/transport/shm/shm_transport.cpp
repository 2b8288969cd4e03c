#include "transport/shm/shm_transport.hpp"

#include <atomic>
#include <cstring>

#include "core/check.hpp"
#include "desc/accumulate.hpp"

namespace armada::rma::detail {

namespace {

template <std::size_t N>
void copy_segments(const IoSet& set, std::size_t first, const VectorOp& op, bool remote_dst) {
  for (std::size_t i = 0; i < set.src.size(); ++i) {
    const Slice* s = &op.slice_of(first + i);
    std::byte* d = remote_dst ? s->map(set.dst[i]) : static_cast<std::byte*>(set.dst[i]);
    const std::byte* from = remote_dst ? static_cast<const std::byte*>(set.src[i]) : s->map(set.src[i]);
    if constexpr (N == 0)
      std::memcpy(d, from, set.bytes);
    else
      std::memcpy(d, from, N);
  }
}

}  // namespace

void ShmTransport::accumulate_into(AccType type, const void* scale, const std::byte* src,
                                   std::byte* dst, std::uintptr_t remote, int owner,
                                   std::size_t bytes) noexcept {
  // Split at stripe boundaries; each piece runs under its own stripe's lock. An element belongs
  // to the stripe of its first byte (with any byte stride, one may straddle a boundary): every
  // accumulate to it takes that stripe, so it stays atomic, and a piece holds whole elements.
  const std::size_t element = size_of(type);
  while (bytes > 0) {
    const std::size_t in_stripe = StripeLocks::kStripeBytes - (remote & (StripeLocks::kStripeBytes - 1));
    const std::size_t whole = (in_stripe + element - 1) / element * element;
    const std::size_t n = bytes < whole ? bytes : whole;
    const std::size_t stripe = StripeLocks::stripe_of(owner, remote);
    locks_.lock(stripe);
    accumulate(type, scale, src, dst, n);
    locks_.unlock(stripe);
    src += n;
    dst += n;
    remote += n;
    bytes -= n;
  }
}

std::uint64_t ShmTransport::strided(const StridedOp& op, bool) {
  const Slice& slice = *op.slice;
  std::byte* mapped = slice.map(op.remote);
  switch (op.kind) {
    case OpKind::Put:
      copy_strided(op.shape, op.local, mapped);
      break;
    case OpKind::Get:
      copy_strided(op.shape, mapped, op.local);
      break;
    case OpKind::Acc: {
      const std::ptrdiff_t to_remote = op.remote - mapped;  // mapping -> owner's addresses
      for_each_run(op.shape, op.local, mapped, [&](const std::byte* s, std::byte* d, std::size_t n) {
        accumulate_into(op.type, op.scale, s, d, reinterpret_cast<std::uintptr_t>(d + to_remote),
                        op.target, n);
      });
      break;
    }
  }
  return 0;
}

std::uint64_t ShmTransport::vector(const VectorOp& op, bool) {
  std::size_t first = 0;
  for (const IoSet& set : op.sets) {
    if (op.kind == OpKind::Acc) {
      for (std::size_t i = 0; i < set.src.size(); ++i) {
        const Slice* s = &op.slice_of(first + i);
        accumulate_into(op.type, op.scale, static_cast<const std::byte*>(set.src[i]), s->map(set.dst[i]),
                        reinterpret_cast<std::uintptr_t>(set.dst[i]), op.target, set.bytes);
      }
    } else {
      const bool put = op.kind == OpKind::Put;
      switch (set.bytes) {  // fixed sizes inline the copy; see copy_strided()
        case 4: copy_segments<4>(set, first, op, put); break;
        case 8: copy_segments<8>(set, first, op, put); break;
        case 16: copy_segments<16>(set, first, op, put); break;
        default: copy_segments<0>(set, first, op, put); break;
      }
    }
    first += set.src.size();
  }
  return 0;
}

namespace {
template <class T>
void rmw_typed(RmwOp op, T* p, const void* operand, const void* compare, void* result) {
  std::atomic_ref<T> a(*p);
  T v, old{};
  std::memcpy(&v, operand, sizeof(T));
  switch (op) {
    case RmwOp::FetchAdd: old = a.fetch_add(v, std::memory_order_seq_cst); break;
    case RmwOp::Swap: old = a.exchange(v, std::memory_order_seq_cst); break;
    case RmwOp::CompareSwap: {
      std::memcpy(&old, compare, sizeof(T));
      a.compare_exchange_strong(old, v, std::memory_order_seq_cst);  // old <- current on failure
      break;
    }
  }
  std::memcpy(result, &old, sizeof(T));
}
}  // namespace

void ShmTransport::rmw(RmwOp op, std::size_t width, void* remote, const Slice& slice, int,
                       const void* operand, const void* compare, void* result) {
  rmw_at(op, width, slice.map(remote), operand, compare, result);
}

void ShmTransport::rmw_at(RmwOp op, std::size_t width, std::byte* p, const void* operand,
                          const void* compare, void* result) noexcept {
  if (width == 4)
    rmw_typed(op, reinterpret_cast<std::int32_t*>(p), operand, compare, result);
  else
    rmw_typed(op, reinterpret_cast<std::int64_t*>(p), operand, compare, result);
}

void ShmTransport::mutex_lock(void* word, const Slice& slice, int) {
  reinterpret_cast<TicketMutex*>(slice.map(word))->lock(my_rank_, spin_limit_);
}

bool ShmTransport::mutex_try_lock(void* word, const Slice& slice, int) {
  return reinterpret_cast<TicketMutex*>(slice.map(word))->try_lock(my_rank_);
}

void ShmTransport::mutex_unlock(void* word, const Slice& slice, int target) {
  if (!reinterpret_cast<TicketMutex*>(slice.map(word))->unlock(my_rank_))
    throw_invalid("rma::MutexSet::unlock", "mutex", to_hex(word) + " on rank " + std::to_string(target),
                  "this rank does not hold the mutex");
}

void ShmTransport::fence(int) { std::atomic_thread_fence(std::memory_order_seq_cst); }
void ShmTransport::fence_all() { std::atomic_thread_fence(std::memory_order_seq_cst); }

}  // namespace armada::rma::detail
