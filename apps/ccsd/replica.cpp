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

SectorMatrices arrange(const TiledTensor& tensor, const std::vector<double>& whole, const Replicated& r) {
  SectorMatrices m(r.rows->size());
  for (std::size_t g = 0; g < m.size(); ++g) {
    const PairSpace &rows = (*r.rows)[g], &cols = (*r.cols)[g];
    m[g].assign(static_cast<std::size_t>(rows.extent * cols.extent), 0.0);
    LetterTiles lt;
    for (const PairSpace::Pair& row : rows.pairs)
      for (const PairSpace::Pair& col : cols.pairs) {
        lt.set(r.row_letters, row);
        lt.set(r.col_letters, col);
        const TileTuple t = lt.tuple(r.indices);
        const std::int64_t offset = tensor.offset(t);
        if (offset < 0) throw std::logic_error("armada-ccsd: a sector matrix needs a block that is zero by symmetry");
        block_to_matrix(whole.data() + offset, tensor.extents(t), r.perm, m[g].data() + row.offset * cols.extent + col.offset,
                        cols.extent);
      }
  }
  return m;
}

}  // namespace

const SectorMatrices& Replicas::sectors(TileStore& store, const Tensors& tensors, const TermPlan& plan, double& fetched) {
  const Replicated r = replicated_of(plan);
  const auto key = std::make_pair(r.id, r.perm);
  if (auto it = arranged_.find(key); it != arranged_.end()) return it->second;
  auto [whole, fresh] = whole_.try_emplace(r.id);
  if (fresh) {
    const std::int64_t n = tensors[r.id].elements();
    whole->second.resize(static_cast<std::size_t>(n));
    if (n > 0) store.get(r.id, 0, n, whole->second.data());
    fetched += 8.0 * static_cast<double>(n);
  }
  return arranged_[key] = arrange(tensors[r.id], whole->second, r);
}

}  // namespace armada::apps::ccsd
