// Ghost cells: the whole frame (update_ghosts), one side of one dimension (update_ghost_dir),
// nonblocking (update_ghosts_nb) and one region of this rank's frame (get_ghost_dir_nb).
//
// A rank's frame is cut into the 3^n - 1 regions around its block: per dimension below (-1),
// inside (0) or above (+1) the block. Each operation selects regions; each selected region is
// fetched from its owners straight into the frame, with the block's strides (one strided get
// per owner, periodic pieces as in periodic_get), and the gets are waited for together.
//
// The push form (GhostUpdate::push) moves the same pieces the other way: each owner puts every
// piece of its block that a member's frame needs straight into that frame with
// rma::put_strided_notify (one message per piece: a neighbour's face is one), adding 1 to the
// member's arrival counter, and each member waits until its counter has grown by the number of
// pieces its frame takes. Both sides enumerate the pieces alike (frame_pieces), so the counts
// agree. No barrier and no get: before pushing, an owner waits for a "ready" (a counter
// increment) from each member it writes to, sent as that member enters the update, so that a
// member still reading its frame after update k is never overwritten by update k+1. The counters
// (two longs after the frame, internal.hpp) only grow and each member keeps the running sums it
// waits for: update k+1's increments cannot be taken for update k's.
//
// Across nodes a message costs a trip over the link whatever its size, so there the pieces an
// owner sends one member are merged while two of them land in one box of the frame (a face
// with its edges and corners: one message per neighbour face, as a two-sided halo exchange
// sends), packed and put as one (push_messages). On a node each piece goes straight from block
// to frame, without packing. Both sides merge alike, so the counts still agree.
#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include "armada/arrays/collective.hpp"
#include "armada/rma/runtime.hpp"
#include "armada/rma/sync.hpp"
#include "armada/rma/transfer.hpp"
#include "internal.hpp"

