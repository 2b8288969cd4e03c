// The public data-movement API: check everything, resolve the remote side, hand the operation
// to the transport that reaches the target. The on-node contiguous case is the first branch.
#include "armada/rma/transfer.hpp"
#include "armada/rma/memory.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "armada/rma/sync.hpp"
#include "common/check.hpp"
#include "core/agree.hpp"
#include "core/state.hpp"
#include "desc/iov.hpp"
#include "desc/strided.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma {

using detail::OpKind;
using detail::Shape;
using detail::Slice;
using detail::State;
using detail::throw_invalid;
using detail::to_hex;

namespace {

constexpr const char* kName[3][3] = {
    // contiguous, strided, vector
    {"rma::put", "rma::put_strided", "rma::put_vector"},
    {"rma::get", "rma::get_strided", "rma::get_vector"},
    {"rma::acc", "rma::acc_strided", "rma::acc_vector"},
};
const char* name_of(OpKind k, int form) { return kName[static_cast<int>(k)][form]; }

/// The slice of `target` holding [remote, remote + extent), or InvalidArgument saying why not.
const Slice& resolve(const char* op, const char* argument, State& s, int target,
                     const void* remote, std::size_t extent) {
  const Slice* slice = s.registry->find(target, remote, extent);
  if (slice && !slice->internal) return *slice;
  const std::string value = to_hex(remote) + " (" + std::to_string(extent) + " bytes) on rank " + std::to_string(target);
  if (slice) throw_internal_memory(op, argument, value, *slice);
  if (const Slice* start = s.registry->find(target, remote, 0)) {
    const std::size_t room = start->size - (reinterpret_cast<std::uintptr_t>(remote) - start->base);
    throw_invalid(op, argument, value,
                  "the range runs " + std::to_string(extent - room) + " bytes past the end of its segment (" +
                      std::to_string(start->size) + " bytes at " + to_hex(reinterpret_cast<void*>(start->base)) + ")");
  }
  throw_invalid(op, argument, value,
                "not inside any segment of rank " + std::to_string(target) + " allocated with rma::allocate");
}

/// Accumulate arguments: a known type, a scale, and a run length of whole elements. Addresses
/// and strides may be anything (ARMCI allows any byte stride): the kernels handle elements
/// their type does not align, and every transport applies each element atomically.
void check_acc(const char* op, AccType type, const void* scale, std::size_t run) {
  const auto t = static_cast<int>(type);
  if (t < 0 || t > static_cast<int>(AccType::ComplexDouble))
    throw_invalid(op, "type", std::to_string(t), "not an AccType (Int, Long, Float, Double, ComplexFloat, ComplexDouble)");
  if (!scale) throw_invalid(op, "scale", "null", "accumulate needs a scale factor");
  const std::size_t size = size_of(type);
  if (run % size != 0)
    throw_invalid(op, "count[0]", std::to_string(run),
                  std::string("not a multiple of the ") + to_string(type) + " element size " + std::to_string(size));
}

/// Checks and issues one strided (or contiguous) operation; returns the transport's token.
/// For Put/Acc `src` is local and `dst` remote; for Get the reverse.
std::uint64_t issue_strided(OpKind kind, int form, AccType type, const void* scale, const void* src,
                            void* dst, Shape& shape, int target, bool blocking) {
  const char* op = name_of(kind, form);
  State& s = detail::state(op);
  detail::check_rank(op, "target", s, target);
  const bool remote_is_dst = kind != OpKind::Get;
  const void* remote = remote_is_dst ? dst : src;
  const void* local = remote_is_dst ? src : dst;
  if (!local) throw_invalid(op, remote_is_dst ? "src" : "dst", "null", "the local buffer is null");
  const Slice& slice = resolve(op, remote_is_dst ? "dst" : "src", s, target, remote,
                               detail::extent(shape, remote_is_dst));
  if (kind == OpKind::Acc) check_acc(op, type, scale, shape.count[0]);
  detail::Transport& t = detail::route(op, s, kind, slice, target);
  const detail::StridedOp o{kind, type, scale, static_cast<std::byte*>(const_cast<void*>(local)),
                            static_cast<std::byte*>(const_cast<void*>(remote)), &slice, target, shape};
  return t.strided(o, blocking);
}

}  // namespace

