// The public data-movement API: check everything, resolve the remote side, hand the operation
// to the transport that reaches the target. The on-node contiguous case is the first branch.
#include "armada/rma/transfer.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "armada/rma/sync.hpp"
#include "core/check.hpp"
#include "core/state.hpp"
#include "desc/iov.hpp"
#include "desc/strided.hpp"

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
  if (const Slice* slice = s.registry->find(target, remote, extent)) return *slice;
  const std::string value = to_hex(remote) + " (" + std::to_string(extent) + " bytes) on rank " + std::to_string(target);
  if (const Slice* start = s.registry->find(target, remote, 0)) {
    const std::size_t room = start->size - (reinterpret_cast<std::uintptr_t>(remote) - start->base);
    throw_invalid(op, argument, value,
                  "the range runs " + std::to_string(extent - room) + " bytes past the end of its segment (" +
                      std::to_string(start->size) + " bytes at " + to_hex(reinterpret_cast<void*>(start->base)) + ")");
  }
  throw_invalid(op, argument, value,
                "not inside any segment of rank " + std::to_string(target) + " allocated with rma::allocate");
}

/// Accumulate arguments: a known type, a scale, and element-aligned addresses and sizes.
void check_acc(const char* op, AccType type, const void* scale, const void* local,
               const void* remote, const Shape& shape, bool shape_checked) {
  const auto t = static_cast<int>(type);
  if (t < 0 || t > static_cast<int>(AccType::ComplexDouble))
    throw_invalid(op, "type", std::to_string(t), "not an AccType (Int, Long, Float, Double, ComplexFloat, ComplexDouble)");
  if (!scale) throw_invalid(op, "scale", "null", "accumulate needs a scale factor");
  const std::size_t size = size_of(type);
  const std::size_t align = type == AccType::ComplexFloat ? alignof(float)
                          : type == AccType::ComplexDouble ? alignof(double) : size;
  if (shape.count[0] % size != 0)
    throw_invalid(op, "count[0]", std::to_string(shape.count[0]),
                  std::string("not a multiple of the ") + to_string(type) + " element size " + std::to_string(size));
  if (reinterpret_cast<std::uintptr_t>(local) % align != 0)
    throw_invalid(op, "src", to_hex(local), std::string("not aligned to ") + std::to_string(align) + " bytes for " + to_string(type));
  if (reinterpret_cast<std::uintptr_t>(remote) % align != 0)
    throw_invalid(op, "dst", to_hex(remote), std::string("not aligned to ") + std::to_string(align) + " bytes for " + to_string(type));
  if (!shape_checked) return;
  for (int l = 0; l < shape.levels; ++l) {
    if (shape.src_stride[l] % align != 0)
      throw_invalid(op, "src_stride", std::to_string(shape.src_stride[l]),
                    "stride of level " + std::to_string(l) + " is not a multiple of the element alignment " + std::to_string(align));
    if (shape.dst_stride[l] % align != 0)
      throw_invalid(op, "dst_stride", std::to_string(shape.dst_stride[l]),
                    "stride of level " + std::to_string(l) + " is not a multiple of the element alignment " + std::to_string(align));
  }
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
  if (kind == OpKind::Acc) check_acc(op, type, scale, local, remote, shape, form != 0);
  detail::Transport& t = detail::route(op, s, target);
  const detail::StridedOp o{kind, type, scale, static_cast<std::byte*>(const_cast<void*>(local)),
                            static_cast<std::byte*>(const_cast<void*>(remote)), &slice, target, shape};
  return t.strided(o, blocking);
}