namespace armada::arrays {

namespace {

using Sides = std::array<int, max_ndim>;  // per dimension: -1 below the block, 0 inside, +1 above

// Calls f(lo, hi) for every region of the frame around `own` that select(side, outside) accepts
// (`outside`: the number of dimensions in which the region lies outside the block, >= 1): its
// box, before any wrapping or clipping. Regions in a dimension of ghost width 0 are empty.
template <class Select, class F>
void for_each_region(const Array::Impl& a, const Patch& own, Select&& select, F&& f) {
  if (own.empty()) return;
  const int n = a.ndim();
  int regions = 1;
  for (int d = 0; d < n; ++d) regions *= 3;
  for (int r = 0; r < regions; ++r) {
    Sides side{};
    int outside = 0, code = r;
    for (int d = n - 1; d >= 0; --d, code /= 3) {
      side[static_cast<std::size_t>(d)] = code % 3 - 1;
      outside += side[static_cast<std::size_t>(d)] != 0;
    }
    if (outside == 0 || !select(side, outside)) continue;
    Coord lo = own.lo, hi = own.hi;
    bool empty = false;
    for (int d = 0; d < n; ++d) {
      const int s = side[static_cast<std::size_t>(d)];
      if (s == 0) continue;
      empty |= a.ghosts[d] == 0;  // no cells on this side
      if (s < 0) { hi[d] = lo[d]; lo[d] -= a.ghosts[d]; }
      else { lo[d] = hi[d]; hi[d] += a.ghosts[d]; }
    }
    if (!empty) f(static_cast<const Coord&>(lo), static_cast<const Coord&>(hi));
  }
}

// Clips a region to the array (cells past an edge have no source without wrapping).
bool clip(const Array::Impl& a, Coord& lo, Coord& hi) {
  for (int d = 0; d < a.ndim(); ++d) {
    lo[d] = std::max<Index>(lo[d], 0);
    hi[d] = std::min(hi[d], a.dist.dims()[d]);
  }
  return !Patch{lo, hi}.empty();
}

// Issues the gets that fill region [lo, hi) of this rank's frame.
void issue_region(const Array::Impl& a, Coord lo, Coord hi, bool periodic, std::vector<rma::Handle>& hs) {
  const Block& b = a.mine();
  if (periodic) {
    detail::issue_periodic(detail::Kind::Get, a, lo, hi, b.address(lo, a.ghosts, a.esize), b.stride, nullptr, hs);
    return;
  }
  if (!clip(a, lo, hi)) return;
  detail::issue_patch(detail::Kind::Get, a, lo, hi, nullptr, b.address(lo, a.ghosts, a.esize), b.stride, nullptr, hs);
}

// Issues every region of this rank's frame that `select` accepts (see for_each_region).
template <class Select>
void issue_regions(const Array::Impl& a, bool periodic, Select&& select, std::vector<rma::Handle>& hs) {
  for_each_region(a, a.mine().patch, select,
                  [&](const Coord& lo, const Coord& hi) { issue_region(a, lo, hi, periodic, hs); });
}

// ---- push form ----------------------------------------------------------------------------------

// Calls f(owner, piece, at) for every piece of the selected regions of the frame around `own`:
// the cells [piece.lo, piece.hi) (in the array) of group rank `owner`, which land in that frame at
// global index `at` (piece.lo, or where it wraps to past an edge). The one enumeration both the
// pushing owner and the receiving member use.
template <class Select, class F>
void frame_pieces(const Array::Impl& a, const Patch& own, bool periodic, Select&& select, F&& f) {
  for_each_region(a, own, select, [&](Coord lo, Coord hi) {
    if (!periodic) {
      if (!clip(a, lo, hi)) return;
      detail::for_each_block(a, lo, hi, nullptr, [&](const Coord& k, const Patch& piece) {
        f(a.dist.block_owner(k), piece, piece.lo);
      });
      return;
    }
    detail::for_each_wrapped(a, lo, hi, [&](const Coord& plo, const Coord& phi, const Coord& off) {
      detail::for_each_block(a, plo, phi, nullptr, [&](const Coord& k, const Patch& piece) {
        Coord at = piece.lo;
        for (int d = 0; d < a.ndim(); ++d) at[d] = lo[d] + off[d] + piece.lo[d] - plo[d];
        f(a.dist.block_owner(k), piece, static_cast<const Coord&>(at));
      });
    });
  });
}

// The members whose frames may meet this rank's block: the owners of the blocks within ghost
// width of it, wrapped, this rank included, sorted.
std::vector<int> frame_neighbours(const Array::Impl& a) {
  const Patch& own = a.mine().patch;
  Coord lo = own.lo, hi = own.hi;
  for (int d = 0; d < a.ndim(); ++d) {
    lo[d] -= a.ghosts[d];
    hi[d] += a.ghosts[d];
    if (hi[d] - lo[d] >= a.dist.dims()[d]) { lo[d] = 0; hi[d] = a.dist.dims()[d]; }
  }
  std::vector<int> out;
  detail::for_each_wrapped(a, lo, hi, [&](const Coord& l, const Coord& h, const Coord&) {
    detail::for_each_block(a, l, h, nullptr, [&](const Coord& k, const Patch&) { out.push_back(a.dist.block_owner(k)); });
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

constexpr auto whole_frame = [](const Sides&, int) { return true; };

// One piece of an owner's block and where it lands in a member's frame (frame_pieces' f).
struct PushPiece {
  Patch piece;
  Coord at;
  Patch landing() const {
    Patch p{at, at};
    for (int d = 0; d < at.size(); ++d) p.hi[d] += piece.hi[d] - piece.lo[d];
    return p;
  }
};

// One message of the push form: pieces whose landings tile the frame's box `box`.
struct PushMessage {
  Patch box;
  std::vector<PushPiece> pieces;
};

// Whether boxes x and y together form one box (equal in every dimension but one, where they meet).
bool joinable(const Patch& x, const Patch& y) {
  int differing = -1;
  for (int d = 0; d < x.lo.size(); ++d) {
    if (x.lo[d] == y.lo[d] && x.hi[d] == y.hi[d]) continue;
    if (differing >= 0 || (x.hi[d] != y.lo[d] && y.hi[d] != x.lo[d])) return false;
    differing = d;
  }
  return differing >= 0;
}

// The messages carrying `pieces` (one owner's, for one member, in frame_pieces' order): one per
// piece on a node; across nodes, pieces merged while two messages' boxes join. Deterministic, so
// the owner and the member count alike.
std::vector<PushMessage> push_messages(std::vector<PushPiece> pieces, bool across_nodes) {
  std::vector<PushMessage> out;
  for (PushPiece& p : pieces) out.push_back({p.landing(), {std::move(p)}});
  for (bool joined = across_nodes; joined;) {
    joined = false;
    for (std::size_t i = 0; i < out.size(); ++i)
      for (std::size_t j = i + 1; j < out.size(); ++j) {
        if (!joinable(out[i].box, out[j].box)) continue;
        for (int d = 0; d < out[i].box.lo.size(); ++d) {
          out[i].box.lo[d] = std::min(out[i].box.lo[d], out[j].box.lo[d]);
          out[i].box.hi[d] = std::max(out[i].box.hi[d], out[j].box.hi[d]);
        }
        out[i].pieces.insert(out[i].pieces.end(), out[j].pieces.begin(), out[j].pieces.end());
        out.erase(out.begin() + static_cast<std::ptrdiff_t>(j));
        joined = true;
        --j;
      }
  }
  return out;
}

// Copies a box of `extents` elements of `esize` bytes between local memory with element strides
// `from_stride` and `to_stride` (the packing of a merged message).
void copy_box(std::size_t esize, const Coord& extents, const std::byte* from, const Coord& from_stride, std::byte* to,
              const Coord& to_stride) {
  const int n = extents.size();
  const auto run = static_cast<std::size_t>(extents[n - 1]);
  const bool contiguous = from_stride[n - 1] == 1 && to_stride[n - 1] == 1;
  Coord i = extents;  // odometer over every dimension but the last
  for (int d = 0; d < n; ++d) i[d] = 0;
  for (;;) {
    std::ptrdiff_t f = 0, t = 0;
    for (int d = 0; d < n - 1; ++d) f += i[d] * from_stride[d], t += i[d] * to_stride[d];
    const auto es = static_cast<std::ptrdiff_t>(esize);
    if (contiguous) std::memcpy(to + t * es, from + f * es, run * esize);
    else
      for (std::size_t k = 0; k < run; ++k)
        std::memcpy(to + (t + static_cast<std::ptrdiff_t>(k) * to_stride[n - 1]) * es,
                    from + (f + static_cast<std::ptrdiff_t>(k) * from_stride[n - 1]) * es, esize);
    int d = n - 2;
    for (; d >= 0 && ++i[d] == extents[d]; --d) i[d] = 0;
    if (d < 0) return;
  }
}

// The put of local cells (`src` with element strides `src_stride`) into member g's frame box
// `box`, counted at g.
void put_into_frame(const Array::Impl& a, int g, const Patch& box, const std::byte* src, const Coord& src_stride) {
  const Block to = a.block(g);
  const detail::BoxDescriptor d = detail::box_descriptor(a.esize, box.extents(), to.stride, src_stride);
  rma::put_strided_notify(src, d.local_strides(), to.address(box.lo, a.ghosts, a.esize), d.remote_strides(), d.counts(),
                          &a.push_counters(g)[0], 1L, to.world, rma::Notify::Add);
}

// The put of one piece of this rank's block into member g's frame at `at`, counted at g.
void push_piece(const Array::Impl& a, int g, const Patch& piece, const Coord& at) {
  const Block& me = a.mine();
  put_into_frame(a, g, PushPiece{piece, at}.landing(), me.address(piece.lo, a.ghosts, a.esize), me.stride);
}

bool across_nodes(const Array::Impl& a, int g) {
  return !rma::same_node(a.mine().world, a.group.world_ranks()[static_cast<std::size_t>(g)]);
}

// Packing space of one update, grown to its largest message and not zero-filled (every byte of a
// message is packed before it is put).
struct PackBuffer {
  std::unique_ptr<std::byte[]> bytes;
  std::size_t size = 0;
  std::byte* at_least(std::size_t n) {
    if (n > size) bytes = std::make_unique_for_overwrite<std::byte[]>(size = n);
    return bytes.get();
  }
};

// Sends one message: a single piece straight from the block, several packed in the box's layout.
void push_message(const Array::Impl& a, int g, const PushMessage& m, PackBuffer& buffer) {
  if (m.pieces.size() == 1) return push_piece(a, g, m.pieces[0].piece, m.pieces[0].at);
  const Block& me = a.mine();
  const Coord dense = detail::dense_strides(m.box.extents());
  std::byte* const packed = buffer.at_least(static_cast<std::size_t>(m.box.elements()) * a.esize);
  for (const PushPiece& p : m.pieces) {
    Index offset = 0;
    for (int d = 0; d < dense.size(); ++d) offset += (p.at[d] - m.box.lo[d]) * dense[d];
    copy_box(a.esize, p.piece.extents(), me.address(p.piece.lo, a.ghosts, a.esize), me.stride,
             packed + static_cast<std::size_t>(offset) * a.esize, dense);
  }
  put_into_frame(a, g, m.box, packed, dense);  // returns at local completion: the buffer is free again
}

// A 0-byte notify: a ready (slot 1) or an update's "nothing from me this time" (slot 0).
void push_note(const Array::Impl& a, int g, int slot) {
  rma::put_notify(nullptr, nullptr, 0, &a.push_counters(g)[slot], 1L, a.group.world_ranks()[static_cast<std::size_t>(g)],
                  rma::Notify::Add);
}

// The push update of the regions `select` accepts (see the file comment). No collective call:
// the counters are the only synchronization. The pairs that exchange readies are fixed (owner
// and member whose whole periodic frame takes a piece of the owner's block), whatever this
// update selects, and every such owner sends each such member at least one message per update
// (a 0-byte note when it has no piece for it): so no member finishes update k before each of
// its sources has passed its ready wait of update k, and no ready of update k+1 can stand in
// for a missing ready of update k.
template <class Select>
void push_regions(const Array::Impl& a, bool periodic, Select&& select) {
  const Patch& own = a.mine().patch;
  if (own.empty()) return;  // no block: nothing to send, no frame to fill
  const int me = a.my;
  std::vector<int> sources;
  frame_pieces(a, own, true, whole_frame, [&](int owner, const Patch&, const Coord&) {
    if (owner != me) sources.push_back(owner);
  });
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  std::vector<std::vector<PushPiece>> pieces(sources.size());
  long arrivals = 0;
  frame_pieces(a, own, periodic, select, [&](int owner, const Patch& piece, const Coord& at) {
    if (owner == me) ++arrivals;
    else pieces[static_cast<std::size_t>(std::lower_bound(sources.begin(), sources.end(), owner) - sources.begin())].push_back({piece, at});
  });
  for (std::size_t i = 0; i < sources.size(); ++i) {
    arrivals += std::max<long>(static_cast<long>(push_messages(std::move(pieces[i]), across_nodes(a, sources[i])).size()), 1L);
  }
  for (int s : sources) push_note(a, s, 1);  // this frame may be written from now on
  std::vector<int> targets;
  for (int g : frame_neighbours(a)) {
    if (g == me) continue;
    bool takes = false;
    frame_pieces(a, a.dist.block(g), true, whole_frame, [&](int owner, const Patch&, const Coord&) { takes |= owner == me; });
    if (takes) targets.push_back(g);
  }
  frame_pieces(a, own, periodic, select, [&](int owner, const Patch& piece, const Coord& at) {
    if (owner == me) push_piece(a, me, piece, at);  // this rank's own wrap: no ready needed
  });
  a.push_readies += static_cast<long>(targets.size());
  rma::wait_flag(&a.push_counters(me)[1], a.push_readies, true);
  PackBuffer packed;
  for (int g : targets) {
    std::vector<PushPiece> mine;
    frame_pieces(a, a.dist.block(g), periodic, select, [&](int owner, const Patch& piece, const Coord& at) {
      if (owner == me) mine.push_back({piece, at});
    });
    if (mine.empty()) {
      push_note(a, g, 0);
      continue;
    }
    for (const PushMessage& m : push_messages(std::move(mine), across_nodes(a, g))) push_message(a, g, m, packed);
  }
  a.push_arrivals += arrivals;
  rma::wait_flag(&a.push_counters(me)[0], a.push_arrivals, true);
}

bool any_ghosts(const Array::Impl& a) {
  return std::any_of(a.ghosts.begin(), a.ghosts.end(), [](Index w) { return w > 0; });
}

void require_ghosts(const char* op, const Array::Impl& a) {
  if (!any_ghosts(a))
    detail::fail(op, &a, "array", a.name, "has no ghost cells (ghost widths " + a.ghosts.str() + ")");
}

rma::MustMatch::value_type same_how(const GhostUpdate& how) {
  return {"how", std::string("periodic ") + (how.periodic ? "true" : "false") + ", corners " +
                     (how.corners ? "true" : "false") + ", push " + (how.push ? "true" : "false")};
}

// The regions of a whole-frame update: all, or the faces only.
auto frame(const GhostUpdate& how) {
  return [corners = how.corners](const Sides&, int outside) { return corners || outside == 1; };
}

}  // namespace

void Array::update_ghosts(bool periodic) { update_ghosts(GhostUpdate{periodic, true}); }

void Array::update_ghosts(const GhostUpdate& how) {
  constexpr const char* op = "arrays::update_ghosts";
  if (how.push) {
    collective_group(op, *this);  // a rank outside the group fails alone, as in the pull form
    const Impl& a = checked(op);
    if (any_ghosts(a)) push_regions(a, how.periodic, frame(how));
    return;
  }
  const Impl* ap = nullptr;
  // The owners' interiors are final once every member arrived.
  begin_collective(op, collective_group(op, *this), [&] { ap = &checked(op); }, {same_shape("array", *this), same_how(how)});
  std::vector<rma::Handle> hs;
  issue_regions(*ap, how.periodic, frame(how), hs);
  detail::wait_all(hs);
  sync_group();  // no owner changes a value before every ghost copy of it is taken
}

void Array::update_ghost_dir(int dimension, int direction, const GhostUpdate& how) {
  constexpr const char* op = "arrays::update_ghost_dir";
  const Impl* ap = nullptr;
  const auto checks = [&] {
    const Impl& a = checked(op);
    if (dimension < 0 || dimension >= a.ndim())
      detail::fail(op, &a, "dimension", std::to_string(dimension),
                   "must be in [0, " + std::to_string(a.ndim()) + ") (the array's dimensions)");
    if (direction != -1 && direction != 1)
      detail::fail(op, &a, "direction", std::to_string(direction), "must be -1 (below the block) or +1 (above it)");
    require_ghosts(op, a);
    ap = &a;
  };
  const auto d = static_cast<std::size_t>(dimension);
  const auto select = [&](const Sides& side, int outside) { return side[d] == direction && (how.corners || outside == 1); };
  if (how.push) {  // no agreement: each member checks its own arguments, every member that called fails alike
    collective_group(op, *this);
    checks();
    push_regions(*ap, how.periodic, select);
    return;
  }
  begin_collective(op, collective_group(op, *this), checks,
                   {same_shape("array", *this), {"dimension", std::to_string(dimension)},
                    {"direction", std::to_string(direction)}, same_how(how)});
  std::vector<rma::Handle> hs;
  issue_regions(*ap, how.periodic, select, hs);
  detail::wait_all(hs);
  sync_group();
}

NbHandle Array::update_ghosts_nb(const GhostUpdate& how) {
  constexpr const char* op = "arrays::update_ghosts_nb";
  const Impl* ap = nullptr;
  begin_collective(op, collective_group(op, *this), [&] {
    ap = &checked(op);
    if (how.push)
      detail::fail(op, ap, "how.push", "true", "the push form has no nonblocking variant (use update_ghosts)");
  }, {same_shape("array", *this), same_how(how)});
  NbHandle h;
  issue_regions(*ap, how.periodic, frame(how), NbHandle::handles_of(h));
  return h;
}

NbHandle Array::get_ghost_dir_nb(const Coord& mask, bool periodic) {
  constexpr const char* op = "arrays::get_ghost_dir_nb";
  const Impl& a = checked(op);
  if (mask.size() != a.ndim())
    detail::fail(op, &a, "mask", mask.str(), "needs one entry per dimension (" + std::to_string(a.ndim()) + ")");
  Sides want{};
  bool outside = false;
  for (int d = 0; d < a.ndim(); ++d) {
    if (mask[d] < -1 || mask[d] > 1)
      detail::fail(op, &a, "mask", mask.str(), "entries must be -1 (below the block), 0 or +1 (above it)");
    want[static_cast<std::size_t>(d)] = static_cast<int>(mask[d]);
    outside |= mask[d] != 0;
  }
  require_ghosts(op, a);
  if (!a.group.is_member())
    detail::fail(op, &a, "array", a.name,
                 "this rank is not a member of the array's group: it has no block and no ghost cells",
                 rma::ErrorKind::handle);
  NbHandle h;
  // All zeros name the block itself, whose values are in place already.
  if (outside) issue_regions(a, periodic, [&](const Sides& side, int) { return side == want; }, NbHandle::handles_of(h));
  return h;
}

}  // namespace armada::arrays

namespace armada::arrays::detail {
long push_arrivals(const Array& a) { return a.impl()->push_arrivals; }
}  // namespace armada::arrays::detail