namespace detail {

void throw_internal_memory(const char* op, const char* argument, const std::string& value, const Slice& slice) {
  throw_invalid(op, argument, value,
                "lies in Armada's own memory (mutex words or collective-arrival slots: segment " +
                    std::to_string(slice.segment) + ", " + std::to_string(slice.size) + " bytes at " +
                    to_hex(reinterpret_cast<void*>(slice.base)) +
                    "), not in a segment from rma::allocate; a range past the end of a segment can reach it");
}

void get_internal(const void* remote, void* local, std::size_t bytes, int target) {
  constexpr const char* op = "rma::get (Armada's own memory)";
  State& s = detail::state(op);
  const Slice* slice = s.registry->find(target, remote, bytes);
  if (!slice) throw_state(op, to_hex(remote) + " on rank " + std::to_string(target) + " is no longer allocated");
  if (slice->local) {
    std::memcpy(local, slice->map(remote), bytes);
    return;
  }
  route(op, s, target)
      .transfer_contiguous(OpKind::Get, AccType::Int /* unused by a get */, nullptr, static_cast<std::byte*>(local),
                           static_cast<std::byte*>(const_cast<void*>(remote)), bytes, *slice, target, true);
}

}  // namespace detail

// Declared in memory.hpp; here beside the latency path below, which does the same lookup.
void* node_address(int target, const void* remote, std::size_t bytes) {
  constexpr const char* op = "rma::node_address";
  State& s = detail::state(op);
  detail::check_rank(op, "target", s, target);
  const Slice& slice = resolve(op, "remote", s, target, remote, bytes);
  return slice.local ? slice.map(remote) : nullptr;
}

namespace {

std::uint64_t issue_contiguous(OpKind kind, AccType type, const void* scale, const void* src, void* dst,
                               std::size_t bytes, int target, bool blocking) {
  const char* op = name_of(kind, 0);
  State& s = detail::state(op);
  detail::check_rank(op, "target", s, target);
  if (bytes == 0) return 0;  // moves nothing, but the target must still be a rank
  // First branch, the latency path: a put or get to a slice mapped on this node is one memcpy;
  // to any other slice, and an accumulate anywhere, the transport's contiguous call. Errors take
  // the general path below, which names what is wrong.
  if (src && dst) {
    const bool to_remote = kind != OpKind::Get;
    void* remote = to_remote ? dst : const_cast<void*>(src);
    void* local = to_remote ? const_cast<void*>(src) : dst;
    if (const Slice* slice = s.registry->find(target, remote, bytes); slice && !slice->internal) {
      if (kind == OpKind::Acc) {
        check_acc(op, type, scale, bytes);
      } else if (slice->local) {
        if (to_remote) std::memcpy(slice->map(remote), local, bytes);
        else std::memcpy(local, slice->map(remote), bytes);
        return 0;
      }
      return detail::route(op, s, target)
          .transfer_contiguous(kind, type, scale, static_cast<std::byte*>(local), static_cast<std::byte*>(remote), bytes,
                      *slice, target, blocking);
    }
  }
  Shape shape = Shape::single_run(bytes);
  return issue_strided(kind, 0, type, scale, src, dst, shape, target, blocking);
}

std::uint64_t strided(OpKind kind, AccType type, const void* scale, const void* src,
                      std::span<const std::size_t> src_stride, void* dst,
                      std::span<const std::size_t> dst_stride, std::span<const std::size_t> count,
                      int target, bool blocking) {
  Shape shape = detail::make_shape(name_of(kind, 1), src_stride, dst_stride, count);
  return issue_strided(kind, 1, type, scale, src, dst, shape, target, blocking);
}

std::uint64_t vector(OpKind kind, AccType type, const void* scale, std::span<const IoSet> sets,
                     int target, bool blocking) {
  const char* op = name_of(kind, 2);
  State& s = detail::state(op);
  detail::check_rank(op, "target", s, target);
  const bool remote_is_dst = kind != OpKind::Get;
  const detail::IovScan scan = detail::scan_iov(op, sets, remote_is_dst);
  if (scan.segments == 0) return 0;
  // Remote destinations of a put or accumulate may overlap (Global Arrays scatters with
  // repeated subscripts): a put leaves one of the overlapping segments' data, unspecified which;
  // accumulates all apply. A get's destinations are local buffers: two segments read into the
  // same bytes would lose one of them, and MPI forbids it, so that is an error.
  if (kind == OpKind::Acc) {
    for (const IoSet& set : sets)
      if (!set.src.empty()) check_acc(op, type, scale, set.bytes);
  } else if (kind == OpKind::Get) {
    std::uintptr_t a = 0, b = 0;
    if (detail::find_destination_overlap(sets, scan, a, b))
      throw_invalid(op, "sets", "destinations " + to_hex(reinterpret_cast<void*>(a)) + " and " +
                                    to_hex(reinterpret_cast<void*>(b)),
                    "destination segments of one vector get overlap (local buffers; remote ones of a "
                    "put or accumulate may)");
  }
  detail::route(op, s, target);  // nothing reaches the target: Unsupported before resolving
  // Usually the whole remote span lies in one slice: then every segment does, and no segment
  // needs resolving on its own.
  const Slice* one = s.registry->find(target, reinterpret_cast<void*>(scan.remote_lo), scan.remote_hi - scan.remote_lo);
  if (one && !one->internal)
    return detail::route(op, s, kind, *one, target)
        .vector(detail::VectorOp{kind, type, scale, sets, one, nullptr, target}, blocking);

  thread_local std::vector<const Slice*> tls_slices;
  std::vector<const Slice*>& slices = tls_slices;  // one TLS lookup, not one per segment
  slices.clear();
  const Slice* last = nullptr;
  for (const IoSet& set : sets)
    for (void* r : remote_is_dst ? set.dst : set.src) {
      if (!last || !last->contains(reinterpret_cast<std::uintptr_t>(r), set.bytes))
        last = &resolve(op, remote_is_dst ? "sets[].dst" : "sets[].src", s, target, r, set.bytes);
      slices.push_back(last);
    }
  // The slices of one target are all mapped here or none is: the first one routes.
  return detail::route(op, s, kind, *slices[0], target)
      .vector(detail::VectorOp{kind, type, scale, sets, slices[0], slices.data(), target}, blocking);
}

// Implicit-handle operations a transport left pending, completed by wait_all/wait_target.
struct Implicit {
  int target;
  std::uint64_t token;
};
std::mutex g_implicit_mutex;
std::vector<Implicit> g_implicit;

void remember_implicit(int target, std::uint64_t token) {
  if (token == 0) return;
  std::lock_guard lock(g_implicit_mutex);
  g_implicit.push_back({target, token});
}

constexpr AccType kNoType = AccType::Int;

}  // namespace