std::uint64_t contiguous(OpKind kind, AccType type, const void* scale, const void* src, void* dst,
                         std::size_t bytes, int target, bool blocking) {
  const char* op = name_of(kind, 0);
  State& s = detail::state(op);
  detail::check_rank(op, "target", s, target);
  if (bytes == 0) return 0;  // moves nothing, but the target must still be a rank
  // First branch: a put or get to a slice mapped on this node is one memcpy. Anything else
  // (other nodes, accumulate, and every error) takes the general path below.
  if (kind != OpKind::Acc && src && dst) {
    if (kind == OpKind::Put) {
      const Slice* slice = s.registry->find(target, dst, bytes);
      if (slice && slice->local) {
        std::memcpy(slice->map(dst), src, bytes);
        return 0;
      }
    } else {
      const Slice* slice = s.registry->find(target, src, bytes);
      if (slice && slice->local) {
        std::memcpy(dst, slice->map(src), bytes);
        return 0;
      }
    }
  }
  Shape shape = Shape::contiguous(bytes);
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
  detail::check_iov(op, sets);
  const bool remote_is_dst = kind != OpKind::Get;
  if (kind == OpKind::Acc) {
    for (const IoSet& set : sets)
      for (std::size_t i = 0; i < set.src.size(); ++i)
        check_acc(op, type, scale, set.src[i], set.dst[i], Shape::contiguous(set.bytes), false);
  } else {
    std::uintptr_t a = 0, b = 0;
    if (detail::find_destination_overlap(sets, a, b))
      throw_invalid(op, "sets", "destinations " + to_hex(reinterpret_cast<void*>(a)) + " and " +
                                    to_hex(reinterpret_cast<void*>(b)),
                    "destination segments of one vector operation overlap");
  }
  // Resolve every remote address; consecutive segments usually share a slice.
  thread_local std::vector<const Slice*> slices;
  slices.clear();
  const Slice* last = nullptr;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const IoSet& set = sets[k];
    const auto& remote = remote_is_dst ? set.dst : set.src;
    for (void* r : remote) {
      if (!last || !last->contains(reinterpret_cast<std::uintptr_t>(r), set.bytes))
        last = &resolve(op, remote_is_dst ? "sets[].dst" : "sets[].src", s, target, r, set.bytes);
      slices.push_back(last);
    }
  }
  detail::Transport& t = detail::route(op, s, target);
  return t.vector(detail::VectorOp{kind, type, scale, sets, slices.data(), target}, blocking);
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
  contiguous(OpKind::Put, kNoType, nullptr, src, dst, bytes, target, true);
}
void get(const void* src, void* dst, std::size_t bytes, int target) {
  contiguous(OpKind::Get, kNoType, nullptr, src, dst, bytes, target, true);
}
void acc(AccType type, const void* scale, const void* src, void* dst, std::size_t bytes, int target) {
  contiguous(OpKind::Acc, type, scale, src, dst, bytes, target, true);
}
Handle put_nb(const void* src, void* dst, std::size_t bytes, int target) {
  return Handle(target, contiguous(OpKind::Put, kNoType, nullptr, src, dst, bytes, target, false));
}
Handle get_nb(const void* src, void* dst, std::size_t bytes, int target) {
  return Handle(target, contiguous(OpKind::Get, kNoType, nullptr, src, dst, bytes, target, false));
}
Handle acc_nb(AccType type, const void* scale, const void* src, void* dst, std::size_t bytes, int target) {
  return Handle(target, contiguous(OpKind::Acc, type, scale, src, dst, bytes, target, false));
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
  remember_implicit(target, contiguous(OpKind::Put, kNoType, nullptr, src, dst, bytes, target, false));
}
void get_nbi(const void* src, void* dst, std::size_t bytes, int target) {
  remember_implicit(target, contiguous(OpKind::Get, kNoType, nullptr, src, dst, bytes, target, false));
}
void acc_nbi(AccType type, const void* scale, const void* src, void* dst, std::size_t bytes, int target) {
  remember_implicit(target, contiguous(OpKind::Acc, type, scale, src, dst, bytes, target, false));
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

void Aggregate::put(const void* src, void* dst, std::size_t bytes) {
  constexpr const char* op = "rma::Aggregate::put";
  State& s = detail::state(op);
  if (bytes == 0) return;
  if (!src) throw_invalid(op, "src", "null", "the local buffer is null");
  resolve(op, "dst", s, target_, dst, bytes);
  puts_.push_back({const_cast<void*>(src), dst, bytes});
}

void Aggregate::get(const void* src, void* dst, std::size_t bytes) {
  constexpr const char* op = "rma::Aggregate::get";
  State& s = detail::state(op);
  if (bytes == 0) return;
  if (!dst) throw_invalid(op, "dst", "null", "the local buffer is null");
  resolve(op, "src", s, target_, src, bytes);
  gets_.push_back({const_cast<void*>(src), dst, bytes});
}

void Aggregate::flush(std::vector<Op>& ops, bool is_put, int target) {
  if (ops.empty()) return;
  // One set per distinct size, in one vector operation. Sizes are usually all equal.
  thread_local std::vector<void*> src, dst;
  thread_local std::vector<IoSet> sets;
  src.clear();
  dst.clear();
  sets.clear();
  std::vector<std::size_t> sizes;
  for (const Op& o : ops)
    if (std::find(sizes.begin(), sizes.end(), o.bytes) == sizes.end()) sizes.push_back(o.bytes);
  src.reserve(ops.size());
  dst.reserve(ops.size());
  for (std::size_t size : sizes) {
    const std::size_t first = src.size();
    for (const Op& o : ops)
      if (o.bytes == size) {
        src.push_back(o.src);
        dst.push_back(o.dst);
      }
    sets.push_back(IoSet{std::span<void* const>(src.data() + first, src.size() - first),
                         std::span<void* const>(dst.data() + first, dst.size() - first), size});
  }
  ops.clear();
  // Overlapping destinations among independent nonblocking operations are a race of the
  // program, not a malformed request: skip the vector overlap rule, keep all other checks.
  const OpKind kind = is_put ? OpKind::Put : OpKind::Get;
  const char* op = is_put ? "rma::Aggregate::wait (put)" : "rma::Aggregate::wait (get)";
  State& s = detail::state(op);
  thread_local std::vector<const Slice*> slices;
  slices.clear();
  const Slice* last = nullptr;
  for (const IoSet& set : sets)
    for (void* r : is_put ? set.dst : set.src) {
      if (!last || !last->contains(reinterpret_cast<std::uintptr_t>(r), set.bytes))
        last = &resolve(op, "remote", s, target, r, set.bytes);
      slices.push_back(last);
    }
  detail::Transport& t = detail::route(op, s, target);
  t.wait(t.vector(detail::VectorOp{kind, kNoType, nullptr, sets, slices.data(), target}, true));
}

void Aggregate::wait() {
  flush(puts_, true, target_);
  flush(gets_, false, target_);
}

// ---- completion -----------------------------------------------------------------------------
void fence(int target) {
  constexpr const char* op = "rma::fence";
  State& s = detail::state(op);
  detail::check_rank(op, "target", s, target);
  detail::route(op, s, target).fence(target);
}

void fence_all() {
  State& s = detail::state("rma::fence_all");
  s.shm->fence_all();
}

void barrier() {
  State& s = detail::state("rma::barrier");
  fence_all();
  MPI_Barrier(s.world);
}

}  // namespace armada::rma
