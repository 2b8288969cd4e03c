#include "transport/base/node_memory.hpp"

#include <atomic>
#include <cstring>

#include "desc/accumulate.hpp"

namespace armada::rma::detail {

NodeMemory::NodeMemory(const char* op, MPI_Comm node_comm, int spin_limit)
    : region_(ShmRegion::create(op, node_comm, StripeLocks::region_bytes())),
      locks_(region_.data(), spin_limit),
      spin_limit_(spin_limit) {}

void NodeMemory::accumulate(AccType type, const void* scale, const std::byte* src, std::byte* dst,
                            std::uintptr_t remote, int owner, std::size_t bytes) noexcept {
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
    detail::accumulate(type, scale, src, dst, n);
    locks_.unlock(stripe);
    src += n;
    dst += n;
    remote += n;
    bytes -= n;
  }
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

void NodeMemory::rmw(RmwOp op, std::size_t width, std::byte* p, const void* operand, const void* compare,
                     void* result) noexcept {
  if (width == 4)
    rmw_typed(op, reinterpret_cast<std::int32_t*>(p), operand, compare, result);
  else
    rmw_typed(op, reinterpret_cast<std::int64_t*>(p), operand, compare, result);
}

}  // namespace armada::rma::detail