// ---- contiguous -----------------------------------------------------------------------------
void put(const void* src, void* dst, std::size_t bytes, int target) {
  issue_contiguous(OpKind::Put, kNoType, nullptr, src, dst, bytes, target, true);
}
void get(const void* src, void* dst, std::size_t bytes, int target) {
  issue_contiguous(OpKind::Get, kNoType, nullptr, src, dst, bytes, target, true);
}
void acc(AccType type, const void* scale, const void* src, void* dst, std::size_t bytes, int target) {
  issue_contiguous(OpKind::Acc, type, scale, src, dst, bytes, target, true);
}
Handle put_nb(const void* src, void* dst, std::size_t bytes, int target) {
  return Handle(target, issue_contiguous(OpKind::Put, kNoType, nullptr, src, dst, bytes, target, false));
}
Handle get_nb(const void* src, void* dst, std::size_t bytes, int target) {
  return Handle(target, issue_contiguous(OpKind::Get, kNoType, nullptr, src, dst, bytes, target, false));
}
Handle acc_nb(AccType type, const void* scale, const void* src, void* dst, std::size_t bytes, int target) {
  return Handle(target, issue_contiguous(OpKind::Acc, type, scale, src, dst, bytes, target, false));
}

// ---- strided --------------------------------------------------------------------------------
void put_strided(const void* src, std::span<const std::size_t> ss, void* dst,
                 std::span<const std::size_t> ds, std::span<const std::size_t> count, int target) {
  strided(OpKind::Put, kNoType, nullptr, src, ss, dst, ds, count, target, true);
}
void get_strided(const void* src, std::span<const std::size_t> ss, void* dst,
                 std::span<const std::size_t> ds, std::span<const std::size_t> count, int target) {
  strided(OpKind::Get, kNoType, nullptr, src, ss, dst, ds, count, target, true);
}
void acc_strided(AccType type, const void* scale, const void* src, std::span<const std::size_t> ss,
                 void* dst, std::span<const std::size_t> ds, std::span<const std::size_t> count, int target) {
  strided(OpKind::Acc, type, scale, src, ss, dst, ds, count, target, true);
}
Handle put_strided_nb(const void* src, std::span<const std::size_t> ss, void* dst,
                      std::span<const std::size_t> ds, std::span<const std::size_t> count, int target) {
  return Handle(target, strided(OpKind::Put, kNoType, nullptr, src, ss, dst, ds, count, target, false));
}
Handle get_strided_nb(const void* src, std::span<const std::size_t> ss, void* dst,
                      std::span<const std::size_t> ds, std::span<const std::size_t> count, int target) {
  return Handle(target, strided(OpKind::Get, kNoType, nullptr, src, ss, dst, ds, count, target, false));
}
Handle acc_strided_nb(AccType type, const void* scale, const void* src, std::span<const std::size_t> ss,
                      void* dst, std::span<const std::size_t> ds, std::span<const std::size_t> count,
                      int target) {
  return Handle(target, strided(OpKind::Acc, type, scale, src, ss, dst, ds, count, target, false));
}

