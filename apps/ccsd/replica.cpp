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

/// Writes every block of the replicated operand into its sector matrix; block_at(offset) is
/// where the block stored at `offset` is.
template <class BlockAt>
void arrange(const TiledTensor& tensor, BlockAt&& block_at, const Replicated& r, SectorMatrices& m) {
  for (std::size_t g = 0; g < m.size(); ++g) {
    const PairSpace &rows = (*r.rows)[g], &cols = (*r.cols)[g];
    LetterTiles lt;
    for (const PairSpace::Pair& row : rows.pairs)
      for (const PairSpace::Pair& col : cols.pairs) {
        lt.set(r.row_letters, row);
        lt.set(r.col_letters, col);
        const TileTuple t = lt.tuple(r.indices);
        const std::int64_t offset = tensor.offset(t);
        if (offset < 0) throw std::logic_error("armada-ccsd: a sector matrix needs a block that is zero by symmetry");
        block_to_matrix(block_at(offset), tensor.extents(t), r.perm, m[g].data() + row.offset * cols.extent + col.offset,
                        cols.extent);
      }
  }
}

}  // namespace

Replicas::Replicas(const Tensors& tensors, const TermPlans& plans) : tensors_(tensors) {
  for (const TermPlan& plan : plans) {
    const Replicated r = replicated_of(plan);
    whole_[r.id].data.assign(static_cast<std::size_t>(tensors[r.id].elements()), 0.0);
    Arranged& a = arranged_[std::make_pair(r.id, r.perm)];
    a.matrices.resize(r.rows->size());
    for (std::size_t g = 0; g < a.matrices.size(); ++g)
      a.matrices[g].assign(static_cast<std::size_t>((*r.rows)[g].extent * (*r.cols)[g].extent), 0.0);
  }
}

const SectorMatrices& Replicas::sectors(TileStore& store, const TermPlan& plan, double& fetched, double& in_place) {
  const Replicated r = replicated_of(plan);
  Arranged& a = arranged_.at(std::make_pair(r.id, r.perm));
  if (a.filled) return a.matrices;
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
  arrange(tensors_[r.id],
          [&](std::int64_t offset) -> const double* {
            const double* p = TileStore::find_in_place(parts, offset, 1);  // a block lies in one part or none
            return p ? p : whole.data.data() + offset;
          },
          r, a.matrices);
  store.release_in_place(r.id);
  a.filled = true;
  return a.matrices;
}

}  // namespace armada::apps::ccsd
