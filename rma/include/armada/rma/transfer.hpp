// Data movement: put, get and accumulate; contiguous, strided and I/O vector; blocking and
// nonblocking.
//
// Completion (ARMCI's rules): a blocking put or accumulate returns when the source buffer may be
// reused (local completion); a blocking get returns when the data is in place. Blocking
// operations from one origin to one target are observed in issue order. fence()/fence_all()
// (sync.hpp) wait for remote completion. Nonblocking operations are unordered until waited, and
// their buffers must not be touched before the wait.
//
// Remote addresses must lie, with their whole extent, inside a segment of the target rank made
// by rma::allocate. Every argument is checked before any byte moves (InvalidArgument).
// All functions may be called from several threads at once.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <cstddef>
#include <span>

#include "armada/rma/global_ptr.hpp"
#include "armada/rma/handle.hpp"
#include "armada/rma/types.hpp"

namespace armada::rma {

/// Maximum number of stride levels of a strided operation (count has levels + 1 entries).
inline constexpr int max_stride_levels = 8;

/// A set of equally sized segments of an I/O vector operation (ARMCI's armci_giov_t):
/// segment i moves `bytes` bytes from src[i] to dst[i]. For a put, src are local and dst remote
/// addresses; for a get, the other way round.
struct IoSet {
  std::span<void* const> src;
  std::span<void* const> dst;
  std::size_t bytes = 0;
};

// ---- contiguous --------------------------------------------------------------------------
void put(const void* src, void* dst, std::size_t bytes, int target);
void get(const void* src, void* dst, std::size_t bytes, int target);
/// dst += scale * src elementwise, atomic per element with respect to every other accumulate.
/// `scale` points to one element of `type`.
void acc(AccType type, const void* scale, const void* src, void* dst, std::size_t bytes, int target);

[[nodiscard]] Handle put_nb(const void* src, void* dst, std::size_t bytes, int target);
[[nodiscard]] Handle get_nb(const void* src, void* dst, std::size_t bytes, int target);
[[nodiscard]] Handle acc_nb(AccType type, const void* scale, const void* src, void* dst,
                            std::size_t bytes, int target);

// ---- strided -----------------------------------------------------------------------------
// count[0] contiguous bytes; count[1..L] repetitions at each of L = count.size()-1 stride levels
// (0..8); src_stride and dst_stride hold L byte strides each.
void put_strided(const void* src, std::span<const std::size_t> src_stride, void* dst,
                 std::span<const std::size_t> dst_stride, std::span<const std::size_t> count,
                 int target);
void get_strided(const void* src, std::span<const std::size_t> src_stride, void* dst,
                 std::span<const std::size_t> dst_stride, std::span<const std::size_t> count,
                 int target);
void acc_strided(AccType type, const void* scale, const void* src,
                 std::span<const std::size_t> src_stride, void* dst,
                 std::span<const std::size_t> dst_stride, std::span<const std::size_t> count,
                 int target);
[[nodiscard]] Handle put_strided_nb(const void* src, std::span<const std::size_t> src_stride,
                                    void* dst, std::span<const std::size_t> dst_stride,
                                    std::span<const std::size_t> count, int target);
[[nodiscard]] Handle get_strided_nb(const void* src, std::span<const std::size_t> src_stride,
                                    void* dst, std::span<const std::size_t> dst_stride,
                                    std::span<const std::size_t> count, int target);
[[nodiscard]] Handle acc_strided_nb(AccType type, const void* scale, const void* src,
                                    std::span<const std::size_t> src_stride, void* dst,
                                    std::span<const std::size_t> dst_stride,
                                    std::span<const std::size_t> count, int target);

// ---- I/O vector --------------------------------------------------------------------------
// Destinations of a put or get must not overlap one another (InvalidArgument). Accumulate
// destinations may: accumulate is commutative and atomic per element, so the result is defined
// (Global Arrays' scatter-accumulate with repeated indices relies on it).
void put_vector(std::span<const IoSet> sets, int target);
void get_vector(std::span<const IoSet> sets, int target);
void acc_vector(AccType type, const void* scale, std::span<const IoSet> sets, int target);
[[nodiscard]] Handle put_vector_nb(std::span<const IoSet> sets, int target);
[[nodiscard]] Handle get_vector_nb(std::span<const IoSet> sets, int target);
[[nodiscard]] Handle acc_vector_nb(AccType type, const void* scale, std::span<const IoSet> sets,
                                   int target);

// ---- implicit handles --------------------------------------------------------------------
// Nonblocking operations without a handle; completed by wait_all() or wait_target().
void put_nbi(const void* src, void* dst, std::size_t bytes, int target);
void get_nbi(const void* src, void* dst, std::size_t bytes, int target);
void acc_nbi(AccType type, const void* scale, const void* src, void* dst, std::size_t bytes,
             int target);
/// Completes every implicit-handle operation this thread's process issued.
void wait_all();
/// Completes every implicit-handle operation issued to `target`.
void wait_target(int target);

// ---- values --------------------------------------------------------------------------------
template <ValueType T>
void put_value(T value, GlobalPtr<T> dst) { put(&value, dst.address(), sizeof(T), dst.rank()); }
template <ValueType T>
T get_value(GlobalPtr<T> src) {
  T value;
  get(src.address(), &value, sizeof(T), src.rank());
  return value;
}

// ---- typed conveniences ----------------------------------------------------------------------
template <class T>
void put(const T* src, GlobalPtr<T> dst, std::size_t n) {
  put(static_cast<const void*>(src), static_cast<void*>(dst.address()), n * sizeof(T), dst.rank());
}
template <class T>
void get(GlobalPtr<T> src, T* dst, std::size_t n) {
  get(static_cast<const void*>(src.address()), static_cast<void*>(dst), n * sizeof(T), src.rank());
}
template <class T>
void acc(const T* src, GlobalPtr<T> dst, std::size_t n, T scale = T(1)) {
  acc(acc_type_of<T>(), &scale, src, dst.address(), n * sizeof(T), dst.rank());
}

}  // namespace armada::rma