// ---- vector ---------------------------------------------------------------------------------
void put_vector(std::span<const IoSet> sets, int target) { vector(OpKind::Put, kNoType, nullptr, sets, target, true); }
void get_vector(std::span<const IoSet> sets, int target) { vector(OpKind::Get, kNoType, nullptr, sets, target, true); }
void acc_vector(AccType type, const void* scale, std::span<const IoSet> sets, int target) {
  vector(OpKind::Acc, type, scale, sets, target, true);
}
Handle put_vector_nb(std::span<const IoSet> sets, int target) {
  return Handle(target, vector(OpKind::Put, kNoType, nullptr, sets, target, false));
}
Handle get_vector_nb(std::span<const IoSet> sets, int target) {
  return Handle(target, vector(OpKind::Get, kNoType, nullptr, sets, target, false));
}
Handle acc_vector_nb(AccType type, const void* scale, std::span<const IoSet> sets, int target) {
  return Handle(target, vector(OpKind::Acc, type, scale, sets, target, false));
}

// ---- implicit handles -----------------------------------------------------------------------
void put_nbi(const void* src, void* dst, std::size_t bytes, int target) {
  remember_implicit(target, issue_contiguous(OpKind::Put, kNoType, nullptr, src, dst, bytes, target, false));
}
void get_nbi(const void* src, void* dst, std::size_t bytes, int target) {
  remember_implicit(target, issue_contiguous(OpKind::Get, kNoType, nullptr, src, dst, bytes, target, false));
}
void acc_nbi(AccType type, const void* scale, const void* src, void* dst, std::size_t bytes, int target) {
  remember_implicit(target, issue_contiguous(OpKind::Acc, type, scale, src, dst, bytes, target, false));
}

void wait_all() {
  State& s = detail::state("rma::wait_all");
  std::vector<Implicit> pending;
  {
    std::lock_guard lock(g_implicit_mutex);
    pending.swap(g_implicit);
  }
  for (const Implicit& p : pending) detail::route("rma::wait_all", s, p.target).wait(p.token);
}

void wait_target(int target) {
  constexpr const char* op = "rma::wait_target";
  State& s = detail::state(op);
  detail::check_rank(op, "target", s, target);
  std::vector<Implicit> mine;
  {
    std::lock_guard lock(g_implicit_mutex);
    std::erase_if(g_implicit, [&](const Implicit& p) {
      if (p.target != target) return false;
      mine.push_back(p);
      return true;
    });
  }
  for (const Implicit& p : mine) detail::route(op, s, target).wait(p.token);
}

// ---- handles --------------------------------------------------------------------------------
Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    if (token_) wait();
    target_ = other.target_;
    token_ = std::exchange(other.token_, 0);
  }
  return *this;
}

Handle::~Handle() {
  if (token_ && detail::g_state) wait();
}

void Handle::wait() {
  if (!token_) return;
  State& s = detail::state("rma::Handle::wait");
  detail::route("rma::Handle::wait", s, target_).wait(token_);
  token_ = 0;
}

bool Handle::test() {
  if (!token_) return true;
  State& s = detail::state("rma::Handle::test");
  if (!detail::route("rma::Handle::test", s, target_).test(token_)) return false;
  token_ = 0;
  return true;
}

// ---- aggregate handles ----------------------------------------------------------------------
Aggregate::Aggregate(int target) : target_(target) {
  constexpr const char* op = "rma::Aggregate";
  detail::check_rank(op, "target", detail::state(op), target);
}

