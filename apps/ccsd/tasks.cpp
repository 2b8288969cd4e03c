#include "tasks.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace armada::apps::ccsd {

namespace {

constexpr std::string_view output_indices = "abij";

Perm perm_to(std::string_view from, std::string_view to) {
  Perm p{};
  for (std::size_t d = 0; d < 4; ++d) p[d] = static_cast<int>(from.find(to[d]));
  return p;
}

bool identity(const Perm& p) { return p == Perm{0, 1, 2, 3}; }

/// The letters of `indices` not in `contracted`, in R's order.
std::string free_letters(std::string_view indices, std::string_view contracted) {
  std::string f;
  for (char c : output_indices)
    if (indices.find(c) != std::string_view::npos && contracted.find(c) == std::string_view::npos) f += c;
  return f;
}

bool occupied(char letter) { return letter >= 'i'; }

}  // namespace

TermLayout layout_of(const TermSpec& spec) {
  const std::string a_free = free_letters(spec.a_indices, spec.contracted);
  const std::string b_free = free_letters(spec.b_indices, spec.contracted);
  TermLayout l;
  l.a_perm = perm_to(spec.a_indices, a_free + spec.contracted);
  l.b_perm = perm_to(spec.b_indices, std::string(spec.contracted) + b_free);
  l.out_perm = perm_to(a_free + b_free, output_indices);
  l.a_identity = identity(l.a_perm);
  l.b_identity = identity(l.b_perm);
  l.out_identity = identity(l.out_perm);
  l.a_free[0] = a_free[0], l.a_free[1] = a_free[1];
  l.b_free[0] = b_free[0], l.b_free[1] = b_free[1];
  return l;
}

PairSpace make_pair_space(const OrbitalSpace& x, const OrbitalSpace& y, int irrep) {
  PairSpace s;
  for (std::size_t tx = 0; tx < x.tiles.size(); ++tx)
    for (std::size_t ty = 0; ty < y.tiles.size(); ++ty) {
      if ((x.tiles[tx].irrep ^ y.tiles[ty].irrep) != irrep) continue;
      const std::int64_t size = x.tiles[tx].size * y.tiles[ty].size;
      s.pairs.push_back({static_cast<int>(tx), static_cast<int>(ty), s.extent, size});
      s.extent += size;
    }
  return s;
}

GemmShape TermPlan::gemm_of(const Task& t, const Chunk& c) const {
  // A streamed: the chunk's block is the m x k matrix itself. B streamed: A is the replicated
  // sector matrix, k columns of its K_g.
  return GemmShape{t.m, t.n, c.k, a_streamed() ? c.k : t.k, t.n, t.n};
}

namespace {

/// The chunks of a task whose streamed blocks are `pair_size` x (contraction pair size).
std::vector<Chunk> chunks_of(const PairSpace& k_pairs, std::int64_t pair_size, bool one_block_each) {
  std::vector<Chunk> chunks;
  for (int c = 0; c < static_cast<int>(k_pairs.pairs.size()); ++c) {
    const PairSpace::Pair& kp = k_pairs.pairs[static_cast<std::size_t>(c)];
    const bool extend = !chunks.empty() && !one_block_each &&
                        (chunks.back().k + kp.size) * pair_size <= chunk_elements;
    if (!extend) chunks.push_back(Chunk{c, c, kp.offset, 0});
    chunks.back().last = c + 1;
    chunks.back().k += kp.size;
  }
  return chunks;
}

}  // namespace

TermPlan plan_term(const Tensors& tensors, Term term) {
  TermPlan plan;
  plan.term = term;
  plan.layout = layout_of(spec_of(term));
  const TiledTensor& R = tensors[TensorId::R];
  // R[a,b,i,j]: space 0 is the virtual space, space 2 the occupied one.
  auto space_of = [&](char letter) -> const OrbitalSpace& { return occupied(letter) ? R.space(2) : R.space(0); };
  auto pair_space = [&](const char* letters, int g) { return make_pair_space(space_of(letters[0]), space_of(letters[1]), g); };
  const int sectors = static_cast<int>(R.space(0).per_irrep.size());
  for (int g = 0; g < sectors; ++g) {
    plan.P.push_back(pair_space(plan.layout.a_free, g));
    plan.K.push_back(pair_space(plan.spec().contracted, g));
    plan.Q.push_back(pair_space(plan.layout.b_free, g));
  }
  const bool a_streamed = plan.a_streamed();
  for (int g = 0; g < sectors; ++g) {
    const auto s = static_cast<std::size_t>(g);
    const PairSpace &P = plan.P[s], &K = plan.K[s], &Q = plan.Q[s];
    if (P.extent == 0 || K.extent == 0 || Q.extent == 0) continue;  // a zero product: no task
    const PairSpace& own = a_streamed ? P : Q;
    for (int p = 0; p < static_cast<int>(own.pairs.size()); ++p) {
      const std::int64_t size = own.pairs[static_cast<std::size_t>(p)].size;
      Task t;
      t.sector = g;
      t.pair = p;
      t.m = a_streamed ? size : P.extent;
      t.n = a_streamed ? Q.extent : size;
      t.k = K.extent;
      t.chunks = chunks_of(K, size, a_streamed);
      plan.tasks.push_back(std::move(t));
    }
  }
  std::stable_sort(plan.tasks.begin(), plan.tasks.end(), [](const Task& x, const Task& y) { return x.flops() > y.flops(); });
  // Equal tasks of all sectors tie, so runs of one sector stay together (construction order).
  const int longest = a_streamed ? a_streamed_batch : 1, count = static_cast<int>(plan.tasks.size());
  auto sector_of = [&](int i) { return plan.tasks[static_cast<std::size_t>(i)].sector; };
  for (int first = 0; first < count;) {
    int last = first + 1;
    while (last < count && last - first < longest && sector_of(last) == sector_of(first)) ++last;
    plan.batches.push_back(Batch{first, last});
    first = last;
  }
  return plan;
}

}  // namespace armada::apps::ccsd
