#include "replica.hpp"

#include <stdexcept>

#include "kernels.hpp"

namespace armada::apps::ccsd {

namespace {

/// The replicated operand's letters, tensor and row and column pair spaces.
struct Replicated {
  TensorId id;
  const char* indices;
  Perm perm;
  const char *row_letters, *col_letters;
  const std::vector<PairSpace> *rows, *cols;
};

Replicated replicated_of(const TermPlan& plan) {
  const TermSpec& s = plan.spec();
  const TermLayout& l = plan.layout;
  if (plan.a_streamed()) return {s.b, s.b_indices, l.b_perm, s.contracted, l.b_free, &plan.K, &plan.Q};
  return {s.a, s.a_indices, l.a_perm, l.a_free, s.contracted, &plan.P, &plan.K};
}

/// Elements of each sector matrix.
std::vector<std::int64_t> sector_sizes(const Replicated& r) {
  std::vector<std::int64_t> sizes;
  for (std::size_t g = 0; g < r.rows->size(); ++g) sizes.push_back((*r.rows)[g].extent * (*r.cols)[g].extent);
  return sizes;
}

/// Calls f(sector, storage offset, extents, position in the sector matrix) for every block of
/// the sectors `wanted(g)` says.
template <class Wanted, class F>
void for_each_block(const TiledTensor& tensor, const Replicated& r, Wanted&& wanted, F&& f) {
  for (std::size_t g = 0; g < r.rows->size(); ++g) {
    if (!wanted(g)) continue;
    const PairSpace &rows = (*r.rows)[g], &cols = (*r.cols)[g];
    LetterTiles lt;
    for (const PairSpace::Pair& row : rows.pairs)
      for (const PairSpace::Pair& col : cols.pairs) {
        lt.set(r.row_letters, row);
        lt.set(r.col_letters, col);
        const TileTuple t = lt.tuple(r.indices);
        const std::int64_t offset = tensor.offset(t);
        if (offset < 0) throw std::logic_error("armada-ccsd: a sector matrix needs a block that is zero by symmetry");
        f(g, offset, tensor.extents(t), row.offset * cols.extent + col.offset);
      }
  }
}

/// Writes the blocks of the sectors `dest(g)` gives a matrix for into it; block_at(offset) is
/// where the block stored at `offset` is.
template <class Dest, class BlockAt>
void arrange(const TiledTensor& tensor, const Replicated& r, Dest&& dest, BlockAt&& block_at) {
  for_each_block(tensor, r, [&](std::size_t g) { return dest(g) != nullptr; },
                 [&](std::size_t g, std::int64_t offset, const Extents& e, std::int64_t at) {
                   block_to_matrix(block_at(offset), e, r.perm, dest(g) + at, (*r.cols)[g].extent);
                 });
}

}  // namespace

Replicas::Replicas(TileStore& store, const Tensors& tensors, const TermPlans& plans) : tensors_(tensors) {
  for (const TermPlan& plan : plans) {
    const Replicated r = replicated_of(plan);
    const auto key = std::make_pair(r.id, r.perm);
    if (arranged_.count(key)) continue;
    Arranged& a = arranged_[key];
    const std::vector<std::int64_t> sizes = sector_sizes(r);
    a.shared = store.node_copy(sizes);  // the same decision on every rank
    a.own.resize(sizes.size());
    a.matrices.resize(sizes.size());
    for (std::size_t g = 0; g < sizes.size(); ++g)
      if (!a.shared || !a.shared->at(g)) a.own[g].assign(static_cast<std::size_t>(sizes[g]), 0.0);
    if (!a.shared) whole_[r.id].data.assign(static_cast<std::size_t>(tensors[r.id].elements()), 0.0);
  }
}

const SectorMatrices& Replicas::sectors(TileStore& store, const TermPlan& plan, double& fetched, double& in_place) {
  const Replicated r = replicated_of(plan);
  Arranged& a = arranged_.at(std::make_pair(r.id, r.perm));
  if (a.filled) return a.matrices;
  if (a.shared)
    arrange_shared(store, plan, a, fetched, in_place);
  else
    arrange_own(store, plan, a, fetched, in_place);
  a.filled = true;
  return a.matrices;
}

// Every sector by this rank, from T fetched whole once (the parts it cannot read in place).
void Replicas::arrange_own(TileStore& store, const TermPlan& plan, Arranged& a, double& fetched, double& in_place) {
  const Replicated r = replicated_of(plan);
  Whole& whole = whole_.at(r.id);
  // The parts this rank reads in place (its own; its node's ranks' where the store maps them),
  // ascending; the rest is fetched once into `whole`.
  const std::vector<TileStore::InPlace> parts = store.in_place(r.id);
  const auto n = static_cast<std::int64_t>(whole.data.size());
  if (!whole.fetched) {
    std::int64_t at = 0, read_in_place = 0;
    for (const TileStore::InPlace& part : parts) {
      if (part.first > at) store.get(r.id, at, part.first - at, whole.data.data() + at);
      at = part.first + static_cast<std::int64_t>(part.data.size());
      read_in_place += static_cast<std::int64_t>(part.data.size());
    }
    if (at < n) store.get(r.id, at, n - at, whole.data.data() + at);
    fetched += 8.0 * static_cast<double>(n - read_in_place);
    in_place += 8.0 * static_cast<double>(read_in_place);
    whole.fetched = true;
  }
  // Blocks never straddle a rank boundary (the splits are block-aligned).
  arrange(tensors_[r.id], r, [&](std::size_t g) { return a.own[g].data(); },
          [&](std::int64_t offset) -> const double* {
            const double* p = TileStore::find_in_place(parts, offset, 1);  // a block lies in one part or none
            return p ? p : whole.data.data() + offset;
          });
  store.release_in_place(r.id, /*updated=*/false);
  for (std::size_t g = 0; g < a.own.size(); ++g) a.matrices[g] = a.own[g].data();
}

// The sectors this rank holds in its node's copy, then (after a sync) every sector in place.
void Replicas::arrange_shared(TileStore& store, const TermPlan& plan, Arranged& a, double& fetched, double& in_place) {
  const Replicated r = replicated_of(plan);
  const TiledTensor& tensor = tensors_[r.id];
  NodeCopy& copy = *a.shared;
  const std::vector<TileStore::InPlace> parts = store.in_place(r.id);
  // The blocks of this rank's sectors that it cannot read in place: fetched first, all in
  // flight at once (slot 0: the term's pipeline has not started).
  std::map<std::int64_t, std::int64_t> fetched_at;  // storage offset -> position in `blocks`
  std::vector<double> blocks;
  struct Pending {
    std::int64_t offset, at, n;
  };
  std::vector<Pending> pending;
  for_each_block(tensor, r, [&](std::size_t g) { return copy.fills(g); },
                 [&](std::size_t, std::int64_t offset, const Extents& e, std::int64_t) {
                   const std::int64_t n = e[0] * e[1] * e[2] * e[3];
                   if (TileStore::find_in_place(parts, offset, n)) {
                     in_place += 8.0 * static_cast<double>(n);
                     return;
                   }
                   const auto at = static_cast<std::int64_t>(blocks.size());
                   fetched_at[offset] = at;
                   pending.push_back({offset, at, n});
                   blocks.resize(blocks.size() + static_cast<std::size_t>(n));
                   fetched += 8.0 * static_cast<double>(n);
                 });
  for (const Pending& p : pending) store.get_nb(0, r.id, p.offset, p.n, blocks.data() + p.at);  // sized: stays put
  store.wait(0);
  arrange(tensor, r, [&](std::size_t g) { return copy.fills(g) ? copy.at(g) : nullptr; },
          [&](std::int64_t offset) -> const double* {
            const double* p = TileStore::find_in_place(parts, offset, 1);
            return p ? p : blocks.data() + fetched_at.at(offset);
          });
  store.release_in_place(r.id, /*updated=*/false);
  store.sync();  // every rank of the node arranged its sectors
  for (std::size_t g = 0; g < a.matrices.size(); ++g) {
    if (!copy.at(g)) copy.fetch(g, a.own[g].data());
    a.matrices[g] = copy.at(g) ? copy.at(g) : a.own[g].data();
  }
}

}  // namespace armada::apps::ccsd
