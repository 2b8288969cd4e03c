// Patch decomposition: a patch [lo, hi) becomes one strided rma operation per block it meets.
//
// For each dimension the blocks overlapping the patch are found by binary search in the
// distribution's boundaries (for_each_block, internal.hpp); each overlapping block gets the
// intersection as its sub-patch, translated to an address in its owner's memory (Place) and an
// offset in the caller's buffer, and an rma strided descriptor (count[0] = contiguous bytes, one
// stride level per remaining dimension, levels that are contiguous on both sides merged). All
// are issued nonblocking; the caller waits for them together, so owners are served concurrently.
#include <algorithm>
#include <array>

#include "armada/rma/transfer.hpp"
#include "internal.hpp"

namespace armada::arrays::detail {

namespace {

struct Level {
  std::size_t count, remote, local;  // repetitions, remote and local byte strides
};

// Issues the strided operation of a box (see box_descriptor) between `remote` on `target` and `local`.
void issue_box(Kind kind, const Array::Impl& a, int target, std::byte* remote, std::byte* local,
               const Coord& count, const Coord& rstride, const Coord& lstride, const void* scale,
               std::vector<rma::Handle>& out) {
  const BoxDescriptor b = box_descriptor(a.esize, count, rstride, lstride);
  const auto c = b.counts(), r = b.remote_strides(), lo = b.local_strides();
  switch (kind) {
    case Kind::Get: out.push_back(rma::get_strided_nb(remote, r, local, lo, c, target)); break;
    case Kind::Put: out.push_back(rma::put_strided_nb(local, lo, remote, r, c, target)); break;
    case Kind::Acc: out.push_back(rma::acc_strided_nb(a.type, scale, local, lo, remote, r, c, target)); break;
  }
}

Index ceil_div(Index x, Index y) { return (x + y - 1) / y; }

}  // namespace

BoxDescriptor box_descriptor(std::size_t esize, const Coord& count, const Coord& rstride, const Coord& lstride) {
  const int n = count.size();
  const std::size_t es = esize;
  std::array<Level, max_ndim> raw{};
  int nraw = 0;
  std::size_t c0 = es;
  // Innermost dimension: contiguous on both sides when its strides are 1 element.
  if (rstride[n - 1] == 1 && lstride[n - 1] == 1)
    c0 = static_cast<std::size_t>(count[n - 1]) * es;
  else if (count[n - 1] > 1)
    raw[nraw++] = {static_cast<std::size_t>(count[n - 1]), static_cast<std::size_t>(rstride[n - 1]) * es,
                   static_cast<std::size_t>(lstride[n - 1]) * es};
  for (int d = n - 2; d >= 0; --d)
    if (count[d] > 1)
      raw[nraw++] = {static_cast<std::size_t>(count[d]), static_cast<std::size_t>(rstride[d]) * es,
                     static_cast<std::size_t>(lstride[d]) * es};
  // Merge a level into the one below when it continues it on both sides (whole rows of a
  // block that spans the full width, a dense buffer, ...): fewer, longer runs.
  BoxDescriptor out;
  auto& cnt = out.count;
  auto& rs = out.remote;
  auto& ls = out.local;
  int& levels = out.levels;
  cnt[0] = c0;
  for (int i = 0; i < nraw; ++i) {
    const Level& l = raw[static_cast<std::size_t>(i)];
    if (levels == 0 && l.remote == cnt[0] && l.local == cnt[0]) {
      cnt[0] *= l.count;
    } else if (levels > 0 && l.remote == rs[static_cast<std::size_t>(levels - 1)] * cnt[static_cast<std::size_t>(levels)] &&
               l.local == ls[static_cast<std::size_t>(levels - 1)] * cnt[static_cast<std::size_t>(levels)]) {
      cnt[static_cast<std::size_t>(levels)] *= l.count;
    } else {
      rs[static_cast<std::size_t>(levels)] = l.remote;
      ls[static_cast<std::size_t>(levels)] = l.local;
      cnt[static_cast<std::size_t>(++levels)] = l.count;
    }
  }
  return out;
}

void issue_patch(Kind kind, const Array::Impl& a, const Coord& lo, const Coord& hi, const Coord* skip,
                 std::byte* buf, const Coord& bstride, const void* scale, std::vector<rma::Handle>& out) {
  const int n = a.ndim();
  Coord count = lo, rstride = lo;
  for_each_block(a, lo, hi, skip, [&](const Coord& k, const Patch& piece) {
    const Place p = a.place(k);
    Index boff = 0;
    for (int d = 0; d < n; ++d) {
      const Index s = skip ? (*skip)[d] : 1;
      count[d] = ceil_div(piece.hi[d] - piece.lo[d], s);
      boff += (piece.lo[d] - lo[d]) / s * bstride[d];
      rstride[d] = p.stride[d] * s;
    }
    issue_box(kind, a, p.world, p.address(piece.lo, a.esize),
              buf + static_cast<std::ptrdiff_t>(boff) * static_cast<std::ptrdiff_t>(a.esize), count, rstride, bstride,
              scale, out);
  });
}

std::vector<LocalPart> my_parts(const Array::Impl& a, const Coord& lo, const Coord& hi) {
  std::vector<LocalPart> parts;
  if (!a.dist.cyclic()) {
    // One block: intersect it directly (no search), also when the patch is far from it.
    const Block& b = a.mine();
    if (b.patch.empty()) return parts;
    Patch p{lo, hi};
    for (int d = 0; d < a.ndim(); ++d) {
      p.lo[d] = std::max(lo[d], b.patch.lo[d]);
      p.hi[d] = std::min(hi[d], b.patch.hi[d]);
    }
    if (!p.empty()) parts.push_back({p, b.address(p.lo, a.ghosts, a.esize), b.stride});
    return parts;
  }
  for_each_block(a, lo, hi, nullptr, [&](const Coord& k, const Patch& piece) {
    if (a.dist.block_owner(k) != a.my) return;
    const Place p = a.place(k);
    parts.push_back({piece, p.address(piece.lo, a.esize), p.stride});
  });
  return parts;
}

void issue_periodic(Kind kind, const Array::Impl& a, const Coord& lo, const Coord& hi, std::byte* buf,
                    const Coord& bstride, const void* scale, std::vector<rma::Handle>& out) {
  for_each_wrapped(a, lo, hi, [&](const Coord& plo, const Coord& phi, const Coord& off) {
    Index boff = 0;
    for (int d = 0; d < a.ndim(); ++d) boff += off[d] * bstride[d];
    issue_patch(kind, a, plo, phi, nullptr, buf + static_cast<std::ptrdiff_t>(boff) * static_cast<std::ptrdiff_t>(a.esize),
                bstride, scale, out);
  });
}

}  // namespace armada::arrays::detail