Aggregate::~Aggregate() {
  if (pending() && detail::g_state) {
    try {
      wait();
    } catch (...) {  // a destructor must not throw; wait() already validated everything
    }
  }
}


void Aggregate::record(bool is_put, const void* src, void* dst, std::size_t bytes) {
  const char* op = is_put ? "rma::Aggregate::put" : "rma::Aggregate::get";
  State& s = detail::state(op);
  if (bytes == 0) return;
  const void* local = is_put ? src : dst;
  const void* remote = is_put ? dst : src;
  if (!local) throw_invalid(op, is_put ? "src" : "dst", "null", "the local buffer is null");
  // Resolve now, so that wait() only moves data. Consecutive operations usually hit one slice.
  const Slice* slice = last_slice_;
  if (!slice || !slice->contains(reinterpret_cast<std::uintptr_t>(remote), bytes))
    last_slice_ = slice = &resolve(op, is_put ? "dst" : "src", s, target_, remote, bytes);
  std::deque<Batch>& batches = is_put ? puts_ : gets_;
  Batch* batch = nullptr;
  for (Batch& b : batches)
    if (b.bytes == bytes) batch = &b;
  if (!batch) batch = &batches.emplace_back(Batch{bytes, {}, {}, {}});
  if (!first_slice_) first_slice_ = slice;
  if (slice != first_slice_ && !mixed_slices_) {  // from now on, one slice per operation
    mixed_slices_ = true;
    for (std::deque<Batch>* side : {&puts_, &gets_})
      for (Batch& b : *side) b.slices.assign(b.src.size(), first_slice_);
  }
  batch->src.push_back(const_cast<void*>(src));
  batch->dst.push_back(dst);
  if (mixed_slices_) batch->slices.push_back(slice);
  ++pending_;
  // Arm the inline fast path of put() while every operation is in one slice.
  if (is_put && !mixed_slices_) {
    last_put_ = batch;
    fast_lo_ = slice->base;
    fast_hi_ = slice->base + slice->size;
  } else {
    last_put_ = nullptr;
  }
}

void Aggregate::flush(std::deque<Batch>& batches, bool is_put) {
  std::vector<IoSet> sets;
  std::vector<const Slice*> joined;  // per-operation slices, in set order, if they differ
  for (Batch& b : batches) {
    if (b.src.empty()) continue;
    sets.push_back(IoSet{b.src, b.dst, b.bytes});
    if (mixed_slices_) joined.insert(joined.end(), b.slices.begin(), b.slices.end());
  }
  if (sets.empty()) return;
  const Slice* one = mixed_slices_ ? joined[0] : first_slice_;
  // Overlapping destinations among independent nonblocking operations are a race of the
  // program, not a malformed request: no overlap check here; everything else was checked.
  const char* op = is_put ? "rma::Aggregate::wait (put)" : "rma::Aggregate::wait (get)";
  State& s = detail::state(op);
  detail::Transport& t = detail::route(op, s, is_put ? OpKind::Put : OpKind::Get, *one, target_);
  t.wait(t.vector(detail::VectorOp{is_put ? OpKind::Put : OpKind::Get, kNoType, nullptr, sets, one,
                                   mixed_slices_ ? joined.data() : nullptr, target_},
                  true));
  for (Batch& b : batches) {
    b.src.clear();
    b.dst.clear();
    b.slices.clear();
  }
}

void Aggregate::wait() {
  flush(puts_, true);
  flush(gets_, false);
  pending_ = 0;
  first_slice_ = nullptr;
  mixed_slices_ = false;
  last_put_ = nullptr;
}

