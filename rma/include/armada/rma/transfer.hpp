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

// ---- put with notify ------------------------------------------------------------------------
// A put followed by an update of a flag (or counter) at the same target, ordered after the data.
// What the target observes: once a load with acquire ordering (wait_flag's) reads the flag's new
// value, every byte of the put's data is at its destination; no fence and no barrier in between.
// The flag is an int or long (naturally aligned) in any segment of the target, not inside the
// data's destination; Notify::Set stores `value`, Notify::Add adds it (a counter of arrivals),
// atomically with respect to every rma atomic on that word. A put of 0 bytes updates the flag
// alone.
// Returns when the source may be reused; the data and then the flag reach the target whether or
// not the call has waited for them (fence(target) waits for both). How each transport orders
// them: server: one request carrying the data and the flag when the flag is in the data's
// segment slice, else the put's request and then the flag's, which the target's server executes
// in that order; no reply is waited for, unless the server copies the data out of the origin's
// buffer itself (direct delivery, on one host). rdma: the put, then the flag's atomic ordered after
// it on the same endpoint (a UCX fence, or a flush where UCX emulates), waited for. mpi-rma: the
// put, flushed to the target as every blocking put is, then the flag's atomic. Node memory
// (shm) and the default: the put, a fence of the target, then the flag's atomic.
// No nonblocking form: a handle would complete the put but not say when the flag is written.
enum class Notify : int { Set, Add };

namespace detail {
/// `strided` false: contiguous, count[0] bytes (no strides). `width`: 4 or 8.
void put_notify(const char* op, const void* src, std::span<const std::size_t> src_stride, void* dst,
                std::span<const std::size_t> dst_stride, std::span<const std::size_t> count, bool strided,
                void* flag, std::size_t width, const void* value, Notify how, int target);
/// Spins, then yields, then sleeps in short slices until the local `flag` (width 4 or 8)
/// satisfies the test; serves the transports' pending requests meanwhile. Returns the value seen.
void wait_flag(const char* op, const void* flag, std::size_t width, const void* value, bool at_least, void* seen);
}  // namespace detail

template <AtomicType T>
void put_notify(const void* src, void* dst, std::size_t bytes, T* flag, T value, int target,
                Notify how = Notify::Set) {
  const std::size_t count[1] = {bytes};
  detail::put_notify("rma::put_notify", src, {}, dst, {}, count, false, flag, sizeof(T), &value, how, target);
}
template <AtomicType T>
void put_strided_notify(const void* src, std::span<const std::size_t> src_stride, void* dst,
                        std::span<const std::size_t> dst_stride, std::span<const std::size_t> count,
                        T* flag, T value, int target, Notify how = Notify::Set) {
  detail::put_notify("rma::put_strided_notify", src, src_stride, dst, dst_stride, count, true, flag, sizeof(T),
                     &value, how, target);
}

/// Waits until this rank's `flag` (memory of its own segments, a put_notify's target) holds
/// `value` (or, with `at_least`, a value >= `value`: a counter of arrivals); returns what it
/// saw. Reads with acquire ordering, so the data of the put_notify that wrote it is visible.
/// While waiting it serves what this process owes other ranks (the server transport's
/// requests), so a rank waiting for its neighbours never starves the neighbours' puts.
template <AtomicType T>
T wait_flag(const T* flag, T value, bool at_least = false) {
  T seen;
  detail::wait_flag("rma::wait_flag", flag, sizeof(T), &value, at_least, &seen);
  return seen;
}

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
