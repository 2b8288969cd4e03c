// Ghost cells: the whole frame (update_ghosts), one side of one dimension (update_ghost_dir),
// nonblocking (update_ghosts_nb) and one region of this rank's frame (get_ghost_dir_nb).
//
// A rank's frame is cut into the 3^n - 1 regions around its block: per dimension below (-1),
// inside (0) or above (+1) the block. Each operation selects regions; each selected region is
// fetched from its owners straight into the frame, with the block's strides (one strided get
// per owner, periodic pieces as in periodic_get), and the gets are waited for together.
#include <algorithm>
#include <array>

#include "armada/arrays/collective.hpp"
#include "armada/rma/sync.hpp"
#include "internal.hpp"

namespace armada::arrays {

namespace {

using Sides = std::array<int, max_ndim>;  // per dimension: -1 below the block, 0 inside, +1 above

// Issues the gets that fill region `side` of this rank's frame.
void issue_region(const Array::Impl& a, const Sides& side, bool periodic, std::vector<rma::Handle>& hs) {
  const Block& b = a.mine();
  const int n = a.ndim();
  Coord lo = b.patch.lo, hi = b.patch.hi;
  for (int d = 0; d < n; ++d) {
    const int s = side[static_cast<std::size_t>(d)];
    if (s == 0) continue;
    if (a.ghosts[d] == 0) return;  // no cells on this side
    if (s < 0) { hi[d] = lo[d]; lo[d] -= a.ghosts[d]; }
    else { lo[d] = hi[d]; hi[d] += a.ghosts[d]; }
  }
  if (periodic) {
    detail::issue_periodic(detail::Kind::Get, a, lo, hi, b.address(lo, a.ghosts, a.esize), b.stride, nullptr, hs);
    return;
  }
  // Cells past an edge have no source: clip them off and leave them alone.
  for (int d = 0; d < n; ++d) {
    lo[d] = std::max<Index>(lo[d], 0);
    hi[d] = std::min(hi[d], a.dist.dims()[d]);
  }
  if (Patch{lo, hi}.empty()) return;
  detail::issue_patch(detail::Kind::Get, a, lo, hi, nullptr, b.address(lo, a.ghosts, a.esize), b.stride, nullptr, hs);
}

// Issues every region of this rank's frame that select(side, outside) accepts (`outside`: the
// number of dimensions in which the region lies outside the block, >= 1).
template <class Select>
void issue_regions(const Array::Impl& a, bool periodic, Select&& select, std::vector<rma::Handle>& hs) {
  if (a.mine().patch.empty()) return;
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
    if (outside > 0 && select(side, outside)) issue_region(a, side, periodic, hs);
  }
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
                     (how.corners ? "true" : "false")};
}

// The regions of a whole-frame update: all, or the faces only.
auto frame(const GhostUpdate& how) {
  return [corners = how.corners](const Sides&, int outside) { return corners || outside == 1; };
}

}  // namespace

void Array::update_ghosts(bool periodic) { update_ghosts(GhostUpdate{periodic, true}); }

void Array::update_ghosts(const GhostUpdate& how) {
  constexpr const char* op = "arrays::update_ghosts";
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
  begin_collective(
      op, collective_group(op, *this),
      [&] {
        const Impl& a = checked(op);
        if (dimension < 0 || dimension >= a.ndim())
          detail::fail(op, &a, "dimension", std::to_string(dimension),
                       "must be in [0, " + std::to_string(a.ndim()) + ") (the array's dimensions)");
        if (direction != -1 && direction != 1)
          detail::fail(op, &a, "direction", std::to_string(direction), "must be -1 (below the block) or +1 (above it)");
        require_ghosts(op, a);
        ap = &a;
      },
      {same_shape("array", *this), {"dimension", std::to_string(dimension)}, {"direction", std::to_string(direction)},
       same_how(how)});
  const auto d = static_cast<std::size_t>(dimension);
  std::vector<rma::Handle> hs;
  issue_regions(*ap, how.periodic,
                [&](const Sides& side, int outside) {
                  return side[d] == direction && (how.corners || outside == 1);
                },
                hs);
  detail::wait_all(hs);
  sync_group();
}

NbHandle Array::update_ghosts_nb(const GhostUpdate& how) {
  constexpr const char* op = "arrays::update_ghosts_nb";
  const Impl* ap = nullptr;
  begin_collective(op, collective_group(op, *this), [&] { ap = &checked(op); }, {same_shape("array", *this), same_how(how)});
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
  if (outside && !a.mine().patch.empty()) issue_region(a, want, periodic, NbHandle::handles_of(h));
  return h;
}

}  // namespace armada::arrays
