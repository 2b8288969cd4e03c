// The vector operations of scan.hpp: enumerate, segmented copy and sum, pack and unpack. Each
// member takes its owned part [p0, p1) of the range in the written array (pack: in the mask),
// fetches the mask and source elements of that part, and summarizes it (segment flags, carry,
// selected count). One gather of the summaries gives every member the exclusive prefix of the
// members whose parts come before its own; then each writes its part. The gather is also the
// point after which no member reads its inputs again, so an output that is also an input is safe.
#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

#include "armada/arrays/collective.hpp"
#include "armada/arrays/scan.hpp"
#include "collective_internal.hpp"
#include "internal.hpp"

namespace armada::arrays::detail {

namespace {

const char* scan_name(ScanOp op) {
  switch (op) {
    case ScanOp::Copy: return "arrays::scan_copy";
    case ScanOp::Add: return "arrays::scan_add";
    case ScanOp::AddExclusive: return "arrays::scan_add(exclusive)";
  }
  return "arrays::scan";
}

/// The checked array behind `arr`, which must be a vector holding [lo, hi).
const Array::Impl& vector_of(const char* op, const char* argument, const Array& arr, Index lo, Index hi) {
  const Array::Impl& a = impl_of(arr, op);
  if (a.ndim() != 1)
    fail(op, &a, argument, std::to_string(a.ndim()) + "-D", "must be a 1-D array (a vector)");
  // A scan runs through each member's range in rank order: one range per member.
  if (a.dist.cyclic())
    fail(op, &a, argument, a.dist.str(), "must have one block per process (scans do not take block-cyclic vectors)");
  if (lo < 0 || lo > hi || hi > a.dist.dims()[0])
    fail(op, &a, "lo .. hi", std::to_string(lo) + " .. " + std::to_string(hi),
         "must satisfy 0 <= lo <= hi <= " + std::to_string(a.dist.dims()[0]) + " (the range is [lo, hi) of '" +
             argument + "')");
  return a;
}


/// The mask must be on the group of the array the call runs over.
void same_group(const char* op, const Array::Impl& a, const Array::Impl& mask) {
  if (!(a.group == mask.group))
    fail(op, &mask, "mask", "group of size " + std::to_string(mask.group.size()), "is not the group of " + describe(a));
}

rma::MustMatch::value_type same_range(Index lo, Index hi) {
  return {"lo .. hi", std::to_string(lo) + " .. " + std::to_string(hi)};
}

/// The checked arrays of a call on src, dst and mask.
struct VectorCall {
  const Array::Impl* src = nullptr;
  const Array::Impl* dst = nullptr;
  const Array::Impl* mask = nullptr;
};

/// The collective start of scan, pack and unpack (over dst's group): src and dst vectors of one
/// type and group, the mask a vector (of any type) on it holding [lo, hi), and [lo, hi) inside src
/// (unless `unpack`: src is read from 0) and dst (unless `pack`: dst is written from 0).
VectorCall begin_vector_call(const char* name, const Array& src, const Array& dst, const Array& mask, Index lo,
                             Index hi, bool pack, bool unpack) {
  VectorCall c;
  begin_collective(name, collective_group(name, dst), [&] {
    c.src = unpack ? &vector_of(name, "src", src, 0, 0) : &vector_of(name, "src", src, lo, hi);
    c.dst = pack ? &vector_of(name, "dst", dst, 0, 0) : &vector_of(name, "dst", dst, lo, hi);
    c.mask = &vector_of(name, "mask", mask, lo, hi);
    check_compatible(name, *c.src, *c.dst);
    same_group(name, *c.dst, *c.mask);
  }, {same_shape("src", src), same_shape("dst", dst), same_shape("mask", mask), same_range(lo, hi)});
  return c;
}

/// This member's part [p0, p1) of [lo, hi) in the vector `a` (p0 == p1: none).
std::pair<Index, Index> my_range(const Array::Impl& a, Index lo, Index hi) {
  const std::vector<LocalPart> parts = my_parts(a, Coord{lo}, Coord{hi});  // one at most: not block-cyclic
  if (parts.empty()) return {lo, lo};
  return {parts[0].piece.lo[0], parts[0].piece.hi[0]};
}

template <class T>
std::vector<T> fetch_range(const Array::Impl& a, Index p0, Index p1) {
  if (p1 <= p0) return {};
  return fetch<T>(a, Patch{Coord{p0}, Coord{p1}}, Coord{0}, Coord{0});
}

/// The mask over [p0, p1) as flags (nonzero: 1). A mask may be of any element type, as GA's.
std::vector<unsigned char> fetch_flags(const Array::Impl& m, Index p0, Index p1) {
  std::vector<unsigned char> f;
  with_element_type(m.type, [&](auto zero) {
    using M = decltype(zero);
    for (const M x : fetch_range<M>(m, p0, p1)) f.push_back(x != M{} ? 1 : 0);
  });
  return f;
}

/// One member's part as the others see it.
struct Summary {
  std::int64_t has = 0;    // the part is not empty
  std::int64_t lo = 0;     // its first index
  std::int64_t flag = 0;   // scans: it starts a segment; pack/unpack: unused
  std::int64_t count = 0;  // pack/unpack: selected elements
  unsigned char value[16] = {};  // scans: the carry it passes on
};

std::vector<Summary> gather(const Array::Impl& a, const Summary& mine) {
  std::vector<Summary> all(static_cast<std::size_t>(a.group.size()));
  rma::allgather_serving(&mine, sizeof(Summary), all.data(), a.group, "arrays: a scan's summaries");
  return all;
}

/// The number selected before this member's part (parts starting below `p0`) and in all.
std::pair<Index, Index> offsets(const std::vector<Summary>& all, Index p0) {
  Index before = 0, total = 0;
  for (const Summary& s : all) {
    if (!s.has) continue;
    total += s.count;
    if (s.lo < p0) before += s.count;
  }
  return {before, total};
}

/// Scans: what flows into the part at `p0` from the parts before it, in index order: the
/// carry, and whether a segment has started yet (before the first set mask bit nothing is).
template <class T>
struct CarryIn {
  T carry{};
  bool started = false;
};

template <class T>
CarryIn<T> carry_in(ScanOp op, std::vector<Summary> all, Index p0) {
  std::sort(all.begin(), all.end(), [](const Summary& x, const Summary& y) { return x.lo < y.lo; });
  CarryIn<T> in;
  for (const Summary& s : all) {
    if (!s.has || s.lo >= p0) continue;
    T v;
    std::memcpy(&v, s.value, sizeof(T));
    // A part that starts no segment passes the carry on (copy) or adds its sum to it.
    if (s.flag) in.carry = v;
    else if (op != ScanOp::Copy) in.carry = static_cast<T>(in.carry + v);
    in.started = in.started || s.flag;
  }
  return in;
}

template <class T>
T* local_vector(const Array::Impl& a, Index i) {
  return reinterpret_cast<T*>(a.address(Coord{i}));
}

}  // namespace

void patch_enum(Array& arr, Index lo, Index hi, const void* start, const void* step) {
  constexpr const char* name = "arrays::patch_enum";
  const Array::Impl* ap = nullptr;
  begin_collective(name, collective_group(name, arr), [&] {
    ap = &vector_of(name, "array", arr, lo, hi);
    if (!start || !step) fail(name, ap, start ? "step" : "start", "null", "needs a value of the array's type");
  }, {same_shape("array", arr), same_range(lo, hi)});
  const Array::Impl& a = *ap;
  const auto [p0, p1] = my_range(a, lo, hi);
  with_element_type(a.type, [&](auto zero) {
    using T = decltype(zero);
    T s, d;
    std::memcpy(&s, start, sizeof(T));
    std::memcpy(&d, step, sizeof(T));
    for (Index i = p0; i < p1; ++i) *local_vector<T>(a, i) = static_cast<T>(s + static_cast<T>(i - lo) * d);
  });
  group_sync(a);
}

void scan(ScanOp op, const Array& src_arr, Array& dst_arr, const Array& mask_arr, Index lo, Index hi) {
  const char* name = scan_name(op);
  const VectorCall call = begin_vector_call(name, src_arr, dst_arr, mask_arr, lo, hi, false, false);
  const Array::Impl &src = *call.src, &dst = *call.dst;
  const auto [p0, p1] = my_range(dst, lo, hi);
  const std::vector<unsigned char> flags = fetch_flags(*call.mask, p0, p1);
  with_element_type(dst.type, [&](auto zero) {
    using T = decltype(zero);
    const std::vector<T> v = fetch_range<T>(src, p0, p1);
    // This part's summary: does it start a segment, and what it passes on (copy: the value
    // of its last segment start; sum: the sum since its last segment start, or of all of it).
    Summary mine;
    mine.has = p1 > p0;
    mine.lo = p0;
    T pass{};
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (flags[k]) mine.flag = 1;
      if (op == ScanOp::Copy) pass = flags[k] ? v[k] : pass;
      else pass = flags[k] ? v[k] : static_cast<T>(pass + v[k]);
    }
    std::memcpy(mine.value, &pass, sizeof(T));
    auto [run, started] = carry_in<T>(op, gather(dst, mine), p0);
    for (std::size_t k = 0; k < v.size(); ++k) {
      // As GA's: the elements before the first set bit of [lo, hi) belong to no segment and
      // keep their values.
      started = started || flags[k];
      if (!started) continue;
      T& out = *local_vector<T>(dst, p0 + static_cast<Index>(k));
      if (op == ScanOp::Copy) {
        if (flags[k]) run = v[k];
        out = run;
      } else {
        if (flags[k]) run = T{};
        if (op == ScanOp::AddExclusive) out = run;
        run = static_cast<T>(run + v[k]);
        if (op == ScanOp::Add) out = run;
      }
    }
  });
  group_sync(dst);
}