// ---- put with notify ------------------------------------------------------------------------
namespace detail {

namespace {
/// The flag of a put_notify or wait_flag: not null, naturally aligned, inside a segment of
/// `target`.
const Slice& resolve_flag(const char* op, State& s, const void* flag, std::size_t width, int target) {
  if (!flag) throw_invalid(op, "flag", "null", "the flag must be an int or long in a segment of the target");
  if (reinterpret_cast<std::uintptr_t>(flag) % width != 0)
    throw_invalid(op, "flag", to_hex(flag) + " on rank " + std::to_string(target),
                  "not aligned to its " + std::to_string(width) + "-byte size");
  return resolve(op, "flag", s, target, flag, width);
}
}  // namespace

void put_notify(const char* op, const void* src, std::span<const std::size_t> src_stride, void* dst,
                std::span<const std::size_t> dst_stride, std::span<const std::size_t> count, bool strided,
                void* flag, std::size_t width, const void* value, Notify how, int target) {
  State& s = state(op);
  check_rank(op, "target", s, target);
  if (how != Notify::Set && how != Notify::Add)
    throw_invalid(op, "how", std::to_string(static_cast<int>(how)), "not a Notify (Set, Add)");
  const Slice& flag_slice = resolve_flag(op, s, flag, width, target);
  NotifyFlag n{how, width, flag, &flag_slice, 0};
  std::memcpy(&n.value, value, width);  // little-endian: the low bytes
  Shape shape = strided ? make_shape(op, src_stride, dst_stride, count) : Shape::single_run(count[0]);
  if (shape.bytes() == 0) {  // a contiguous put of nothing: the flag alone
    route(op, s, target).put_flag(n, target);
    return;
  }
  if (!src) throw_invalid(op, "src", "null", "the local buffer is null");
  const std::size_t span = extent(shape, true);
  const Slice& slice = resolve(op, "dst", s, target, dst, span);
  const auto lo = reinterpret_cast<std::uintptr_t>(dst), at = reinterpret_cast<std::uintptr_t>(flag);
  if (!strided && at + width > lo && at < lo + span)
    throw_invalid(op, "flag", to_hex(flag) + " on rank " + std::to_string(target),
                  "inside the put's destination " + to_hex(dst) + " (" + std::to_string(span) +
                      " bytes): the data would overwrite the flag");
  const StridedOp o{OpKind::Put, AccType::Int, nullptr, static_cast<std::byte*>(const_cast<void*>(src)),
                    static_cast<std::byte*>(dst), &slice, target, shape};
  Transport& data = route(op, s, OpKind::Put, slice, target);
  Transport& atomics = route(op, s, target);
  if (&data == &atomics) {
    data.put_notify(o, n);
    return;
  }
  // The data is a memcpy into node memory and the flag an atomic of the inter-node transport
  // (exclusive_atomics): the memcpy is complete here, the fence orders it before the atomic.
  data.strided(o, true);
  data.fence(target);
  notify(atomics, n, target);
}

void wait_flag(const char* op, const void* flag, std::size_t width, const void* value, bool at_least, void* seen) {
  State& s = state(op);
  resolve_flag(op, s, flag, width, s.rank);  // this rank's own memory: `flag` is its address here
  std::int64_t want = 0;
  if (width == 4) want = *static_cast<const std::int32_t*>(value);
  else want = *static_cast<const std::int64_t*>(value);
  PollPause pause(kWaitSleepMaxNs, s.config.spin_limit);  // never a core spent on a long wait
  // While it spins, the first rounds only look at the flag (a poll costs more than a look); a
  // waiter that yields from the start (an oversubscribed host) polls at once.
  const int look_only = std::min(64, s.config.spin_limit);
  PollingWait polls(s, pause);
  for (int round = 0;; ++round) {
    const std::int64_t now = width == 4 ? __atomic_load_n(static_cast<const std::int32_t*>(flag), __ATOMIC_ACQUIRE)
                                        : __atomic_load_n(static_cast<const std::int64_t*>(flag), __ATOMIC_ACQUIRE);
    if (now == want || (at_least && now > want)) {
      if (width == 4) {
        const auto v = static_cast<std::int32_t>(now);
        std::memcpy(seen, &v, 4);
      } else {
        std::memcpy(seen, &now, 8);
      }
      return;
    }
    // The put may need this process: a server transport's node server, a progress engine.
    if (round >= look_only) polls.poll();
    pause.pause();
  }
}

}  // namespace detail

// ---- completion -----------------------------------------------------------------------------
void fence(int target) {
  constexpr const char* op = "rma::fence";
  State& s = detail::state(op);
  detail::check_rank(op, "target", s, target);
  detail::route(op, s, target).fence(target);
}

void fence_all() {
  State& s = detail::state("rma::fence_all");
  detail::fence_everything(s);
}

void barrier() {
  State& s = detail::state("rma::barrier");
  fence_all();
  // The agreement is the barrier: its one reduction also tells a member that another is in a
  // different collective call (which against MPI_Ibarrier ended the job or hung).
  detail::agree_on("rma::barrier", s.world, nullptr);
}

}  // namespace armada::rma
