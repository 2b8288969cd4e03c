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
  return l;
}

std::vector<Task> build_tasks(const Tensors& tensors, Term term) {
  const TermSpec& spec = spec_of(term);
  const TiledTensor &A = tensors[spec.a], &B = tensors[spec.b], &R = tensors[TensorId::R];
  const std::string_view a_idx = spec.a_indices, b_idx = spec.b_indices, con = spec.contracted;
  // R[a,b,i,j]: space 0 is the virtual space, space 2 the occupied one.
  const int n0 = static_cast<int>((occupied(con[0]) ? R.space(2) : R.space(0)).tiles.size());
  const int n1 = static_cast<int>((occupied(con[1]) ? R.space(2) : R.space(0)).tiles.size());
  std::vector<Task> tasks;
  for (const Block& out : R.blocks()) {
    // Tile number of each letter: output letters from the R block, contracted ones looped.
    int tile_of[26] = {};
    for (std::size_t d = 0; d < 4; ++d) tile_of[output_indices[d] - 'a'] = out.tiles[d];
    for (int x = 0; x < n0; ++x)
      for (int y = 0; y < n1; ++y) {
        tile_of[con[0] - 'a'] = x;
        tile_of[con[1] - 'a'] = y;
        TileTuple ta{}, tb{};
        for (std::size_t d = 0; d < 4; ++d) ta[d] = tile_of[a_idx[d] - 'a'], tb[d] = tile_of[b_idx[d] - 'a'];
        const std::int64_t ao = A.offset(ta), bo = B.offset(tb);
        if (ao < 0 || bo < 0) continue;
        Task t;
        t.a_offset = ao;
        t.b_offset = bo;
        t.r_offset = out.offset;
        t.a_ext = A.extents(ta);
        t.b_ext = B.extents(tb);
        t.k = 1;
        for (std::size_t d = 0; d < 4; ++d)
          if (con.find(a_idx[d]) != std::string_view::npos) t.k *= t.a_ext[d];
        t.m = t.a_ext[0] * t.a_ext[1] * t.a_ext[2] * t.a_ext[3] / t.k;
        t.n = t.b_ext[0] * t.b_ext[1] * t.b_ext[2] * t.b_ext[3] / t.k;
        tasks.push_back(t);
      }
  }
  std::stable_sort(tasks.begin(), tasks.end(), [](const Task& x, const Task& y) { return x.flops() > y.flops(); });
  return tasks;
}

}  // namespace armada::apps::ccsd