Index pack(const Array& src_arr, Array& dst_arr, const Array& mask_arr, Index lo, Index hi) {
  constexpr const char* name = "arrays::pack";
  const VectorCall call = begin_vector_call(name, src_arr, dst_arr, mask_arr, lo, hi, true, false);
  const Array::Impl &src = *call.src, &dst = *call.dst, &mask = *call.mask;
  const auto [p0, p1] = my_range(mask, lo, hi);
  const std::vector<unsigned char> flags = fetch_flags(mask, p0, p1);
  Index total = 0;
  with_element_type(src.type, [&](auto zero) {
    using T = decltype(zero);
    const std::vector<T> v = fetch_range<T>(src, p0, p1);
    std::vector<T> selected;
    for (std::size_t k = 0; k < v.size(); ++k)
      if (flags[k]) selected.push_back(v[k]);
    Summary mine;
    mine.has = p1 > p0;
    mine.lo = p0;
    mine.count = static_cast<std::int64_t>(selected.size());
    const auto [before, all] = offsets(gather(mask, mine), p0);
    total = all;
    if (total > dst.dist.dims()[0])
      fail(name, &dst, "dst", std::to_string(dst.dist.dims()[0]) + " elements",
           "too short: the mask selects " + std::to_string(total) + " elements of src in " + std::to_string(lo) +
               " .. " + std::to_string(hi) + "; nothing was written");
    if (!selected.empty())
      dst_arr.put(Coord{before}, Coord{before + mine.count}, selected.data());
  });
  group_sync(dst);
  return total;
}

