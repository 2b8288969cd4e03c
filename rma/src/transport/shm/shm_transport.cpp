#include "transport/shm/shm_transport.hpp"

#include <atomic>
#include <memory>
#include <cstring>

#include "common/check.hpp"
#include "transport/base/locks.hpp"
#include "transport/plugin.hpp"

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

TransportCaps ShmTransport::caps() const noexcept {
  TransportCaps c;
  c.put_get_one_sided = c.acc_one_sided = c.rmw_one_sided = c.mutex_one_sided = true;  // load/store
  return c;
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
        memory_.accumulate(op.type, op.scale, s, d, reinterpret_cast<std::uintptr_t>(d + to_remote),
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
        memory_.accumulate(op.type, op.scale, static_cast<const std::byte*>(set.src[i]), s->map(set.dst[i]),
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

void ShmTransport::rmw(RmwOp op, std::size_t width, void* remote, const Slice& slice, int,
                       const void* operand, const void* compare, void* result) {
  NodeMemory::rmw(op, width, slice.map(remote), operand, compare, result);
}

void ShmTransport::mutex_lock(void* word, const Slice& slice, int) {
  reinterpret_cast<TicketMutex*>(slice.map(word))->lock(my_rank_, memory_.spin_limit(), memory_.meanwhile());
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

// ---- registration ------------------------------------------------------------------------------

namespace {
std::unique_ptr<Transport> start_shm(const TransportContext& c) {
  return std::make_unique<ShmTransport>(c.node_memory, c.rank);
}
}  // namespace

extern const TransportEntry kShmTransport{
    .name = "shm",
    .role = TransportRole::NodeMemory,
    .summary = "same node: memcpy on the node's shared memory, accumulates under stripe locks, hardware atomics",
    .settings = {},
    .below_thread_multiple = nullptr,
    .start = start_shm,
};

}  // namespace armada::rma::detail
