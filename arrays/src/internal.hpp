// Internals shared by the arrays sources: the array's state and the argument checks.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "armada/arrays/global_array.hpp"
#include "armada/rma/error.hpp"
#include "armada/rma/memory.hpp"

namespace armada::arrays {

/// Per owner (group rank): where its memory lives and, for Layout::blocks, how its block is laid
/// out (block-cyclic layouts: patch is empty, the Distribution places each block). Derived on
/// demand (Array::Impl::block): an array stores only its members' bases.
struct Block {
  Patch patch;          // owned [lo, hi)
  Coord stride;         // element strides of the allocation (block plus ghosts)
  std::byte* base = nullptr;  // allocation start in the owner's address space
  int world = -1;       // owner's world rank
  // Address (in the owner's space) of global index g.
  std::byte* address(const Coord& g, const Coord& ghosts, std::size_t esize) const {
    Index off = 0;
    for (int d = 0; d < g.size(); ++d) off += (g[d] - patch.lo[d] + ghosts[d]) * stride[d];
    return base + static_cast<std::ptrdiff_t>(off) * static_cast<std::ptrdiff_t>(esize);
  }
};

/// Where one block of a distribution lies: its owner, and `first`, the address (in the owner's
/// space) of the block's first element lo, with the element strides of its rows.
struct Place {
  int group_rank = -1;
  int world = -1;
  std::byte* first = nullptr;
  Coord lo, stride;
  std::byte* address(const Coord& g, std::size_t esize) const {
    Index off = 0;
    for (int d = 0; d < g.size(); ++d) off += (g[d] - lo[d]) * stride[d];
    return first + static_cast<std::ptrdiff_t>(off) * static_cast<std::ptrdiff_t>(esize);
  }
};

struct Array::Impl {
  int id = 0;
  ElemType type{};
  std::size_t esize = 0;
  std::string name;
  Distribution dist;
  rma::Group group{nullptr};
  Coord ghosts;                 // width per dimension (zeros when none)
  // Where each member's allocation starts: from the segment's symmetric layout (one origin,
  // no table: every member allocates one size where that wastes little, see create), else per
  // group rank, 8 B a member (null: it holds nothing). The rest of a block (patch, strides,
  // world rank) is derived from the distribution when an operation needs it, a few index
  // operations beside the transfer; storing it cost 208 B a member (issue 53: 2 GB for 100
  // arrays at 100k ranks).
  std::optional<rma::SymmetricLayout> layout;
  std::vector<std::byte*> bases;  // empty when `layout` is set
  std::byte* base_of(int g) const {
    return layout ? static_cast<std::byte*>(layout->base(g)) : bases[static_cast<std::size_t>(g)];
  }
  Block my_block;               // this rank's, derived once (local access reads it often)
  int my = -1;                  // this process's group rank
  void* my_base = nullptr;      // local allocation (for rma::free)
  int accesses = 0;             // outstanding access() calls
  bool destroyed = false;
  // Push ghost updates (ghosts.cpp): the arrivals and readies this rank has waited for so far,
  // summed over every push update (the counters at the target only grow).
  mutable long push_arrivals = 0, push_readies = 0;
  int ndim() const noexcept { return dist.ndim(); }
  const Block& mine() const { return my_block; }
  /// Group rank g's block layout: its patch with the ghost frame, row-major (Layout::blocks).
  Block block(int g) const {
    Block b;
    b.patch = dist.block(g);
    b.world = group.world_ranks()[static_cast<std::size_t>(g)];
    b.stride = padded_strides(b.patch);
    const bool holds = dist.cyclic() ? dist.local_elements(g) > 0 : !b.patch.empty();
    b.base = holds ? base_of(g) : nullptr;
    return b;
  }
  /// Element strides of a block allocation holding `patch` and its ghost frame.
  Coord padded_strides(const Patch& patch) const;
  /// Bytes of a block allocation holding `patch` and its ghost frame; an array with ghost cells
  /// adds, 8-byte aligned after them, the two counters of push ghost updates (ghosts.cpp).
  std::size_t allocation_bytes(const Patch& patch) const;
  /// Group rank g's push counters (arrivals, readies) in its address space (g holds a block).
  long* push_counters(int g) const;
  /// Where the block with coordinates k lies.
  Place place(const Coord& k) const {
    Place p;
    p.group_rank = dist.block_owner(k);
    p.world = group.world_ranks()[static_cast<std::size_t>(p.group_rank)];
    std::byte* const base = base_of(p.group_rank);
    const Patch box = dist.block_patch(k);
    p.lo = box.lo;
    if (!dist.cyclic()) {
      // Layout::blocks: k is the owner's only block, so its patch is the owner's.
      p.stride = padded_strides(box);
      Index off = 0;
      for (int d = 0; d < ndim(); ++d) off += ghosts[d] * p.stride[d];
      p.first = base + static_cast<std::ptrdiff_t>(off) * static_cast<std::ptrdiff_t>(esize);
    } else {
      p.stride = dist.local_strides(k);
      p.first = base + static_cast<std::ptrdiff_t>(dist.local_offset(k)) * static_cast<std::ptrdiff_t>(esize);
    }
    return p;
  }
  /// The address (in its owner's space) of the element at global index g.
  std::byte* address(const Coord& g) const { return place(dist.block_of(g)).address(g, esize); }
};

namespace detail {

/// "array 'A' (double, dims [4, 8])".
std::string describe(const Array::Impl& a);
/// Throws InvalidArgument of `kind` (argument, handle or type) naming `a` (if any) in the reason.
[[noreturn]] void fail(const char* op, const Array::Impl* a, const std::string& argument,
                       const std::string& value, const std::string& reason,
                       rma::ErrorKind kind = rma::ErrorKind::argument);

/// The number of elements of a box with `extents` (each >= 0), failing with InvalidArgument
/// naming `argument` when the product does not fit in Index.
Index checked_elements(const char* op, const char* argument, const Coord& extents);
/// The bytes of an array with `dims` and ghost widths `ghosts` (its largest possible block
/// with ghosts is smaller) of `esize`-byte elements; fails naming dims and ghosts when the
/// size, or any byte offset inside it, does not fit in a signed 64-bit integer.
std::size_t checked_array_bytes(const char* op, const Coord& dims, const Coord& ghosts, std::size_t esize);

/// Checks a patch [lo, hi) of `a`: ndim entries each, 0 <= lo <= hi <= dims.
void check_patch(const char* op, const Array::Impl& a, const Coord& lo, const Coord& hi);
/// Checks `ld` for a buffer holding `extents`; returns the buffer's element strides.
Coord buffer_strides(const char* op, const Array::Impl& a, const Coord& extents, const Coord& ld);
/// Checks that `ranks` arrays are on one group and have one type (collective ops).
void check_compatible(const char* op, const Array::Impl& a, const Array::Impl& b);
void check_same_extents(const char* op, const Array::Impl& a, const Coord& alo, const Coord& ahi,
                        const Array::Impl& b, const Coord& blo, const Coord& bhi, bool transpose);

/// How one patch operation moves data (see patch.cpp).
enum class Kind { Get, Put, Acc };

/// Issues the per-owner strided operations of patch [lo, hi) (taking every skip[d]-th element)
/// between `a` and a local buffer with element strides `bstride`, appending their handles.
/// Arguments must already be checked.
void issue_patch(Kind kind, const Array::Impl& a, const Coord& lo, const Coord& hi, const Coord* skip,
                 std::byte* buf, const Coord& bstride, const void* scale, std::vector<rma::Handle>& out);
/// The rma strided descriptor of a box of `count` elements per dimension whose elements are
/// `rstride`/`lstride` elements apart on the remote/local side (count[0]: contiguous bytes, one
/// level per remaining dimension, levels contiguous on both sides merged).
struct BoxDescriptor {
  std::array<std::size_t, max_ndim + 1> count{};
  std::array<std::size_t, max_ndim> remote{}, local{};
  int levels = 0;
  std::span<const std::size_t> counts() const { return {count.data(), static_cast<std::size_t>(levels + 1)}; }
  std::span<const std::size_t> remote_strides() const { return {remote.data(), static_cast<std::size_t>(levels)}; }
  std::span<const std::size_t> local_strides() const { return {local.data(), static_cast<std::size_t>(levels)}; }
};
BoxDescriptor box_descriptor(std::size_t esize, const Coord& count, const Coord& rstride, const Coord& lstride);

/// Splits patch [lo, hi) of `a`, whose indices may pass the edges, into the pieces that wrap
/// into [0, dims) (at most three per dimension: its length is at most twice the extent, GA's
/// limit) and calls f(plo, phi, off) for each: the piece and its offset from lo (per dimension).
template <class F>
void for_each_wrapped(const Array::Impl& a, const Coord& lo, const Coord& hi, F&& f);

/// The same for a periodic patch (indices wrap).
void issue_periodic(Kind kind, const Array::Impl& a, const Coord& lo, const Coord& hi, std::byte* buf,
                    const Coord& bstride, const void* scale, std::vector<rma::Handle>& out);

/// Calls f(k, piece) for every block k of `a` meeting patch [lo, hi) (every skip[d]-th index
/// from lo when skip is given), with `piece` the part of the patch in that block: piece.lo its
/// first selected index, piece.hi the patch's or the block's end. The one place a patch is
/// split among blocks (patch operations, a collective's local parts, locate_region).
template <class F>
void for_each_block(const Array::Impl& a, const Coord& lo, const Coord& hi, const Coord* skip, F&& f);

/// One part of a patch in this rank's memory: the elements, the address of piece.lo and the
/// element strides there.
struct LocalPart {
  Patch piece;
  std::byte* first;
  Coord stride;
};
/// This rank's parts of patch [lo, hi), one per block it owns that meets the patch.
std::vector<LocalPart> my_parts(const Array::Impl& a, const Coord& lo, const Coord& hi);

/// Bytes `a` keeps per member of its group (what grows with P; tests/arrays/test_state.cpp).
std::size_t member_state_bytes(const Array& a);

/// Waits for every handle (the blocking forms' completion).
void wait_all(std::vector<rma::Handle>& handles);

/// Row-major element strides of a dense box with `extents`.
Coord dense_strides(const Coord& extents);

}  // namespace detail

inline Coord Array::Impl::padded_strides(const Patch& patch) const {
  Coord ext = patch.extents();
  for (int d = 0; d < ext.size(); ++d) ext[d] += 2 * ghosts[d];
  return detail::dense_strides(ext);
}

inline std::size_t Array::Impl::allocation_bytes(const Patch& patch) const {
  if (patch.empty()) return 0;
  Coord ext = patch.extents();
  bool framed = false;
  for (int d = 0; d < ext.size(); ++d) {
    ext[d] += 2 * ghosts[d];
    framed |= ghosts[d] > 0;
  }
  const std::size_t bytes = static_cast<std::size_t>(ext.product()) * esize;
  return framed ? (bytes + 7) / 8 * 8 + 2 * sizeof(long) : bytes;
}

inline long* Array::Impl::push_counters(int g) const {
  const std::size_t end = allocation_bytes(dist.block(g));
  return reinterpret_cast<long*>(base_of(g) + end - 2 * sizeof(long));
}

namespace detail {

template <class F>
void for_each_wrapped(const Array::Impl& a, const Coord& lo, const Coord& hi, F&& f) {
  const int n = a.ndim();
  struct Piece { Index lo, hi, off; };
  std::array<std::array<Piece, 3>, max_ndim> pieces{};
  std::array<int, max_ndim> npieces{}, k{};
  for (int d = 0; d < n; ++d) {
    const Index dim = a.dist.dims()[d], len = hi[d] - lo[d];
    Index s = ((lo[d] % dim) + dim) % dim, left = len, off = 0;
    auto& p = pieces[static_cast<std::size_t>(d)];
    int& c = npieces[static_cast<std::size_t>(d)];
    if (len == 0) p[static_cast<std::size_t>(c++)] = {s, s, 0};  // an empty patch: one empty piece
    for (; left > 0; s = 0) {  // [start, dims), then [0, dims) or what is left, ...
      const Index take = std::min(left, dim - s);
      p[static_cast<std::size_t>(c++)] = {s, s + take, off};
      off += take;
      left -= take;
    }
  }
  Coord plo = lo, phi = hi, off = lo;
  for (;;) {
    for (int d = 0; d < n; ++d) {
      const Piece& p = pieces[static_cast<std::size_t>(d)][static_cast<std::size_t>(k[static_cast<std::size_t>(d)])];
      plo[d] = p.lo;
      phi[d] = p.hi;
      off[d] = p.off;
    }
    f(static_cast<const Coord&>(plo), static_cast<const Coord&>(phi), static_cast<const Coord&>(off));
    int d = n - 1;
    for (; d >= 0; --d) {
      auto& kd = k[static_cast<std::size_t>(d)];
      if (++kd < npieces[static_cast<std::size_t>(d)]) break;
      kd = 0;
    }
    if (d < 0) break;
  }
}

template <class F>
void for_each_block(const Array::Impl& a, const Coord& lo, const Coord& hi, const Coord* skip, F&& f) {
  const int n = a.ndim();
  if (Patch{lo, hi}.empty()) return;
  // Block index range [first[d], last[d]) of each dimension that overlaps the patch.
  Coord first = lo, last = lo;
  for (int d = 0; d < n; ++d) {
    const auto& b = a.dist.bounds(d);
    const auto starts_end = b.end() - 1;
    first[d] = static_cast<Index>(std::upper_bound(b.begin(), starts_end, lo[d]) - b.begin()) - 1;
    last[d] = static_cast<Index>(std::lower_bound(b.begin(), starts_end, hi[d]) - b.begin());
  }
  Coord k = first;
  Patch piece{lo, hi};
  for (;;) {
    bool empty = false;
    for (int d = 0; d < n && !empty; ++d) {
      const auto& b = a.dist.bounds(d);
      const Index s = skip ? (*skip)[d] : 1;
      Index l = std::max(lo[d], b[static_cast<std::size_t>(k[d])]);
      l = lo[d] + (l - lo[d] + s - 1) / s * s;  // first selected index in the block
      piece.lo[d] = l;
      piece.hi[d] = std::min(hi[d], b[static_cast<std::size_t>(k[d] + 1)]);
      empty = l >= piece.hi[d];
    }
    if (!empty) f(static_cast<const Coord&>(k), static_cast<const Patch&>(piece));
    // Next block (odometer, last dimension fastest).
    int d = n - 1;
    for (; d >= 0; --d) {
      if (++k[d] < last[d]) break;
      k[d] = first[d];
    }
    if (d < 0) break;
  }
}

}  // namespace detail
}  // namespace armada::arrays