Index unpack(const Array& src_arr, Array& dst_arr, const Array& mask_arr, Index lo, Index hi) {
  constexpr const char* name = "arrays::unpack";
  const VectorCall call = begin_vector_call(name, src_arr, dst_arr, mask_arr, lo, hi, false, true);
  const Array::Impl &src = *call.src, &dst = *call.dst;
  const auto [p0, p1] = my_range(dst, lo, hi);
  const std::vector<unsigned char> flags = fetch_flags(*call.mask, p0, p1);
  Summary mine;
  mine.has = p1 > p0;
  mine.lo = p0;
  for (unsigned char f : flags) mine.count += f;
  const auto [before, total] = offsets(gather(dst, mine), p0);
  if (total > src.dist.dims()[0])
    fail(name, &src, "src", std::to_string(src.dist.dims()[0]) + " elements",
         "too short: the mask selects " + std::to_string(total) + " elements of dst in " + std::to_string(lo) +
             " .. " + std::to_string(hi) + "; nothing was written");
  with_element_type(dst.type, [&](auto zero) {
    using T = decltype(zero);
    const std::vector<T> v = fetch_range<T>(src, before, before + mine.count);
    barrier_serving(dst, name);  // everyone has read src before anyone writes dst
    std::size_t next = 0;
    for (std::size_t k = 0; k < flags.size(); ++k)
      if (flags[k]) *local_vector<T>(dst, p0 + static_cast<Index>(k)) = v[next++];
  });
  group_sync(dst);
  return total;
}

}  // namespace armada::arrays::detail
